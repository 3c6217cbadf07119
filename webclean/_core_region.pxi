# Step 1's count on the lines (region.counted_text), included in webclean/_core.pyx: the
# same module, its cimports in scope. Elements are libxml2's nodes, looked up in an
# open-addressing table by address; Python elements are made for the counted ones only.

from cpython.float cimport PyFloat_AS_DOUBLE


cdef struct _NodeTable:
    # node -> slot of a node in the table's arrays, by address; the arrays keep the
    # order in which nodes were first met, as a dict keeps its keys.
    xmlNode** keys
    Py_ssize_t* places
    Py_ssize_t capacity  # a power of two, at most half full
    xmlNode** nodes
    long long* sums
    Py_ssize_t count, room


cdef void _table_free(_NodeTable* table) noexcept:
    free(table.keys)
    free(table.places)
    free(table.nodes)
    free(table.sums)


cdef inline size_t _node_hash(xmlNode* node) noexcept nogil:
    cdef size_t h = <size_t> node
    return (h >> 4) ^ (h >> 13)


cdef int _table_grow(_NodeTable* table) except -1:
    """Doubles the table's index (rehashing its nodes) and its arrays."""
    cdef Py_ssize_t capacity = table.capacity * 2 if table.capacity else 64, i
    cdef size_t slot
    cdef xmlNode** nodes
    cdef long long* sums
    cdef xmlNode** keys = <xmlNode**> realloc(NULL, capacity * sizeof(xmlNode*))
    cdef Py_ssize_t* places = <Py_ssize_t*> realloc(NULL, capacity * sizeof(Py_ssize_t))
    if keys is NULL or places is NULL:
        free(keys)
        free(places)
        raise MemoryError()
    for i in range(capacity):
        keys[i] = NULL
    for i in range(table.count):
        slot = _node_hash(table.nodes[i]) & (capacity - 1)
        while keys[slot] is not NULL:
            slot = (slot + 1) & (capacity - 1)
        keys[slot] = table.nodes[i]
        places[slot] = i
    free(table.keys)
    free(table.places)
    table.keys, table.places, table.capacity = keys, places, capacity
    nodes = <xmlNode**> realloc(table.nodes, (capacity // 2) * sizeof(xmlNode*))
    if nodes is NULL:
        raise MemoryError()
    table.nodes = nodes
    sums = <long long*> realloc(table.sums, (capacity // 2) * sizeof(long long))
    if sums is NULL:
        raise MemoryError()
    table.sums = sums
    table.room = capacity // 2
    return 0


cdef Py_ssize_t _table_place(_NodeTable* table, xmlNode* node, bint add) except -2:
    """The place of ``node`` in the table's arrays; -1 where it is not there and ``add``
    is false, else added (its sum 0)."""
    cdef size_t slot
    if table.capacity:
        slot = _node_hash(node) & (table.capacity - 1)
        while table.keys[slot] is not NULL:
            if table.keys[slot] == node:
                return table.places[slot]
            slot = (slot + 1) & (table.capacity - 1)
    if not add:
        return -1
    if table.count + 1 > table.room:
        _table_grow(table)
    slot = _node_hash(node) & (table.capacity - 1)
    while table.keys[slot] is not NULL:
        slot = (slot + 1) & (table.capacity - 1)
    table.keys[slot] = node
    table.places[slot] = table.count
    table.nodes[table.count] = node
    table.sums[table.count] = 0
    table.count += 1
    return table.count - 1


cdef int _in_tags(xmlNode* node, tags, const_xmlChar** names, char* found) except -1:
    """Whether the element's tag is in ``tags`` (1 or 0), remembered by its name's
    address in ``names``/``found`` (64 slots) for a name outside a namespace."""
    cdef size_t slot = 0
    cdef int tries = 0
    if node.ns is NULL:
        slot = (<size_t> node.name >> 3) & 63
        while names[slot] is not NULL and tries < 64:
            if names[slot] == node.name:
                return found[slot]
            slot = (slot + 1) & 63
            tries += 1
    result = 1 if namespacedName(node) in tags else 0
    if node.ns is NULL and names[slot] is NULL:
        names[slot] = node.name
        found[slot] = result
    return result


def counted_text(list lines not None, tuple at not None, theta, tags):
    """region.counted_text: the block with the most counted text and each element's
    counted text, ``(best, total)``, or ``(None, {})`` where no line counts. ``at``: the
    places of the owner, the link ratio and the length in a line. None where a line is
    not as it reads it (a tuple with an element, a float and an int), θ is no float, or
    an owner or its ancestors are not all elements of one document (Python reads them)."""
    cdef _NodeTable nearest, direct, total
    cdef const_xmlChar* names[64]
    cdef char found[64]
    cdef Py_ssize_t owner_at, ratio_at, length_at, needed, i, k, place, best
    cdef double limit
    cdef long long length
    cdef xmlNode* node
    cdef xmlNode* block
    cdef _Document doc = None
    cdef tuple line
    owner_at, ratio_at, length_at = at
    needed = max(owner_at, ratio_at, length_at)
    if type(theta) is not float or min(owner_at, ratio_at, length_at) < 0:
        return None
    limit = PyFloat_AS_DOUBLE(theta)
    for i in range(64):
        names[i] = NULL
    nearest = _NodeTable(NULL, NULL, 0, NULL, NULL, 0, 0)
    direct = _NodeTable(NULL, NULL, 0, NULL, NULL, 0, 0)
    total = _NodeTable(NULL, NULL, 0, NULL, NULL, 0, 0)
    try:
        for item in lines:
            if not isinstance(item, tuple) or len(<tuple> item) <= needed:
                return None
            line = <tuple> item
            ratio, owner, size = line[ratio_at], line[owner_at], line[length_at]
            if type(ratio) is not float or not isinstance(owner, _Element) or type(size) is not int:
                return None
            if PyFloat_AS_DOUBLE(ratio) > limit:
                continue
            if not 0 <= size < (1 << 50):
                return None
            if doc is None:
                doc = (<_Element> owner)._doc
            elif (<_Element> owner)._doc is not doc:
                return None
            node = (<_Element> owner)._c_node
            if node.type != tree.XML_ELEMENT_NODE:
                return None
            # its nearest block: the owner, or its nearest ancestor of a block's tag
            place = _table_place(&nearest, node, False)
            if place >= 0:
                block = <xmlNode*> <size_t> nearest.sums[place]
            else:
                block = node
                while block is not NULL and not _in_tags(block, tags, names, found):
                    block = block.parent
                    if block is not NULL and not _is_element(block):
                        block = NULL
                    elif block is not NULL and block.type != tree.XML_ELEMENT_NODE:
                        return None
                place = _table_place(&nearest, node, True)
                nearest.sums[place] = <long long> <size_t> block
            if block is NULL:
                continue
            length = size
            direct.sums[_table_place(&direct, block, True)] += length
        if not direct.count:
            return None, {}
        best = 0
        for i in range(1, direct.count):
            if direct.sums[i] > direct.sums[best]:
                best = i
        # each block's counted text, then what is counted below each of its ancestors
        for i in range(direct.count):
            total.sums[_table_place(&total, direct.nodes[i], True)] = direct.sums[i]
        for i in range(direct.count):
            node = direct.nodes[i].parent
            while node is not NULL and _is_element(node):
                if node.type != tree.XML_ELEMENT_NODE:
                    return None
                total.sums[_table_place(&total, node, True)] += direct.sums[i]
                node = node.parent
        counts = {}
        for k in range(total.count):
            counts[elementFactory(doc, total.nodes[k])] = total.sums[k]
        return elementFactory(doc, direct.nodes[best]), counts
    finally:
        _table_free(&nearest)
        _table_free(&direct)
        _table_free(&total)


cdef inline bint _one_of(Py_UCS4 ch, str chars) noexcept:
    cdef Py_UCS4 c
    for c in chars:
        if c == ch:
            return True
    return False


def related_names(lines not None, tuple at not None, name_chars, names, str lead not None, str trail not None):
    """segment.related_names: the places of the lines after the first of at most
    ``name_chars`` characters that say only that a box of other stories follows
    (segment.names_related_box, its ``names``, and the marks ``lead`` and ``trail`` that
    its name may open and end with as a letter does). ``at``: the places of the text and
    the length in a line. None where a line is not a tuple with a str and an int."""
    cdef Py_ssize_t text_at, length_at, needed, i, start, end
    cdef long long most
    cdef str lowered
    cdef tuple line
    text_at, length_at = at
    needed = max(text_at, length_at)
    if type(name_chars) is not int or min(text_at, length_at) < 0 or not -(1 << 62) < name_chars < (1 << 62):
        return None
    most = name_chars
    found = []
    for i in range(1, len(lines)):
        item = lines[i]
        if not isinstance(item, tuple) or len(<tuple> item) <= needed:
            return None
        line = <tuple> item
        text, length = line[text_at], line[length_at]
        if type(text) is not str or type(length) is not int:
            return None
        if length > most:
            continue
        lowered = (<str> text).lower()
        start, end = 0, len(lowered)
        while start < end and not (_alnum(lowered[start]) or _one_of(lowered[start], lead)):
            start += 1
        while end > start and not (_alnum(lowered[end - 1]) or _one_of(lowered[end - 1], trail)):
            end -= 1
        if " ".join(lowered[start:end].split()) in names:
            found.append(i)
    return found


def lines_inside(lines not None, Py_ssize_t owner_at, _Element element not None):
    """region.lines_inside: the places of the lines whose owner is ``element`` or lies
    inside it, read up the owners' parents. None where a line is no tuple with an
    element, or an owner's way up passes a node that is no element (Python's walk of
    ``element`` reads those)."""
    cdef xmlNode* target = element._c_node
    cdef xmlNode* node
    cdef Py_ssize_t i
    found = []
    if owner_at < 0:
        return None
    for i in range(len(lines)):
        item = lines[i]
        if not isinstance(item, tuple) or len(<tuple> item) <= owner_at:
            return None
        owner = (<tuple> item)[owner_at]
        if not isinstance(owner, _Element):
            return None
        node = (<_Element> owner)._c_node
        while node is not NULL and node.type == tree.XML_ELEMENT_NODE and node != target:
            node = node.parent
        if node == target:
            found.append(i)
        elif node is not NULL and node.type != tree.XML_DOCUMENT_NODE and node.type != tree.XML_HTML_DOCUMENT_NODE:
            return None
    return found


def aside_furniture(lines not None, tuple at not None, furniture not None):
    """segment.aside_furniture's walk of the lines: each line whose ``beside`` element
    is furniture (``furniture`` of it, asked once an element) and that is not marked
    yet, marked (its ``_replace(furniture=True)``); the others as they are. ``at``: the
    places of beside and furniture in a line. None where a line is no tuple of them."""
    cdef Py_ssize_t beside_at, furniture_at, needed
    cdef tuple fields
    beside_at, furniture_at = at
    needed = max(beside_at, furniture_at)
    if min(beside_at, furniture_at) < 0:
        return None
    aside = {}
    marked = []
    for line in lines:
        if not isinstance(line, tuple) or len(<tuple> line) <= needed:
            return None
        fields = <tuple> line
        el = fields[beside_at]
        if el is not None and not fields[furniture_at]:
            if el not in aside:
                aside[el] = furniture(el)
            if aside[el]:
                line = line._replace(furniture=True)
        marked.append(line)
    return marked
