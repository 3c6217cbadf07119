"""The compiled core's walks for the page's metadata (webclean/_core_metadata.pxi) give
exactly what the Python path gives, run both ways as tests/test_core.py runs the rest
of the core."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree
from test_core import FUZZ, GOLDEN, _core, both, needs_core

from webclean import metadata, parse
from webclean.parse import parse_html

_PROSE = "A paragraph of the story, long enough to be most of the page. " * 3

PAGES = {
    "metas": "<html><head><meta property='article:published_time' content='2021-04-05T10:00:00Z'>"
    "<meta name='author' content=' Jane  Doe '><meta property='og:site_name' content='Gazette'></head>"
    f"<body><h1>Head</h1><p>{_PROSE}</p></body></html>",
    "itemprop anywhere": "<html itemprop='x'><body><div itemprop='datePublished'>2019年7月1日</div>"
    "<span itemprop=''>e</span><meta itemprop='datePublished' content='2018-01-02'><p>来源：新华社</p></body></html>",
    "time elements": "<body><time>no stamp</time><time datetime=''>empty</time><time datetime='2020-02-03'>x</time>"
    "<TIME DATETIME='2020-02-04'>upper</TIME><time itemprop='dateModified' datetime='2020-02-05'>both</time></body>",
    "headings": "<html><head><title> The  title </title></head><body><h1></h1><h1> <b>First</b> one </h1>"
    "<svg><title>icon</title></svg><h1>Second</h1></body></html>",
    "no headline": f"<body><p>Published March 5, 2022 at 8:30 pm. {_PROSE}</p><p>Source: Reuters</p></body>",
    "after the end": f"<html><body><h1>In</h1><p>{_PROSE}</p></body></html><meta name='date' content='2017-03-04'>"
    "<h1>Beside</h1><time datetime='2016-01-01'>t</time>",
    "comments": "<body><div id='respond'><form></form></div><section class='post-footer comment-list'>x</section>"
    "<div class='Comment-Form'>y</div><div id='disqus_thread'></div></body>",
    "comment words only inside others": "<body><div class='commentary-panel'>x</div><p class='comment_'>y</p>"
    "<p id='comments_count'>3</p></body>",
    "unicode names": "<body><div class='K\u212aomment İcomment'>x</div><div id='ΣCOMMENTS'>y</div>"
    "<div class='comment\u00a0form'>z</div></body>",
    "no names": f"<body><p>{_PROSE}</p></body>",
    "empty": "",
}


def _elements_both_ways(root: etree._Element) -> tuple[list[etree._Element], list[etree._Element]]:
    """metadata._metadata_elements both ways on one tree: the same elements in the same order."""
    assert _core is not None
    compiled, python = both(metadata._metadata_elements, root)
    assert compiled[0] == python[0] == metadata._DATED_ELEMENTS(root)
    assert compiled[1] == list(python[1]) == [*root.iter("h1"), *root.iter("title")]
    return compiled[0], compiled[1]


def _names_both_ways(root: etree._Element) -> tuple[bool, bool]:
    assert _core is not None
    names = [name for element in root.iter() for name in (element.get("id"), element.get("class")) if name]
    assert _core.element_names(root, ("id", "class")) == list(dict.fromkeys(names))
    form = both(metadata.holds_comment_form, root)
    story = both(metadata.is_story, root)
    assert form[0] == form[1] and story[0] == story[1]
    return form[1], story[1]


def _metadata_both_ways(page: str | bytes) -> metadata.PageMetadata:
    """page_metadata and the comment walks both ways, on the page's tree and on each
    element of it as a root (where XPath reads the document, iter() the element's tree)."""
    root = parse_html(page)
    compiled, python = both(metadata.page_metadata, root)
    assert compiled == python
    for element in itertools.chain([root], itertools.islice(root.iter(), 0, None, 7)):
        if isinstance(element.tag, str):
            _elements_both_ways(element)
            _names_both_ways(element)
    return python


@needs_core
@pytest.mark.parametrize("name", sorted(PAGES))
def test_metadata_gives_the_python_result(name):
    _metadata_both_ways(PAGES[name])


@needs_core
def test_the_walks_find_what_they_should():
    dated, headings = _elements_both_ways(parse_html(PAGES["time elements"]))
    assert [element.text for element in dated] == ["empty", "x", "upper", "both"]  # libxml2 lower-cases tags
    dated, headings = _elements_both_ways(parse_html(PAGES["itemprop anywhere"]))
    assert [element.tag for element in dated] == ["html", "div", "span", "meta"]
    _, headings = _elements_both_ways(parse_html(PAGES["headings"]))
    assert [element.tag for element in headings] == ["h1", "h1", "h1", "title"]  # the <svg> went as junk
    assert metadata._title(headings) == "First one"
    root = parse._parse(PAGES["after the end"].encode())  # as libxml2 leaves it: parse_html removes </html> first
    assert root is not None and len(list(root.itersiblings())) == 1  # libxml2's second <html>, beside the root
    dated, headings = _elements_both_ways(root)
    assert len(dated) == 2 and [element.text for element in headings] == ["In"]  # XPath reads the document, iter() the root's tree
    root = parse_html(PAGES["metas"])
    body = root.find("body")
    dated, headings = _elements_both_ways(body)  # XPath from any element reads the whole document
    assert [element.tag for element in dated] == ["meta"] * 3 and [element.tag for element in headings] == ["h1"]
    root.remove(body)  # lxml keeps it in the document, unlinked: XPath reads what is left
    dated, headings = _elements_both_ways(body)
    assert [element.tag for element in dated] == ["meta"] * 3 and [element.tag for element in headings] == ["h1"]
    dated, _ = _elements_both_ways(root.find("head/meta"))
    assert len(dated) == 3
    assert _elements_both_ways(etree.Element("meta"))[0][0].tag == "meta"
    assert _metadata_both_ways(PAGES["metas"]) == metadata.PageMetadata("2021-04-05T10:00:00+00:00", "Gazette")
    assert _metadata_both_ways(PAGES["itemprop anywhere"]) == metadata.PageMetadata("2019-07-01", "新华社")
    assert _metadata_both_ways(PAGES["no headline"]) == metadata.PageMetadata("2022-03-05T20:30:00", "Reuters")


@needs_core
def test_the_comment_walks_find_what_they_should():
    assert _names_both_ways(parse_html(PAGES["comments"])) == (True, True)
    assert _names_both_ways(parse_html(PAGES["comment words only inside others"])) == (False, False)
    # "İcomment" lower-cased is "i\u0307comment", whose word "comment" names comments; no word names the form
    assert _names_both_ways(parse_html(PAGES["unicode names"])) == (False, True)
    assert _names_both_ways(parse_html(PAGES["no names"])) == (False, False)


@needs_core
@pytest.mark.parametrize("path", GOLDEN, ids=[path.parent.name for path in GOLDEN])
def test_metadata_gives_the_python_result_on_the_golden_pages(path):
    _metadata_both_ways(path.read_bytes())


@needs_core
def test_metadata_gives_the_python_result_on_the_fuzz_corpus():
    for path in FUZZ:
        _metadata_both_ways(path.read_bytes().decode("utf-8", "replace"))


_ATTRIBUTES = st.sampled_from(
    [
        ("itemprop", "datePublished"), ("itemprop", ""), ("datetime", "2020-01-02"), ("datetime", ""),
        ("content", "2019-05-06"), ("property", "og:site_name"), ("name", "author"), ("id", "respond"),
        ("class", "comment-form"), ("class", "post comments"), ("id", "x"), ("class", "Comment_Form"),
    ]
)  # fmt: skip
_TEXT = st.sampled_from(["", "a", " 2021-3-4 ", "来源：新华社", "Source: AP", "May 5, 2020", "中文"])


@st.composite
def _pages(draw: st.DrawFn, depth: int = 0) -> str:
    tag = draw(st.sampled_from(["div", "p", "meta", "time", "h1", "title", "span", "html", "body", "head"]))
    attributes = "".join(f" {name}='{value}'" for name, value in draw(st.lists(_ATTRIBUTES, max_size=3, unique_by=lambda a: a[0])))
    children = draw(st.lists(_pages(depth + 1), max_size=3)) if depth < 3 else []
    return f"<{tag}{attributes}>{draw(_TEXT)}{''.join(children)}</{tag}>{draw(_TEXT)}"


@needs_core
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_pages() | st.sampled_from(["</body>", "</html>", "<div>"]), max_size=5).map("".join))
def test_metadata_gives_the_python_result_on_any_page(page):
    _metadata_both_ways(page)
