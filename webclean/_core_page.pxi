# The compiled core's page type signals (page_type.py), included in webclean/_core.pyx:
# the same module, its cimports and helpers (_is_element) in scope. It includes the sums
# over a page's lines and units (_core_sums.pxi) and the walk of boosted trees
# (_core_trees.pxi), which the page type and the confidence read.

from libc.stdlib cimport calloc, malloc
from libc.string cimport memchr, memcmp, memset


# --- repeated items (page_type.item_runs) ----------------------------------------------


cdef struct _Key:
    # A key of candidate items (a box, and the tag and class of an item in it) and
    # page_type._item_signals's entry for it.
    xmlNode* box
    const_xmlChar* name
    const_xmlChar* href  # the tag's namespace, or NULL
    const_xmlChar* klass  # the class attribute's text, or NULL for none
    unsigned long long hash
    long long items
    xmlNode* last  # the last item counted
    long long chars


cdef struct _Seen:
    # An element met as a candidate item, and its key (-1: it has no box).
    xmlNode* node
    Py_ssize_t key


cdef struct _Runs:
    _Key* keys
    Py_ssize_t n_keys, keys_capacity
    Py_ssize_t* key_slots  # index into keys + 1; 0 for an empty slot
    size_t key_mask
    _Seen* seen
    Py_ssize_t n_seen, seen_capacity
    Py_ssize_t* seen_slots
    size_t seen_mask
    bint odd  # a class attribute that _class_of leaves to Python


cdef inline unsigned long long _mix(unsigned long long h) noexcept nogil:
    h ^= h >> 33
    h *= 0xFF51AFD7ED558CCDULL
    h ^= h >> 33
    return h


cdef inline unsigned long long _text_hash(const_xmlChar* text, unsigned long long h) noexcept nogil:
    # FNV-1a over the first bytes of a name or a class (a long class is rarely told
    # from another by its end alone; keys compare in full)
    cdef int i
    if text is NULL:
        return h
    for i in range(24):
        if not text[i]:
            break
        h = (h ^ text[i]) * 0x100000001B3ULL
    return h


cdef inline bint _same_text(const_xmlChar* a, const_xmlChar* b) noexcept nogil:
    # A class attribute that is absent is the empty class (item.get("class") or "").
    if a == b:
        return True
    if a is NULL:
        return b[0] == 0
    if b is NULL:
        return a[0] == 0
    return strcmp(<const char*> a, <const char*> b) == 0


cdef int _grow_slots(Py_ssize_t** slots, size_t* mask, Py_ssize_t used) except -1:
    """Make the table of ``slots`` (``mask`` + 1 of them, ``used`` taken) twice as large
    when half full, empty: the caller puts its entries back."""
    cdef size_t size = mask[0] + 1 if slots[0] is not NULL else 0
    cdef Py_ssize_t* grown
    if slots[0] is not NULL and 2 * <size_t> (used + 1) <= size:
        return 0
    size = max(<size_t> 64, 2 * size)
    grown = <Py_ssize_t*> calloc(size, sizeof(Py_ssize_t))
    if grown is NULL:
        raise MemoryError()
    free(slots[0])
    slots[0] = grown
    mask[0] = size - 1
    return 1


cdef bint _has_attribute_defaults(tree.xmlDtd* dtd) noexcept nogil:
    return dtd is not NULL and dtd.attributes is not NULL


cdef const_xmlChar* _class_of(xmlNode* item, bint* odd) noexcept:
    """The text of ``item``'s class attribute (in no namespace), as lxml's get("class")
    reads it: NULL where it has none, "" where it is empty. ``odd`` is set where the
    value is not one text node, or where the document's DTD may declare a default."""
    cdef tree.xmlAttr* attribute = item.properties
    cdef xmlNode* text
    while attribute is not NULL:
        if attribute.ns is NULL and strcmp(<const char*> attribute.name, "class") == 0:
            text = attribute.children
            if text is NULL:
                return <const_xmlChar*> ""
            if text.next is NULL and _is_text(text):
                return <const_xmlChar*> text.content
            odd[0] = True
            return NULL
        attribute = attribute.next
    if item.doc is not NULL and (_has_attribute_defaults(item.doc.intSubset) or _has_attribute_defaults(item.doc.extSubset)):
        odd[0] = True
    return NULL


cdef Py_ssize_t _key_of(_Runs* runs, xmlNode* item, xmlNode* box) except -2:
    """The index of the key of ``item`` in ``box``, added where new."""
    cdef const_xmlChar* href = item.ns.href if item.ns is not NULL else NULL
    cdef const_xmlChar* klass = _class_of(item, &runs.odd)
    cdef unsigned long long h = _mix(<size_t> box)
    cdef size_t slot
    cdef Py_ssize_t i
    cdef _Key* key
    cdef _Key* grown
    h = _text_hash(item.name, h * 31 + 1)
    h = _text_hash(href, h * 31 + 2)
    h = _text_hash(klass if klass is not NULL and klass[0] else NULL, h * 31 + 3)
    slot = h & runs.key_mask
    while runs.key_slots[slot]:
        key = &runs.keys[runs.key_slots[slot] - 1]
        if (key.hash == h and key.box == box and _same_text(key.name, item.name) and _same_text(key.href, href)
                and (key.href is NULL) == (href is NULL) and _same_text(key.klass, klass)):
            return runs.key_slots[slot] - 1
        slot = (slot + 1) & runs.key_mask
    if runs.n_keys == runs.keys_capacity:
        runs.keys_capacity = max(64, 2 * runs.keys_capacity)
        grown = <_Key*> realloc(runs.keys, runs.keys_capacity * sizeof(_Key))
        if grown is NULL:
            raise MemoryError()
        runs.keys = grown
    i = runs.n_keys
    runs.n_keys += 1
    key = &runs.keys[i]
    key.box, key.name, key.href, key.klass, key.hash = box, item.name, href, klass, h
    key.items, key.last, key.chars = 0, NULL, 0
    if _grow_slots(&runs.key_slots, &runs.key_mask, runs.n_keys):
        for i in range(runs.n_keys):
            slot = runs.keys[i].hash & runs.key_mask
            while runs.key_slots[slot]:
                slot = (slot + 1) & runs.key_mask
            runs.key_slots[slot] = i + 1
    else:
        runs.key_slots[slot] = i + 1
    return i


cdef Py_ssize_t _seen_key(_Runs* runs, xmlNode* item) except -2:
    """The index of the key of ``item`` (found once an element), or -1 where it has no box."""
    cdef size_t slot = _mix(<size_t> item) & runs.seen_mask
    cdef xmlNode* box
    cdef Py_ssize_t i, key
    cdef _Seen* grown
    while runs.seen_slots[slot]:
        if runs.seen[runs.seen_slots[slot] - 1].node == item:
            return runs.seen[runs.seen_slots[slot] - 1].key
        slot = (slot + 1) & runs.seen_mask
    box = item.parent
    key = -1 if box is NULL or not _is_element(box) else _key_of(runs, item, box)
    if runs.n_seen == runs.seen_capacity:
        runs.seen_capacity = max(64, 2 * runs.seen_capacity)
        grown = <_Seen*> realloc(runs.seen, runs.seen_capacity * sizeof(_Seen))
        if grown is NULL:
            raise MemoryError()
        runs.seen = grown
    i = runs.n_seen
    runs.n_seen += 1
    runs.seen[i].node = item
    runs.seen[i].key = key
    if _grow_slots(&runs.seen_slots, &runs.seen_mask, runs.n_seen):
        for i in range(runs.n_seen):
            slot = _mix(<size_t> runs.seen[i].node) & runs.seen_mask
            while runs.seen_slots[slot]:
                slot = (slot + 1) & runs.seen_mask
            runs.seen_slots[slot] = i + 1
    else:
        runs.seen_slots[slot] = i + 1
    return key


def item_runs(list lines, Py_ssize_t owner_at, Py_ssize_t length_at, Py_ssize_t levels, Py_ssize_t run_items):
    """page_type.item_runs over ``lines`` (segment.Line tuples; ``owner_at``, ``length_at``:
    the places of owner and length in them): (runs, the items of the largest, the
    characters of the largest by text). Each element's box and key are found once, in
    tables of pointers; keys compare by their box, and by the characters of their tag,
    namespace and class. None where a class attribute is not plain text (_class_of)."""
    cdef _Runs runs
    cdef Py_ssize_t i, level, k, n = len(lines)
    cdef long long length, found = 0, largest = 0, covered = 0
    cdef _Element owner
    cdef xmlNode* item
    cdef _Key* key
    memset(&runs, 0, sizeof(_Runs))
    try:
        _grow_slots(&runs.key_slots, &runs.key_mask, 0)
        _grow_slots(&runs.seen_slots, &runs.seen_mask, 0)
        for i in range(n):
            line = lines[i]
            if not isinstance(line, tuple):
                return None
            owner = (<tuple> line)[owner_at]
            length = (<tuple> line)[length_at]
            item = owner._c_node
            for level in range(levels):
                k = _seen_key(&runs, item)
                if runs.odd:
                    return None
                if k < 0:
                    break
                key = &runs.keys[k]
                if key.last != item:
                    key.items += 1
                    key.last = item
                key.chars += length
                item = key.box
        for k in range(runs.n_keys):
            key = &runs.keys[k]
            if key.items >= run_items:
                found += 1
                largest = max(largest, key.items)
                covered = max(covered, key.chars)
    finally:
        free(runs.keys)
        free(runs.key_slots)
        free(runs.seen)
        free(runs.seen_slots)
    return found, largest, covered


# --- the page's elements (page_type.element_census) ------------------------------------


cdef enum:
    _NAME_SLOTS = 512  # a page's distinct tag names, each found once by its pointer


cdef bint _may_name(xmlNode* node, tuple named, const unsigned char* key) noexcept:
    """Whether one of the attributes ``named`` of ``node`` may say ``key`` (lower case
    ASCII): holds it in any case, or is not one text node (page_type._may_name)."""
    cdef const unsigned char* value
    cdef const unsigned char* at
    cdef int found
    for name in named:
        found = _attribute_text(node, <const char*> <bytes> name, &value)
        if found < 0:
            return True
        if found:
            at = value
            while at[0]:
                if _word_at(at, key) is not NULL:
                    return True
                at += 1
    return False


cdef bint _may_name_given(xmlNode* node, tuple named, bytes key) except -1:
    """_may_name where the document's DTD may give attributes: their values as lxml's
    get reads them, defaults included, lower-cased as page_type._may_name lowers them."""
    for name in named:
        value = attributeValueFromNsName(node, NULL, <const_xmlChar*> <bytes> name)
        if value is not None and key.decode("ascii") in value.lower():
            return True
    return False


def census(_Element root not None, tuple tags, bytes attribute not None, bytes kept not None, tuple named not None,
           bytes key not None):
    """page_type.element_census over libxml2's nodes: how many elements of each of
    ``tags`` the tree of ``root`` holds (root included), the values of ``attribute`` on
    its elements, and its elements of tag ``kept`` (without a namespace, as lxml's
    iter(kept) finds them) one of whose attributes ``named`` may say ``key``
    (_may_name; _may_name_given where the DTD may give attributes), in document order. libxml2 keeps one copy of each tag name
    of a parsed page, so a name's place in ``tags`` is looked up by its pointer once,
    and compared by its characters only on a miss. ``attribute`` is read through lxml
    only on the elements that have it, or on every element where the document's DTD
    may give it a default."""
    cdef list encoded = [tag.encode("utf-8") for tag in tags]
    cdef Py_ssize_t n = len(encoded), i, slot, filled = 0
    cdef long long* counts = <long long*> calloc(max(n, 1), sizeof(long long))
    cdef list values = []
    cdef list elements = []
    cdef const_xmlChar* keep = <const_xmlChar*> kept
    cdef const_xmlChar* names[_NAME_SLOTS]
    cdef Py_ssize_t places[_NAME_SLOTS]
    cdef bint keeps[_NAME_SLOTS]
    cdef bint keep_it
    cdef const_xmlChar* name
    cdef const_xmlChar* wanted = <const_xmlChar*> attribute
    cdef xmlNode* top = root._c_node
    cdef xmlNode* node = top
    cdef tree.xmlDoc* doc = top.doc
    cdef bint defaults = doc is not NULL and (_has_attribute_defaults(doc.intSubset) or _has_attribute_defaults(doc.extSubset))
    if counts is NULL:
        raise MemoryError()
    for slot in range(_NAME_SLOTS):
        names[slot] = NULL
    try:
        while node is not NULL:
            if node.type == tree.XML_ELEMENT_NODE:
                name = node.name
                slot = (<size_t> name >> 4) % _NAME_SLOTS
                while names[slot] is not NULL and names[slot] != name:
                    slot = (slot + 1) % _NAME_SLOTS
                if names[slot] is NULL:
                    i = _place(name, encoded, n)
                    keep_it = strcmp(<const char*> name, <const char*> keep) == 0
                    if filled < _NAME_SLOTS // 2:  # half full at most: a probe always ends
                        names[slot] = name
                        places[slot] = i
                        keeps[slot] = keep_it
                        filled += 1
                else:
                    i = places[slot]
                    keep_it = keeps[slot]
                if i >= 0:
                    counts[i] += 1
                if keep_it and node.ns is NULL and (_may_name_given(node, named, key) if defaults
                                                    else _may_name(node, named, <const unsigned char*> key)):
                    elements.append(elementFactory(root._doc, node))
                if defaults or _has_attribute(node, wanted):
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
        found = [counts[i] for i in range(n)]
    finally:
        free(counts)
    return found, values, elements


cdef inline bint _has_attribute(xmlNode* node, const_xmlChar* name) noexcept:
    """Whether ``node`` has an attribute ``name`` in no namespace (as libxml2's
    xmlGetNoNsProp looks for it)."""
    cdef tree.xmlAttr* attribute = node.properties
    while attribute is not NULL:
        if attribute.ns is NULL and strcmp(<const char*> attribute.name, <const char*> name) == 0:
            return True
        attribute = attribute.next
    return False


cdef Py_ssize_t _place(const_xmlChar* name, list encoded, Py_ssize_t n):
    cdef Py_ssize_t i
    for i in range(n):
        if strcmp(<const char*> name, <const char*> <bytes> encoded[i]) == 0:
            return i
    return -1


# --- declared types (page_type._ld_types) ----------------------------------------------


def occurrences(data not None, key not None, Py_ssize_t anchor):
    """Where ``key`` occurs in ``data`` (both bytes, or both str), every start in order
    (overlapping ones too), each found by memchr on ``key[anchor]``, a character the
    caller knows to be rare in ``data``: much faster than a search for the whole key
    where its first or last character is common."""
    cdef Py_ssize_t m = len(key)
    if m == 0 or not 0 <= anchor < m:
        raise ValueError("the anchor must be a character of a non-empty key")
    if isinstance(data, bytes) and isinstance(key, bytes):
        return _byte_occurrences(<bytes> data, <bytes> key, anchor, False)
    if isinstance(data, str) and isinstance(key, str):
        return _text_occurrences(<str> data, <str> key, anchor)
    raise TypeError("data and key must be both bytes or both str")


def holds_key(bytes data not None, bytes key not None, Py_ssize_t anchor):
    """``key in data``, searched as :func:`occurrences` searches (memchr on
    ``key[anchor]``), to the first occurrence."""
    if len(key) == 0 or not 0 <= anchor < len(key):
        raise ValueError("the anchor must be a character of a non-empty key")
    return len(_byte_occurrences(data, key, anchor, True)) > 0


cdef list _byte_occurrences(bytes data, bytes key, Py_ssize_t anchor, bint first):
    """Where ``key`` starts in ``data``, every start or (``first``) the first only."""
    cdef const unsigned char* s = data
    cdef const unsigned char* k = key
    cdef Py_ssize_t n = len(data), m = len(key), at = anchor
    cdef const unsigned char* hit
    cdef list found = []
    while at < n:
        hit = <const unsigned char*> memchr(s + at, k[anchor], n - at)
        if hit is NULL:
            break
        at = hit - s
        if at - anchor + m <= n and memcmp(s + at - anchor, k, m) == 0:
            found.append(at - anchor)
            if first:
                break
        at += 1
    return found


cdef list _text_occurrences(str data, str key, Py_ssize_t anchor):
    """_byte_occurrences over a str's code points: memchr finds the low byte of the
    anchor's code point in the str's buffer, and each hit is read back as a code point."""
    cdef int kind = PyUnicode_KIND(data)
    cdef const unsigned char* s = <const unsigned char*> PyUnicode_DATA(data)
    cdef Py_ssize_t n = len(data), m = len(key), at = anchor, start, j, size = kind
    cdef Py_UCS4 ch = key[anchor]
    cdef const unsigned char* hit
    cdef list found = []
    while at < n:
        hit = <const unsigned char*> memchr(s + at * size, (<unsigned int> ch) & 0xFF, (n - at) * size)
        if hit is NULL:
            break
        at = (hit - s) // size
        if PyUnicode_READ(kind, s, at) == ch and at - anchor + m <= n:
            start = at - anchor
            for j in range(m):
                if PyUnicode_READ(kind, s, start + j) != <Py_UCS4> key[j]:
                    break
            else:
                found.append(start)
        at += 1
    return found


include "_core_sums.pxi"
include "_core_trees.pxi"
