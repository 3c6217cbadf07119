# What segment._attr_marks gave for an element's class and id, kept in C by the UTF-8
# bytes of the names it was asked about (f"{class} {id}"): a page's elements share a
# few values, and a site's pages the same ones, so that most elements find theirs
# without a Python string. Included by webclean/_core.pyx: the same module, its
# cimports and helpers in scope.

from libc.stdlib cimport calloc, malloc
from libc.string cimport memcmp


cdef struct NamedMarks:
    # What attr_marks says of an element's names, as bits.
    bint noise
    bint content
    long long groups
    bint consent
    bint gallery


cdef struct NamesSlot:
    char* key  # NULL: the slot is free
    Py_ssize_t size
    unsigned long long hash
    NamedMarks marks


cdef enum:
    NAMES_SLOTS = 16384  # a power of two
    NAMES_MAX = 8192  # half of NAMES_SLOTS: past it, the table is emptied, so that a probe always ends


# The table, for the attr_marks last handed over (a test may hand over another).
cdef NamesSlot* _NAMES = NULL
cdef Py_ssize_t _NAMES_USED = 0
cdef object _NAMES_OF = None


# FNV-1a, the hash of both tables of the core (this one's bytes, _core_words.pxi's code points).
cdef unsigned long long _FNV_START = 14695981039346656037ULL


cdef inline unsigned long long _fnv(unsigned long long h, unsigned long long value) noexcept nogil:
    return (h ^ value) * 1099511628211ULL


cdef unsigned long long _names_hash(const char* key, Py_ssize_t size) noexcept nogil:
    cdef unsigned long long h = _FNV_START
    cdef Py_ssize_t i
    for i in range(size):
        h = _fnv(h, <unsigned char> key[i])
    return h


cdef void _names_clear() noexcept:
    global _NAMES_USED
    cdef Py_ssize_t i
    if _NAMES is NULL:
        return
    for i in range(NAMES_SLOTS):
        free(_NAMES[i].key)
        _NAMES[i].key = NULL
    _NAMES_USED = 0


cdef int _names_use(attr_marks) except -1:
    """Tie the table to ``attr_marks``: emptied where another was handed over before."""
    global _NAMES, _NAMES_OF
    if _NAMES is not NULL and attr_marks is _NAMES_OF:
        return 0
    if _NAMES is NULL:
        _NAMES = <NamesSlot*> calloc(NAMES_SLOTS, sizeof(NamesSlot))
        if _NAMES is NULL:
            raise MemoryError()
    if attr_marks is not _NAMES_OF:
        _names_clear()
        _NAMES_OF = attr_marks
    return 0


cdef NamesSlot* _names_slot(const char* key, Py_ssize_t size, unsigned long long h) noexcept:
    """The slot that holds ``key``, or the free one where it would go."""
    cdef size_t at = <size_t> h & (NAMES_SLOTS - 1)
    cdef NamesSlot* slot
    while True:
        slot = &_NAMES[at]
        if slot.key is NULL or (slot.hash == h and slot.size == size and memcmp(slot.key, key, size) == 0):
            return slot
        at = (at + 1) & (NAMES_SLOTS - 1)


cdef bint _names_find(const char* key, Py_ssize_t size, NamedMarks* marks) noexcept:
    """Whether the table holds ``key``; its marks into ``marks`` if so."""
    cdef NamesSlot* slot = _names_slot(key, size, _names_hash(key, size))
    if slot.key is NULL:
        return False
    marks[0] = slot.marks
    return True


cdef int _names_keep(const char* key, Py_ssize_t size, NamedMarks marks) except -1:
    """Keep ``marks`` for ``key`` (attr_marks may have let another thread run since the
    table was read: the slot is looked for again)."""
    global _NAMES_USED
    cdef unsigned long long h = _names_hash(key, size)
    cdef NamesSlot* slot
    cdef char* copy
    if _NAMES_USED >= NAMES_MAX:
        _names_clear()
    slot = _names_slot(key, size, h)
    if slot.key is not NULL:
        return 0
    copy = <char*> malloc(size + 1)
    if copy is NULL:
        raise MemoryError()
    memcpy(copy, key, size)
    slot.key, slot.size, slot.hash, slot.marks = copy, size, h, marks
    _NAMES_USED += 1
    return 0


cdef int _add_bytes(LineText* line, const unsigned char* s) except -1:
    cdef Py_ssize_t n = strlen(<const char*> s)
    _reserve(line, n)
    memcpy(line.data + line.size, s, n)
    line.size += n
    return 0


cdef bint _named(xmlNode* node, bint attribute_defaults, LineText* buffer, attr_marks, NamedMarks* named) except -1:
    """What ``attr_marks`` says of the class and id of ``node`` (lxml's get() of each,
    asked only where the element has it or a DTD may give it), into ``named``; False
    where it has neither. ``buffer``: the walk's own, for the key."""
    cdef const unsigned char* attrs_text = NULL
    cdef const unsigned char* name_text = NULL
    cdef int has_attrs = 0, has_name = 0
    cdef const char* key
    cdef Py_ssize_t size
    names = None
    if not attribute_defaults:
        has_attrs = _attribute_text(node, "class", &attrs_text)
        has_name = _attribute_text(node, "id", &name_text)
    if attribute_defaults or has_attrs < 0 or has_name < 0:
        names = _lxml_names(node, attribute_defaults)
        if names is None:
            return False
        key = PyUnicode_AsUTF8AndSize(names, &size)
    elif not has_attrs and not has_name:
        return False
    else:
        buffer.size = 0
        if has_attrs:
            _add_bytes(buffer, attrs_text)
        _add_bytes(buffer, <const unsigned char*> b" ")
        if has_name:
            _add_bytes(buffer, name_text)
        key, size = buffer.data, buffer.size
    _names_use(attr_marks)
    if _names_find(key, size, named):
        return True
    if names is None:
        names = _lxml_names(node, attribute_defaults)
    found = attr_marks(names)
    named.noise, named.content, named.groups, named.consent, named.gallery = found
    if attr_marks is _NAMES_OF:  # else another thread's walk has tied the table to another
        _names_keep(key, size, named[0])
    return True


cdef str _lxml_names(xmlNode* node, bint attribute_defaults):
    """segment's names of ``node``, f"{class} {id}" as lxml's get() reads them; None
    where it has neither."""
    attrs = name = None
    if attribute_defaults or _has_attribute(node, <const_xmlChar*> b"class"):
        attrs = attributeValueFromNsName(node, NULL, <const_xmlChar*> b"class")
    if attribute_defaults or _has_attribute(node, <const_xmlChar*> b"id"):
        name = attributeValueFromNsName(node, NULL, <const_xmlChar*> b"id")
    if attrs is None and name is None:
        return None
    return f"{attrs or ''} {name or ''}"
