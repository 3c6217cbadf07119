"""The compiled core's work of the parse's clean-up and of hiding
(webclean/_core_parse.pxi) gives exactly what the Python path gives: the same trees
after each step (serialized), and the same return values, run both ways as
tests/test_core.py runs the rest of the core."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree
from test_core import FUZZ, GOLDEN, _core, both, needs_core

from webclean import core, depth, parse, segment
from webclean.parse import parse_html
from webclean.segment import drop_hidden


def _tree_both_ways(make: Callable[[], etree._Element], step: Callable[[etree._Element], Any]) -> tuple[bytes, Any]:
    """``step`` on two trees made alike, one with the compiled core and one with the
    Python path: the same tree after it and the same result."""
    saved = core.compiled
    trees, results = [], []
    try:
        for which in (_core, None):
            core.compiled = which
            tree = make()
            results.append(step(tree))
            trees.append(etree.tostring(tree.getroottree()))
    finally:
        core.compiled = saved
    assert trees[0] == trees[1]
    assert results[0] == results[1]
    return trees[1], results[1]


def _hidden_both_ways(page: str | bytes, share: float = 0.05) -> int:
    """drop_hidden both ways on a parsed page; the compiled walk must not have left it to Python."""
    assert _core is not None
    assert _core.hidden_elements(parse_html(page), segment._HIDDEN_RULES) is not None
    _, removed = _tree_both_ways(lambda: parse_html(page), lambda root: drop_hidden(root, share))
    return removed


def _parse_both_ways(page: str | bytes) -> bytes:
    """parse_html both ways, and each compiled step on its tree as libxml2 leaves it."""
    assert _core is not None
    compiled, python = both(parse_html, page)
    assert etree.tostring(compiled) == etree.tostring(python)
    data = parse._markup(page)
    assert _core.reopened(data, parse._DOCUMENT_END_NAMES) == parse._DOCUMENT_END_TAG.sub(b"", data)
    root = parse._parse(parse._reopen_document(data))
    if root is not None:
        _steps_both_ways(root)
    return etree.tostring(python)


def _steps_both_ways(root: etree._Element) -> None:
    assert _core is not None
    for level in (1, 2, 3, 5, 400):
        assert _core.elements_at_level(root, level) == depth._level_xpath(level)(root)
        for element in (root, *root[:2]):  # the census counts the document, and finds in the element's tree
            census = _core.tree_census(element, level, parse._CLEANABLE_TAGS)
            assert census == (int(parse._COUNT_ELEMENTS(element)), depth._level_xpath(level)(element), list(element.iter(*parse._CLEANABLE_TAGS)))
    assert _core.nowhere_links(root, parse._NOWHERE_SCHEME.encode(), parse._PAGE_BOXES) == parse._NOWHERE_LINKS(root)
    for element in root.iter("form", "select", "button", "div", "body"):
        assert both(parse._holds_boxes, element)[0] == both(parse._holds_boxes, element)[1]
        for count in (1, 5, 200):
            compiled, python = both(parse._has_visible_chars, element, count)
            assert compiled == python
            assert _core.visible_chars(element, count) is not None


# --- segment.drop_hidden -------------------------------------------------------------------

_PROSE = "A paragraph of the story, long enough to be most of the page. " * 4
HIDDEN = {
    "nested": f"<div hidden><p>out</p><div style='display:none'><p>in</p></div>tail one</div>tail two<p>{_PROSE}</p>",
    "html and body": f"<html hidden><body aria-hidden='true' style='display:none'><p>{_PROSE}</p><i hidden>x</i></body></html>",
    "tails": f"<p>first</p><span hidden>a</span>after a<span hidden>b</span>after b<div><b hidden>c</b>lead</div><p>{_PROSE}</p>",
    "aria casing": f"<div aria-hidden=' TRUE '>1</div><div aria-hidden='True\t'>2</div><div aria-hidden='false'>3</div>"
    f"<div aria-hidden=''>4</div><div aria-modal='true'>5</div><div aria-modal='yes'>6</div><p>{_PROSE}</p>",
    "aria unicode": f"<div aria-hidden='\u00a0true\u3000'>1</div><div aria-hidden='tru\u0435'>2</div><p>{_PROSE}</p>",
    "styles": f"<a style='DISPLAY : None'>1</a><a style='color:red;visibility:\thidden'>2</a><a style='display:noneish'>3</a>"
    f"<a style='display: block'>4</a><a style='display\u00a0:none'>5</a><a style='di\u017fplay:none'>6</a>"
    f"<a style='visibility:visible'>7</a><a style=''>8</a><a style='display:'>9</a><a style='font-family:宋体;display:none'>10</a>"
    f"<p>{_PROSE}</p>",
    "hidden is the bulk": f"<div hidden><p>{_PROSE}</p></div><p>short</p>",
    "bare hidden text is not the bulk": f"<div hidden>{_PROSE}</div><p>short</p>",
    "hidden with an empty value": f"<div hidden=''>x</div><input type='hidden'><p>{_PROSE}</p>",
    "no hidden": f"<p>{_PROSE}</p><div style='color:red'>x</div>",
    "streamed boxes": f"<template id='B:1'></template><div hidden id='S:1'><p>{_PROSE}</p></div><div hidden id='S:2'>no marker</div>",
    "empty": "",
}


@needs_core
@pytest.mark.parametrize("name", sorted(HIDDEN))
@pytest.mark.parametrize("share", [0.0, 0.05, 0.5, 1.0])
def test_drop_hidden_gives_the_python_tree(name, share):
    _hidden_both_ways(HIDDEN[name], share)


@needs_core
def test_drop_hidden_removes_what_it_should():
    assert _hidden_both_ways(HIDDEN["nested"]) == 2
    assert _hidden_both_ways(HIDDEN["html and body"]) == 1
    assert _hidden_both_ways(HIDDEN["hidden is the bulk"]) == 0  # shown by its own scripts: nothing goes
    assert _hidden_both_ways(HIDDEN["bare hidden text is not the bulk"]) == 1
    assert _hidden_both_ways(HIDDEN["aria casing"]) == 3
    assert _hidden_both_ways(HIDDEN["aria unicode"]) == 1  # str.strip strips the no-break and ideographic spaces
    assert _hidden_both_ways(HIDDEN["styles"]) == 6  # the long s is an s to re.IGNORECASE, \s a no-break space
    tree, _ = _tree_both_ways(lambda: parse_html(HIDDEN["tails"]), drop_hidden)
    assert b"<p>first</p>after aafter b<div>lead</div>" in tree


@needs_core
def test_the_walks_from_an_inner_or_removed_element_read_its_document_as_an_xpath_does():
    # lxml evaluates a path from any element against the element's whole document.
    page = (
        "<html><body><div id='a'><p>x</p><a href=' javascript:void(0)'><div>z</div></a>"
        "<div id='b' hidden><p>y</p><section><p>w</p></section></div></div></body></html>"
    )
    root = parse_html(page)
    inner = root.find(".//div[@id='a']")
    removed = root.find(".//div[@id='b']")
    removed.getparent().remove(removed)
    for element in (root, inner, removed):
        for level in (1, 2, 3, 4):
            assert _core.elements_at_level(element, level) == depth._level_xpath(level)(element)
        assert _core.nowhere_links(element, b"javascript:", parse._PAGE_BOXES) == parse._NOWHERE_LINKS(element)
    assert [e.tag for e in _core.elements_at_level(inner, 2)] == ["body"]


@needs_core
def test_drop_hidden_of_an_inner_element_gives_the_python_tree():
    page = f"<div hidden id='outside'>x</div><div id='inner' hidden><p hidden>a</p>b<p>{_PROSE}</p></div>"
    _tree_both_ways(lambda: parse_html(page).find(".//div[@id='inner']"), drop_hidden)
    detached = etree.fromstring(f"<div hidden='' class='root'><p hidden=''>a</p>tail<p>{_PROSE}</p></div>")
    _tree_both_ways(lambda: etree.fromstring(etree.tostring(detached)), lambda root: drop_hidden(root, 0.0))


@needs_core
def test_drop_hidden_reads_a_second_root_element():
    # libxml2 puts what follows </html> in a second <html> beside the root (parse_html
    # removes the end tag first): XPath from the root element reads both, and so does
    # the compiled walk.
    page = f"<html><body><p>{_PROSE}</p></body></html><div hidden>beside</div><p style='display:none'>too</p>".encode()
    root = parse._parse(page)
    assert root is not None and len(list(root.itersiblings())) == 1
    assert _tree_both_ways(lambda: parse._parse(page), drop_hidden)[1] == 2
    assert _core is not None
    assert _core.elements_at_level(root, 2) == depth._level_xpath(2)(root)
    assert len(depth._level_xpath(2)(root)) == 3  # <body>, and the <div> and <p> beside it


@needs_core
def test_drop_hidden_of_a_deep_tree():
    depth = 1800
    page = "<div hidden>x" * 3 + "<div>" * depth + _PROSE + "<span style='display:none'>deep</span>" + "</div>" * depth
    assert _hidden_both_ways(f"<p>{_PROSE * 20}</p>" + page) == 3
    flat = "<div>" * 200_000 + "<b hidden>y</b>" + _PROSE + "</div>" * 200_000  # flattened by the parse
    _hidden_both_ways(flat)


@needs_core
def test_the_compiled_hidden_walk_asks_python_about_unicode_values_only():
    asked: list[str] = []

    def is_hidden(element: etree._Element) -> bool:
        asked.append(element.get("id"))
        return segment._is_hidden(element)

    rules = segment._HIDDEN_RULES._replace(is_hidden=is_hidden)
    assert _core is not None
    _core.hidden_elements(parse_html(HIDDEN["aria unicode"].replace("<div", "<div id=u", 1)), rules)
    _core.hidden_elements(parse_html(HIDDEN["styles"]), rules)
    assert asked.count("u") == 1 and len(asked) == 5  # the first aria value, the no-break space, ſ, 宋体, tru\u0435


@needs_core
@pytest.mark.parametrize("path", GOLDEN, ids=[path.parent.name for path in GOLDEN])
def test_drop_hidden_gives_the_python_tree_of_the_golden_pages(path):
    _hidden_both_ways(path.read_bytes())


@needs_core
def test_drop_hidden_gives_the_python_tree_of_the_fuzz_corpus():
    for path in FUZZ:
        page = path.read_bytes().decode("utf-8", "replace")
        for share in (0.05, 0.9):
            _tree_both_ways(lambda page=page: parse_html(page), lambda root, share=share: drop_hidden(root, share))


_ATTRIBUTES = st.sampled_from(
    [
        ("hidden", ""), ("hidden", "hidden"), ("aria-hidden", "true"), ("aria-hidden", " True "), ("aria-hidden", "false"),
        ("aria-modal", "TRUE"), ("style", "display:none"), ("style", "color: red; Visibility :\nHidden"),
        ("style", "display: inline"), ("style", "display\u3000:none"), ("aria-hidden", "\u2003true"), ("class", "x"),
    ]
)  # fmt: skip
_TEXT = st.text(alphabet="ab \t\n\u00a0中é", max_size=6)


@st.composite
def _pages(draw: st.DrawFn, depth: int = 0) -> str:
    tag = draw(st.sampled_from(["div", "p", "span", "a", "form", "select", "li", "template", "html", "body"]))
    attributes = "".join(f" {name}='{value}'" for name, value in draw(st.lists(_ATTRIBUTES, max_size=2, unique_by=lambda a: a[0])))
    if tag == "a" and draw(st.booleans()):
        attributes += draw(st.sampled_from([" href='javascript:void(0)'", " href=' \njavascript:x'", " href='java script:'"]))
    children = draw(st.lists(_pages(depth + 1), max_size=3)) if depth < 4 else []
    return f"<{tag}{attributes}>{draw(_TEXT)}{''.join(children)}</{tag}>{draw(_TEXT)}"


@needs_core
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_pages(), max_size=4).map("".join), st.sampled_from([0.0, 0.05, 0.5]))
def test_drop_hidden_gives_the_python_tree_of_any_page(page, share):
    _hidden_both_ways(page, share)


# --- parse_html's clean-up -------------------------------------------------------------------

PARSE = {
    "end tags": "<html><body><p>a</p></BODY >after body</Html\n lang=x><p>after html</p></body></html></bodyx></htm>",
    "nowhere links": "<a href=' javascript:open()'><div>box</div></a><a href='javascript:x'>inline</a>"
    "<a href='JAVASCRIPT:x'><p>upper</p></a><a href='java script:x'><p>apart</p></a><a href='/x'><div>a page</div></a>"
    "<a href='javascript:y'><span><h2>deep</h2></span></a>",
    "controls": "<button><div>" + "menu entry text " * 20 + "</div></button><select><option>a</option></select>"
    "<button><p>short</p></button>",
    "forms": "<form><input type=search><p>search</p></form><form><div>" + "long page text " * 30 + "</div></form>",
    "textareas": "<textarea><div class='x'>embed</div></textarea><textarea>plain</textarea>",
    "deep": "<div>" * 3000 + "deep text" + "</div>" * 3000,
    "empty": "",
}


@needs_core
@pytest.mark.parametrize("name", sorted(PARSE))
def test_parse_html_gives_the_python_tree(name):
    _parse_both_ways(PARSE[name])


@needs_core
def test_the_compiled_clean_up_finds_what_it_should():
    tree = _parse_both_ways(PARSE["nowhere links"])
    assert tree.count(b"<div href=") == 2  # the first link and the one around a heading
    assert b"<a href=\"JAVASCRIPT:x\"><p>" in tree and b"<a href=\"java script:x\"><p>" in tree
    assert _core is not None
    data = b"x</body>y</HTML >z</bodyx></body"
    assert _core.reopened(data, parse._DOCUMENT_END_NAMES) == b"xyz</bodyx></body"


@needs_core
@pytest.mark.parametrize("path", GOLDEN, ids=[path.parent.name for path in GOLDEN])
def test_parse_html_gives_the_python_tree_of_the_golden_pages(path):
    _parse_both_ways(path.read_bytes())


@needs_core
def test_parse_html_gives_the_python_tree_of_the_fuzz_corpus():
    for path in FUZZ:
        _parse_both_ways(path.read_bytes().decode("utf-8", "replace"))


@needs_core
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_pages() | st.sampled_from(["</body>", "</html>", "<a href='javascript:'>", "</a>", "<div>"]), max_size=6).map("".join))
def test_parse_html_gives_the_python_tree_of_any_page(page):
    _parse_both_ways(page)


# --- parse._markup's test for control bytes -------------------------------------------------


def _markup_both_ways(text: str | bytes) -> bytes:
    assert _core is not None
    data = text if isinstance(text, bytes) else text.encode("utf-8", "replace")
    assert _core.holds_bytes(data, parse._C0_CHANGED) == (data.translate(parse._C0_TO_SPACE, parse._C0_DELETE) != data)
    compiled, python = both(parse._markup, text)
    assert compiled == python
    return python


@needs_core
def test_holds_bytes_finds_each_wanted_byte_anywhere():
    assert _core is not None
    # In words of text alone, and in words of markup's line ends and tabs (tested byte by byte).
    for byte, at, around in itertools.product(range(256), (0, 5, 7, 8, 15, 16, 17, 24), (b"abcdefgh", b"x\t\n\r<p>")):
        data = around * 3
        data = data[:at] + bytes([byte]) + data[at:]
        assert _core.holds_bytes(data, parse._C0_CHANGED) == (byte in parse._C0_CHANGED), (byte, at, around)
    assert not _core.holds_bytes(b"", parse._C0_CHANGED)
    assert _core.holds_bytes(b"abc\xff", b"\xff") and not _core.holds_bytes(b"abc\xfe", b"\xff")  # above 0x80: byte by byte


@needs_core
@pytest.mark.parametrize(
    "text",
    ["", "plain", "<p>a\x00b\x0bc\x0cd\x1fe\x7f</p>", "tab\tline\ncr\r", "\ud800 lone surrogate \udfff", "中文\x01",
     "<p>a</p>\x0c", b"\xff\xfe bytes as they are \x00", "é" * 9 + "\x08"],
)  # fmt: skip
def test_markup_gives_the_python_bytes(text):
    _markup_both_ways(text)


@needs_core
def test_markup_gives_the_python_bytes_on_the_golden_pages_and_the_fuzz_corpus():
    for path in [*GOLDEN, *FUZZ]:
        data = path.read_bytes()
        _markup_both_ways(data)
        _markup_both_ways(data.decode("utf-8", "replace"))
        _markup_both_ways(data.decode("utf-8", "surrogateescape"))


@needs_core
@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=40) | st.text(max_size=40))
def test_markup_gives_the_python_bytes_of_anything(text):
    _markup_both_ways(text)


@needs_core
@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=40), st.lists(st.sampled_from([b"&#", b"&", b"#", b"javascript:", b"javascript", b"j"]), max_size=4))
def test_the_keys_are_found_where_python_finds_them(noise, pieces):
    data = noise.join(pieces) if pieces else noise
    for key, anchor in ((b"&#", 1), (b"&#", 0), (b"javascript:", 0), (b"javascript:", 10), (b"x", 0)):
        assert both(parse._holds, data, key, anchor) == (key in data,) * 2


@needs_core
def test_the_keys_are_found_in_the_golden_and_fuzz_pages():
    pages = [path.read_bytes() for path in [*GOLDEN, *FUZZ]]
    for key, anchor in ((b"&#", 1), (parse._NOWHERE_SCHEME.encode(), 0)):
        found = [_core.holds_key(data, key, anchor) for data in pages]
        assert found == [key in data for data in pages]
    assert any(found) and not all(found)
    with pytest.raises(ValueError):
        _core.holds_key(b"data", b"", 0)
    with pytest.raises(ValueError):
        _core.holds_key(b"data", b"ab", 2)


# Character references: what _holds_reference reads as a reference, and values around
# the control code points.
_REFERENCES = st.builds(
    lambda prefix, zeros, value, hexadecimal, after: (
        prefix + b"0" * zeros + (format(value, "x" if hexadecimal else "d")).encode() + after
    ),
    st.sampled_from([b"&#", b"&#x", b"&#X", b"#", b"&", b"&&#"]),
    st.integers(0, 12),
    st.integers(0, 70_000) | st.sampled_from([0, 8, 9, 10, 11, 13, 31, 32, 0xFFFE, 0xFFFF, 0x10000, 2**32 + 1, 10**20]),
    st.booleans(),
    st.sampled_from([b"", b";", b"a", b"F", b"9", b"x", b" "]),
)


@needs_core
@settings(max_examples=500, deadline=None)
@given(st.lists(_REFERENCES | st.binary(max_size=6), max_size=6))
def test_the_references_to_control_characters_are_found_where_python_finds_them(pieces):
    data = b"".join(pieces)
    found = both(parse._holds_reference, data, parse._CONTROL_CODE_POINTS)
    assert found[0] == found[1]


@needs_core
def test_the_references_to_control_characters_are_found_in_the_golden_and_fuzz_pages():
    pages = [path.read_bytes() for path in [*GOLDEN, *FUZZ]]
    found = [both(parse._holds_reference, data, parse._CONTROL_CODE_POINTS) for data in pages]
    assert all(compiled == python for compiled, python in found)
    for data in (b"&#0000000000000000000000011;", b"&#x0b", b"a&#X1F;b", b"&#65535"):
        assert both(parse._holds_reference, data, parse._CONTROL_CODE_POINTS) == (True, True), data
    for data in (b"&#9;", b"&#x0d;", b"&#128;", b"&#1114111;", b"&#65535" + b"9" * 5000, b"&#x;", b"& #1;", b"&#"):
        assert both(parse._holds_reference, data, parse._CONTROL_CODE_POINTS) == (False, False), data


# UTF-8: each first byte with seconds at the edges of its range, cut short, and ASCII runs
# around them (the eight-byte steps).
_UTF8_PIECES = st.sampled_from(
    [bytes([first, second]) for first in (0x80, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF)
     for second in (0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0)]
    + [b"\xe4\xb8\xad", b"\xf0\x9f\x98\x80", b"\xed\x9f\xbf", b"\xed\xa0\x80", b"\xf4\x8f\xbf\xbf", b"\xf4\x90\x80\x80",
       b"\xe0\xa0", b"\xf0\x90\x80", b"a" * 7, b"a" * 9, b"\x00"]
)  # fmt: skip


@needs_core
@settings(max_examples=1000, deadline=None)
@given(st.lists(_UTF8_PIECES | st.binary(max_size=10), max_size=8) | st.text().map(lambda text: text.encode("utf-8", "surrogatepass")))
def test_valid_utf8_is_what_python_decodes(pieces):
    data = b"".join(pieces) if isinstance(pieces, list) else pieces
    try:
        data.decode("utf-8")
        expected = True
    except UnicodeDecodeError:
        expected = False
    assert _core.valid_utf8(data) is expected


@needs_core
def test_valid_utf8_on_the_golden_and_fuzz_pages():
    for path in [*GOLDEN, *FUZZ]:
        data = path.read_bytes()
        for cut in (data, data[:-1], data[:-2], data[1:]):
            try:
                cut.decode("utf-8")
                expected = True
            except UnicodeDecodeError:
                expected = False
            assert _core.valid_utf8(cut) is expected, path
