# The noise filter's work in denoise.py: the sentences of a text (tokenize.split_sentences)
# and the decisions on the units (denoise.decisions), included in webclean/_core.pyx after
# _core_region.pxi: the same module, its cimports and _one_of in scope. White space is
# Py_UNICODE_ISSPACE, what the regular expressions' \s matches in a str.


cdef bint _tail_only(str text, Py_ssize_t start, Py_ssize_t end, str closers) noexcept:
    """Whether text[start:end] is white space and closers only (tokenize's tail pattern)."""
    cdef Py_ssize_t i
    cdef Py_UCS4 ch
    for i in range(start, end):
        ch = text[i]
        if not Py_UNICODE_ISSPACE(ch) and not _one_of(ch, closers):
            return False
    return True


cdef inline void _filter_add(Py_UCS4 ch, unsigned long long* low, unsigned long long* high) noexcept:
    """Set the bit of ``ch`` in a 128-bit filter of characters (``low``, ``high``): the
    last seven bits of its code point."""
    cdef unsigned int slot = (<unsigned int> ch) & 127
    if slot < 64:
        low[0] |= 1ULL << slot
    else:
        high[0] |= 1ULL << (slot - 64)


cdef inline bint _may_be(Py_UCS4 ch, unsigned long long low, unsigned long long high) noexcept:
    """Whether ``ch`` may be one of the characters whose filter is (``low``, ``high``):
    False for most characters of a text, which then need no comparison."""
    cdef unsigned int slot = (<unsigned int> ch) & 127
    return ((low >> slot) & 1) if slot < 64 else ((high >> (slot - 64)) & 1)


def split_sentences(value, str anywhere not None, str before_space not None, str closers not None):
    """tokenize.split_sentences: ``value`` cut after a mark of ``anywhere`` and after one of
    ``before_space`` that white space follows; a piece of white space and ``closers``
    only joins the sentence before it, and no piece is empty. None where ``value`` is no
    str (Python's pattern reads it, or raises).

    A 128-bit filter of the marks (by their code points' last seven bits) passes over
    most characters with one test; those it lets through are compared with the marks."""
    if type(value) is not str:
        return None
    cdef str text = <str> value
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text), i, start = 0, end
    cdef int kind = PyUnicode_KIND(text)
    cdef const void* data = PyUnicode_DATA(text)
    cdef Py_UCS4 ch
    cdef unsigned long long low = 0, high = 0
    cdef list merged = []
    for ch in anywhere:
        _filter_add(ch, &low, &high)
    for ch in before_space:
        _filter_add(ch, &low, &high)
    for i in range(n + 1):
        if i < n:
            ch = PyUnicode_READ(kind, data, i)
            if not _may_be(ch, low, high):
                continue
            if not (
                _one_of(ch, anywhere)
                or (_one_of(ch, before_space) and i + 1 < n and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i + 1)))
            ):
                continue
            end = i + 1
        else:
            end = n
        if merged and _tail_only(text, start, end, closers):
            if end > start:
                last = len(merged) - 1  # no negative index: the module does not wrap around
                merged[last] = merged[last] + text[start:end]
        elif end > start:
            merged.append(text[start:end])
        start = end
    return merged


def decisions(units not None, kept not None, by_pass not None, values not None, sentence_values not None,
              tuple at not None, samples not None, tuple outcomes not None, make not None):
    """denoise.decisions: for each unit, its kept text (or its ``code``), its outcome,
    its value and the value of the sentence that decided it, a ``make``
    (denoise.Decision) each, each step the Python expression of _decision on the unit's
    fields. ``at``: the places of the tag, the text, the post
    and the code in a unit; ``samples``: the tags of the samples (Unit.is_sample);
    ``outcomes``: as is, post, post rest, dropped, kept and partly kept. None where a
    unit is no tuple of those fields (Python reads it)."""
    cdef Py_ssize_t tag_at, text_at, post_at, code_at, needed
    cdef tuple fields
    tag_at, text_at, post_at, code_at = at
    needed = max(tag_at, text_at, post_at, code_at)
    if min(tag_at, text_at, post_at, code_at) < 0:
        return None
    as_is, post, post_rest, dropped, whole, partly = outcomes
    made = []
    for unit, kept_text, by, value, sentence_value in zip(units, kept, by_pass, values, sentence_values):
        if not isinstance(unit, tuple) or len(<tuple> unit) <= needed:
            return None
        fields = <tuple> unit
        text = kept_text or ""
        if fields[tag_at] not in samples:
            outcome = as_is
        elif by is not None:
            outcome = by
        elif fields[post_at]:
            outcome = post if fields[post_at] > 0 else post_rest
        elif not text:
            outcome = dropped
        else:
            outcome = whole if text == fields[text_at] else partly
        if fields[code_at] and text == fields[text_at]:
            text = fields[code_at]
        made.append(tuple.__new__(make, (text, outcome, value, sentence_value)))
    return made
