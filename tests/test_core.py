"""The compiled core (webclean/_core.pyx) gives exactly what the Python path gives.

Each test runs the same input through both: the compiled function where webclean.core
loaded it, the Python function with ``core.compiled`` set to None (as WEBCLEAN_PURE=1
or a machine without the extension leaves it). Where the extension is not built they
skip, saying so.
"""

from __future__ import annotations

import copy
import os
import subprocess
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree, html

import webclean
from webclean import core
from webclean import segment as segment_module
from webclean.cli import main
from webclean.config import Config, LinesConfig, PageTypeConfig
from webclean.extract import extract
from webclean.model import default_model
from webclean.page_type import _PRICE, LineTotals, _ld_types, element_census, item_runs, line_totals
from webclean.parse import meta_values, parse_html
from webclean.segment import Line, drop_hidden, segment
from webclean.tokenize import half_width, nfkc

REPO = Path(__file__).resolve().parents[1]
GOLDEN = sorted((REPO / "tests" / "golden").glob("*/source.html"))
FUZZ = sorted((REPO / "tests" / "fuzz-corpus").iterdir())

try:
    from webclean import _core
except ImportError as exc:
    _core = None
    _NOT_BUILT = f"the compiled core is not built here ({exc}); installing webclean with a C compiler builds it"
else:
    _NOT_BUILT = ""

needs_core = pytest.mark.skipif(_core is None, reason=_NOT_BUILT)


def both(function: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, Any]:
    """``function``'s result with the compiled core, and with the Python path."""
    saved = core.compiled
    try:
        core.compiled = _core
        compiled = function(*args, **kwargs)
        core.compiled = None
        python = function(*args, **kwargs)
    finally:
        core.compiled = saved
    return compiled, python


def compiled_lines(container: etree._Element, lines: LinesConfig | None = None) -> list | None:
    """What the compiled walk itself returns under ``lines`` (the defaults where None;
    None: it left the tree to Python)."""
    assert _core is not None
    return _core.segment(container, segment_module._RULES, lines or LinesConfig())


def lines_both_ways(container: etree._Element, lines: LinesConfig | None = None) -> list:
    """The Python walk's lines under ``lines`` (the defaults where None), asserted to
    be the compiled walk's, which reads the tree itself (it hands nothing back to Python)."""
    compiled, python = both(segment, container) if lines is None else both(segment, container, lines)
    assert compiled_lines(container, lines) is not None
    assert compiled == python
    return python


def _page_body(data: bytes) -> etree._Element:
    root = parse_html(data)
    drop_hidden(root)
    body = root.find("body")
    return body if body is not None else root


# --- segment ---------------------------------------------------------------------------

PAGES = {
    "links and their tails": "<p><a href='/a'>Title</a> (2005-01-01)</p><p><a href='/r'>Redis sets</a> are unordered "
    "collections of unique strings, and more.</p><div><a href='#'>A<br>B <b>bold</b></a> tail<a>x</a></div>",
    "a block inside a link": "<a href='/x'><div>Inside a block</div> after <p>para</p></a> and on",
    "forms": "<form><textarea></textarea><p>Leave a comment</p></form><p>Story text that is long enough to matter.</p>"
    "<form><input type='search'><p>search</p></form><form><p>a shop's form</p></form>",
    "consent and names": "<div class='cookie-banner'>We use cookies</div><div id='comments' class='x'><p>A comment</p></div>"
    "<div class='article-content'><p>Body</p><div class='comment-content'>both</div></div><div class=''>empty class</div>"
    "<div class='customer-reviews'><p>5 stars</p></div><div class='category-reviews'><p>a post</p></div>",
    "furniture": "<nav><a>Home</a> <a>News</a></nav><div role='navigation'>Menu</div><div role='banner'>Site</div>"
    "<h1>Headline</h1><p>Story.</p><footer><p>© 2024</p></footer><div role='contentinfo'>Contact</div>",
    "furniture that wraps the story": "<footer><h1>The headline</h1><p>" + "Prose. " * 60 + "</p></footer>",
    "beside": "<aside><p>Related</p></aside><div role='dialog'>Sign up</div><div class='photo-gallery'><p>Pic</p></div>"
    "<article class='gallery'><p>Story</p></article><div role='complementary'><div class='slideshow-wrapper'>Slides</div></div>",
    "white space": "<p> a\u00a0b\tc\nd\u3000中文\u3000 e\u2028f\x85g\u200bh\u202fi </p><div>   </div><p>\u3000</p>x",
    "cjk": "<div>第一行<br>第二行有<b>粗体</b>和<a href='#'>链接</a><p>段落</p>尾巴</div><ul><li>列表</li></ul><h2>小标题</h2>",
    "tables and lists": "<table><tr><td>h</td><td>i<br>j</td></tr></table><dl><dt>t</dt><dd>d</dd></dl><ol><li>one<li>two</ol>",
    "empty": "",
}


@needs_core
@pytest.mark.parametrize("name", sorted(PAGES))
def test_segment_gives_the_python_lines(name):
    body = _page_body(f"<html><body>{PAGES[name]}</body></html>".encode())
    lines_both_ways(body)


@needs_core
@pytest.mark.parametrize("path", GOLDEN, ids=[path.parent.name for path in GOLDEN])
def test_segment_gives_the_python_lines_of_the_golden_pages(path):
    body = _page_body(path.read_bytes())
    compiled, python = both(segment, body)
    assert compiled_lines(body) is not None
    assert len(python) > 10
    assert compiled == python


@needs_core
def test_segment_gives_the_python_lines_of_the_fuzz_corpus():
    for path in FUZZ:
        body = _page_body(path.read_bytes())
        compiled, python = both(segment, body)
        assert compiled == python, path.name


@needs_core
def test_segment_reads_the_class_id_and_role_that_a_dtd_gives_an_element():
    # The walk asks for an element's class, id and role only where it writes them, unless
    # the document's DTD may give them: then, as lxml's get() reads it, a default counts.
    root = etree.fromstring(
        b'<?xml version="1.0"?><!DOCTYPE html [<!ATTLIST div class CDATA "comments" role CDATA "navigation">'
        b'<!ATTLIST p id CDATA "related">]><html><body><div><p>Reply text</p></div><p>Story</p></body></html>'
    )
    body = root.find("body")
    lines = lines_both_ways(body)
    assert [(line.text, line.noise_attr, line.furniture) for line in lines] == [("Reply text", True, True), ("Story", True, False)]


@needs_core
def test_segment_of_an_inner_element_counts_its_ancestors():
    root = html.document_fromstring(
        "<html><body><div class='comments'><span class='article'>A <i>span</i><div>block</div>"
        "<form><textarea></textarea>typed</form></span></div></body></html>"
    )
    for container in root.iter("span", "form", "i"):
        python = lines_both_ways(container)
        assert python[0].level == sum(1 for _ in container.iterancestors())


@needs_core
def test_comments_and_their_tails_are_passed_over_as_iterwalk_does():
    body = _page_body(b"<html><body><p>before<b>bold</b>after</p><div>one</div></body></html>")
    comment = etree.Comment("a comment")
    comment.tail = " its tail"
    body.find("p").insert(0, comment)
    pi = etree.ProcessingInstruction("php", "echo 1")
    pi.tail = "pi tail"
    body.find("div").append(pi)
    python = lines_both_ways(body)
    assert "its tail" not in " ".join(line.text for line in python)


@needs_core
def test_names_in_a_namespace_and_many_tags():
    body = _page_body(b"<html><body><p>x</p></body></html>")
    svg = etree.SubElement(body, "{http://www.w3.org/2000/svg}div", {"class": "comments"})
    svg.text = "namespaced"
    for k in range(300):  # more distinct names than the walk keeps at hand
        etree.SubElement(body, f"x-tag{k}").text = f"custom {k}"
        etree.SubElement(body, "div" if k % 2 else "span").text = "between"
    lines_both_ways(body)


@needs_core
def test_a_deep_tree():
    body = _page_body(b"<html><body></body></html>")
    node = body
    for k in range(1500):
        node = etree.SubElement(node, "div" if k % 3 else "a")
        node.text = f"level {k} "
        node.tail = "tail"
    lines_both_ways(body)


@needs_core
def test_an_entity_reference_is_left_to_python():
    body = _page_body(b"<html><body><p>a</p></body></html>")
    entity = etree.Entity("nbsp")
    entity.tail = "after"
    body.find("p").append(entity)
    assert compiled_lines(body) is None
    compiled, python = both(segment, body)
    assert compiled == python


@needs_core
def test_white_space_is_what_str_isspace_says():
    assert _core is not None
    assert [cp for cp in range(sys.maxunicode + 1) if _core._is_space(cp)] == [
        cp for cp in range(sys.maxunicode + 1) if chr(cp).isspace()
    ]


@needs_core
def test_letters_and_digits_are_what_str_isalnum_and_isdecimal_say():
    assert _core is not None
    code_points = range(sys.maxunicode + 1)
    assert [cp for cp in code_points if _core._is_alnum(cp)] == [cp for cp in code_points if chr(cp).isalnum()]
    assert [cp for cp in code_points if _core._is_decimal(cp)] == [cp for cp in code_points if chr(cp).isdecimal()]


_TAGS = ["div", "p", "span", "a", "br", "li", "td", "h1", "footer", "nav", "aside", "form", "textarea", "section", "b", "x-box"]
_CLASSES = ["", "cookie-banner", "comments", "article-content", "photo-gallery", "share-bar", "nav", "customer-reviews", "post entry"]
_TEXT = st.text(alphabet="ab 中文.\u00a0\u3000\n\t,:|", max_size=12)


@st.composite
def _trees(draw: st.DrawFn, depth: int = 0) -> etree._Element:
    element = etree.Element(draw(st.sampled_from(_TAGS)))
    for attribute, values in (("class", _CLASSES), ("id", _CLASSES), ("role", ["navigation", "dialog", "main", "banner"])):
        if draw(st.booleans()):
            element.set(attribute, draw(st.sampled_from(values)))
    element.text = draw(_TEXT)
    element.tail = draw(_TEXT)
    if depth < 4:
        for child in draw(st.lists(_trees(depth + 1), max_size=3)):
            element.append(child)
    return element


@needs_core
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_trees())
def test_segment_gives_the_python_lines_of_any_tree(tree):
    body = etree.Element("body")
    body.append(tree)
    lines_both_ways(body)


# What segment reads of its settings (config.LinesConfig), each with a page whose lines a
# value other than the default changes: a link's share of a line that makes it all link,
# the share of the page that a form to type into or a footer must hold to be walked as a
# wrapper, the length of a paragraph that holds the story.
_STORY = "A paragraph of the story that runs on for a while. " * 3  # about 150 characters
SETTINGS_PAGES = {
    "all_link": (0.5, "<p>Read: <a href='/a'>most of this line is a link</a></p><p>Not a link at all.</p>"),
    "passed_max_share": (
        0.2,
        "<form><textarea></textarea><p>" + "A comment typed into the form below the story, and more of it. " * 4 + "</p></form>"
        "<p>" + "The story, which runs on for longer than the comment does, a few lines. " * 8 + "</p>"
        "<footer><p>About us, contact, terms and privacy, all of the site.</p></footer>",
    ),
    "story_paragraph_chars": (100, f"<footer><p>{_STORY}</p><p>More of the page.</p></footer>"),
}


@needs_core
@pytest.mark.parametrize("name", sorted(SETTINGS_PAGES))
def test_segment_reads_a_setting_as_the_python_walk_does(name):
    value, page = SETTINGS_PAGES[name]
    body = _page_body(f"<html><body>{page}</body></html>".encode())
    chosen = LinesConfig(**{name: value})
    assert getattr(LinesConfig(), name) != value
    python = lines_both_ways(body, chosen)
    assert python != segment(body), "the value changes no line of the page"


@needs_core
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    _trees(),
    st.builds(
        LinesConfig,
        all_link=st.floats(0.0, 1.0),
        passed_max_share=st.floats(0.0, 1.0),
        story_paragraph_chars=st.integers(0, 40),
    ),
)
def test_segment_gives_the_python_lines_of_any_tree_under_any_settings(tree, lines):
    body = etree.Element("body")
    body.append(tree)
    lines_both_ways(body, lines)


# --- segment._attr_marks ------------------------------------------------------------------

_NAMES = [
    "", " ", "nav", "main-nav", "post entry", "comment-content", "comments2", "comments²", "comments٣", "x_comments-y",
    "COMMENTS", "\u212aomments", "İcomments", "cookie-banner", "category-cookies", "onetrust-consent-sdk", "cookies",
    "customer-reviews", "category-reviews", "review-body", "photo-gallery", "js-lightbox-gallery", "format-gallery",
    "slideshow-wrapper", "a\u3000nav\u00a0b", "nav\u2028share", "navé", "énav", "share-bar2",
]


def _compiled_attr_marks():
    assert _core is not None
    return _core.AttrMarks(
        segment_module._WORD_BITS, segment_module._GROUPS_MASK, segment_module._NOISE_BIT, segment_module._CONTENT_BIT,
        segment_module.REVIEWS_BIT, segment_module._names_reviews, segment_module._CONSENT_CUES, segment_module._names_consent,
        segment_module._GALLERY_CUES, segment_module._names_gallery,
    )


@needs_core
def test_attr_marks_gives_the_python_marks():
    marks, python = _compiled_attr_marks(), segment_module._attr_marks.__wrapped__
    values = set(_NAMES)
    for path in GOLDEN:
        for element in html.document_fromstring(path.read_bytes()).iter():
            values.add(f"{element.get('class') or ''} {element.get('id') or ''}")
    assert any(python(value)[3] for value in values) and any(python(value)[4] for value in values)
    for value in sorted(values):
        assert marks(value) == python(value), value


@needs_core
def test_attr_marks_asks_about_a_gallery_only_where_a_cue_occurs():
    assert _core is not None
    asked = []

    def names_gallery(names: str) -> bool:
        asked.append(names)
        return segment_module._names_gallery(names)

    marks = _core.AttrMarks(
        segment_module._WORD_BITS, segment_module._GROUPS_MASK, segment_module._NOISE_BIT, segment_module._CONTENT_BIT,
        segment_module.REVIEWS_BIT, segment_module._names_reviews, segment_module._CONSENT_CUES, segment_module._names_consent,
        segment_module._GALLERY_CUES, names_gallery,
    )
    assert marks("main-nav content")[4] is False and marks("photo-Gallery x")[4] is True
    assert marks("slideshow-wrapper")[4] is True and marks("js-lightbox-gallery")[4] is False
    assert asked == ["photo-gallery x", "slideshow-wrapper", "js-lightbox-gallery"]


@needs_core
def test_segment_keeps_the_marks_of_each_class_and_id_by_their_bytes():
    # The same names again (found kept), class without id and id without class (keys
    # "x " and " x"), an empty class, non-ASCII and astral names.
    names = [
        'class="nav"', 'class="nav"', 'id="nav"', 'class="" id="comments"', 'class="x" id=""', 'class="navé"',
        'class="nav😀 main" id="cookie-banner"', 'class="　nav"', 'class="content"', "",
    ]
    body = _page_body(("<html><body>" + "".join(f"<div {n}><p>Text {k}</p></div>" for k, n in enumerate(names)) + "</body></html>").encode())
    for _ in range(2):
        lines = lines_both_ways(body)
        assert [(line.noise_attr, line.content_attr) for line in lines] == [(True, False)] * 4 + [(False, False)] * 2 + [
            (True, False), (False, True), (False, False)]  # the consent box (Text 6) passed over
    # A value of more than one node (an entity left unresolved) is read as lxml reads it.
    parser = etree.XMLParser(resolve_entities=False)
    root = etree.fromstring(
        b'<!DOCTYPE html [<!ENTITY n "nav">]><html><body><div class="&n; x"><p>Menu</p></div><p>Story</p></body></html>', parser
    )
    assert [line.noise_attr for line in lines_both_ways(root.find("body"))] == [True, False]
    # Other rules' attr_marks find none of the marks kept for the first's.
    rules = segment_module._RULES._replace(attr_marks=lambda names: (False, False, 0, False, False))
    assert not any(line.noise_attr for line in _core.segment(body, rules, LinesConfig()))
    assert compiled_lines(body) == lines_both_ways(body)


@needs_core
def test_segment_reads_a_line_s_kind_from_the_rules_tag_kinds():
    body = _page_body(b"<html><body><div>a div</div><h2>a heading</h2><p><a href='/'>all link</a></p><td>cell</td></body></html>")
    assert [line.kind for line in lines_both_ways(body)] == ["text", "heading", "link", "cell"]
    rules = segment_module._RULES._replace(tag_kinds={**segment_module._TAG_KINDS, "div": "list"}, other_kind="other")
    lines = _core.segment(body, rules, LinesConfig())
    assert [line.kind for line in lines] == ["list", "heading", "link", "cell"]
    assert all(type(line) is Line for line in lines)
    lines_both_ways(body, LinesConfig(all_link=1))  # a threshold that is no float compares as Python compares it
    rules = segment_module._RULES._replace(link_kind="linked")
    assert [line.kind for line in _core.segment(body, rules, LinesConfig(all_link=0.5))] == ["text", "heading", "linked", "cell"]
    with pytest.raises(TypeError):
        _core.segment(body, segment_module._RULES._replace(line=tuple), LinesConfig())


@needs_core
@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["nav", "comment", "cookie", "consent", "gallery", "reviews", "category", "js", "share", "x"]) | st.text(
    alphabet="az_-0 \u00a0\u3000²٣KİéA", max_size=4), max_size=6).map("".join))
def test_attr_marks_gives_the_python_marks_of_any_value(value):
    assert _compiled_attr_marks()(value) == segment_module._attr_marks.__wrapped__(value)


# --- whole extractions ----------------------------------------------------------------


@needs_core
@pytest.mark.parametrize("method", ["svm", "paper"])
def test_extract_gives_the_python_results_on_the_golden_pages(method):
    config = Config(method=method)
    for path in GOLDEN:
        compiled, python = both(extract, path.read_bytes(), config=config)
        assert compiled == python, path.parent.name


@needs_core
def test_extract_gives_the_python_results_under_other_line_settings():
    config = Config().with_overrides(["lines.all_link=0.6", "lines.passed_max_share=0.2", "lines.story_paragraph_chars=60"])
    for path in GOLDEN:
        compiled, python = both(extract, path.read_bytes(), config=config)
        assert compiled == python, path.parent.name


# --- which core runs ---------------------------------------------------------------------


def test_version_names_the_core(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    version, named = capsys.readouterr().out.splitlines()
    assert version.startswith("webclean ")
    assert named == f"core: {core.name()}"


_VERSION = "from webclean.cli import main; main(['--version'])"


@needs_core
def test_the_compiled_core_runs_where_it_is_built():
    result = subprocess.run([sys.executable, "-c", _VERSION], cwd=REPO, env={**os.environ, "WEBCLEAN_PURE": "0"}, capture_output=True, text=True)
    assert result.stdout.splitlines()[-1] == "core: compiled"
    assert result.stderr == ""


def test_webclean_pure_forces_the_python_path():
    result = subprocess.run([sys.executable, "-c", _VERSION], cwd=REPO, env={**os.environ, "WEBCLEAN_PURE": "1"}, capture_output=True, text=True)
    assert result.stdout.splitlines()[-1] == "core: python"
    assert result.stderr == ""  # chosen, so no warning


def test_without_the_extension_the_library_says_so_once_and_runs_python():
    code = (
        "import sys; sys.modules['webclean._core'] = None\n"  # an import of it raises ImportError
        "import webclean, webclean.core, webclean.segment\n"
        "print(webclean.extract(b'<p>' + b'Some words of a page. ' * 20 + b'</p>').text[:10])\n"
        + _VERSION
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, env={**os.environ, "WEBCLEAN_PURE": ""}, capture_output=True, text=True)
    assert result.stdout.splitlines() == ["Some words", f"webclean {webclean.__version__}", "core: python"]
    assert result.stderr.count("compiled core is not available") == 1


# --- the page type's signals (page_type.py) and the confidence's (confidence.py) --------

_PRICES = st.text(alphabet="$€£¥₹元0٣ \u3000\n.x", max_size=12)


def _item_runs_both_ways(body: etree._Element, settings: PageTypeConfig | None = None) -> None:
    lines = segment(body)
    compiled, python = both(item_runs, lines, settings or PageTypeConfig())
    assert compiled == python


def _line_totals_both_ways(lines: list[Line], settings: LinesConfig | None = None, sample_chars: int = 40) -> LineTotals:
    compiled, python = both(line_totals, lines, settings or LinesConfig(), sample_chars)
    assert compiled == python
    return python


@needs_core
def test_the_page_type_sums_give_the_python_signals_of_the_golden_and_fuzz_pages():
    wider = PageTypeConfig(item_levels=5, run_items=2)
    for path in [*GOLDEN, *FUZZ]:
        body = _page_body(path.read_bytes())
        _item_runs_both_ways(body)
        _item_runs_both_ways(body, wider)
        _line_totals_both_ways(segment(body))
        _line_totals_both_ways(segment(body), LinesConfig(long_line=20, prose_link_ratio=0.6), sample_chars=3)
        compiled, python = both(_ld_types, path.read_bytes())
        assert compiled == python


@needs_core
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_trees(), st.integers(1, 4), st.integers(2, 4))
def test_item_runs_give_the_python_signals_of_any_tree(tree, levels, run_items):
    body = etree.Element("body")
    for _ in range(3):  # items alike, side by side
        body.append(copy.deepcopy(tree))
    _item_runs_both_ways(body, PageTypeConfig(item_levels=levels, run_items=run_items))


@needs_core
@settings(max_examples=300, deadline=None)
@given(st.lists(_PRICES, max_size=8), st.integers(0, 5))
def test_the_line_totals_count_the_prices_and_cjk_of_any_lines(texts, sample_chars):
    lines = [Line(text, etree.Element("p"), "p", 0.5, False, False, 0, len(text), 1, False) for text in texts]
    totals = _line_totals_both_ways(lines, sample_chars=sample_chars)
    assert totals.prices == len(_PRICE.findall("\n".join(texts)))


def test_the_line_totals_count_prices_as_the_pattern_finds_them_across_lines():
    def prices(*texts: str) -> int:
        lines = [Line(text, etree.Element("p"), "p", 0.0, False, False, 0, len(text), 1, False) for text in texts]
        return _line_totals_both_ways(lines).prices

    assert prices("Price $ 5 and 7 元", "no sign here") == 2
    assert prices("a long line that ends on $", "5 dollars") == 1  # the line break is the pattern's \s
    assert prices("5€5€") == 2 and prices("€5€") == 1  # leftmost, never overlapping
    assert prices("x", "$", "5", "ab") == 1


@needs_core
@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=60), st.lists(st.sampled_from([b'"@type"', b'"@type": "NewsArticle"', b'"@type":["Product"]']), max_size=3))
def test_the_declared_types_are_found_in_any_bytes(noise, pieces):
    data = noise.join(pieces) if pieces else noise
    compiled, python = both(_ld_types, data)
    assert compiled == python
    assert _core.occurrences(data, b'"@type"', 1) == [i for i in range(len(data)) if data.startswith(b'"@type"', i)]


@needs_core
@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab中文\u3400\u4dbf\u9fff\uf900ＡＢ！～\uff00\uff5f\u3000 é\u0301", max_size=20))
def test_the_texts_are_made_half_width_as_python_does(text):
    compiled, python = both(half_width, text)
    assert compiled == python
    assert both(nfkc, text) == (unicodedata.normalize("NFKC", text),) * 2


@needs_core
@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**16), st.integers(1, 5), st.booleans())
def test_the_compiled_trees_reach_the_python_leaves(seed, rows, nan):
    rng = np.random.default_rng(seed)
    model = default_model("svm")
    for trees in (model.page_types._joined[0], model.confidence.trees, model.svm.trees):  # 1,400, 200 and 150 trees
        X = rng.normal(size=(rows, trees.width)) * 3
        if nan:
            X[rng.random(X.shape) < 0.2] = np.nan
        compiled, python = both(trees.leaf_values, X)
        assert np.array_equal(compiled, python)


# --- the page's elements (page_type.element_census) ------------------------------------


def _census_both_ways(root: etree._Element) -> tuple[list[int], list[str], list[etree._Element]]:
    compiled, python = both(element_census, root)
    assert compiled == python
    return python


@needs_core
def test_the_census_gives_the_python_counts_of_the_golden_and_fuzz_pages():
    counted = 0
    for path in [*GOLDEN, *FUZZ]:
        counts, _, _ = _census_both_ways(parse_html(path.read_bytes()))
        counted += sum(counts)
    assert counted > 1000


@needs_core
def test_the_census_reads_the_subtree_of_its_root_and_every_itemtype_and_og_type_meta_in_order():
    root = html.fromstring(
        "<html><head><meta property='og:type' content='article'><meta name='description' content='og:type'>"
        "<meta property='og:title' name=' OG:Type '><meta content='og:type'></head><body itemtype='https://schema.org/WebPage'>"
        "<div itemtype='https://schema.org/Product'><!-- a comment --><p>x<a href='#'>y</a></p><pre>code</pre>"
        "<meta name='x'><meta name='og:typeface'></div><p itemtype=''>z</p></body></html>"
    )
    counts, types, metas = _census_both_ways(root)
    assert types == ["https://schema.org/WebPage", "https://schema.org/Product", ""]
    assert (counts[0], counts[1]) == (1, 2)  # a, p
    # the metas whose key may be og:type, as meta_values then reads it exactly
    assert [meta.get("property") or meta.get("name") for meta in metas] == ["og:type", "og:title", "og:typeface"]
    assert list(meta_values(metas, "og:type")) == ["article"]
    body_div = root.find("body/div")
    assert _census_both_ways(body_div) == ([1, 1, *[0] * 9, 1, *[0] * 11], ["https://schema.org/Product"], [body_div[-1]])


@needs_core
def test_the_census_reads_a_meta_s_key_as_the_dtd_gives_it():
    root = etree.fromstring(
        b'<?xml version="1.0"?><!DOCTYPE html [<!ATTLIST meta property CDATA "og:type">]>'
        b'<html><head><meta content="article"/><meta property="og:title" content="x"/></head><body><p>x</p></body></html>'
    )
    _, _, metas = _census_both_ways(root)
    assert [meta.get("content") for meta in metas] == ["article"]
    assert list(meta_values(metas, "og:type")) == ["article"]


@needs_core
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_trees())
def test_the_census_gives_the_python_counts_of_any_tree(tree):
    _census_both_ways(tree)

