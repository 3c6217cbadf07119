"""Words and special marks of a tag's text (method.md, Step 2, T and S).

Chinese is segmented with jieba (the paper used ICTCLAS); other scripts are split
into runs of word characters. Three pseudo-words stand for an e-mail address, a URL
and a phone number, in Chinese and international forms, because each is a strong
sign of noise whatever its literal value.
"""

from __future__ import annotations

import functools
import logging
import re
import threading
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable

from webclean import core
from webclean.text import CJK_RE, LATIN_WORD_RE, WORD_RE

EMAIL = "<email>"
URL = "<url>"
PHONE = "<phone>"
PSEUDO_WORDS = (EMAIL, URL, PHONE)

# A text that does not end like a sentence counts as one extra special mark (Step 2, S).
NO_SENTENCE_END = "<no-end>"

# Repetitions are bounded (RFC 5321/1035 lengths): unbounded ones make these patterns
# quadratic on a long run of "a.a.a.…" without spaces.
_EMAIL_RE = r"(?<![\w.+-])[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}"
_URL_PREFIX_RE = r"(?:https?://|ftp://|www\.)[^\s<>\"'，。、）)】]{1,2000}"
_URL_DOMAIN_RE = (
    r"\b[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,6}\.(?:com|net|org|cn|gov|edu|info|io|de|uk|fr|jp)(?:\.[a-z]{2})?\b"
    r"(?:/[^\s<>\"'，。]{0,2000})?"
)
_PHONE_RE = (
    r"(?:\+|00)\d{1,3}[\s.-]?(?:\(\d{1,4}\)[\s.-]?)?\d{2,4}(?:[\s.-]?\d{2,4}){1,3}"  # +86 10 1234 5678
    r"|(?<!\d)1[3-9]\d{9}(?!\d)"  # Chinese mobile
    r"|(?<!\d)0\d{2,3}[-－—]\d{7,8}(?!\d)"  # Chinese landline 010-12345678
    r"|(?<!\d)\(?\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}(?!\d)"  # North American
    r"|(?<!\w)[（(]0\d{2,3}[）)]\s?\d{7,8}(?!\d)"  # (010)12345678
)


@functools.cache
def _pseudo_pattern(email: bool = True, domain: bool = True, phone: bool = True, prefix: bool = True) -> re.Pattern[str]:
    """The e-mail, URL and phone pattern, without the parts a text cannot match.

    The e-mail part tries a run of word characters before an "@" at every position,
    and the domain part a run of domain labels at every word: both are most of the
    pattern's cost, and most texts have no "@" and no ".com". Leaving out an
    alternative that matches nowhere in the text changes no match. ``prefix``: the
    URLs that open with a scheme or "www.".
    """
    urls = ([_URL_PREFIX_RE] if prefix else []) + ([_URL_DOMAIN_RE] if domain else [])
    parts = [f"(?P<email>{_EMAIL_RE})"] if email else []
    if urls:
        parts.append(f"(?P<url>{'|'.join(urls)})")
    if phone:
        parts.append(f"(?P<phone>{_PHONE_RE})")
    return re.compile("|".join(parts), re.IGNORECASE)


_PSEUDO_RE = _pseudo_pattern()
# What each part of the pattern needs: a domain part needs a top-level domain, a URL
# without one "://" or "www.".
_DOMAIN_HINT_RE = re.compile(r"\.(?:com|net|org|cn|gov|edu|info|io|de|uk|fr|jp)", re.IGNORECASE)
# A phone needs what an international one opens with ("+" or "00", a code and two groups
# of digits: the pattern's first parts, where "+" before a digit or a year such as 2008
# is none), seven digits in a row (Chinese mobile and landline, "(010)12345678") or two
# groups of three (North American).
_INTERNATIONAL_HINT_RE = re.compile(r"(?:\+|00)\d{1,3}[\s.-]?(?:\(\d{1,4}\)[\s.-]?)?\d{2,4}[\s.-]?\d\d")
_PHONE_HINT_RE = re.compile(r"\d\d\d(?:\d{4}|\)?[\s.-]\d{3})")
_URL_PREFIX_HINT_RE = re.compile(r"://|www\.", re.IGNORECASE)
_PSEUDO_BY_GROUP = {"email": EMAIL, "url": URL, "phone": PHONE}

# Sentence-final marks: the paper names 。 and . ; ！？ and their ASCII forms end sentences too.
SENTENCE_FINAL = frozenset("。．.！!？?…")
_CLOSERS = frozenset("\"'”’」』）)]】》")

_jieba_lock = threading.Lock()
_jieba_tokenizer = None


def _jieba():
    """The jieba tokenizer, initialised once per process (its dictionary load costs ~1 s)."""
    global _jieba_tokenizer
    if _jieba_tokenizer is None:
        with _jieba_lock:
            if _jieba_tokenizer is None:
                import jieba

                jieba.setLogLevel(logging.WARNING)
                tokenizer = jieba.Tokenizer()
                tokenizer.initialize()
                _jieba_tokenizer = tokenizer
    return _jieba_tokenizer


def has_cjk(text: str) -> bool:
    return CJK_RE.search(text) is not None


def words(text: str) -> list[str]:
    """Lower-cased words of ``text`` with pseudo-words in place of e-mails, URLs and phones."""
    out: list[str] = []
    pieces, pseudo = split_pseudo_words(text)
    for k, piece in enumerate(pieces):
        if k:
            out.append(pseudo[k - 1])
        out.extend(_plain_words(piece))
    return out


def split_pseudo_words(text: str) -> tuple[list[str], list[str]]:
    """``text`` (NFKC) cut at its e-mails, URLs and phones, and the pseudo-words cut out.

    The first list holds one piece more than the second: piece k comes before
    pseudo-word k.
    """
    text = nfkc(text)
    email = "@" in text
    domain = _DOMAIN_HINT_RE.search(text) is not None
    international = ("+" in text or "00" in text) and _INTERNATIONAL_HINT_RE.search(text) is not None
    phone = international or _PHONE_HINT_RE.search(text) is not None
    url = "://" in text or (("w." in text or "W." in text) and _URL_PREFIX_HINT_RE.search(text) is not None)
    if not (email or domain or phone or url):
        return [text], []
    pieces: list[str] = []
    pseudo: list[str] = []
    position = 0
    for match in _pseudo_pattern(email, domain, phone, url).finditer(text):
        pieces.append(text[position : match.start()])
        pseudo.append(_PSEUDO_BY_GROUP[match.lastgroup or "url"])
        position = match.end()
    pieces.append(text[position:])
    return pieces, pseudo


def nfkc(text: str) -> str:
    """``unicodedata.normalize("NFKC", text)``, faster on Chinese text: the compiled core
    decides a text whose every character is one of nfkc_table's, unicode_nfkc the rest."""
    if core.compiled is not None:
        normal = compiled_nfkc()(text)
        if normal is not None:
            return normal
    return unicode_nfkc(text)


def unicode_nfkc(text: str) -> str:
    """``unicodedata.normalize("NFKC", text)``, by unicodedata.

    Most Chinese text is not in NFKC only for its full-width punctuation (，：（）),
    which NFKC maps to ASCII one for one; doing that first with a regular expression
    leaves the rare rest to NFKC, and gives the same string (NFKC maps those
    characters to exactly these).
    """
    if unicodedata.is_normalized("NFKC", text):
        return text
    text = half_width(text)
    return text if unicodedata.is_normalized("NFKC", text) else unicodedata.normalize("NFKC", text)


# The blocks of the Basic Multilingual Plane whose characters nfkc_table decides one by
# one: the scripts and punctuation of the dev data's pages (Latin, Greek, Cyrillic,
# general punctuation, symbols, CJK punctuation, kana, ideographs, full-width forms).
# The halfwidth Hangul letters (U+FFA0-FFDC) are left out: NFKC makes them jamo that
# join the syllable before them.
NFKC_BLOCKS = (
    (0x0000, 0x024F), (0x0370, 0x04FF), (0x2000, 0x206F), (0x20A0, 0x20CF), (0x2100, 0x22FF),
    (0x2460, 0x25FF), (0x3000, 0x30FF), (0xFF00, 0xFF9F), (0xFFE0, 0xFFEF),
)  # fmt: skip
# The ideographs of CJK Unified Ideographs and its Extension A: each is in NFKC, and a
# starter that composes with nothing (tests/test_core_features.py checks every one; the
# compiled core takes U+4E00-9FFF and ASCII as they are without reading the table).
NFKC_IDEOGRAPHS = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF))
_LONGEST_MAPPING = 8


def nfkc_table() -> tuple[bytes, dict[int, str]]:
    """The characters whose NFKC a text's NFKC is made of, whatever characters surround
    them: a byte a code point of the Basic Multilingual Plane (1: NFKC leaves it as it is,
    2: it maps it, 0: not one of them), and what each mapped one becomes.

    A character of NFKC_BLOCKS or NFKC_IDEOGRAPHS is one where it, the first character of
    its compatibility decomposition and every character of its NFKC are starters
    (canonical combining class 0): NFKC then neither reorders nor composes across it, as
    none of them is the second character of a canonical composition (tests/test_core_features.py
    checks that against every composition of Unicode), so the NFKC of a text of such
    characters is the NFKC of each, one after the other."""
    kinds = bytearray(0x10000)
    mapped: dict[int, str] = {}
    for first, last in NFKC_IDEOGRAPHS:
        kinds[first : last + 1] = b"\x01" * (last + 1 - first)
    for first, last in NFKC_BLOCKS:
        for cp in range(first, last + 1):
            ch = chr(cp)
            normal = unicodedata.normalize("NFKC", ch)
            if (
                unicodedata.combining(ch)
                or unicodedata.combining(unicodedata.normalize("NFKD", ch)[0])
                or any(unicodedata.combining(part) for part in normal)
                or len(normal) > _LONGEST_MAPPING
            ):
                continue
            kinds[cp] = 1 if normal == ch else 2
            if normal != ch:
                mapped[cp] = normal
    return bytes(kinds), mapped


@functools.cache
def compiled_nfkc() -> Callable[[str], str | None]:
    """The compiled core's NFKC of nfkc_table (core.compiled.Nfkc): None for a text it
    does not decide."""
    assert core.compiled is not None
    return core.compiled.Nfkc(*nfkc_table())


# ASCII's printable characters in their full-width forms, which NFKC moves down by
# _FULL_WIDTH_SHIFT, and the ideographic space, which it makes a space.
_FULL_WIDTH = (0xFF01, 0xFF5E)
_FULL_WIDTH_SHIFT = 0xFEE0
_IDEOGRAPHIC_SPACE = 0x3000
_FULL_WIDTH_RE = re.compile(f"[{chr(_FULL_WIDTH[0])}-{chr(_FULL_WIDTH[1])}{chr(_IDEOGRAPHIC_SPACE)}]")


def half_width(text: str) -> str:
    """``text`` with the full-width forms of ASCII's printable characters and the
    ideographic space made ASCII, as NFKC makes them."""
    if core.compiled is not None:  # one pass in C (webclean/_core_sums.pxi)
        return core.compiled.half_width(text, *_FULL_WIDTH, _FULL_WIDTH_SHIFT, _IDEOGRAPHIC_SPACE)
    return _FULL_WIDTH_RE.sub(_half_width, text)


def _half_width(match: re.Match[str]) -> str:
    ch = match.group()
    return " " if ord(ch) == _IDEOGRAPHIC_SPACE else chr(ord(ch) - _FULL_WIDTH_SHIFT)


def cjk_chars(text: str) -> list[str]:
    """The CJK ideographs of ``text``, one by one."""
    return CJK_RE.findall(text)


def latin_words(text: str) -> list[str]:
    """The runs of word characters of ``text`` outside CJK ideographs, as they are."""
    return LATIN_WORD_RE.findall(text)


def _plain_words(text: str) -> Iterable[str]:
    if not text:
        return ()
    if has_cjk(text):
        return [w.lower() for w in _jieba().lcut(text, HMM=True) if WORD_RE.search(w)]
    return [w.lower() for w in WORD_RE.findall(text)]


def special_marks(text: str) -> Counter[str]:
    """Punctuation and symbols of ``text``, plus NO_SENTENCE_END where it applies.

    Which marks matter is learned from counts (lexicon.py), so every punctuation or
    symbol character is a candidate here.
    """
    marks: Counter[str] = Counter(marks_of(text))
    if not ends_sentence(text):
        marks[NO_SENTENCE_END] += 1
    return marks


def marks_of(text: str) -> list[str]:
    """The punctuation and symbol characters of ``text`` (Unicode categories P and S), in order.

    The regular expression finds the characters that are neither word characters nor
    white space in one pass in C; only those few are checked one by one.
    """
    found = _MARK_CANDIDATE_RE.findall(text)
    if not found:
        return found
    is_mark = _IS_MARK
    return [ch for ch in found if is_mark.get(ch) or (is_mark.get(ch) is None and _learn_mark(ch))]


# Not a word character (str.isalnum or "_") nor white space (str.isspace), or "_",
# which is punctuation (Pc): the characters that can be marks.
_MARK_CANDIDATE_RE = re.compile(r"[^\w\s]|_")
# Whether a candidate character is a mark; filled as characters are met (at most one
# entry per distinct character, so bounded by Unicode's size).
_IS_MARK: dict[str, bool] = {}


def _learn_mark(ch: str) -> bool:
    _IS_MARK[ch] = mark = _is_mark(ch)
    return mark


def ends_sentence(text: str) -> bool:
    stripped = text.rstrip()
    while stripped and stripped[-1] in _CLOSERS:
        stripped = stripped[:-1].rstrip()
    return bool(stripped) and stripped[-1] in SENTENCE_FINAL


def _is_mark(ch: str) -> bool:
    if ch.isalnum() or ch.isspace():
        return False
    return unicodedata.category(ch)[0] in "PS"


# A cut of split_sentences, after the mark matched: 。！？； anywhere, . ! ? before white
# space. The pattern opens with the marks, so that the text is searched for them in C
# (a pattern of look-arounds alone is tried at every position).
_CUT_ANYWHERE = "。！？；"
_CUT_BEFORE_SPACE = ".!?"
_SENTENCE_CUT_RE = re.compile("[" + re.escape(_CUT_ANYWHERE) + "]|[" + re.escape(_CUT_BEFORE_SPACE) + r"](?=\s)")
# A piece of white space and closing quotes only, which belongs to the sentence before.
_CLOSER_CHARS = "".join(sorted(_CLOSERS))
_SENTENCE_TAIL_RE = re.compile(r"[\s" + re.escape(_CLOSER_CHARS) + r"]*")
# The sentence ends split_sentences finds, one match each: a cut after 。！？ (not ；), or
# after . ! ? before white space; and a final mark that is not a cut, before nothing
# but white space and closers (the last sentence ends like a sentence). The pattern
# opens with the marks themselves, so that the text is searched for them in C.
_END_ANYWHERE = "".join(mark for mark in _CUT_ANYWHERE if mark in SENTENCE_FINAL)  # 。！？: the cuts that end a sentence
_SENTENCE_END_RE = re.compile(
    "[" + re.escape("".join(sorted(SENTENCE_FINAL))) + "](?:(?<=[" + re.escape(_END_ANYWHERE) + "])|(?<=["
    + re.escape(_CUT_BEFORE_SPACE) + r"])(?=\s)|(?=[\s" + re.escape(_CLOSER_CHARS) + r"]*\Z))"
)


def split_sentences(text: str) -> list[str]:
    """Cut after 。！？； anywhere and after . ! ? when a space follows (Step 4).

    A sentence keeps its final mark and the cuts lose no character, so joining the
    pieces gives ``text`` back.
    """
    if core.compiled is not None:
        sentences = core.compiled.split_sentences(text, _CUT_ANYWHERE, _CUT_BEFORE_SPACE, _CLOSER_CHARS)
        if sentences is not None:
            return sentences
    cuts = [match.end() for match in _SENTENCE_CUT_RE.finditer(text)]
    merged: list[str] = []
    for start, end in zip([0, *cuts], [*cuts, len(text)]):
        piece = text[start:end]
        if merged and _SENTENCE_TAIL_RE.fullmatch(piece):
            merged[-1] += piece
        elif piece:
            merged.append(piece)
    return merged


def sentence_ends(text: str) -> int:
    """How many of ``split_sentences(text)`` end like a sentence (:func:`ends_sentence`).

    Counted in one pass of a regular expression, without cutting the text: every
    piece but the last ends at a cut, and ends a sentence unless it ends in ；; the
    last piece ends one when the text's final mark is not a cut.
    """
    return len(_SENTENCE_END_RE.findall(text))
