# The noise lexicon's lookups over a page's texts (lexicon.NoiseLexicon.indices and
# line_indices), included in webclean/_core.pyx after _core_page.pxi: the same module,
# its cimports and helpers (_Ranges, _read_ranges) in scope. A text is read where Python
# keeps it; NFKC from the table of Nfkc where it decides the text; what Python does best
# (NFKC of other texts, lower-casing, the e-mail, URL and phone pattern, the automaton of
# CJK words) the Python functions handed over still do.

from cpython.unicode cimport Py_UNICODE_ISALNUM, Py_UNICODE_ISDIGIT, Py_UNICODE_TOLOWER, PyUnicode_GET_LENGTH

cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object text)

# The latin words and stop words by a text's slice (WordTable).
include "_core_words.pxi"


cdef inline bint _alnum(Py_UCS4 ch) noexcept:
    """str.isalnum of ``ch`` (the regular expressions' \\w but "_"), ASCII looked up first."""
    if ch < 128:
        return (u"0" <= ch <= u"9") or (u"a" <= ch <= u"z") or (u"A" <= ch <= u"Z")
    return Py_UNICODE_ISALNUM(ch)


cdef inline bint _decimal(Py_UCS4 ch) noexcept:
    """str.isdecimal of ``ch`` (the regular expressions' \\d), ASCII looked up first."""
    if ch < 128:
        return u"0" <= ch <= u"9"
    return Py_UNICODE_ISDECIMAL(ch)


def _is_alnum(Py_UCS4 ch):
    """Whether the lookups read ``ch`` as alphanumeric (tests compare it with str.isalnum)."""
    return _alnum(ch)


def _is_decimal(Py_UCS4 ch):
    """Whether the lookups read ``ch`` as a decimal digit (tests compare it with str.isdecimal)."""
    return _decimal(ch)


cdef str _str_lower(str text):
    """``text.lower()``, without a copy where no character changes (most CJK text), and
    in C where only ASCII capitals change. A character beyond ASCII that
    Py_UNICODE_TOLOWER leaves as it is, str.lower leaves too (the tests check every code
    point); where another one changes, str.lower decides (a mapping to two characters, a
    final sigma)."""
    cdef int kind = PyUnicode_KIND(text)
    cdef const void* data = PyUnicode_DATA(text)
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text), i
    cdef Py_UCS4 ch
    cdef bint capitals = False
    cdef Py_UCS4* out
    if PyUnicode_IS_ASCII(text):
        return text.lower()
    for i in range(n):
        ch = PyUnicode_READ(kind, data, i)
        if ch < 128:
            capitals = capitals or u"A" <= ch <= u"Z"
        elif Py_UNICODE_TOLOWER(ch) != ch:
            return text.lower()
    if not capitals:
        return text
    out = <Py_UCS4*> malloc(n * sizeof(Py_UCS4))
    if out is NULL:
        raise MemoryError()
    try:
        for i in range(n):
            ch = PyUnicode_READ(kind, data, i)
            if u"A" <= ch <= u"Z":
                ch = <Py_UCS4> (<unsigned int> ch + 32)
            out[i] = ch
        return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, out, n)
    finally:
        free(out)


def _lowered_text(str text not None):
    """What the lookups take for ``text.lower()`` (tests compare it with str.lower)."""
    return _str_lower(text)


cdef inline bint _in_ranges(Py_UCS4 ch, const _Ranges* ranges) noexcept nogil:
    cdef Py_ssize_t k
    for k in range(ranges.n):
        if ranges.lows[k] <= ch <= ranges.highs[k]:
            return True
    return False


cdef inline int _token_class(Py_UCS4 ch, const _Ranges* ideographs) noexcept:
    """Which alternative of lexicon._KEY_TOKEN_RE ``ch`` opens: 1 a CJK ideograph, 2 a
    run of word characters other than digits, "_" and ideographs, 3 a run of digits (the
    regular expression's \\d, Python's isdecimal; its \\w is isalnum or "_"); 0 none."""
    if _in_ranges(ch, ideographs):
        return 1
    if _decimal(ch):
        return 3
    if _alnum(ch):
        return 2
    return 0


cdef Py_ssize_t _key_tokens(str text, Py_ssize_t* starts, Py_ssize_t* ends, Py_ssize_t limit, const _Ranges* ideographs) noexcept:
    """Where the first ``limit`` tokens of lexicon._KEY_TOKEN_RE lie in ``text``, and how many there are."""
    cdef int kind = PyUnicode_KIND(text), opened
    cdef const void* data = PyUnicode_DATA(text)
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text), i = 0, found = 0
    while i < n and found < limit:
        opened = _token_class(PyUnicode_READ(kind, data, i), ideographs)
        if opened == 0:
            i += 1
            continue
        starts[found] = i
        i += 1
        if opened != 1:
            while i < n and _token_class(PyUnicode_READ(kind, data, i), ideographs) == opened:
                i += 1
        ends[found] = i
        found += 1
    return found


cdef inline double _added(list terms):
    """Python's sum of ``terms`` (floats), 0.0 for none. Two floats add as C adds them,
    whichever way Python sums; more are left to Python's sum (exact from 3.12 on)."""
    cdef Py_ssize_t n = len(terms)
    if n == 0:
        return 0.0
    if n == 1:
        return <double> terms[0]
    if n == 2:
        return <double> terms[0] + <double> terms[1]
    return <double> sum(terms)


cdef bint _exact_weights(weights):
    """Whether every weight is a float above 0 and finite: the lookups below leave out
    the missing words' 0.0 (which changes no sum) and take the heaviest key's weight."""
    if type(weights) is not dict:
        return False
    for value in (<dict> weights).values():
        if type(value) is not float or not (0.0 < <double> value < float("inf")):
            return False
    return True


cdef class Nfkc:
    """NFKC of the texts whose every character it can decide alone (tokenize.nfkc_table):
    those characters and what NFKC makes of each, in a table of the Basic Multilingual
    Plane's code points. :meth:`normalize` gives None for a text that holds any other
    character, where unicodedata decides (tokenize.nfkc)."""

    cdef unsigned short* index  # a code point's entry: 0 not decided here, 1 itself, k > 1 the (k - 2)th mapping
    cdef Py_UCS4* pool  # the mappings' characters, one after another
    cdef Py_ssize_t* starts  # where each mapping starts in the pool
    cdef unsigned char* lengths  # and how many characters it holds

    def __cinit__(self):
        self.index = NULL
        self.pool = NULL
        self.starts = NULL
        self.lengths = NULL

    def __init__(self, bytes kinds not None, dict mapped not None):
        """``kinds``: a byte a code point of the plane, 1 for a character NFKC leaves as it is,
        2 for one it maps (to ``mapped[code point]``), 0 for one it does not decide alone."""
        cdef Py_ssize_t cp, k = 0, at = 0, size
        if len(kinds) != 0x10000 or len(mapped) > 0xFFF0:
            raise ValueError("a kind for each of the 65,536 code points, and fewer mappings")
        size = sum(len(value) for value in mapped.values())
        self.index = <unsigned short*> calloc(0x10000, sizeof(unsigned short))
        self.pool = <Py_UCS4*> malloc((size + 1) * sizeof(Py_UCS4))
        self.starts = <Py_ssize_t*> malloc((len(mapped) + 1) * sizeof(Py_ssize_t))
        self.lengths = <unsigned char*> malloc(len(mapped) + 1)
        if self.index is NULL or self.pool is NULL or self.starts is NULL or self.lengths is NULL:
            raise MemoryError()
        for cp in range(0x10000):
            if kinds[cp] == 1:
                self.index[cp] = 1
            elif kinds[cp] == 2:
                value = mapped[cp]
                if not 0 < len(value) < 256:
                    raise ValueError(f"U+{cp:04X} maps to {len(value)} characters")
                self.index[cp] = <unsigned short> (k + 2)
                self.starts[k], self.lengths[k] = at, <unsigned char> len(value)
                for ch in value:
                    self.pool[at] = ord(ch)
                    at += 1
                k += 1

    def __dealloc__(self):
        free(self.index)
        free(self.pool)
        free(self.starts)
        free(self.lengths)

    def __call__(self, str text not None):
        return self.normalize(text)

    cdef inline unsigned short _entry(self, Py_UCS4 ch) noexcept:
        """The table's entry of ``ch``; ASCII and the ideographs U+4E00-9FFF, which NFKC
        leaves as they are, without reading the table's memory."""
        if ch < 0x80 or 0x4E00 <= ch <= 0x9FFF:
            return 1
        return self.index[ch] if ch <= 0xFFFF else 0

    cdef object normalize(self, str text):
        """NFKC of ``text``, ``text`` itself where it is in NFKC; None where a character is
        not decided here."""
        cdef int kind = PyUnicode_KIND(text)
        cdef const void* data = PyUnicode_DATA(text)
        cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text), i, size = 0, j, k
        cdef Py_UCS4 ch
        cdef unsigned short entry
        cdef bint same = True
        cdef Py_UCS4* out
        for i in range(n):
            entry = self._entry(PyUnicode_READ(kind, data, i))
            if entry == 0:
                return None
            if entry == 1:
                size += 1
            else:
                same = False
                size += self.lengths[entry - 2]
        if same:
            return text
        out = <Py_UCS4*> malloc(size * sizeof(Py_UCS4))
        if out is NULL:
            raise MemoryError()
        try:
            j = 0
            for i in range(n):
                ch = PyUnicode_READ(kind, data, i)
                entry = self._entry(ch)
                if entry == 1:
                    out[j] = ch
                    j += 1
                else:
                    for k in range(self.starts[entry - 2], self.starts[entry - 2] + self.lengths[entry - 2]):
                        out[j] = self.pool[k]
                        j += 1
            return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, out, size)
        finally:
            free(out)


cdef class Lexicon:
    """A NoiseLexicon's tables (its fields, and what it derives from them), for the
    lookups of :meth:`indices` and :meth:`line_indices`, exactly NoiseLexicon's, and
    for text_columns (_core_text.pxi), which reads the marks' weights too. They
    return None where a text is no str or the tables hold what they do not handle (a
    weight that is no float above 0; then the Python methods run).

    tokenize.split_pseudo_words runs only where _pseudo_hints says it may find an
    e-mail, a URL or a phone: where the text, NFKC, holds "@", "://", "w." or "W.", "." before a
    letter that can open a domain's ending (or any character beyond ASCII), "+" before a
    digit, seven digits in a row, three digits and three more across a space, "." or "-"
    (a ")" before it or not), or "00" before five digits among such marks (tokenize's
    hints all need one of these); the text whole, NFKC, is its one piece elsewhere, which
    is what split_pseudo_words gives.
    """

    cdef dict words, latin, marks, lines
    cdef WordTable word_table  # latin and stopwords, by a text's slice
    cdef frozenset stopwords, heads
    cdef object cjk_matcher, nfkc, split_pseudo_words
    cdef Nfkc fast_nfkc
    cdef tuple leads, lead_prefixes
    cdef Py_ssize_t key_tokens, keyed_chars, head_chars, prefix_chars  # the longest of lead_prefixes and "="
    cdef _Ranges ideographs
    cdef bint exact
    cdef Py_ssize_t stop_low, stop_high
    cdef unsigned char* stop_ideographs  # a bit for each ideograph from stop_low up that is a stop word
    cdef Py_ssize_t* starts
    cdef Py_ssize_t* ends

    def __cinit__(self):
        self.stop_ideographs = NULL
        self.starts = NULL
        self.ends = NULL

    def __init__(self, words, latin, marks, stopwords, cjk_matcher, lines, frozenset heads not None, Py_ssize_t key_tokens,
                 tuple leads not None, Py_ssize_t keyed_chars, Py_ssize_t head_chars, tuple ideographs not None, nfkc,
                 split_pseudo_words, Nfkc fast_nfkc=None):
        cdef Py_ssize_t ch
        if not _read_ranges(&self.ideographs, ideographs):
            raise ValueError(f"more than {_MAX_RANGES} ranges")
        self.exact = (
            _exact_weights(words) and _exact_weights(latin) and _exact_weights(marks) and _exact_weights(lines)
            and type(stopwords) is frozenset and _str_keys(latin) and _str_keys(stopwords)
            and key_tokens >= 0 and all(type(k) is int and k >= 0 for k in leads)
        )
        if not self.exact:
            return
        self.words, self.latin, self.marks, self.lines, self.stopwords, self.heads = words, latin, marks, lines, stopwords, heads
        self.word_table = WordTable(latin, stopwords)
        self.cjk_matcher, self.nfkc, self.split_pseudo_words, self.fast_nfkc = cjk_matcher, nfkc, split_pseudo_words, fast_nfkc
        self.leads, self.key_tokens, self.keyed_chars, self.head_chars = leads, key_tokens, keyed_chars, head_chars
        self.lead_prefixes = tuple([f"{k}<" for k in leads])
        self.prefix_chars = max([1] + [len(prefix) for prefix in self.lead_prefixes])
        self.starts = <Py_ssize_t*> malloc((key_tokens + 2) * sizeof(Py_ssize_t))
        self.ends = <Py_ssize_t*> malloc((key_tokens + 2) * sizeof(Py_ssize_t))
        if self.starts is NULL or self.ends is NULL:
            raise MemoryError()
        self.stop_low, self.stop_high = 0x10FFFF, 0
        ideograph_stops = [ord(word) for word in stopwords if len(word) == 1 and _in_ranges(ord(word), &self.ideographs)]
        for ch in ideograph_stops:
            self.stop_low, self.stop_high = min(self.stop_low, ch), max(self.stop_high, ch)
        if ideograph_stops:
            self.stop_ideographs = <unsigned char*> calloc((self.stop_high - self.stop_low) // 8 + 1, 1)
            if self.stop_ideographs is NULL:
                raise MemoryError()
            for ch in ideograph_stops:
                self.stop_ideographs[(ch - self.stop_low) >> 3] |= 1 << ((ch - self.stop_low) & 7)

    def __dealloc__(self):
        free(self.stop_ideographs)
        free(self.starts)
        free(self.ends)

    cdef inline bint _stop_ideograph(self, Py_UCS4 ch) noexcept:
        cdef Py_ssize_t at = <Py_ssize_t> ch - self.stop_low
        if self.stop_ideographs is NULL or at < 0 or <Py_ssize_t> ch > self.stop_high:
            return False
        return (self.stop_ideographs[at >> 3] >> (at & 7)) & 1

    cdef str _lowered(self, str text):
        """``nfkc(text).lower()``: an ASCII text is NFKC already."""
        if PyUnicode_IS_ASCII(text):
            return text.lower()
        return _str_lower(self._nfkc(text))

    cdef str _nfkc(self, str text):
        """``nfkc(text)``: from the compiled table where it decides every character (Nfkc),
        else by the Python function handed over (tokenize.unicode_nfkc)."""
        cdef object normal = None if self.fast_nfkc is None else self.fast_nfkc.normalize(text)
        return <str> (self.nfkc(text) if normal is None else normal)

    def indices(self, list texts not None):
        """NoiseLexicon.indices: T of each text and its stop-word density."""
        cdef list out = []
        cdef double t, density
        if not self.exact:
            return None
        for text in texts:
            if type(text) is not str:
                return None
            self._index(<str> text, &t, &density)
            out.append((t, density))
        return out

    def line_indices(self, list texts not None):
        """NoiseLexicon.line_indices: the weight of each text's heaviest line key."""
        cdef list out = []
        if not self.exact:
            return None
        for text in texts:
            if type(text) is not str:
                return None
            out.append(self._line_weight(<str> text))
        return out

    cdef int _index(self, str text, double* t, double* density) except -1:
        """T of ``text`` and its stop-word density (NoiseLexicon.indices)."""
        cdef list terms
        cdef str plain
        cdef double total = 0.0
        cdef Py_ssize_t n, i, start, hits = 0, count = 0
        cdef int kind
        cdef const void* data
        cdef Py_UCS4 ch
        cdef bint any_ideograph = False
        cdef WordSlot* slot
        plain = text if PyUnicode_IS_ASCII(text) else self._nfkc(text)
        if _pseudo_hints(plain):
            pieces, pseudo = self.split_pseudo_words(text)
            if pseudo:
                total = _added([value for value in map(self.words.get, pseudo) if value is not None])
                plain = " ".join(pieces)
            else:
                plain = pieces[0]
        plain = _str_lower(plain)
        kind, data, n = PyUnicode_KIND(plain), PyUnicode_DATA(plain), PyUnicode_GET_LENGTH(plain)
        terms = []
        i = 0
        while i < n:
            ch = PyUnicode_READ(kind, data, i)
            if _in_ranges(ch, &self.ideographs):
                any_ideograph = True
                i += 1
                continue
            if not _alnum(ch):
                i += 1
                continue
            start = i
            i += 1
            while i < n:
                ch = PyUnicode_READ(kind, data, i)
                if not _alnum(ch) or _in_ranges(ch, &self.ideographs):
                    break
                i += 1
            slot = self.word_table.find(kind, data, start, i)
            if slot.chars is not NULL:
                if slot.weight is not NULL:
                    terms.append(<object> slot.weight)
                hits += slot.stop
            count += 1
        total += _added(terms)
        if any_ideograph:
            if self.cjk_matcher is not None:
                total += _added([self.words[word] for word in self.cjk_matcher.find_matches_as_strings(plain)])
            for i in range(n):
                ch = PyUnicode_READ(kind, data, i)
                if _in_ranges(ch, &self.ideographs):
                    hits += self._stop_ideograph(ch)
                    count += 1
        t[0] = total
        density[0] = hits / <double> count if count else 0.0
        return 0

    cdef double _line_weight(self, str text) except -1.0:
        """NoiseLexicon.line_indices's weight of ``text``."""
        if not self.heads or self._opens_with_none_of(text):
            return 0.0
        return self._heaviest_key(text)

    cdef bint _opens_with_none_of(self, str text) except -1:
        """lexicon._opens_with_none_of."""
        cdef str head = self._lowered(text[: self.head_chars])
        cdef Py_ssize_t start, end
        if _key_tokens(head, &start, &end, 1, &self.ideographs) == 0:
            return len(text) <= self.head_chars
        return end < len(head) and self._key_token(head, start, end) not in self.heads

    cdef inline str _key_token(self, str text, Py_ssize_t start, Py_ssize_t end):
        """lexicon._key_token of ``text[start:end]``."""
        if Py_UNICODE_ISDIGIT(text[start]):
            return "0"
        return text[start:end]

    cdef double _heaviest_key(self, str text) except -1.0:
        """The heaviest weight of lexicon.line_keys(text, key_tokens) in the line lexicon,
        0.0 for none. Each key is written once into a buffer, as line_keys joins it."""
        cdef Py_ssize_t limit = self.key_tokens + 2, found, size, k
        cdef str lowered = self._lowered(text[: self.keyed_chars])
        cdef double heaviest = 0.0
        cdef Py_UCS4* key
        found = _key_tokens(lowered, self.starts, self.ends, limit, &self.ideographs)
        if found <= self.key_tokens + 1 and len(text) > self.keyed_chars:
            lowered = self._lowered(text)
            found = _key_tokens(lowered, self.starts, self.ends, limit, &self.ideographs)
        found = min(found, self.key_tokens + 1)
        size = PyUnicode_GET_LENGTH(lowered) + found + self.prefix_chars
        key = <Py_UCS4*> malloc(size * sizeof(Py_UCS4))
        if key is NULL:
            raise MemoryError()
        try:
            if 0 < found <= self.key_tokens:
                heaviest = max(heaviest, self._key_weight(key, "=", lowered, found))
            for k, prefix in zip(self.leads, self.lead_prefixes):
                if found > <Py_ssize_t> k:
                    heaviest = max(heaviest, self._key_weight(key, <str> prefix, lowered, k))
        finally:
            free(key)
        return heaviest

    cdef double _key_weight(self, Py_UCS4* key, str prefix, str lowered, Py_ssize_t count) except -1.0:
        """The weight in the line lexicon (0.0 for none) of the key ``prefix`` and the
        first ``count`` tokens of ``lowered`` (self.starts, self.ends) make, the tokens
        parted by spaces, a number's "0" (lexicon._key_token); ``key`` holds it."""
        cdef int kind = PyUnicode_KIND(lowered)
        cdef const void* data = PyUnicode_DATA(lowered)
        cdef Py_ssize_t at = 0, k, i
        for ch in prefix:
            key[at] = ch
            at += 1
        for k in range(count):
            if k:
                key[at] = u" "
                at += 1
            if Py_UNICODE_ISDIGIT(PyUnicode_READ(kind, data, self.starts[k])):
                key[at] = u"0"
                at += 1
                continue
            for i in range(self.starts[k], self.ends[k]):
                key[at] = PyUnicode_READ(kind, data, i)
                at += 1
        value = self.lines.get(PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, key, at))
        return 0.0 if value is None else <double> value


cdef inline bint _phone_space(Py_UCS4 ch) noexcept:
    # What may part the groups of a phone's digits in tokenize's patterns: \s, "." or "-".
    return Py_UNICODE_ISSPACE(ch) or ch == u"." or ch == u"-"


cdef bint _digits_after(int kind, const void* data, Py_ssize_t n, Py_ssize_t i, Py_ssize_t count) noexcept:
    """Whether ``count`` decimal digits start at ``i``."""
    cdef Py_ssize_t k
    if i + count > n:
        return False
    for k in range(i, i + count):
        if not _decimal(PyUnicode_READ(kind, data, k)):
            return False
    return True


cdef bint _pseudo_hints(str text) noexcept:
    """Whether split_pseudo_words may find a pseudo-word in ``text`` (NFKC): Lexicon's docstring says where."""
    cdef int kind = PyUnicode_KIND(text)
    cdef const void* data = PyUnicode_DATA(text)
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text), i, j, digits = 0, found
    cdef Py_UCS4 ch, after
    for i in range(n):
        ch = PyUnicode_READ(kind, data, i)
        if _decimal(ch):
            digits += 1
            if digits == 7:
                return True
            continue
        if digits >= 3:  # three digits, ")" or not, a space, "." or "-", three digits
            j = i + 1 if ch == u")" else i
            if j < n and _phone_space(PyUnicode_READ(kind, data, j)) and _digits_after(kind, data, n, j + 1, 3):
                return True
        digits = 0
        after = PyUnicode_READ(kind, data, i + 1) if i + 1 < n else 0
        if ch == u"@":
            return True
        if ch == u"." and (after > 127 or after in u"cnogeidufjCNOGEIDUFJ"):
            return True
        if (ch == u"w" or ch == u"W") and after == u".":
            return True
        if ch == u":" and after == u"/" and i + 2 < n and PyUnicode_READ(kind, data, i + 2) == u"/":
            return True
        if ch == u"+" and after and _decimal(after):
            return True
    # "00" and a digit, then five digits among spaces, ".", "-" and parentheses: an
    # international number's least (tokenize._INTERNATIONAL_HINT_RE).
    for i in range(n - 2):
        if PyUnicode_READ(kind, data, i) == u"0" and PyUnicode_READ(kind, data, i + 1) == u"0" and _decimal(
            PyUnicode_READ(kind, data, i + 2)
        ):
            found = 0
            for j in range(i + 2, n):
                ch = PyUnicode_READ(kind, data, j)
                if _decimal(ch):
                    found += 1
                    if found == 5:
                        return True
                elif not (_phone_space(ch) or ch == u"(" or ch == u")"):
                    break
    return False


include "_core_text.pxi"
