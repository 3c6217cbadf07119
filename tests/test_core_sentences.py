"""The compiled core's cut of a text into sentences (webclean/_core_sentences.pxi) gives
exactly what tokenize.split_sentences gives, run both ways as tests/test_core.py runs
the rest of the core."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from test_core import GOLDEN, _core, both, needs_core

from webclean import tokenize
from webclean.config import Config
from webclean.extract import extract
from webclean.tokenize import split_sentences

_EDGES = [
    "", " ", ".", "a.", "a. ", "a.b", "a. b", "a.\u00a0b", "a.\u3000b", "a.\nb", "。", "一。二", "一；二", "一！\u201d二", "A? \u201d B",
    "End.\u201d\u2019 ", "x。\u300d\u300f", "…", "．", "Mr. Smith! Yes?! no.", "a.\u2028b", "a.\x85b", " \u201d", "\u201d. ",
    "Is it?\n\n", "。。。", "a  .  b", "a. ) ] 】 next",
]


def _sentences_both_ways(text: str) -> list[str]:
    assert _core is not None
    assert _core.split_sentences(text, tokenize._CUT_ANYWHERE, tokenize._CUT_BEFORE_SPACE, tokenize._CLOSER_CHARS) is not None
    compiled, python = both(split_sentences, text)
    assert compiled == python, text
    assert "".join(python) == text  # the cuts lose no character
    return python


@needs_core
def test_split_sentences_gives_the_python_sentences():
    for text in _EDGES:
        _sentences_both_ways(text)


@needs_core
def test_split_sentences_gives_the_python_sentences_of_the_golden_texts():
    for path in GOLDEN:
        texts = [(path.parent / "expected.txt").read_text(encoding="utf-8"), extract(path.read_bytes(), config=Config()).text]
        for text in texts:
            for line in text.split("\n"):
                _sentences_both_ways(line)
            _sentences_both_ways(text)


@needs_core
@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab .!?。！？；．…\u3000\u00a0\n\t\"'\u201d\u2019\u300d\u300f\uff09)]\u3011\u300bx", max_size=24) | st.text(max_size=24))
def test_split_sentences_gives_the_python_sentences_of_any_text(text):
    _sentences_both_ways(text)


@needs_core
def test_split_sentences_leaves_what_is_no_str_to_python():
    assert _core is not None
    assert _core.split_sentences(b"a. b", ".", ".", "") is None
