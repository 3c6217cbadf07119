"""The compiled core's page type scores and confidence (webclean/_core_pagetype.pxi)
give what the Python path gives: the page type's probabilities and the confidence's
trees to the last bit (their sums taken in NumPy's order), the confidence's row within
rounding (NumPy leaves two of its sums to BLAS, whose order is its own), and the same
extractions. Run both ways as tests/test_core.py runs the rest of the core."""

from __future__ import annotations

import struct
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_core import FUZZ, GOLDEN, _core, both, needs_core

from webclean.classifier import TreeEnsemble
from webclean.confidence import SIGNAL_NAMES as CONFIDENCE_SIGNALS
from webclean.confidence import confidence_signals
from webclean.config import PAGE_TYPES, ConfidenceConfig, Config
from webclean.denoise import Decision
from webclean.extract import ClassifiedPage, classify_page, extract
from webclean.model import default_model
from webclean.page_type import SIGNAL_NAMES, PageTypeModel, _ld_types, page_signals, type_words
from webclean.units import Unit


def _bits(values: Any) -> bytes:
    return np.asarray(values, dtype=np.float64).tobytes()


def _model() -> Any:
    return default_model("svm")


def _classified(path: Any) -> ClassifiedPage | None:
    page = classify_page(path.read_bytes(), Config(), _model(), url="https://example.org/" + path.parent.name)
    return page if isinstance(page, ClassifiedPage) else None


# --- sums in NumPy's order ----------------------------------------------------------------

_FLOATS = st.floats(allow_nan=False, allow_infinity=False, width=64) | st.sampled_from([0.0, -0.0, 1e-300, -1e300])


@needs_core
@settings(max_examples=300, deadline=None)
@given(st.lists(_FLOATS, max_size=400), st.integers(0, 2**16))
def test_the_pairwise_sum_is_numpys_to_the_bit(values, seed):
    # the drawn floats, and numbers of many scales (whose sums differ with the order)
    scaled = np.random.default_rng(seed).normal(size=len(values)) * 10.0 ** np.random.default_rng(seed).integers(-8, 8, len(values))
    for array in (np.asarray(values, dtype=np.float64), scaled):
        with np.errstate(all="ignore"):
            expected = array.reshape(1, -1).sum(axis=1)[0]
        assert struct.pack("<d", _core.pairwise_sum(array)) == struct.pack("<d", expected)


@needs_core
def test_the_pairwise_sum_is_numpys_at_every_length_of_its_blocks():
    rng = np.random.default_rng(0)
    for n in range(600):  # below 8, up to 128 in eight sums, and halves of halves
        array = rng.normal(size=n) * 10.0 ** rng.integers(-8, 8, n)
        assert struct.pack("<d", _core.pairwise_sum(array)) == struct.pack("<d", array.reshape(1, -1).sum(axis=1)[0]), n


# --- the page type's probabilities --------------------------------------------------------


def _probabilities_both_ways(model: PageTypeModel, signals: np.ndarray, found: tuple[str, ...]) -> np.ndarray:
    compiled, python = both(model.page_probabilities, signals, found)
    assert _bits(compiled) == _bits(python)
    return python


@needs_core
def test_the_type_probabilities_are_the_python_ones_of_the_golden_and_fuzz_pages():
    model, config = _model().page_types, Config()
    typed = set()
    for path in [*GOLDEN, *FUZZ]:
        page = _classified(path)
        if page is None or page.located.lines is None:
            continue
        html, url = path.read_bytes(), "https://example.org/" + path.parent.name
        signals = page_signals(page.located.root, html, url, page.located.lines, config)
        probabilities = _probabilities_both_ways(model, signals, type_words(url, page.located.title))
        typed.add(PAGE_TYPES[int(np.argmax(probabilities))])
    assert len(typed) >= 2


@needs_core
@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**16), st.floats(0, 1), st.lists(st.integers(0, 10**6), max_size=12), st.booleans())
def test_the_type_probabilities_are_the_python_ones_of_any_signals(seed, nan_share, picks, unknown):
    model = _model().page_types
    rng = np.random.default_rng(seed)
    signals = rng.normal(size=len(SIGNAL_NAMES)) * rng.choice([0.1, 1.0, 10.0, 1000.0])
    signals[rng.random(len(signals)) < nan_share * 0.3] = np.nan
    words = model.lexicon.words
    found = tuple(words[pick % len(words)] for pick in picks) + (("t:no such word",) if unknown else ())
    _probabilities_both_ways(model, signals, found)


@needs_core
def test_the_type_scores_refuse_what_does_not_fit():
    model = _model().page_types
    joined, starts, baselines = model._joined
    logs = model.lexicon._word_scores[0]
    signals = np.zeros(len(SIGNAL_NAMES))
    with pytest.raises(IndexError):
        _core.type_scores(joined._compiled, signals, logs, [len(logs)], starts, baselines)
    with pytest.raises(ValueError, match="features"):
        _core.type_scores(joined._compiled, signals[:10], logs, [], starts, baselines)
    with pytest.raises(ValueError, match="groups"):
        _core.type_scores(joined._compiled, signals, logs, [], starts[::-1].copy(), baselines)
    assert len(_core.type_scores(joined._compiled, signals, logs, [0, 0], starts, baselines)) == len(PAGE_TYPES)


# --- the confidence's trees and row -------------------------------------------------------


@needs_core
@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**16), st.booleans())
def test_the_trees_value_of_a_row_is_the_python_one(seed, nan):
    rng = np.random.default_rng(seed)
    model = _model()
    for trees in (model.confidence.trees, *model.page_types.ensembles):
        row = rng.normal(size=trees.width) * 3
        if nan:
            row[rng.random(trees.width) < 0.2] = np.nan
        compiled, python = both(trees.row_value, row)
        assert struct.pack("<d", compiled) == struct.pack("<d", python)
        assert struct.pack("<d", python) == struct.pack("<d", trees.decision_function(row.reshape(1, -1))[0])


def test_a_tree_ensemble_without_trees_gives_its_baseline():
    one = np.zeros(1, dtype=np.intp)
    trees = TreeEnsemble(one, np.full(1, np.inf), one, one, np.full(1, 0.25), one, baseline=0.5, width=3)
    assert both(trees.row_value, np.zeros(3)) == (0.75, 0.75)


def _rows_both_ways(units: list[Unit], decisions: tuple[Decision, ...], settings: ConfidenceConfig | None = None) -> np.ndarray:
    settings = settings or ConfidenceConfig()
    with np.errstate(over="ignore"):  # exp of a value far below 0, which gives the content 0 on both paths
        compiled, python = both(confidence_signals, units, decisions, settings)
    assert compiled.shape == python.shape == (len(CONFIDENCE_SIGNALS),)
    # The expected characters' sums differ from BLAS's dot product by rounding alone.
    np.testing.assert_allclose(compiled, python, rtol=1e-12, atol=0, equal_nan=True)
    return python


@needs_core
def test_the_confidence_is_the_python_one_on_the_golden_and_fuzz_pages():
    model, config = _model(), Config()
    valued = 0
    for path in [*GOLDEN, *FUZZ]:
        page = _classified(path)
        if page is None:
            continue
        row = _rows_both_ways(page.located.units, page.decisions, config.confidence)
        valued += bool(row.any())
        assert both(model.confidence.predict, row) == (model.confidence.predict(row),) * 2
        compiled, python = both(extract, path.read_bytes(), "https://example.org/" + path.parent.name)
        assert compiled == python, path.parent.name
    assert valued > 10


_VALUES = st.none() | st.floats(allow_nan=True, allow_infinity=True, width=64) | st.floats(-8, 8)


@needs_core
@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(["p", "a", "line", "li", "td"]), st.integers(0, 5000), st.text(max_size=2), _VALUES, _VALUES)),
    st.integers(0, 3),
    st.floats(0, 3),
)
def test_the_confidence_row_is_the_python_one_of_any_decisions(drawn, extra, near):
    units = [Unit(tag, "x", length, 0.0, 0.0) for tag, length, *_ in drawn]
    decisions = tuple(Decision(text, "kept" if text else "dropped", value, sentence) for _, _, text, value, sentence in drawn)
    # zip's truncation: more units than decisions, and more decisions than units
    _rows_both_ways(units + [Unit("p", "y", 7, 0.0, 0.0)] * extra, decisions, ConfidenceConfig(near=near))
    _rows_both_ways(units, decisions + (Decision("z", "kept", 1.0),) * extra, ConfidenceConfig(near=near))


@needs_core
def test_the_confidence_row_of_edge_cases():
    kept, dropped = Decision("t", "kept", 2.0), Decision("", "dropped", -1.0)
    p = Unit("p", "t", 10, 0.0, 0.0)
    assert not _rows_both_ways([], ()).any()
    assert not _rows_both_ways([Unit("td", "t", 10, 0.0, 0.0)], (kept,)).any()  # no sample
    assert not _rows_both_ways([p], (Decision("t", "kept"),)).any()  # no value
    row = _rows_both_ways([p, p], (dropped, dropped))  # nothing kept: no precision, unsure against 1 character
    assert row[1] == 0.0 and row[-2] == 0.0
    _rows_both_ways([p, Unit("p", "t", 0, 0.0, 0.0)], (kept, Decision("t", "cut", None, 0.5)))  # a sentence's value; no characters
    _rows_both_ways([p, p], (Decision("t", "kept", float("inf")), Decision("", "dropped", float("-inf"))))
    # a row of the wrong size, or units that are no tuples: the Python path's to make
    assert _core.confidence_signals([p], (kept,), 0, 2, frozenset({"p"}), 0, 2, 3, (1.0,), 0.5, np.zeros(3)) is False
    assert _core.confidence_signals([object()], (kept,), 0, 2, frozenset({"p"}), 0, 2, 3, (1.0,), 0.5, np.zeros(5)) is False


# --- the declared types in a page's text ---------------------------------------------------


@needs_core
def test_the_declared_types_of_the_golden_pages_text_are_the_python_ones():
    found = 0
    for path in [*GOLDEN, *FUZZ]:
        text = path.read_bytes().decode("utf-8", "replace")
        compiled, python = both(_ld_types, text)
        assert compiled == python
        found += len(python)
    assert found > 0


@needs_core
@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet='ab"@ ét\u0140\u4040\u4e2d\U0001f600', max_size=40),
    st.lists(st.sampled_from(['"@type"', '"@type": "NewsArticle"', '"@type":["Product"]', '"@typ"']), max_size=3),
)
def test_the_declared_types_are_found_in_any_text(noise, pieces):
    text = noise.join(pieces) if pieces else noise
    compiled, python = both(_ld_types, text)
    assert compiled == python
    for key in ('"@type"', "@", "a@"):
        anchor = key.index("@")
        assert _core.occurrences(text, key, anchor) == [i for i in range(len(text)) if text.startswith(key, i)]


@needs_core
def test_the_occurrences_refuse_bytes_and_text_mixed():
    with pytest.raises(TypeError):
        _core.occurrences("text", b"t", 0)
    with pytest.raises(ValueError):
        _core.occurrences("text", "", 0)
