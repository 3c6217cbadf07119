# The compiled core's page type signals (page_type.py), included in webclean/_core.pyx:
# the same module, its cimports and helpers (_is_element) in scope.


# --- repeated items (page_type._item_signals) ------------------------------------------


def item_runs(list owners, list lengths, Py_ssize_t levels, Py_ssize_t run_items):
    """page_type._item_signals's runs of the lines of ``owners`` (their elements) and
    ``lengths``: (runs, the items of the largest, the characters of the largest by
    text), each element's box found as a pointer, its key by its tag and class."""
    cdef dict found = {}
    cdef dict keys = {}
    cdef _Element owner
    cdef xmlNode* item
    cdef xmlNode* box
    cdef Py_ssize_t i, level, n = len(owners)
    cdef size_t at
    cdef list entry
    for i in range(n):
        owner = owners[i]
        item = owner._c_node
        length = lengths[i]
        for level in range(levels):
            box = item.parent
            if box is NULL or not _is_element(box):
                break
            at = <size_t> item
            key = keys.get(at)
            if key is None:
                key = keys[at] = (<size_t> box, namespacedName(item), attributeValueFromNsName(item, NULL, <const_xmlChar*> b"class") or "")
            entry = found.get(key)
            if entry is None:
                found[key] = [1, at, length]
            else:
                if entry[1] != at:
                    entry[0] += 1
                    entry[1] = at
                entry[2] += length
            item = box
    runs = largest = covered = 0
    for entry in found.values():
        if entry[0] >= run_items:
            runs += 1
            largest = max(largest, entry[0])
            covered = max(covered, entry[2])
    return runs, largest, covered


# --- the page's elements (page_type.element_census) ------------------------------------


cdef enum:
    _NAME_SLOTS = 512  # a page's distinct tag names, each found once by its pointer


def census(_Element root not None, tuple tags, bytes attribute not None):
    """page_type.element_census over libxml2's nodes: how many elements of each of
    ``tags`` the tree of ``root`` holds (root included), and the values of
    ``attribute`` on its elements, in document order. libxml2 keeps one copy of each
    tag name of a parsed page, so a name's place in ``tags`` is looked up by its
    pointer once, and compared by its characters only on a miss."""
    cdef list encoded = [tag.encode("utf-8") for tag in tags]
    cdef Py_ssize_t n = len(encoded), i, slot, filled = 0
    cdef list counts = [0] * n
    cdef list values = []
    cdef const_xmlChar* names[_NAME_SLOTS]
    cdef Py_ssize_t places[_NAME_SLOTS]
    cdef const_xmlChar* name
    cdef const_xmlChar* wanted = <const_xmlChar*> attribute
    cdef xmlNode* top = root._c_node
    cdef xmlNode* node = top
    for slot in range(_NAME_SLOTS):
        names[slot] = NULL
    while node is not NULL:
        if node.type == tree.XML_ELEMENT_NODE:
            name = node.name
            slot = (<size_t> name >> 4) % _NAME_SLOTS
            while names[slot] is not NULL and names[slot] != name:
                slot = (slot + 1) % _NAME_SLOTS
            if names[slot] is NULL:
                i = _place(name, encoded, n)
                if filled < _NAME_SLOTS // 2:  # half full at most: a probe always ends
                    names[slot] = name
                    places[slot] = i
                    filled += 1
            else:
                i = places[slot]
            if i >= 0:
                counts[i] += 1
            value = attributeValueFromNsName(node, NULL, wanted)
            if value is not None:
                values.append(value)
            if node.children is not NULL:
                node = node.children
                continue
        while node is not top and node.next is NULL:
            node = node.parent
        if node is top:
            break
        node = node.next
    return counts, values


cdef Py_ssize_t _place(const_xmlChar* name, list encoded, Py_ssize_t n):
    cdef Py_ssize_t i
    for i in range(n):
        if strcmp(<const char*> name, <const char*> <bytes> encoded[i]) == 0:
            return i
    return -1
