# The page's bytes before libxml2 reads them (decode._is_utf8, parse._markup,
# parse._reopen_document, parse._parse), included in webclean/_core.pyx after _core_parse.pxi: the same module,
# its cimports and helpers (_lower) in scope. Each function answers as its Python
# reference does, on the bytes alone.


# --- parse._reopen_document ---------------------------------------------------------------


cdef inline bint _bytes_space(unsigned char c) noexcept nogil:
    # \s of a bytes pattern: ASCII white space.
    return c == b" " or c == b"\t" or c == b"\n" or c == b"\r" or c == b"\x0b" or c == b"\x0c"


cdef Py_ssize_t _end_tag(const unsigned char* s, Py_ssize_t at, Py_ssize_t n, list names) noexcept:
    """Past the end tag of one of ``names`` (lower case) at ``at``, as
    parse._DOCUMENT_END_TAG matches it, or -1."""
    cdef const unsigned char* hit
    cdef const unsigned char* word
    cdef Py_ssize_t i, m, end
    cdef bytes name
    if at + 1 >= n or s[at + 1] != b"/":
        return -1
    for name in names:
        word = <const unsigned char*> PyBytes_AS_STRING(name)
        m = len(name)
        end = at + 2 + m
        if end >= n:
            continue
        for i in range(m):
            if _lower(s[at + 2 + i]) != word[i]:
                break
        else:
            if s[end] == b">":
                return end + 1
            if _bytes_space(s[end]):
                hit = <const unsigned char*> memchr(s + end + 1, b">", n - end - 1)
                if hit is not NULL:
                    return hit - s + 1
    return -1


def reopened(bytes data not None, tuple names not None):
    """parse._reopen_document: ``data`` without the end tags of ``names`` (lower case,
    as bytes), as parse._DOCUMENT_END_TAG finds them: "</", the name in any case, then
    ">", or white space and all up to the next ">"."""
    cdef const unsigned char* s = <const unsigned char*> PyBytes_AS_STRING(data)
    cdef const unsigned char* hit
    cdef Py_ssize_t n = len(data), at = 0, kept = 0, size = 0, end
    cdef char* out = NULL
    cdef list lowered = [name.lower() for name in names]
    cdef unsigned char first[256]  # the first letters of the names, in either case
    memset(first, 0, sizeof(first))
    for name in lowered:
        if len(name):
            first[(<bytes> name)[0]] = first[(<bytes> name)[0] ^ 0x20] = True
        else:
            memset(first, True, sizeof(first))  # "</>"
    try:
        while at < n:
            hit = <const unsigned char*> memchr(s + at, b"<", n - at)
            if hit is NULL:
                break
            at = hit - s
            end = -1
            if at + 2 < n and s[at + 1] == b"/" and first[s[at + 2]]:  # else no end tag of theirs
                end = _end_tag(s, at, n, lowered)
            if end < 0:
                at += 1
                continue
            if out is NULL:
                out = <char*> malloc(n)
                if out is NULL:
                    raise MemoryError()
            memcpy(out + size, s + kept, at - kept)
            size += at - kept
            kept = at = end
        if out is NULL:
            return data
        memcpy(out + size, s + kept, n - kept)
        return PyBytes_FromStringAndSize(out, size + n - kept)
    finally:
        free(out)


def holds_bytes(bytes data not None, bytes wanted not None):
    """Whether ``data`` holds a byte of ``wanted`` (parse._markup: whether translating
    it would change it). Where every wanted byte is below 0x80, eight bytes are tested
    at once for one below the highest wanted, as a page's markup holds few (its line
    ends and tabs), and only those words byte by byte."""
    cdef const unsigned char* s = <const unsigned char*> PyBytes_AS_STRING(data)
    cdef const unsigned char* w = <const unsigned char*> PyBytes_AS_STRING(wanted)
    cdef Py_ssize_t n = len(data), i = 0, j
    cdef unsigned char is_wanted[256]
    cdef unsigned int below = 0
    cdef unsigned long long word, ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL
    memset(is_wanted, 0, sizeof(is_wanted))
    for j in range(len(wanted)):
        is_wanted[w[j]] = 1
        below = max(below, <unsigned int> w[j] + 1)
    if below <= 0x80:
        while i + 8 <= n:
            memcpy(&word, s + i, 8)
            if (word - ones * below) & ~word & highs:  # a byte below ``below`` (exact for below <= 128)
                for j in range(i, i + 8):
                    if is_wanted[s[j]]:
                        return True
            i += 8
    for j in range(i, n):
        if is_wanted[s[j]]:
            return True
    return False


# --- parse._parse -------------------------------------------------------------------------


cdef inline int _digit(unsigned char c, int base) noexcept nogil:
    """The value of ``c`` as a digit of ``base`` (10 or 16), or -1."""
    if c'0' <= c <= c'9':
        return c - c'0'
    if base == 16 and c'a' <= (c | 0x20) <= c'f':
        return (c | 0x20) - c'a' + 10
    return -1


def holds_reference(bytes data not None, frozenset values not None):
    """parse._holds_reference: whether ``data`` holds a numeric character reference
    ("&#" and decimal digits, or "&#x" or "&#X" and hexadecimal ones) whose value, read
    over all its digits, is one of ``values`` (code points below 2 ** 32). Each "&#" is
    found by memchr on its "#", rarer in markup than "&"."""
    cdef const unsigned char* s = <const unsigned char*> PyBytes_AS_STRING(data)
    cdef const unsigned char* hit
    cdef Py_ssize_t n = len(data), at = 1, i, digits, significant
    cdef unsigned long long value
    cdef int base, digit
    while at < n:
        hit = <const unsigned char*> memchr(s + at, b"#", n - at)
        if hit is NULL:
            break
        at = hit - s
        if s[at - 1] == b"&":
            i, base = at + 1, 10
            if i < n and (s[i] | 0x20) == b"x":
                i, base = i + 1, 16
            value = digits = significant = 0
            while i < n:
                digit = _digit(s[i], base)
                if digit < 0:
                    break
                if value or digit:
                    significant += 1
                    if significant <= 8:  # more digits than 8 make a value above every code point
                        value = value * base + digit
                digits += 1
                i += 1
            if digits and significant <= 8 and value in values:
                return True
        at += 1
    return False


# --- decode._is_utf8 ----------------------------------------------------------------------


def valid_utf8(bytes data not None):
    """Whether ``data`` is UTF-8 as Python's strict decoder takes it (well-formed, as
    the Unicode Standard's table 3-7 says: no overlong form, no surrogate, nothing above
    U+10FFFF), found without making a str; eight ASCII bytes at a time."""
    cdef const unsigned char* s = <const unsigned char*> PyBytes_AS_STRING(data)
    cdef Py_ssize_t n = len(data), i = 0, k, need
    cdef unsigned long long word
    cdef unsigned char c, low, high
    while i < n:
        if i + 8 <= n:
            memcpy(&word, s + i, 8)
            if not (word & 0x8080808080808080ULL):
                i += 8
                continue
        c = s[i]
        if c < 0x80:
            i += 1
            continue
        # how many bytes follow the first, and the range of the second
        low, high = 0x80, 0xBF
        if 0xC2 <= c <= 0xDF:
            need = 1
        elif 0xE0 <= c <= 0xEF:
            need = 2
            if c == 0xE0:
                low = 0xA0
            elif c == 0xED:
                high = 0x9F
        elif 0xF0 <= c <= 0xF4:
            need = 3
            if c == 0xF0:
                low = 0x90
            elif c == 0xF4:
                high = 0x8F
        else:
            return False
        if i + need >= n or not low <= s[i + 1] <= high:
            return False
        for k in range(i + 2, i + need + 1):
            if s[k] & 0xC0 != 0x80:
                return False
        i += need + 1
    return True
