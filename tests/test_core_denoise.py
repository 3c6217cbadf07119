"""The compiled core's work of the noise filter (webclean/_core_denoise.pxi) gives exactly
what the Python path gives: the cut of a text into sentences (tokenize.split_sentences)
and the decisions on the units (denoise.decisions), run both ways as tests/test_core.py
runs the rest of the core."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from test_core import GOLDEN, _core, both, needs_core

from webclean import denoise, tokenize
from webclean.config import Config
from webclean.extract import classify_page, extract
from webclean.model import default_model
from webclean.tokenize import split_sentences
from webclean.units import SAMPLE_UNIT_TAGS, Unit

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


# --- denoise.decisions -------------------------------------------------------------------


def _decisions_both_ways(units: list[Unit], kept: list, by_pass: list, values: list, sentence_values: list) -> list:
    assert _core is not None
    assert (
        _core.decisions(
            units, kept, by_pass, values, sentence_values, denoise._DECISION_AT, SAMPLE_UNIT_TAGS, denoise._OUTCOMES,
            denoise.Decision,
        )
        is not None
    )  # fmt: skip
    compiled, python = both(denoise.decisions, units, kept, by_pass, values, sentence_values)
    assert compiled == python
    assert [type(decision) for decision in compiled] == [type(decision) for decision in python]
    return python


@needs_core
@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["line", "p", "a", "td"]),
            st.sampled_from(["", "text", "Text."]),
            st.integers(-1, 1),
            st.sampled_from(["", "code\\n  text"]),
            st.sampled_from([None, "", "text", "Text.", "Te"]),
            st.sampled_from([None, "repeat", "furniture"]),
            st.none() | st.floats(-2.0, 2.0),
            st.none() | st.floats(-2.0, 2.0),
        ),
        max_size=10,
    )
)
def test_decisions_give_the_python_decisions(rows):
    units = [Unit(tag, text, len(text), 0.0, 0.5, post=post, code=code) for tag, text, post, code, *_ in rows]
    kept, by_pass, values, sentence_values = ([row[k] for row in rows] for k in (4, 5, 6, 7))
    _decisions_both_ways(units, kept, by_pass, values, sentence_values)


@needs_core
def test_decisions_give_the_python_decisions_of_the_golden_pages():
    for path in GOLDEN:
        compiled, python = both(classify_page, path.read_bytes(), Config(), default_model())
        assert compiled.decisions == python.decisions, path.parent.name
        located = python.located
        kept = [decision.text or None for decision in python.decisions]
        values = [decision.value for decision in python.decisions]
        _decisions_both_ways(list(located.units), kept, [None] * len(kept), values, [decision.sentence_value for decision in python.decisions])
