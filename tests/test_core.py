"""The compiled core (webclean/_core.pyx) gives exactly what the Python path gives.

Each test runs the same input through both: the compiled function where webclean.core
loaded it, the Python function with ``core.compiled`` set to None (as WEBCLEAN_PURE=1
or a machine without the extension leaves it). Where the extension is not built they
skip, saying so.
"""

from __future__ import annotations

import copy
import dataclasses
import os
import struct
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
from webclean import core, line_features
from webclean import segment as segment_module
from webclean.cli import main
from webclean.config import Config, LinesConfig, PageTypeConfig
from webclean.extract import ClassifiedPage, classify_page, extract, page_confidence_signals
from webclean.features import feature_matrix
from webclean.lexicon import NoiseLexicon, line_keys
from webclean.model import default_model
from webclean.page_type import _PRICE, LineTotals, _ld_types, element_census, item_runs, line_totals
from webclean.parse import parse_html
from webclean.segment import Line, drop_hidden, segment
from webclean.text import CJK_IDEOGRAPH_RANGES, CJK_RE
from webclean.tokenize import half_width, nfkc, split_sentences

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
        segment_module._names_gallery,
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
def test_the_texts_are_counted_and_made_half_width_as_python_does(text):
    assert _core.count_in(text, CJK_IDEOGRAPH_RANGES) == len(CJK_RE.findall(text))
    compiled, python = both(half_width, text)
    assert compiled == python
    assert both(nfkc, text) == (unicodedata.normalize("NFKC", text),) * 2


@needs_core
def test_the_confidence_signals_are_the_python_signals_of_the_golden_pages():
    config, model = Config(), default_model("svm")
    for path in GOLDEN:
        page = classify_page(path.read_bytes(), config, model, url="https://example.org/a/page.html")
        if isinstance(page, ClassifiedPage):
            compiled, python = both(page_confidence_signals, page, config)
            assert np.array_equal(compiled, python)


@needs_core
@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**16), st.integers(1, 5), st.booleans())
def test_the_compiled_trees_reach_the_python_leaves(seed, rows, nan):
    rng = np.random.default_rng(seed)
    for trees in (default_model("svm").page_types._joined[0], default_model("svm").confidence.trees):
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
def test_the_census_reads_the_subtree_of_its_root_and_every_itemtype_and_meta_in_order():
    root = html.fromstring(
        "<html><head><meta property='og:type' content='article'></head><body itemtype='https://schema.org/WebPage'>"
        "<div itemtype='https://schema.org/Product'><!-- a comment --><p>x<a href='#'>y</a></p><pre>code</pre>"
        "<meta name='x'></div><p itemtype=''>z</p></body></html>"
    )
    counts, types, metas = _census_both_ways(root)
    assert types == ["https://schema.org/WebPage", "https://schema.org/Product", ""]
    assert (counts[0], counts[1]) == (1, 2)  # a, p
    assert [meta.get("property") or meta.get("name") for meta in metas] == ["og:type", "x"]
    body_div = root.find("body/div")
    assert _census_both_ways(body_div) == ([1, 1, *[0] * 9, 1, *[0] * 11], ["https://schema.org/Product"], [body_div[-1]])


@needs_core
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_trees())
def test_the_census_gives_the_python_counts_of_any_tree(tree):
    _census_both_ways(tree)


# --- the lexicon's lookups (lexicon.NoiseLexicon.indices and line_indices) ----------------


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
]


def _lexicon_both_ways(lexicon: NoiseLexicon, texts: list[str]) -> None:
    assert lexicon.core_tables.indices(texts) is not None
    assert lexicon.core_tables.line_indices(texts) is not None
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
    assert odd.core_tables.indices(["share"]) is None and odd.core_tables.line_indices(["share"]) is None
    assert both(odd.indices, ["share it"]) == ([(2.0, 0.0)],) * 2
    assert odd.core_tables.indices(["a", b"bytes"]) is None
    texts = (text for text in ["Share this story", "分享"])  # any iterable
    assert both(_SMALL_LEXICON.line_indices, list(texts)) == ([9.0, 0.0],) * 2


_LEXICON_ALPHABET = "aAsSeE ōσΣς²ǅİ0١9_.,:@+/-w中文分享责任编辑的在\u3000！Ｓ（）\u0301ﬁ"


@needs_core
@settings(max_examples=400, deadline=None)
@given(st.lists(st.text(alphabet=_LEXICON_ALPHABET, max_size=60), max_size=5), st.integers(1, 4))
def test_the_lexicon_lookups_give_the_python_weights_of_any_text(texts, key_tokens):
    _lexicon_both_ways(dataclasses.replace(_SMALL_LEXICON, line_key_tokens=key_tokens), texts)
    _lexicon_both_ways(_SMALL_LEXICON, [text * 5 for text in texts])


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
]


def _columns_both_ways(lexicon: NoiseLexicon, texts: list[str]) -> np.ndarray:
    out = np.empty((len(texts), len(line_features._TEXT_COLUMN_NAMES)))
    assert _core.text_columns(texts, lexicon.core_tables, line_features._TEXT_RULES, out) is not None
    compiled, python = both(line_features._text_columns, texts, lexicon)
    assert compiled.shape == python.shape == out.shape
    assert compiled.tobytes() == python.tobytes()
    return python


@needs_core
def test_the_text_columns_give_the_python_columns_of_written_texts():
    for lexicon in (_SMALL_LEXICON, default_model("svm").lexicon, NoiseLexicon(words={}, marks={})):
        columns = _columns_both_ways(lexicon, _COLUMN_TEXTS)
    assert columns[:, 8].sum() >= 2 and columns[:, 10].sum() >= 2 and columns[:, 13].sum() >= 1


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
    config, model = Config(), default_model("svm")
    for path in GOLDEN:
        units = classify_page(path.read_bytes(), config, model).located.units
        compiled, python = both(feature_matrix, units, model.lexicon, "rich")
        assert compiled.tobytes() == python.tobytes(), path.parent.name


@needs_core
def test_the_text_columns_leave_what_they_do_not_handle_to_python():
    lexicon = default_model("svm").lexicon
    out = np.empty((1, len(line_features._TEXT_COLUMN_NAMES)))
    assert _core.text_columns(["a\ud800b"], lexicon.core_tables, line_features._TEXT_RULES, out) is None  # no UTF-8
    with pytest.raises(UnicodeEncodeError):  # the Python path's error, as it raises it
        line_features._text_columns(["a\ud800b"], lexicon)
    assert _core.text_columns([], lexicon.core_tables, line_features._TEXT_RULES, out[:0]) is None
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
