# The text columns of method svm's features (line_features._text_columns), included by
# webclean/_core_lexicon.pxi: the same module, its cimports, helpers and Lexicon in
# scope. One pass over each text's characters, where Python keeps them, finds its
# marks, lengths, classes of ASCII letters and digits; the lexicon looks its words up;
# the regular expression of an address stays Python's.

from cpython.unicode cimport PyUnicode_Contains, PyUnicode_Tailmatch
from libc.math cimport log1p


cdef enum:
    _MAX_MARKS = 32  # characters of tokenize._CLOSERS and tokenize.SENTENCE_FINAL (eleven and eight)
    _TEXT_WIDTH = 15  # the columns of line_features._TEXT_COLUMN_NAMES, which text_columns writes in this order


cdef struct _MarkSet:
    Py_UCS4 chars[_MAX_MARKS]
    Py_ssize_t n


cdef int _read_marks(_MarkSet* into, marks) except -1:
    """0 where ``marks`` (one character each) do not fit the array."""
    cdef Py_ssize_t k = 0
    if len(marks) > _MAX_MARKS:
        return 0
    for mark in marks:
        if type(mark) is not str or len(<str> mark) != 1:
            return 0
        into.chars[k] = (<str> mark)[0]
        k += 1
    into.n = k
    return 1


cdef inline bint _among_marks(Py_UCS4 ch, const _MarkSet* marks) noexcept nogil:
    cdef Py_ssize_t k
    for k in range(marks.n):
        if marks.chars[k] == ch:
            return True
    return False


cdef Py_ssize_t _stripped_end(int kind, const void* data, Py_ssize_t n) noexcept:
    """Where ``text.rstrip()`` ends."""
    while n > 0 and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, n - 1)):
        n -= 1
    return n


cdef bint _ends_sentence(int kind, const void* data, Py_ssize_t n, const _MarkSet* closers, const _MarkSet* finals) noexcept:
    """tokenize.ends_sentence: the text's last character, white space and closers left
    out, is a sentence-final mark."""
    n = _stripped_end(kind, data, n)
    while n > 0 and _among_marks(PyUnicode_READ(kind, data, n - 1), closers):
        n = _stripped_end(kind, data, n - 1)
    return n > 0 and _among_marks(PyUnicode_READ(kind, data, n - 1), finals)


cdef Py_ssize_t _tail_start(int kind, const void* data, Py_ssize_t n, const _MarkSet* closers) noexcept:
    """Where the text's last run of white space and closers starts (``n`` for none)."""
    cdef Py_UCS4 ch
    while n > 0:
        ch = PyUnicode_READ(kind, data, n - 1)
        if not Py_UNICODE_ISSPACE(ch) and not _among_marks(ch, closers):
            break
        n -= 1
    return n


cdef inline bint _ends_a_sentence_at(int kind, const void* data, Py_ssize_t n, Py_ssize_t i, Py_ssize_t tail,
                                     const _MarkSet* anywhere, const _MarkSet* before_space) noexcept:
    """Whether the final mark at ``i`` is a match of tokenize._SENTENCE_END_RE: one of
    ``anywhere``, one of ``before_space`` before white space, or any before the tail of
    white space and closers only (which starts at ``tail``)."""
    cdef Py_UCS4 ch = PyUnicode_READ(kind, data, i)
    return (_among_marks(ch, anywhere) or i + 1 >= tail
            or (i + 1 < n and _among_marks(ch, before_space) and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i + 1))))


cdef bint _ends_with(str text, Py_ssize_t end, tuple endings) except -1:
    """``text[:end].endswith(endings)``."""
    for ending in endings:
        if PyUnicode_Tailmatch(text, ending, 0, end, 1):
            return True
    return False


cdef bint _holds_any(str text, tuple parts) except -1:
    """Whether ``text`` holds one of ``parts`` (each a str)."""
    for part in parts:
        if PyUnicode_Contains(text, part):
            return True
    return False


def text_columns(list texts not None, Lexicon lexicon not None, rules, double[:, ::1] out not None, tuple columns not None):
    """line_features._text_columns into the ``columns`` of ``out`` (one for each of
    line_features._TEXT_COLUMN_NAMES, in order; a row a text), ``rules`` its rules and tokenize's
    (core.TextRules). None, ``out`` left as it was or half filled, where a text is no
    str or holds a surrogate (which its UTF-8 cannot hold), where there are no texts
    (the Python function raises), or where the rules or the lexicon hold what this
    function does not handle."""
    cdef _MarkSet closers, finals, anywhere, before_space
    cdef Py_ssize_t into[_TEXT_WIDTH]
    cdef unsigned char classes[128]
    cdef unsigned char capital, small, digit, found
    cdef Py_ssize_t n = len(texts), row, size, i, length, spaces, capitals, smalls, digits, marks, stripped, ends_count, tail
    cdef int kind
    cdef const void* data
    cdef Py_UCS4 ch
    cdef double t, density, s
    cdef bint ends
    cdef list terms
    cdef str text
    (is_mark, learn_mark, closer_marks, final_marks, end_anywhere, end_before_space, byte_classes, capital_byte, small_byte,
     digit_byte, address, address_parts, label_ends, cut_short_ends, bars, no_end_key) = rules
    if not n or out.shape[0] != n or len(columns) != _TEXT_WIDTH or not lexicon.exact:
        return None
    for i in range(_TEXT_WIDTH):
        into[i] = columns[i]
        if not 0 <= into[i] < out.shape[1]:
            return None
    if not _read_marks(&closers, closer_marks) or not _read_marks(&finals, final_marks):
        return None
    if not _read_marks(&anywhere, end_anywhere) or not _read_marks(&before_space, end_before_space):
        return None
    for i in range(finals.n):  # the loop below meets a final mark where it meets no letter, digit or space
        if _alnum(finals.chars[i]) or Py_UNICODE_ISSPACE(finals.chars[i]):
            return None
    if len(byte_classes) != 256 or len(capital_byte) != 1 or len(small_byte) != 1 or len(digit_byte) != 1:
        return None
    capital, small, digit = capital_byte[0], small_byte[0], digit_byte[0]
    for i in range(128, 256):  # the bytes of a character beyond ASCII, in no class
        if byte_classes[i] in (capital, small, digit):
            return None
    for i in range(128):
        classes[i] = byte_classes[i]
    no_end = lexicon.marks.get(no_end_key, 0.0)
    for row in range(n):
        item = texts[row]
        if type(item) is not str:
            return None
        text = <str> item
        kind, data, size = PyUnicode_KIND(text), PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text)
        length = spaces = capitals = smalls = digits = marks = ends_count = 0
        tail = _tail_start(kind, data, size, &closers)
        terms = []
        for i in range(size):
            ch = PyUnicode_READ(kind, data, i)
            if ch < 128:
                found = classes[ch]
                capitals += found == capital
                smalls += found == small
                digits += found == digit
            elif 0xD800 <= ch <= 0xDFFF:
                return None
            if Py_UNICODE_ISSPACE(ch):
                spaces += ch == u" "
                continue
            length += 1
            if _alnum(ch):
                continue
            if _among_marks(ch, &finals) and _ends_a_sentence_at(kind, data, size, i, tail, &anywhere, &before_space):
                ends_count += 1  # tokenize.sentence_ends
            # A candidate of tokenize.marks_of, asked about as it asks.
            mark = chr(ch)
            known = is_mark.get(mark)
            if known is None:
                known = learn_mark(mark)
            if known:
                marks += 1
                weight = lexicon.marks.get(mark)
                if weight is not None:
                    terms.append(weight)
        ends = _ends_sentence(kind, data, size, &closers, &finals)
        s = _added(terms)
        if not ends:
            s += <double> no_end
        lexicon._index(text, &t, &density)
        stripped = _stripped_end(kind, data, size)
        out[row, into[0]] = log1p(t)
        out[row, into[1]] = log1p(s)
        out[row, into[2]] = log1p(length)
        out[row, into[3]] = log1p(<double> ends_count) if marks else 0.0
        out[row, into[4]] = (marks + (not ends)) / <double> length if length else 0.0
        out[row, into[5]] = density
        out[row, into[6]] = capitals / <double> (capitals + smalls) if capitals + smalls else 0.0
        out[row, into[7]] = digits / <double> (size or 1)
        out[row, into[8]] = _ends_with(text, stripped, label_ends)
        out[row, into[9]] = _holds_any(text, address_parts) and address(text) is not None
        out[row, into[10]] = _ends_with(text, stripped, cut_short_ends)
        out[row, into[11]] = size > 0 and not _alnum(PyUnicode_READ(kind, data, 0))
        out[row, into[12]] = log1p(spaces + 1)
        out[row, into[13]] = any([bar in text for bar in bars])
        out[row, into[14]] = log1p(lexicon._line_weight(text))
    return out
