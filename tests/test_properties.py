"""Property tests: what holds for every page, not just the ones we thought of.

Any bytes give a result with a known status; link ratios and relative positions stay
in range; the noise filter (Step 4) only cuts from the end; the output is made of the
page's own text.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from webclean.config import Config
from webclean.denoise import noise_filter
from webclean.extract import extract
from webclean.features import FEATURE_SETS, block_units
from webclean.lexicon import NoiseLexicon
from webclean.line_features import _neighbour_means, line_units
from webclean.parse import parse_html
from webclean.result import Extraction, Status
from webclean.segment import drop_hidden, segment
from webclean.text import text_length
from webclean.tokenize import split_sentences
from webclean.units import Unit

METHODS = ("svm", "paper")
# Under the default 20 s; a generated page never needs more than a fraction of it.
CONFIGS = {m: Config(method=m).with_overrides(["limits.timeout_seconds=5"]) for m in METHODS}
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# --------------------------------------------------------------------------- strategies

WORDS = st.sampled_from(
    "the bus river night route board said home news about privacy terms 河道 清淤 工程 下月 开工 "
    "© | » >> Next Prev 2024-01-15 mail@example.com www.example.com +86 10 1234 5678".split()
)
MARKS = st.sampled_from([". ", "! ", "? ", "。", "；", ", ", " ", "\n", " | ", "...", "&amp; ", "&#1; ", "\u00a0"])
TEXT = st.lists(st.one_of(WORDS, MARKS), max_size=30).map("".join)
INLINE = ("a", "span", "b", "em", "font")
BLOCKS = ("div", "p", "td", "li", "h1", "section", "article", "table", "tr", "ul", "center", "br", "nav", "footer")
ATTRS = st.sampled_from(
    ["", " class='nav'", " class='article content'", " id='footer'", " style='display:none'", " hidden",
     " href='/x'", " aria-hidden='true'", " class='comment-list'"]
)  # fmt: skip


@st.composite
def html_pages(draw, depth: int = 0) -> str:
    """Tag soup: nested block and inline elements with text, unclosed and stray tags included."""
    parts = []
    for _ in range(draw(st.integers(0, 6 if depth < 3 else 2))):
        kind = draw(st.integers(0, 9))
        if kind < 4:
            parts.append(draw(TEXT))
        elif depth < 5 and kind < 9:
            tag = draw(st.sampled_from(BLOCKS + INLINE))
            close = draw(st.booleans()) or tag not in ("p", "li", "td")
            inner = draw(html_pages(depth + 1))
            parts.append(f"<{tag}{draw(ATTRS)}>{inner}" + (f"</{tag}>" if close else ""))
        else:
            parts.append(draw(st.sampled_from(["</div>", "<script>var x = '<p>hidden</p>';</script>", "<!-- c -->", "<p>", "</td>"])))
    return "".join(parts)


PAGES = html_pages().map(lambda body: f"<html><head><title>t</title></head><body>{body}</body></html>")
ANY_BYTES = (
    st.binary(max_size=4000)
    | PAGES.map(lambda p: p.encode("utf-8"))
    | st.tuples(PAGES, st.binary(max_size=200), st.integers(0, 4000)).map(
        lambda t: t[0].encode("utf-8")[: t[2]] + t[1] + t[0].encode("utf-8")[t[2] :]
    )
)
CHARSETS = st.sampled_from([None, "utf-8", "gbk", "text/html; charset=windows-1252", "utf-16", "nonsense"])


def _assert_a_result(result: Extraction) -> None:
    assert isinstance(result, Extraction)
    assert result.status in set(Status)
    assert result.status != Status.ERROR, result.error
    assert (result.status == Status.OK) == bool(result.text)


# --------------------------------------------------------------------------- any bytes


@pytest.mark.parametrize("method", METHODS)
@SETTINGS
@given(data=ANY_BYTES, charset=CHARSETS)
def test_any_bytes_give_a_result_with_a_known_status(method, data, charset):
    _assert_a_result(extract(data, config=CONFIGS[method], http_charset=charset))


# --------------------------------------------------------------------------- feature ranges


def _check_units(units: list[Unit]) -> None:
    for unit in units:
        assert 0.0 <= unit.link_ratio <= 1.0, unit
        if unit.is_sample:
            assert 0.0 < unit.position <= 1.0, unit
        else:  # a <td> is not a sample of Step 2: position 0 by design (features.py)
            assert unit.position == 0.0
        assert 0.0 <= unit.neighbour_link_ratio <= 1.0


@SETTINGS
@given(page=PAGES)
def test_link_ratio_and_position_stay_in_range(page):
    root = parse_html(page)
    body = root.find("body")
    for element in root.iter("div", "td", "body", "table"):
        _check_units(block_units(element))
    lines = segment(body if body is not None else root)
    units = line_units(lines)
    _check_units(units)
    if units:
        assert units[-1].position == 1.0


@SETTINGS
@given(values=st.lists(st.floats(min_value=0.0, max_value=20.0), max_size=12), window=st.integers(1, 4))
def test_neighbour_means_are_the_means_of_the_neighbours_lists(values, window):
    # Exactly the float that summing the list of the neighbours within reach (lines.window) gives.
    expected = [
        sum(around) / len(around) if (around := values[max(0, m - window) : m] + values[m + 1 : m + window + 1]) else 0.0
        for m in range(len(values))
    ]
    assert _neighbour_means(values, window) == expected
    if window == Config().lines.window:
        assert _neighbour_means(values) == expected


# --------------------------------------------------------------------------- the noise filter


class ScriptedSVM:
    """Answers the noise filter's questions with drawn labels: any classifier at all."""

    def __init__(self, labels: list[int]) -> None:
        self.labels = labels
        self.asked = 0

    def decision_function(self, rows: np.ndarray) -> np.ndarray:
        n = len(rows)
        out = [self.labels[(self.asked + i) % len(self.labels)] for i in range(n)]
        self.asked += n
        return np.asarray(out, dtype=np.float64) * 2 - 1


SENTENCES = st.lists(
    st.tuples(st.lists(WORDS, min_size=0, max_size=8).map(" ".join), st.sampled_from(["", ".", "。", "!", "?", "；", "...", ". "])),
    max_size=10,
).map(lambda pairs: "".join(w + e + s for (w, e), s in zip(pairs, [" ", "", "  ", "\n"] * 10)))


@pytest.mark.parametrize("feature_set", ["paper", "rich"])
@SETTINGS
@given(
    texts=st.lists(SENTENCES | st.text(max_size=200), min_size=1, max_size=6),
    labels=st.lists(st.integers(0, 1), min_size=1, max_size=20),
    beta=st.none() | st.integers(0, 60),
)
def test_noise_filter_only_cuts_from_the_end(feature_set, texts, labels, beta):
    units = [Unit(tag="p", text=t, length=text_length(t), link_ratio=0.0, position=(i + 1) / len(texts)) for i, t in enumerate(texts)]
    lexicon = NoiseLexicon(words={}, marks={})
    kept, values, _ = noise_filter(units, lexicon, ScriptedSVM(labels), feature_set, beta=beta)
    assert len(kept) == len(units)
    for k, (unit, text) in enumerate(zip(units, kept)):
        # A unit of at most beta characters is classified whole: kept whole or dropped, as
        # its one decision says; so is a longer one whose whole text is its one sentence.
        assert (k in values) >= (beta is not None and unit.length <= beta)
        if k in values:
            assert text == (unit.text if values[k] > 0 else None)
        elif text is not None:
            assert unit.text.strip().startswith(text), (unit.text, text)


class ScoredByText:
    """A classifier whose value for a row depends on the row's text alone (its length, a
    number the row carries), as a real one depends on the row: it counts its calls."""

    def __init__(self, cut: int) -> None:
        self.cut = cut
        self.calls = 0

    def decision_function(self, rows: np.ndarray) -> np.ndarray:
        self.calls += 1
        lengths = np.asarray(rows)[:, 2]  # L, the text's length (log1p of it in the rich set)
        return np.where(np.round(lengths * 1000).astype(np.int64) % self.cut == 0, 1.0, -1.0) + lengths / 1e6


def _noise_filter_by_rounds(units, lexicon, svm, feature_set, beta):
    """The noise filter as the method states it: round after round, one sentence more of
    each undecided unit from its end, until one is content."""
    rows_of = FEATURE_SETS[feature_set]
    whole = [beta is not None and u.length <= beta for u in units]
    sentences = [[u.text] if one else split_sentences(u.text) for u, one in zip(units, whole)]
    kept, values, deciding = [None] * len(units), {}, {}
    for k, unit in enumerate(units):
        for end in range(len(sentences[k]) - 1, -1, -1):
            text = sentences[k][end].strip()
            score = float(svm.decision_function(rows_of([unit], [text], lexicon))[0])
            if whole[k] or text == unit.text:
                values[k] = score
            deciding[k] = max(deciding.get(k, score), score)
            if score > 0:
                kept[k] = unit.text if whole[k] else "".join(sentences[k][: end + 1]).strip()
                break
    return kept, values, deciding


@pytest.mark.parametrize("feature_set", ["paper", "rich"])
@SETTINGS
@given(
    texts=st.lists(SENTENCES | st.text(max_size=200), min_size=1, max_size=6),
    cut=st.integers(1, 5),
    beta=st.none() | st.integers(0, 60),
)
def test_noise_filter_asks_twice_at_most_and_decides_as_rounds_of_a_sentence_do(feature_set, texts, cut, beta):
    # Its second round asks for every sentence of the units still undecided at once.
    units = [Unit(tag="p", text=t, length=text_length(t), link_ratio=0.0, position=(i + 1) / len(texts)) for i, t in enumerate(texts)]
    lexicon = NoiseLexicon(words={}, marks={})
    svm = ScoredByText(cut)
    assert noise_filter(units, lexicon, svm, feature_set, beta=beta) == _noise_filter_by_rounds(units, lexicon, ScoredByText(cut), feature_set, beta)
    assert svm.calls <= 2


# --------------------------------------------------------------------------- output is page text

_SPACE = re.compile(r"\s+")


def _visible_text(page: str, method: str) -> str:
    root = parse_html(page)
    if method == "svm" and CONFIGS[method].improved.drop_hidden:
        drop_hidden(root)  # what a browser does not show is not visible text
    return _SPACE.sub(" ", "".join(root.itertext()))


@pytest.mark.parametrize("method", METHODS)
@SETTINGS
@given(page=PAGES)
@example(page="<div><td>the</div><section><p>bus</section>the")  # a cell's text around a nested unit
def test_output_lines_are_page_text(method, page):
    result = extract(page, config=CONFIGS[method])
    _assert_a_result(result)
    visible = _visible_text(page, method)
    squeezed = _SPACE.sub("", visible)
    for line in result.text.split("\n") if result.text else []:
        assert line == line.strip() and line
        # Lines join inline pieces with a space where the markup may have none, so the
        # comparison ignores whitespace; every character still comes from the page, in order.
        assert _SPACE.sub("", line) in squeezed, (line, visible[:300])
