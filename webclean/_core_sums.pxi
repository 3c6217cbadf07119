# The compiled core's passes over a page's texts and lines: the page type's line totals
# (page_type.line_totals) and the full-width forms that NFKC makes ASCII
# (tokenize.half_width). Included by webclean/_core_page.pxi: the same module, its
# cimports and helpers in scope.

from cpython.unicode cimport (
    PyUnicode_1BYTE_KIND,
    PyUnicode_4BYTE_KIND,
    PyUnicode_DATA,
    PyUnicode_FromKindAndData,
    PyUnicode_KIND,
    PyUnicode_READ,
)


# --- the lines' totals (page_type.line_totals) -----------------------------------------
# A line's text is read where Python keeps it: one, two or four bytes a character.

cdef enum:
    _MAX_KINDS = 32  # line kinds (page_type._LINE_KINDS: six)
    _MAX_RANGES = 32  # ranges of code points (text.CJK_IDEOGRAPH_RANGES: three)
    _MAX_SIGNS = 32  # currency signs (page_type._PRICE_BEFORE and _PRICE_AFTER)


cdef struct _Ranges:
    Py_UCS4 lows[_MAX_RANGES]
    Py_UCS4 highs[_MAX_RANGES]
    Py_ssize_t n
    bint latin  # a range starts below 256


cdef int _read_ranges(_Ranges* ranges, tuple pairs) except -1:
    """0 where there are more ranges than the array holds."""
    cdef Py_ssize_t k
    if len(pairs) > _MAX_RANGES:
        return 0
    ranges.n = len(pairs)
    ranges.latin = False
    for k in range(ranges.n):
        ranges.lows[k], ranges.highs[k] = pairs[k]
        ranges.latin |= ranges.lows[k] < 256
    return 1


cdef Py_ssize_t _count_in(str text, Py_ssize_t limit, const _Ranges* ranges) noexcept:
    """How many of the first ``limit`` characters of ``text`` fall in ``ranges``."""
    cdef int kind = PyUnicode_KIND(text)
    cdef const void* data = PyUnicode_DATA(text)
    cdef Py_ssize_t i, k, found = 0
    cdef Py_UCS4 ch
    if kind == PyUnicode_1BYTE_KIND and not ranges.latin:
        return 0
    for i in range(min(limit, len(text))):
        ch = PyUnicode_READ(kind, data, i)
        for k in range(ranges.n):
            if ranges.lows[k] <= ch <= ranges.highs[k]:
                found += 1
                break
    return found


cdef struct _Signs:
    Py_UCS4 before[_MAX_SIGNS]
    Py_UCS4 after[_MAX_SIGNS]
    Py_ssize_t n_before, n_after
    unsigned char latin[_MAX_SIGNS]  # the signs below 256 ...
    Py_ssize_t n_latin
    unsigned char is_latin[256]  # ... as a table
    Py_UCS4 wide[2 * _MAX_SIGNS]  # the signs from 256 up
    Py_ssize_t n_wide


cdef inline bint _among(Py_UCS4 ch, const Py_UCS4* signs, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        if signs[i] == ch:
            return True
    return False


cdef int _read_signs(_Signs* signs, str before, str after) except -1:
    """0 where the signs do not fit the arrays, or where a line break is one (the
    prices' count below relies on it being none)."""
    cdef Py_UCS4 ch
    cdef int i
    if len(before) > _MAX_SIGNS or len(after) > _MAX_SIGNS or "\n" in before or "\n" in after:
        return 0
    signs.n_before = signs.n_after = signs.n_latin = signs.n_wide = 0
    for i in range(256):
        signs.is_latin[i] = 0
    for ch in before + after:
        if ch < 256:
            if not signs.is_latin[ch]:
                signs.is_latin[ch] = 1
                signs.latin[signs.n_latin] = <unsigned char> ch
                signs.n_latin += 1
        else:
            signs.wide[signs.n_wide] = ch
            signs.n_wide += 1
    for ch in before:
        signs.before[signs.n_before] = ch
        signs.n_before += 1
    for ch in after:
        signs.after[signs.n_after] = ch
        signs.n_after += 1
    return 1


cdef bint _holds_sign(str text, const _Signs* signs) noexcept:
    cdef int kind = PyUnicode_KIND(text)
    cdef const void* data = PyUnicode_DATA(text)
    cdef Py_ssize_t i, n = len(text)
    cdef Py_UCS4 ch
    if kind == PyUnicode_1BYTE_KIND:
        for i in range(signs.n_latin):
            if memchr(data, signs.latin[i], n) is not NULL:
                return True
        return False
    for i in range(n):
        ch = PyUnicode_READ(kind, data, i)
        if signs.is_latin[ch] if ch < 256 else _among(ch, signs.wide, signs.n_wide):
            return True
    return False


cdef Py_ssize_t _prices(const Py_UCS4* s, Py_ssize_t n, const _Signs* signs) noexcept:
    """How many matches re.findall gives of ``[before]\s?\d|\d\s?[after]`` in ``s``
    (page_type._PRICE): leftmost, not overlapping, each alternative tried in turn and
    ``\s?`` first with its white space; ``\s`` and ``\d`` as the re module reads them in
    a text (Py_UNICODE_ISSPACE, Py_UNICODE_ISDECIMAL)."""
    cdef Py_ssize_t at = 0, found = 0
    cdef Py_UCS4 ch
    while at < n:
        ch = s[at]
        if _among(ch, signs.before, signs.n_before):
            if at + 2 < n and Py_UNICODE_ISSPACE(s[at + 1]) and Py_UNICODE_ISDECIMAL(s[at + 2]):
                found += 1
                at += 3
                continue
            if at + 1 < n and Py_UNICODE_ISDECIMAL(s[at + 1]):
                found += 1
                at += 2
                continue
        if Py_UNICODE_ISDECIMAL(ch):
            if at + 2 < n and Py_UNICODE_ISSPACE(s[at + 1]) and _among(s[at + 2], signs.after, signs.n_after):
                found += 1
                at += 3
                continue
            if at + 1 < n and _among(s[at + 1], signs.after, signs.n_after):
                found += 1
                at += 2
                continue
        at += 1
    return found


cdef Py_ssize_t _put(Py_UCS4* out, str text, Py_ssize_t first, Py_ssize_t last) noexcept:
    """Copy the characters ``first`` to ``last`` (excluded) of ``text``; how many."""
    cdef int kind = PyUnicode_KIND(text)
    cdef const void* data = PyUnicode_DATA(text)
    cdef Py_ssize_t i
    for i in range(first, last):
        out[i - first] = PyUnicode_READ(kind, data, i)
    return last - first


cdef Py_ssize_t _line_prices(list lines, Py_ssize_t text_at, const unsigned char* signed, const _Signs* signs) except -1:
    """_prices of the lines' texts joined by line breaks, read around the lines that
    hold a sign (``signed``). Every match holds a sign, and a match that reaches into a
    line without one takes one character of it: its first or its last, beside the line
    break. So a line of two characters or more without a sign ("quiet") is never
    crossed by a match, and is never in one from its second character to its last but
    one: the run of lines between two quiet ones, each quiet line's character beside it
    included, counts alone as it counts in the whole text."""
    cdef Py_ssize_t n = len(lines), i = 0, first, last, j, size, k, found = 0
    cdef Py_UCS4* joined
    cdef str text
    while i < n:
        if not signed[i]:
            i += 1
            continue
        first = last = i
        while first > 0 and not _quiet(lines, first - 1, text_at, signed):
            first -= 1
        while last + 1 < n and not _quiet(lines, last + 1, text_at, signed):
            last += 1
        size = 4 + last - first
        for j in range(first, last + 1):
            size += len(<str> (<tuple> lines[j])[text_at])
        joined = <Py_UCS4*> malloc(size * sizeof(Py_UCS4))
        if joined is NULL:
            raise MemoryError()
        k = 0
        if first > 0:
            text = (<tuple> lines[first - 1])[text_at]
            k += _put(joined + k, text, len(text) - 1, len(text))
            joined[k] = u"\n"
            k += 1
        for j in range(first, last + 1):
            if j > first:
                joined[k] = u"\n"
                k += 1
            text = (<tuple> lines[j])[text_at]
            k += _put(joined + k, text, 0, len(text))
        if last + 1 < n:
            joined[k] = u"\n"
            k += 1
            k += _put(joined + k, (<tuple> lines[last + 1])[text_at], 0, 1)
        found += _prices(joined, k, signs)
        free(joined)
        i = last + 1
    return found


cdef inline bint _quiet(list lines, Py_ssize_t i, Py_ssize_t text_at, const unsigned char* signed):
    return not signed[i] and len(<str> (<tuple> lines[i])[text_at]) >= 2


def line_totals(list lines, tuple at, tuple kinds, long long comment_bit, long long form_bit, settings,
                Py_ssize_t sample_chars, tuple cjk_ranges, str before not None, str after not None):
    """page_type.line_totals over ``lines`` (segment.Line tuples; ``at``: the places in
    them of text, kind, link_ratio, groups, length and furniture), the same totals in one
    loop: the characters of each of ``kinds``, in ``comment_bit`` and ``form_bit`` boxes,
    of long lines and of prose (``settings``, config.LinesConfig, as line_features.is_prose
    reads it), the linked characters, the characters of the lines' first ``sample_chars``
    and those in ``cjk_ranges``, and the prices (``before`` and ``after``: the currency
    signs of page_type._PRICE). None where a line is no tuple or the rules do not fit
    its arrays."""
    cdef Py_ssize_t n = len(lines), i, k, n_kinds = len(kinds), limit
    cdef Py_ssize_t text_at = at[0], kind_at = at[1], ratio_at = at[2], groups_at = at[3], length_at = at[4], furniture_at = at[5]
    cdef double long_line = settings.long_line, prose_link_ratio = settings.prose_link_ratio
    cdef long long by_kind[_MAX_KINDS]
    cdef _Ranges ranges
    cdef _Signs signs
    cdef long long chars = 0, long_lines = 0, prose = 0, furniture = 0, comments = 0, forms = 0, length, groups
    cdef long long sample = 0, cjk = 0, prices = 0
    cdef double linked = 0.0, ratio
    cdef unsigned char* signed = NULL
    cdef bint any_sign = False
    cdef tuple line
    cdef str text
    if n_kinds > _MAX_KINDS or sample_chars < 0 or not _read_ranges(&ranges, cjk_ranges) or not _read_signs(&signs, before, after):
        return None
    for i in range(n):
        if not isinstance(lines[i], tuple):
            return None
    for k in range(n_kinds):
        by_kind[k] = 0
    signed = <unsigned char*> malloc(max(n, 1))
    if signed is NULL:
        raise MemoryError()
    try:
        for i in range(n):
            line = <tuple> lines[i]
            text = line[text_at]
            kind = line[kind_at]
            length = line[length_at]
            ratio = line[ratio_at]
            groups = line[groups_at]
            chars += length
            for k in range(n_kinds):
                if kinds[k] is kind:
                    break
            else:
                for k in range(n_kinds):
                    if kinds[k] == kind:
                        break
                else:
                    k = -1
            if k >= 0:
                by_kind[k] += length
            if length >= long_line:
                long_lines += 1
                if ratio <= prose_link_ratio:
                    prose += length
            linked += length * ratio
            if line[furniture_at]:
                furniture += length
            if groups & comment_bit:
                comments += length
            if groups & form_bit:
                forms += length
            limit = min(len(text), sample_chars)
            sample += limit
            cjk += _count_in(text, limit, &ranges)
            signed[i] = _holds_sign(text, &signs)
            any_sign |= signed[i]
        if any_sign:
            prices = _line_prices(lines, text_at, signed, &signs)
    finally:
        free(signed)
    return chars, [by_kind[k] for k in range(n_kinds)], long_lines, linked, prose, furniture, comments, forms, sample, cjk, prices


# --- full-width forms (tokenize.half_width) ---------------------------------------------


def half_width(str text not None, Py_UCS4 first, Py_UCS4 last, Py_UCS4 shift, Py_UCS4 space):
    """tokenize.half_width: ``text`` with its characters from ``first`` to ``last``
    moved down by ``shift`` and ``space`` made a space; ``text`` itself where it holds
    none of them."""
    cdef int kind = PyUnicode_KIND(text)
    cdef const void* data = PyUnicode_DATA(text)
    cdef Py_ssize_t n = len(text), i, at = -1
    cdef Py_UCS4 ch
    cdef Py_UCS4* out
    if shift > first:
        raise ValueError("a character would be moved below 0")
    if kind == PyUnicode_1BYTE_KIND and first > 255 and space > 255:
        return text
    for i in range(n):
        ch = PyUnicode_READ(kind, data, i)
        if first <= ch <= last or ch == space:
            at = i
            break
    if at < 0:
        return text
    out = <Py_UCS4*> malloc(n * sizeof(Py_UCS4))
    if out is NULL:
        raise MemoryError()
    try:
        for i in range(n):
            ch = PyUnicode_READ(kind, data, i)
            if first <= ch <= last:
                out[i] = <Py_UCS4> (<unsigned int> ch - <unsigned int> shift)
            elif ch == space:
                out[i] = u" "
            else:
                out[i] = ch
        return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, out, n)
    finally:
        free(out)
