# segment._attr_marks in C (AttrMarks); the compiled segment keeps what it gives from
# page to page (_core_names.pxi). Included by webclean/_core.pyx: the same module, its
# cimports and helpers in scope.


cdef inline bint _word_edge(Py_UCS4 ch) noexcept:
    # What may stand before a word of segment._ATTR_WORD_RE: white space (\s), "_" or "-".
    return Py_UNICODE_ISSPACE(ch) or ch == u"_" or ch == u"-"


cdef class AttrMarks:
    """segment._attr_marks, uncached: segment's walk keeps what it gives (_NAMES).

    The class and id words are found as segment._ATTR_WORD_RE finds them: a maximal run
    of a-z after the start, white space, "_" or "-", and before the end, one of those or
    a decimal digit (the regular expression's \\s and \\d, Python's isspace and
    isdecimal). The rare tests stay Python's: ``names_reviews`` where "reviews" occurs,
    ``names_consent`` where one of ``consent_cues`` does, and ``names_gallery`` where one
    of ``gallery_cues`` does (each returns False without one).
    """

    cdef dict word_bits
    cdef long long groups_mask, noise_bit, content_bit, reviews_bit
    cdef tuple consent_cues, gallery_cues
    cdef object names_reviews, names_consent, names_gallery

    def __init__(self, dict word_bits, long long groups_mask, long long noise_bit, long long content_bit, long long reviews_bit,
                 names_reviews, tuple consent_cues, names_consent, tuple gallery_cues, names_gallery):
        self.word_bits = word_bits
        self.groups_mask, self.noise_bit, self.content_bit, self.reviews_bit = groups_mask, noise_bit, content_bit, reviews_bit
        self.names_reviews = names_reviews
        self.consent_cues = consent_cues
        self.names_consent = names_consent
        self.gallery_cues = gallery_cues
        self.names_gallery = names_gallery

    def __call__(self, str attrs not None):
        cdef str lowered = attrs.lower()
        cdef Py_ssize_t n = len(lowered), i = 0, start
        cdef long long bits = 0, groups
        cdef Py_UCS4 ch
        cdef bint consent = False, gallery = False
        while i < n:
            ch = lowered[i]
            if ch < u"a" or ch > u"z":
                i += 1
                continue
            start = i
            while i < n and u"a" <= lowered[i] <= u"z":
                i += 1
            if (start == 0 or _word_edge(lowered[start - 1])) and (i == n or _word_edge(lowered[i]) or Py_UNICODE_ISDECIMAL(lowered[i])):
                found = self.word_bits.get(lowered[start:i])
                if found is not None:
                    bits |= <long long> found
        groups = bits & self.groups_mask
        if "reviews" in lowered and self.names_reviews(lowered):
            groups |= self.reviews_bit
        for cue in self.consent_cues:
            if cue in lowered:
                consent = self.names_consent(lowered)
                break
        for cue in self.gallery_cues:
            if cue in lowered:
                gallery = self.names_gallery(lowered)
                break
        return bool(bits & self.noise_bit), bool(bits & self.content_bit), groups, consent, gallery

