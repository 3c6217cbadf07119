"""The compiled core's lexicon lookups and text columns (webclean/_core_lexicon.pxi and
_core_text.pxi) give exactly what the Python path gives: the lexicon's T, stop-word
density and line weights, and the text columns of method svm's features, to the last
bit, run both ways as tests/test_core.py runs the rest of the core."""

from __future__ import annotations

import dataclasses
import struct
import sys
import unicodedata
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_core import FUZZ, GOLDEN, _core, _page_body, both, needs_core

from webclean import core, line_features, tokenize
from webclean import segment as segment_module
from webclean.config import Config
from webclean.extract import ClassifiedPage, classify_page
from webclean.features import feature_matrix
from webclean.lexicon import NoiseLexicon, line_keys
from webclean.model import default_model
from webclean.segment import segment
from webclean.tokenize import split_sentences
from webclean.units import Unit

# --- the lexicon's lookups (lexicon.NoiseLexicon.indices and line_indices) ----------------


def _tables(lexicon: NoiseLexicon) -> Any:
    """The lexicon's compiled tables, made by the extension whichever path runs."""
    saved = core.compiled
    try:
        core.compiled = _core
        return lexicon.core_tables
    finally:
        core.compiled = saved


def _float_bits(value: Any) -> Any:
    """``value`` with every float as its bits: -0.0 and 0.0 differ, as do NaNs."""
    if isinstance(value, float):
        return struct.pack("<d", value)
    if isinstance(value, (list, tuple)):
        return [_float_bits(item) for item in value]
    if isinstance(value, np.ndarray):
        return value.dtype, value.shape, value.tobytes()
    return value


def assert_same_bits(compiled: Any, python: Any) -> None:
    assert _float_bits(compiled) == _float_bits(python)


# A lexicon of a few words, marks and line keys in several scripts, with the heads of
# the line keys that most lines open with and stop words among the ideographs.
_SMALL_LEXICON = NoiseLexicon(
    words={"share": 2.0, "分享": 3.0, "责任编辑": 2.5, "编辑": 1.0, "more": 0.25, "²x": 0.5, "ǆ": 1.5, "σας": 0.75,
           "<email>": 4.0, "<url>": 3.5, "<phone>": 1.25, "0": 0.125},
    marks={"|": 3.0, "，": 0.5, "<no-end>": 5.0},
    stopwords=frozenset({"the", "of", "的", "在", "a", "ǆ"}),
    lines={"=share this story": 9.0, "1<photo": 3.0, "2<photo 0": 4.5, "=责 任 编 辑": 6.0, "1<责": 1.0, "3<the end of": 0.5,
           "1<0": 0.25, "=ǆ": 2.0, "=²x": 1.5},
    line_key_tokens=3,
)  # fmt: skip
_LEXICON_TEXTS = [
    "", " ", "Share this story", "share THIS story!", "Photo: John Smith / Reuters, 2024", "photo 12", "²x ²y",
    "责任编辑：王小明", "责任编辑", "分享到微信 更多", "在北京的新闻", "ＳＨＡＲＥ　ｔｈｉｓ　ｓｔｏｒｙ", "Ǆ", "ǅ ǆ", "ΣΑΣ σας", "İstanbul",
    "mail me: someone@example.com or call +86 10 1234 5678", "see www.example.org/page or https://a.b/c", "e.g. 3 cats",
    "Now. Then w.x", "a.Com b.ıo", "call 010-12345678 today", "tel (555) 123 4567", "+1", "00x", "the end of it all",
    "_under_score_ and 12_34", "١٢٣ digits ٤", "Ⅻ roman", "x" * 250, "photo " + "word " * 60, "photo" + " " * 300 + "x",
    "the " * 45 + "end", "\u3000" * 50 + "photo", "é" * 39 + "a b", "a\u0301 e\u0301", "ﬁ ligature", "\U0001F600 emoji 分享",
    # the phones' hints at their edges: seven digits, 3 and 3 across a mark, "00" before five digits
    "1234567", "123456", "123) 456", "123)456", "123-45", "2008年12月31日", "0012345", "00 12345", "001 (2) 34-5", "001 (2) 3x45",
    "Call 00 49 30 1234", "电话：（010）12345678", "(010)1234567 或 0010 2 3", "拨打 001 22 33 即可", "(555)123-4567 or 555.123.4567",
]


def _lexicon_both_ways(lexicon: NoiseLexicon, texts: list[str]) -> None:
    assert _tables(lexicon).indices(texts) is not None
    assert _tables(lexicon).line_indices(texts) is not None
    for method in (lexicon.indices, lexicon.line_indices):
        compiled, python = both(method, texts)
        assert_same_bits(compiled, python)


@needs_core
def test_the_lexicon_lookups_give_the_python_weights_of_written_texts():
    for lexicon in (_SMALL_LEXICON, default_model("svm").lexicon):
        _lexicon_both_ways(lexicon, _LEXICON_TEXTS)
    assert _SMALL_LEXICON.line_indices(["Share this story", "photo 12 more"]) == [9.0, 4.5]


@needs_core
def test_the_lexicon_lookups_give_the_python_weights_of_the_golden_and_fuzz_lines():
    lexicon = default_model("svm").lexicon
    texts = [line.text for path in [*GOLDEN, *FUZZ] for line in segment(_page_body(path.read_bytes()))]
    assert len(texts) > 1000
    _lexicon_both_ways(lexicon, texts)
    _lexicon_both_ways(_SMALL_LEXICON, texts)
    _lexicon_both_ways(dataclasses.replace(lexicon, line_key_tokens=2), texts)


@needs_core
def test_the_lexicon_lookups_leave_what_they_do_not_handle_to_python():
    odd = NoiseLexicon(words={"share": 2}, marks={}, lines={"=share": 0.0})  # an int weight, a weight of 0
    assert _tables(odd).indices(["share"]) is None and _tables(odd).line_indices(["share"]) is None
    assert both(odd.indices, ["share it"]) == ([(2.0, 0.0)],) * 2
    assert _tables(odd).indices(["a", b"bytes"]) is None
    texts = (text for text in ["Share this story", "分享"])  # any iterable
    assert both(_SMALL_LEXICON.line_indices, list(texts)) == ([9.0, 0.0],) * 2


class _Word(str):
    pass


@needs_core
def test_the_lexicon_finds_its_words_by_their_code_points():
    # Words of one, two and four bytes a character, an astral word, an empty key; a
    # key that is no str leaves the lookups to Python.
    words = {"share": 2.0, "σας": 0.75, "\U0001d49c\U0001d4b7": 1.5, "": 3.0, "编辑x": 0.5}
    texts = ["", "share σας", "𝒜𝒷 and 𝒜𝒷c", "ΣΑΣ the of", "编辑x 编辑", "the\U0001d49c\U0001d4b7", "ShareShare share"]
    _lexicon_both_ways(NoiseLexicon(words=words, marks={}, stopwords=frozenset({"the", "of", "\U0001d49c"})), texts)
    odd = frozenset({"the", _Word("of")})
    lexicon = NoiseLexicon(words=words, marks={}, stopwords=odd)
    assert _tables(lexicon).indices(texts) is None
    compiled, python = both(lexicon.indices, texts)
    assert_same_bits(compiled, python)
    with pytest.raises(TypeError):
        _core.WordTable(lexicon._latin_weights, odd)


_LEXICON_ALPHABET = "aAsSeE ōσΣς²ǅİ0١9_.,:@+/-w中文分享责任编辑的在\u3000！Ｓ（）\u0301ﬁ"


@needs_core
@settings(max_examples=400, deadline=None)
@given(st.lists(st.text(alphabet=_LEXICON_ALPHABET, max_size=60), max_size=5), st.integers(1, 4))
def test_the_lexicon_lookups_give_the_python_weights_of_any_text(texts, key_tokens):
    _lexicon_both_ways(dataclasses.replace(_SMALL_LEXICON, line_key_tokens=key_tokens), texts)
    _lexicon_both_ways(_SMALL_LEXICON, [text * 5 for text in texts])


@needs_core
@settings(max_examples=400, deadline=None)
@given(st.lists(st.text(alphabet="0012345 ()-.+x年\u00a0١）", max_size=40), max_size=5))
def test_the_lexicon_lookups_give_the_python_weights_of_any_numbers(texts):
    # Where phones may be (tokenize's hints) the compiled core asks split_pseudo_words.
    _lexicon_both_ways(_SMALL_LEXICON, texts)


@needs_core
def test_the_lookups_lower_every_character_as_str_lower_does():
    code_points = [cp for cp in range(sys.maxunicode + 1) if not 0xD800 <= cp <= 0xDFFF]
    texts = [text for cp in code_points for text in (chr(cp), f"A{chr(cp)}", f"{chr(cp)}Zz好")]
    assert [_core._lowered_text(text) for text in texts] == [text.lower() for text in texts]
    for text in ("", "ABC", "好", "NBA新闻", "ΣΑΣ好", "İx", "\U0001f600B", "é" * 3 + "Q"):
        assert _core._lowered_text(text) == text.lower()
    unchanged = "新闻 ab。"
    assert _core._lowered_text(unchanged) is unchanged


@needs_core
def test_the_line_keys_are_cut_into_the_regular_expressions_tokens():
    code_points = [*range(0x10000), *range(0x10000, sys.maxunicode + 1, 61)]
    texts = [text for cp in code_points for text in (f"a{chr(cp)}a", f"{chr(cp)}b 7", f"{chr(cp) * 2} 1 x y")]
    keys = {key for text in texts for key in line_keys(text)}
    # A weight for every key that the Python path finds: a line the compiled path cuts
    # otherwise looks up other keys, and finds another weight.
    lexicon = NoiseLexicon(words={}, marks={}, lines={key: 1.0 + k for k, key in enumerate(sorted(keys))})
    compiled, python = both(lexicon.line_indices, texts)
    assert python.count(0.0) < len(texts) // 10
    assert compiled == python


# --- the text columns of method svm's features (line_features._text_columns) ------------

_COLUMN_TEXTS = [
    *_LEXICON_TEXTS, "Release Date:", "Release Date：  ", "Read more...", "Read more… \u3000", "Home | News · Sport",
    "“Quoted.”", "He said “no.” ", "(See above.)\n", "End?）」 ", "It ends;", "_", "$ 5 ± 2 % §", "ＡＢＣ ａｂｃ １２３", "\x00\x1f\x7f",
    "a\u00a0b\u2028c", "E=mc²", "no marks at all", "！？。", "…", "Dr. Who. Yes! No? 好。好！", "\U0001d400\U0001f600?",
    # sentence ends: a cut anywhere, one before white space, a final mark before closers only
    "他说：“好。” 然后？走了… ", "It costs 3.5 dollars. Then", "a．b． ", "Wait!\u3000Yes?)】 ", "好；不好；", "x.\ny!", ".", "?!」",
]


def _columns_both_ways(lexicon: NoiseLexicon, texts: list[str]) -> np.ndarray:
    out = np.empty((len(texts), len(line_features._TEXT_COLUMN_NAMES)))
    assert _core.text_columns(texts, _tables(lexicon), line_features._TEXT_RULES, out, line_features._TEXT_OWN) is not None
    compiled, python = both(line_features._text_columns, texts, lexicon)
    assert compiled.shape == python.shape == out.shape
    assert compiled.tobytes() == python.tobytes()
    return python


@needs_core
def test_the_text_columns_give_the_python_columns_of_written_texts():
    for lexicon in (_SMALL_LEXICON, default_model("svm").lexicon, NoiseLexicon(words={}, marks={})):
        columns = _columns_both_ways(lexicon, _COLUMN_TEXTS)
    assert columns[:, 8].sum() >= 2 and columns[:, 10].sum() >= 2 and columns[:, 13].sum() >= 1


_ADDRESS_TEXTS = ["mail me@x", "see www.x", "https://a", "http:", "x.com", "x.com/y", "x.comma", "x.com_", "x.coma.org.", "hTTp", "a.b", "WWW.X"]


@needs_core
def test_the_text_columns_find_the_addresses_the_pattern_finds():
    columns = _columns_both_ways(default_model("svm").lexicon, _ADDRESS_TEXTS)
    address = columns[:, line_features._TEXT_COLUMN_NAMES.index("has_address")]
    assert address.tolist() == [1, 1, 1, 1, 1, 1, 0, 0, 1, 0, 0, 0]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="wW.htps:@comrg/ _é1", max_size=24))
def test_every_address_holds_one_of_the_parts_the_compiled_core_looks_for(text):
    if line_features._ADDRESS_RE.search(text):
        assert any(part in text for part in line_features._ADDRESS_PARTS)


@needs_core
def test_the_text_columns_give_the_python_columns_of_the_golden_and_fuzz_lines_and_their_sentences():
    lexicon = default_model("svm").lexicon
    for path in [*GOLDEN, *FUZZ]:
        texts = [line.text for line in segment(_page_body(path.read_bytes()))]
        if texts:
            _columns_both_ways(lexicon, texts)
            _columns_both_ways(lexicon, [sentence for text in texts for sentence in split_sentences(text)])


@needs_core
def test_the_feature_matrix_is_the_python_matrix_on_the_golden_pages():
    model = default_model("svm")
    for path in GOLDEN:
        units = _page_units(path)
        compiled, python = both(feature_matrix, units, model.lexicon, "rich")
        assert compiled.tobytes() == python.tobytes(), path.parent.name


@needs_core
def test_the_text_columns_leave_what_they_do_not_handle_to_python():
    lexicon = default_model("svm").lexicon
    out = np.empty((1, len(line_features._TEXT_COLUMN_NAMES)))
    assert _core.text_columns(["a\ud800b"], _tables(lexicon), line_features._TEXT_RULES, out, line_features._TEXT_OWN) is None  # no UTF-8
    with pytest.raises(UnicodeEncodeError):  # the Python path's error, as it raises it
        line_features._text_columns(["a\ud800b"], lexicon)
    assert _core.text_columns([], _tables(lexicon), line_features._TEXT_RULES, out[:0], line_features._TEXT_OWN) is None
    odd = NoiseLexicon(words={}, marks={"|": 1})  # an int weight
    compiled, python = both(line_features._text_columns, ["a | b"], odd)
    assert compiled.tobytes() == python.tobytes()


_COLUMN_ALPHABET = _LEXICON_ALPHABET + "|·…:：!?？。”）」 \n\t\u00a0$%_ABZabz09"


@needs_core
@settings(max_examples=400, deadline=None)
@given(st.lists(st.text(alphabet=_COLUMN_ALPHABET, max_size=40), min_size=1, max_size=5))
def test_the_text_columns_give_the_python_columns_of_any_text(texts):
    _columns_both_ways(_SMALL_LEXICON, texts)
    _columns_both_ways(default_model("svm").lexicon, texts)


@needs_core
@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=30), min_size=1, max_size=4))
def test_the_text_columns_give_the_python_columns_of_any_unicode(texts):
    _columns_both_ways(_SMALL_LEXICON, texts)


# --- the unit columns (line_features._unit_columns) and the rows (rich_rows) -------------


def _units_both_ways(units: list[Unit]) -> None:
    out = np.empty((len(units), len(line_features._UNIT_COLUMN_NAMES)))
    assert _core.unit_columns(units, line_features._UNIT_RULES, out, line_features._UNIT_OWN) is not None
    compiled, python = both(line_features._unit_columns, units)
    assert compiled.tobytes() == python.tobytes()


def _page_units(path: Any) -> list[Unit]:
    page = classify_page(path.read_bytes(), Config(), default_model("svm"))
    return page.located.units if isinstance(page, ClassifiedPage) else []


@needs_core
def test_the_rows_are_the_python_rows_of_the_golden_and_fuzz_pages():
    lexicon = default_model("svm").lexicon
    rows = 0
    for path in [*GOLDEN, *FUZZ]:
        units = _page_units(path)
        if units:
            _units_both_ways(units)
            compiled, python = both(line_features.rich_rows, units, [unit.text for unit in units], lexicon)
            assert compiled.tobytes() == python.tobytes(), path.name
            rows += len(units)
    assert rows > 1000


_UNIT_VALUES = {
    "kind": st.sampled_from(["heading", "list", "cell", "link", "text", "p", "other"]),
    "noise_attr": st.booleans(),
    "content_attr": st.booleans(),
    "position": st.floats(0.0, 1.0),
    "link_ratio": st.floats(0.0, 1.0),
    "prev_length": st.integers(0, 10**6),
    "next_length": st.integers(0, 10**6),
    "neighbour_link_ratio": st.floats(0.0, 1.0),
    "depth": st.integers(0, 60),
    "depth_offset": st.integers(0, 60),
    "span": st.integers(-1, 1),
    "window_length": st.floats(0.0, 12.0),
    "region": st.integers(-1, 1),
    "post": st.integers(-1, 1),
    "groups": st.integers(0, (segment_module.REVIEWS_BIT << 1) - 1),
    "furniture": st.booleans(),
    "related": st.integers(0, 2),
    "copy": st.integers(0, 5),
    "code": st.sampled_from(["", "x = 1"]),
    "past_core": st.booleans(),
    "link_run": st.integers(0, 30),
    "section_text": st.integers(0, 10**5),
}


@needs_core
@settings(max_examples=300, deadline=None)
@given(st.lists(st.fixed_dictionaries(_UNIT_VALUES), min_size=1, max_size=6))
def test_the_unit_columns_are_the_python_columns_of_any_units(values):
    _units_both_ways([Unit(tag="line", text="x", length=1, **fields) for fields in values])


@needs_core
def test_the_unit_columns_leave_what_they_do_not_handle_to_python():
    plain = Unit(tag="line", text="x", length=1, link_ratio=0.5, position=0.5)
    out = np.empty((1, len(line_features._UNIT_COLUMN_NAMES)))
    for odd in (
        plain._replace(groups=-1),  # NumPy reads the last row
        plain._replace(link_ratio=np.float32(0.3)),
        plain._replace(depth=2**60),
        plain._replace(span=0.5),
        plain._replace(window_length=None),  # NumPy makes it NaN
    ):
        assert _core.unit_columns([odd], line_features._UNIT_RULES, out, line_features._UNIT_OWN) is None
        compiled, python = both(line_features._unit_columns, [odd])
        assert compiled.tobytes() == python.tobytes()
    for raising in (plain._replace(prev_length=-1), plain._replace(groups=1 << 20)):
        assert _core.unit_columns([raising], line_features._UNIT_RULES, out, line_features._UNIT_OWN) is None
        with pytest.raises((ValueError, IndexError)):
            line_features._unit_columns([raising])
    np_float = plain._replace(link_ratio=np.float64(0.3))  # a float: read as one
    _units_both_ways([np_float])
    assert _core.unit_columns([], line_features._UNIT_RULES, out[:0], line_features._UNIT_OWN) is None  # Python raises


# --- NFKC (tokenize.nfkc_table, _core_lexicon.pxi's Nfkc) ----------------------------------


def _composition_seconds() -> set[int]:
    """Every character that is the second of a canonical composition: those of Unicode's
    canonical decompositions into two, and the vowel and final jamo that join a Hangul syllable."""
    seconds = set(range(0x1161, 0x1176)) | set(range(0x11A8, 0x11C3))
    for cp in range(sys.maxunicode + 1):
        decomposition = unicodedata.decomposition(chr(cp))
        if decomposition and not decomposition.startswith("<") and len(parts := decomposition.split()) == 2:
            seconds.add(int(parts[1], 16))
    return seconds


def test_no_character_of_the_nfkc_table_composes_with_its_neighbours():
    kinds, mapped = tokenize.nfkc_table()
    seconds = _composition_seconds()
    decided = [cp for cp in range(0x10000) if kinds[cp]]
    assert len(decided) > 30_000 and 0x4E00 in decided and 0xFF0C in decided and 0x0301 not in decided
    for cp in decided:
        ch = chr(cp)
        normal = unicodedata.normalize("NFKC", ch)
        assert (kinds[cp] == 1) == (normal == ch) and mapped.get(cp, ch) == normal
        for part in {ch, unicodedata.normalize("NFKD", ch)[0], *normal}:
            assert ord(part) not in seconds and not unicodedata.combining(part), (hex(cp), part)


@needs_core
def test_the_compiled_nfkc_is_unicode_s_on_every_character_it_decides():
    fast = tokenize.compiled_nfkc()
    for cp in range(0x10000):
        if not 0xD800 <= cp <= 0xDFFF and (normal := fast(chr(cp))) is not None:
            assert normal == unicodedata.normalize("NFKC", chr(cp))


_NFKC_TEXT = st.text(
    st.one_of(
        st.sampled_from("北京，：（）！？　…。「」ｶﾞ①½™ﬁé\u0301\u3099\u1161ÅΩ\u2126ｈＡ"),
        st.characters(max_codepoint=0x3000),
        st.characters(),
    ),
    max_size=40,
)


@needs_core
@settings(max_examples=500, deadline=None)
@given(_NFKC_TEXT)
def test_the_compiled_nfkc_is_unicode_s_or_leaves_the_text_to_it(text):
    normal = tokenize.compiled_nfkc()(text)
    assert normal is None or normal == unicodedata.normalize("NFKC", text)
    assert tokenize.nfkc(text) == unicodedata.normalize("NFKC", text)
    kinds, _ = tokenize.nfkc_table()
    if all(ord(ch) < 0x10000 and kinds[ord(ch)] for ch in text):
        assert normal is not None
