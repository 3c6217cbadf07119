# The words of a NoiseLexicon's latin lexicon and its stop words, looked up by a slice
# of a text without making a str of it (Lexicon._index). Included by
# webclean/_core_lexicon.pxi: the same module, its cimports and _fnv (_core_names.pxi) in scope.


cdef struct WordSlot:
    Py_UCS4* chars  # NULL: the slot is free
    Py_ssize_t length
    unsigned long long hash
    PyObject* weight  # the latin lexicon's weight (its dict holds it), or NULL
    bint stop  # a stop word


cdef inline unsigned long long _word_hash(int kind, const void* data, Py_ssize_t start, Py_ssize_t end) noexcept:
    cdef unsigned long long h = _FNV_START
    cdef Py_ssize_t i
    for i in range(start, end):
        h = _fnv(h, PyUnicode_READ(kind, data, i))
    return h


cdef bint _str_keys(keys) except -1:
    """Whether every one of ``keys`` is a str, no subclass (a subclass may compare unlike its code points)."""
    for key in keys:
        if type(key) is not str:
            return False
    return True


cdef class WordTable:
    """The weight in ``latin`` and whether a stop word, of each key of either: keys that
    are str, each equal to a slice of a text where their code points are (Lexicon takes
    no other: _str_keys)."""

    cdef WordSlot* slots
    cdef size_t mask
    cdef dict latin

    def __cinit__(self):
        self.slots = NULL

    def __init__(self, dict latin not None, frozenset stopwords not None):
        cdef Py_ssize_t size = 16, n, i
        cdef WordSlot* slot
        keys = set(latin) | stopwords
        if not _str_keys(keys):
            raise TypeError("the words must be str")
        self.latin = latin
        while size < 2 * len(keys) + 1:
            size *= 2
        self.slots = <WordSlot*> calloc(size, sizeof(WordSlot))
        if self.slots is NULL:
            raise MemoryError()
        self.mask = size - 1
        for key in keys:
            n = PyUnicode_GET_LENGTH(key)
            slot = self.find(PyUnicode_KIND(key), PyUnicode_DATA(key), 0, n)
            slot.chars = <Py_UCS4*> malloc(max(n, 1) * sizeof(Py_UCS4))
            if slot.chars is NULL:
                raise MemoryError()
            for i in range(n):
                slot.chars[i] = (<str> key)[i]
            slot.length = n
            slot.hash = _word_hash(PyUnicode_KIND(key), PyUnicode_DATA(key), 0, n)
            weight = latin.get(key)
            slot.weight = <PyObject*> weight if weight is not None else NULL
            slot.stop = key in stopwords

    def __dealloc__(self):
        cdef size_t i
        if self.slots is not NULL:
            for i in range(self.mask + 1):
                free(self.slots[i].chars)
            free(self.slots)

    cdef WordSlot* find(self, int kind, const void* data, Py_ssize_t start, Py_ssize_t end) noexcept:
        """The slot of the word ``data[start:end]``, or the free one where it would go."""
        cdef unsigned long long h = _word_hash(kind, data, start, end)
        cdef size_t at = <size_t> h & self.mask
        cdef Py_ssize_t i
        cdef WordSlot* slot
        while True:
            slot = &self.slots[at]
            if slot.chars is NULL:
                return slot
            if slot.hash == h and slot.length == end - start:
                i = 0
                while i < slot.length and slot.chars[i] == PyUnicode_READ(kind, data, start + i):
                    i += 1
                if i == slot.length:
                    return slot
            at = (at + 1) & self.mask
