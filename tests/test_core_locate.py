"""The compiled core's work of the locate stage (webclean/_core_region.pxi) gives exactly
what the Python path gives: Step 1's count on the lines (region.counted_text) and the
lines that name a box of other stories (segment.related_names), run both ways as
tests/test_core.py runs the rest of the core."""

from __future__ import annotations

import struct
from itertools import repeat
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree
from test_core import FUZZ, GOLDEN, _core, _page_body, _trees, both, needs_core

from webclean import line_features, region, segment
from webclean.config import Config, ImprovedConfig, LinesConfig
from webclean.extract import extract
from webclean.segment import Line
from webclean.units import Unit, units_from_columns

_BLOCK_TAGS = frozenset(ImprovedConfig().block_tags)


def _lines(body: etree._Element) -> list[Line]:
    return segment.segment(body)


def _counted_both_ways(lines: list[Line], theta: float, tags: frozenset[str] = _BLOCK_TAGS) -> tuple[Any, Any]:
    """region.counted_text both ways, asserted to be the same block and the same counts
    in the same order; the compiled one must not have left the lines to Python."""
    assert _core is not None
    assert _core.counted_text(lines, region._LINE_AT, theta, tags) is not None
    compiled, python = both(region.counted_text, lines, theta, tags)
    assert compiled[0] is python[0]
    assert list(compiled[1].items()) == list(python[1].items())
    return python


def _names_both_ways(lines: list[Line], name_chars: int) -> list[int]:
    assert _core is not None
    assert _core.related_names(lines, segment._NAME_AT, name_chars, segment.RELATED_BOX_NAMES, "_", "_:：") is not None
    compiled, python = both(segment.related_names, lines, name_chars)
    assert compiled == python
    return python


# --- region.counted_text -----------------------------------------------------------------

PAGES = {
    "nested blocks": "<div><p>First paragraph of the story, long enough.</p><div><p>Inner one.</p>"
    "<p>Another inner paragraph.</p></div>text in the div</div><td>a cell</td>",
    "a tie": "<div><p>same length one</p></div><div><p>same length two</p></div>",
    "links": "<p><a href='/a'>all of it a link</a></p><div><a>menu</a> <a>more</a></div>",
    "no block": "<span>loose text</span> and more",
    "comments": "<div><!-- a comment --><p>after <!-- inside --> it</p><?pi x?></div>",
    "empty": "",
}


@needs_core
@pytest.mark.parametrize("name", sorted(PAGES))
@pytest.mark.parametrize("theta", [0.0, 0.3, 1.0])
def test_counted_text_gives_the_python_count(name, theta):
    body = _page_body(f"<html><body>{PAGES[name]}</body></html>".encode())
    _counted_both_ways(_lines(body), theta)


@needs_core
def test_counted_text_of_no_lines_is_no_block():
    assert _counted_both_ways([], 0.3) == (None, {})


@needs_core
@pytest.mark.parametrize("tags", [frozenset(), frozenset({"td"}), frozenset({"body", "html"}), frozenset({"p", "div"})])
def test_counted_text_reads_the_block_tags_it_is_given(tags):
    for path in GOLDEN[:5]:
        _counted_both_ways(_lines(_page_body(path.read_bytes())), 0.3, tags)


@needs_core
@pytest.mark.parametrize("path", GOLDEN, ids=[path.parent.name for path in GOLDEN])
def test_counted_text_gives_the_python_count_of_the_golden_pages(path):
    lines = _lines(_page_body(path.read_bytes()))
    best, total = _counted_both_ways(lines, 0.3)
    assert best is not None and len(total) > 3
    _counted_both_ways(lines, 1.0)


@needs_core
def test_counted_text_gives_the_python_count_of_the_fuzz_corpus():
    for path in FUZZ:
        lines = _lines(_page_body(path.read_bytes()))
        for theta in (0.0, 0.3, 1.0):
            _counted_both_ways(lines, theta)


@needs_core
def test_counted_text_reads_tags_in_a_namespace():
    body = etree.Element("body")
    outer = etree.SubElement(body, "{urn:x}div")
    etree.SubElement(outer, "{urn:x}p").text = "Text in a namespace, long enough."
    etree.SubElement(outer, "p").text = "Plain text beside it."
    etree.SubElement(etree.SubElement(body, "div"), "{urn:y}div").text = "In another namespace."
    lines = _lines(body)
    assert lines
    for tags in (frozenset({"{urn:x}div"}), frozenset({"{urn:x}p", "{urn:y}div"}), frozenset({"div"})):
        _counted_both_ways(lines, 0.3, tags)


@needs_core
def test_counted_text_leaves_what_it_does_not_read_to_python():
    assert _core is not None
    lines = _lines(_page_body(b"<html><body><div><p>Some text here.</p></div></body></html>"))
    assert _core.counted_text(lines, region._LINE_AT, 1, _BLOCK_TAGS) is None  # θ no float
    odd = [lines[0]._replace(length=3.0)]
    assert _core.counted_text(odd, region._LINE_AT, 0.3, _BLOCK_TAGS) is None
    assert both(region.counted_text, odd, 0.3, _BLOCK_TAGS)[0] == both(region.counted_text, odd, 0.3, _BLOCK_TAGS)[1]
    other = _lines(_page_body(b"<html><body><div><p>Another tree.</p></div></body></html>"))
    assert _core.counted_text(lines + other, region._LINE_AT, 0.3, _BLOCK_TAGS) is None  # two documents


@needs_core
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_trees(), st.floats(0.0, 1.0), st.sets(st.sampled_from(["div", "p", "td", "li", "section", "body", "span"])))
def test_counted_text_gives_the_python_count_of_any_tree(tree, theta, tags):
    body = etree.Element("body")
    body.append(tree)
    _counted_both_ways(_lines(body), theta, frozenset(tags))


# --- segment.related_names ---------------------------------------------------------------

_NAMES = [
    "Related", "Related:", "related stories", "  Related  Stories ", "_related stories_", "Related：", "相关推荐", "相关推荐：",
    "【相关推荐】", "Related Stories»", "İRelated", "You might also like", "YOU MIGHT ALSO LIKE...", "Related\u00a0stories",
    "related stories 2", "¿Related?", "", " ", ":", "top\u3000stories", "Top stories:::", "ÀRelated", "\u212aategories",
]


def _text_lines(texts: list[str]) -> list[Line]:
    owner = etree.Element("p")
    return [Line(text, owner, "p", 0.0, False, False, 0, len("".join(text.split())), 1, False) for text in texts]


@needs_core
@pytest.mark.parametrize("name_chars", [0, 5, 30, 1000])
def test_related_names_gives_the_python_names(name_chars):
    lines = _text_lines(["First line", *_NAMES, *_NAMES])
    found = _names_both_ways(lines, name_chars)
    if name_chars == 30:
        assert len(found) > 4


@needs_core
def test_related_names_gives_the_python_names_of_the_golden_and_fuzz_pages():
    found = 0
    for path in (*GOLDEN, *FUZZ):
        lines = _lines(_page_body(path.read_bytes()))
        found += len(_names_both_ways(lines, 30))
        _names_both_ways(lines, 200)
    assert found


@needs_core
@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(_NAMES) | st.text(alphabet="aRlteds _:：-»¿İ\u00a0\u3000相关推荐K²٣", max_size=12), max_size=8
    ),
    st.integers(0, 40),
)
def test_related_names_gives_the_python_names_of_any_text(texts, name_chars):
    _names_both_ways(_text_lines(texts), name_chars)


# --- whole extractions under other settings ------------------------------------------------


@needs_core
def test_extract_gives_the_python_results_under_other_locate_settings():
    config = Config().with_overrides(
        ["locate.theta=0.6", "improved.ascend_gain=0.5", "lines.related_name_chars=60", "region.beside_chars=400"]
    )
    for path in GOLDEN:
        compiled, python = both(extract, path.read_bytes(), config=config)
        assert compiled == python, path.parent.name


# --- the columns of line_features.line_units, and the units made of them -----------------


def _bits(values: list[float]) -> list[bytes]:
    return [struct.pack("<d", value) for value in values]


@needs_core
@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.floats(allow_nan=True, allow_infinity=True) | st.integers(-(1 << 53), 1 << 53) | st.booleans(), max_size=12),
    st.integers(0, 6),
)
def test_neighbour_means_gives_the_python_means(values, window):
    assert _core is not None and _core.neighbour_means(values, window) is not None
    with np.errstate(over="ignore"):  # the drawn floats reach the largest; their sums overflow to inf on both paths
        compiled, python = both(line_features._neighbour_means, values, window)
    assert _bits(compiled) == _bits(python)


@needs_core
def test_neighbour_means_leaves_what_it_does_not_read_to_python():
    assert _core is not None
    assert _core.neighbour_means([1.0, 2.0], -1) is None
    assert _core.neighbour_means([1.0, "2"], 1) is None
    assert _core.neighbour_means([1 << 60], 1) is None
    compiled, python = both(line_features._neighbour_means, (0.5, 1 << 60, 2.0), 1)
    assert compiled == python


_KINDS = ["link", "heading", "p", "text", "list", "cell"]


@needs_core
@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(_KINDS), st.integers(0, 400), st.floats(0.0, 1.0)), max_size=14),
    st.integers(0, 100),
)
def test_link_runs_and_section_text_give_the_python_columns(lines, long_line):
    kinds, lengths, ratios = (list(column) for column in zip(*lines)) if lines else ([], [], [])
    assert _core is not None
    assert _core.link_runs(kinds, lengths, long_line, "link") is not None
    assert _core.section_text(kinds, lengths, ratios, "heading") is not None
    compiled, python = both(line_features.link_runs, kinds, lengths, long_line)
    assert compiled == python
    compiled, python = both(line_features.section_text, kinds, lengths, ratios)
    assert compiled == python


@needs_core
def test_section_text_rounds_half_to_even_as_python_does():
    kinds = ["p", "heading", "p", "heading", "p", "heading", "p"]
    lengths = [5, 1, 3, 1, 7, 1, 1]
    ratios = [0.5, 0.0, 0.5, 0.0, 0.5, 0.0, 0.5]  # sections of 2.5, 1.5, 3.5 and 0.5 characters
    compiled, python = both(line_features.section_text, kinds, lengths, ratios)
    assert compiled == python == [2, 2, 2, 4, 4, 0, 0]


@needs_core
def test_units_are_made_as_the_named_tuple_makes_them():
    columns: dict[str, Any] = {name: [f"{name}{m}" for m in range(4)] for name in Unit._fields}
    columns["tag"] = repeat("line")
    columns["text"] = ["a", "b", "c"]  # the shortest column ends the units, as map stops
    compiled, python = both(units_from_columns, **columns)
    assert compiled == python and len(python) == 3
    assert all(type(unit) is Unit for unit in compiled)
    with pytest.raises(TypeError):
        both(units_from_columns, tag=[])


@needs_core
def test_units_of_list_and_tuple_columns_are_read_by_index_as_map_reads_them():
    assert _core is not None
    columns = [[f"{name}{m}" for m in range(5)] for name in Unit._fields]
    columns[1] = tuple(columns[1][:4])  # the shortest column ends the units, as map stops
    made = _core.units(Unit, columns)
    assert made == list(map(Unit, *columns)) and len(made) == 4
    assert all(type(unit) is Unit for unit in made)
    # A plain tuple is no named tuple: its rows are made as tuple.__new__ makes them.
    assert _core.units(tuple, [[1, 2], (3, 4)]) == [(1, 3), (2, 4)]
    assert _core.units(Unit, [[] for _ in Unit._fields]) == []


@needs_core
@pytest.mark.parametrize("lines_settings", [LinesConfig(), LinesConfig(window=1, long_line=20), LinesConfig(window=5, long_line=200)])
def test_line_units_give_the_python_units_of_the_golden_and_fuzz_pages(lines_settings):
    for path in (*GOLDEN, *FUZZ):
        body = _page_body(path.read_bytes())
        lines = _lines(body)
        compiled, python = both(line_features.line_units, lines, body, settings=lines_settings)
        assert compiled == python, path.name
        compiled, python = both(line_features.line_units, lines, region=1, settings=lines_settings)
        assert compiled == python, path.name


@needs_core
@pytest.mark.parametrize("lines_settings", [LinesConfig(), LinesConfig(core_share=0.3, core_prose_chars=50), LinesConfig(core_share=1.0)])
def test_past_core_gives_the_python_column_of_the_golden_and_fuzz_pages(lines_settings):
    marked = 0
    for path in (*GOLDEN, *FUZZ):
        body = _page_body(path.read_bytes())
        owners, lengths = [line.owner for line in _lines(body)], [line.length for line in _lines(body)]
        for prose in (line_features.prose_lines(lengths, [line.link_ratio for line in _lines(body)], lines_settings), list(range(len(owners)))):
            compiled, python = both(line_features._past_core, owners, lengths, prose, lines_settings)
            assert compiled == python, path.name
            marked += sum(python)
    assert marked  # lines past the box are found, not only none
    # What the core does not read is left to Python: an owner that is no element, a length no int.
    assert _core.past_core(["no element"], [600], [0], 500, 0.7, line_features._PART_TAGS) is None
    body = _page_body(b"<html><body><div><p>" + b"x" * 600 + b"</p></div></body></html>")
    assert _core.past_core([body], [600.0], [0], 500, 0.7, line_features._PART_TAGS) is None


@needs_core
def test_lines_inside_gives_the_python_places():
    for path in (*GOLDEN, *FUZZ):
        body = _page_body(path.read_bytes())
        lines = _lines(body)
        elements = [body, *(line.owner for line in lines[:: max(1, len(lines) // 5)])]
        elements += [element.getparent() for element in elements if element.getparent() is not None]
        for element in elements:
            assert _core is not None and _core.lines_inside(lines, region._LINE_AT[0], element) is not None
            compiled, python = both(region.lines_inside, lines, element)
            assert compiled == python, path.name
    other = _lines(_page_body(b"<html><body><div><p>Another tree.</p></div></body></html>"))
    compiled, python = both(region.lines_inside, other, body)
    assert compiled == python == []


@needs_core
@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 12), st.integers(0, 400), st.floats(0.0, 1.0)), max_size=14),
    st.integers(0, 200),
    st.floats(0.0, 1.0),
)
def test_prose_lines_logs_and_main_depth_give_the_python_columns(lines, long_line, prose_link_ratio):
    depths, lengths, ratios = (list(column) for column in zip(*lines)) if lines else ([], [], [])
    chosen = LinesConfig(long_line=long_line, prose_link_ratio=prose_link_ratio)
    assert _core is not None
    assert _core.prose_lines(lengths, ratios, long_line, prose_link_ratio) is not None
    assert _core.log_lengths(lengths) is not None
    assert _core.main_depth(depths, lengths, ratios, prose_link_ratio) is not None
    compiled, python = both(line_features.prose_lines, lengths, ratios, chosen)
    assert compiled == python
    compiled, python = both(line_features.log_lengths, lengths)
    assert _bits(compiled) == _bits(python)
    compiled, python = both(line_features._main_depth, depths, lengths, ratios, prose_link_ratio)
    assert compiled == python and type(compiled) is type(python)


def _marked_both_ways(lines: list[Line], block: etree._Element, story: bool) -> list[Line]:
    assert _core is not None
    compiled, python = both(segment.aside_furniture, lines, block, story=lambda: story)
    assert compiled == python
    assert [line.furniture for line in compiled] == [line.furniture for line in python]
    return python


@needs_core
def test_aside_furniture_gives_the_python_lines():
    page = (
        "<html><body><aside><p>Related</p><h1>Not here</h1></aside><div role='dialog'>Sign up</div>"
        "<div class='photo-gallery'><p>Pic</p></div><article><div class='slideshow-wrapper'><h1>Head</h1>"
        "<p>Story</p></div></article><aside><div id='main'><p>" + "Prose. " * 40 + "</p></div></aside></body></html>"
    )
    body = _page_body(page.encode())
    lines = _lines(body)
    assert any(line.beside is not None for line in lines)
    for block in (body, *(line.owner for line in lines)):
        for story in (False, True):
            _marked_both_ways(lines, block, story)


@needs_core
def test_aside_furniture_gives_the_python_lines_of_the_golden_and_fuzz_pages():
    for path in (*GOLDEN, *FUZZ):
        body = _page_body(path.read_bytes())
        lines = _lines(body)
        found = region.counted_text(lines, 0.3, _BLOCK_TAGS)[0]
        for story in (False, True):
            _marked_both_ways(lines, found if found is not None else body, story)


@needs_core
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_trees(), st.booleans())
def test_aside_furniture_gives_the_python_lines_of_any_tree(tree, story):
    body = etree.Element("body")
    body.append(tree)
    lines = _lines(body)
    for block in (body, tree, *(line.owner for line in lines[:3])):
        _marked_both_ways(lines, block, story)


@needs_core
def test_code_gives_the_python_code_of_the_golden_and_fuzz_pages():
    pages = [path.read_bytes() for path in (*GOLDEN, *FUZZ)]
    pages.append(b"<html><body><p>Text</p><pre>a = 1\n  b = 2</pre><p>more</p><pre>x<br>y</pre></body></html>")
    for data in pages:
        lines = _lines(_page_body(data))
        owners, texts = [line.owner for line in lines], [line.text for line in lines]
        compiled, python = both(line_features._code, owners, texts)
        assert compiled == python
    assert any(python)
    assert _core is not None and _core.no_code(owners, texts, "pre") is None
    body = etree.Element("body")
    etree.SubElement(body, "{urn:x}pre").text = "in a namespace"
    lines = _lines(body)
    compiled, python = both(line_features._code, [line.owner for line in lines], [line.text for line in lines])
    assert compiled == python == [""]


@needs_core
def test_repeats_give_the_python_copies():
    passage = ["Intro line of the shop", "A description that is long enough to count.", "Its second line, also long."]
    page = (
        "<html><body><div class='main'><section>" + "".join(f"<p>{t}</p>" for t in passage) + "</section></div>"
        "<div class='tabs'><ul><li>" + "</li><li>".join(passage) + "</li></ul></div>"
        "<p>Share</p><p>Share</p><p>A refrain said once, and long.</p><p>A refrain said once, and long.</p></body></html>"
    )
    pages = [page.encode(), *(path.read_bytes() for path in (*GOLDEN, *FUZZ))]
    for k, data in enumerate(pages):
        lines = _lines(_page_body(data))
        texts, owners, lengths = [line.text for line in lines], [line.owner for line in lines], [line.length for line in lines]
        for min_chars in (0, 20, 1000):
            assert _core is not None
            assert _core.repeats(texts, owners, lengths, min_chars, line_features._in_passage, line_features._box) is not None
            compiled, python = both(line_features.repeats, texts, owners, lengths, min_chars)
            assert compiled == python
            if not k and min_chars == 20:
                assert any(python)
