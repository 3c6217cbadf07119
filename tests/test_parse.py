"""webclean.parse: a clean tree from any text, with no recursion and no lost text."""

from __future__ import annotations

from pathlib import Path

import lxml.html
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from webclean import parse
from webclean.config import ParseConfig
from webclean.parse import JUNK_TAGS, ParseError, element_path, page_title, parse_html, text_of
from webclean.text import NOT_XML_CHAR_RE

ZH_TEXT = "国务院今天召开常务会议，部署进一步做好稳就业工作。"
EN_TEXT = "The council approved the new budget on Tuesday evening."


def body_text(root: etree._Element) -> str:
    return text_of(root.find("body"))


def max_level(root: etree._Element) -> int:
    """Depth of the tree, root = 1, without recursion."""
    level = deepest = 0
    for event, _ in etree.iterwalk(root, events=("start", "end")):
        level += 1 if event == "start" else -1
        deepest = max(deepest, level)
    return deepest


def nested_divs(n: int, inner: str = "deep text") -> str:
    return f"<html><body><p>before</p>{'<div>' * n}{inner}{'</div>' * n}<p>after</p></body></html>"


# --- the document and its body -----------------------------------------------------


def test_returns_html_root_with_head_and_body() -> None:
    root = parse_html(f"<html><head><title>t</title></head><body><p>{EN_TEXT}</p></body></html>")
    assert root.tag == "html"
    assert [child.tag for child in root] == ["head", "body"]
    assert body_text(root) == EN_TEXT


def test_script_before_html_still_finds_the_body() -> None:
    page = (
        '<script>var tpl = "<div>";</script><!DOCTYPE html>'
        f"<html><head><title>新闻标题</title></head><body><div id='main'><p>{ZH_TEXT}</p></div></body></html>"
    )
    root = parse_html(page)
    assert body_text(root) == ZH_TEXT
    assert root.find("body/div/p") is not None
    assert page_title(root) == "新闻标题"


def test_text_before_html_still_finds_the_body() -> None:
    root = parse_html(f"garbage<html><head><title>T</title></head><body><p>{EN_TEXT}</p></body></html>")
    assert EN_TEXT in body_text(root)


def test_repair_moves_a_page_stuck_in_head_into_body() -> None:
    # Older libxml2 builds put the whole page into <head> when junk precedes <html>;
    # 2.14 does not, so the tree is built the way they leave it.
    root = lxml.html.document_fromstring("<html><head></head><body></body></html>")
    head, body = root.find("head"), root.find("body")
    title = etree.SubElement(head, "title")
    title.text = "T"
    div = etree.SubElement(head, "div")
    div.text = ZH_TEXT
    div.tail = "tail text"
    etree.SubElement(head, "p").text = EN_TEXT
    parse._repair_body(root)
    assert [child.tag for child in head] == ["title"]
    assert [child.tag for child in body] == ["div", "p"]
    assert body_text(root) == f"{ZH_TEXT}tail text{EN_TEXT}"


def test_repair_creates_a_missing_body() -> None:
    root = parse_html("<title>only a title</title>")
    assert root.find("body") is not None
    assert page_title(root) == "only a title"


def test_content_after_closing_html_is_kept_in_body() -> None:
    # libxml2 2.14 drops everything after </html> and puts what follows </body>
    # outside <body>; browsers put both into <body>.
    page = (
        "<html><body><p>first</p></body></html>\n"
        f"<div><p>{ZH_TEXT}</p></div><html><body><p>{EN_TEXT}</p></body></html>"
    )
    root = parse_html(page)
    assert [child.tag for child in root] == ["body"]
    text = body_text(root)
    assert "first" in text and ZH_TEXT in text and EN_TEXT in text


def test_upper_case_end_tags_too() -> None:
    root = parse_html("<HTML><BODY><P>one</P></BODY></HTML><P>two</P>")
    assert body_text(root) == "onetwo"


def test_empty_input_gives_an_empty_document() -> None:
    for text in ("", "   \n\t", "<!-- only a comment -->", "\x00"):
        root = parse_html(text)
        assert [child.tag for child in root] == ["head", "body"]
        assert body_text(root) == ""


def test_xml_declaration_with_encoding_in_a_str() -> None:
    page = f'<?xml version="1.0" encoding="gb2312"?>\n<html><body><p>{ZH_TEXT}</p></body></html>'
    with pytest.raises(ValueError):
        lxml.html.document_fromstring(page)  # what the workaround is for
    assert body_text(parse_html(page)) == ZH_TEXT


def test_meta_charset_in_text_does_not_redecode() -> None:
    page = f'<html><head><meta charset="iso-8859-1"></head><body><p>{ZH_TEXT} café</p></body></html>'
    assert body_text(parse_html(page)) == f"{ZH_TEXT} café"


def test_nul_and_lone_surrogate_lose_no_text() -> None:
    root = parse_html("<p>a\x00b</p><p>c\udc80d</p><p>end</p>")
    assert body_text(root) == "abc?dend"


def test_control_characters_do_not_break_later_edits() -> None:
    # libxml2 keeps raw control characters and makes them from &#1;; lxml then
    # refuses any text assignment holding one, and had deleted the old text first.
    root = parse_html("<div>a\x01b\x0cc<form></form>&#1;x&#xffff;y</div>")
    div = root.find(".//div")
    assert div.text == "ab cxy"
    div.text = div.text + "!"  # would raise ValueError with a control character left in


@pytest.mark.parametrize("template", ["&#{cp};", "&#x{cp:x};", "&#X{cp:X};", "&#{cp}", "&#x{cp:04x};", "&#{cp:05d};"])
def test_every_reference_that_makes_a_control_character_is_seen(template: str) -> None:
    # The walk that removes them runs only when the markup holds such a reference:
    # whatever libxml2 turns into a character lxml refuses must be recognised.
    for cp in [*range(0x110), *range(0xD7F0, 0xE010), 0xFFFD, 0xFFFE, 0xFFFF, 0x10FFFF]:
        reference = template.format(cp=cp)
        tree = etree.fromstring(f"<p>a{reference}b</p>".encode(), parse._PARSER)
        made_control = NOT_XML_CHAR_RE.search("".join(tree.itertext())) is not None
        if made_control:
            assert parse._holds_reference(reference.encode(), parse._CONTROL_CODE_POINTS), reference
            assert not NOT_XML_CHAR_RE.search(body_text(parse_html(f"<p>a{reference}b</p>")))


def test_parse_error_for_input_lxml_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(data: bytes, parser: object) -> None:
        raise etree.XMLSyntaxError("refused", 1, 1, 1)

    monkeypatch.setattr(parse.etree, "fromstring", refuse)
    with pytest.raises(ParseError):
        parse_html("<p>x</p>")


# --- removing what is never main text ----------------------------------------------


def test_junk_comments_and_pis_removed_tails_kept() -> None:
    page = (
        "<html><head><style>p{color:red}</style><script>var a=1;</script></head><body>"
        "<p>one<script>alert('x')</script>two<!-- a comment -->three<?php echo 1; ?>four"
        "<style>.x{}</style>five<noscript>enable js</noscript>six"
        "<iframe src='ad.html'>frame text</iframe>seven<svg><title>icon</title><text>label</text></svg>eight"
        "<template><p>inert</p></template>nine<select><option>May 2019</option></select>ten"
        "<button>Subscribe</button>eleven<datalist><option>x</option></datalist>twelve"
        "<ruby>漢<rp>(</rp><rt>かん</rt><rp>)</rp>字<rt>じ</rt></ruby></p></body></html>"
    )
    root = parse_html(page)
    assert body_text(root) == "onetwothreefourfivesixseveneightnineteneleventwelve漢字"
    for tag in JUNK_TAGS:
        assert next(root.iter(tag), None) is None, tag
    assert not list(root.iter(etree.Comment, etree.ProcessingInstruction))


def test_noscript_ends_at_its_end_tag_even_with_an_element_left_open() -> None:
    # libxml2 keeps the <div> open past </noscript>, and the rest of the page falls
    # inside the noscript; a browser with scripts on reads its content as raw text.
    menu = "".join(f"<li><a href='/m{i}'>menu {i}</a></li>" for i in range(60))
    page = (
        "<html><body><noscript><div id='nojs'></noscript>"
        f"<div><ul>{menu}</ul></div><div class='story'><p>{ZH_TEXT}</p></div></body></html>"
    )
    assert len(list(etree.fromstring(page, etree.HTMLParser()).find(".//noscript").iter())) > 100
    root = parse_html(page)
    assert ZH_TEXT in body_text(root)
    assert "menu 59" in body_text(root)
    assert next(root.iter("noscript"), None) is None


def test_noscript_content_kept_on_request() -> None:
    page = f"<body><script type='text/template'><p>{ZH_TEXT}</p></script><noscript><p>{ZH_TEXT}</p></noscript>after</body>"
    assert body_text(parse_html(page)) == "after"
    kept = parse_html(page, noscript=True)
    assert body_text(kept) == f"{ZH_TEXT}after"
    assert next(kept.iter("noscript"), None) is None


def test_streamed_boxes_are_put_in_their_markers_place() -> None:
    # React's streamed server rendering: the shell first, with a marker where each
    # part not yet ready goes (B: a boundary, P: a segment), then the parts in hidden
    # boxes at the end of the body; its script moves each box into place at once.
    page = (
        "<body><header>shell</header><main><template id='B:0'></template>loading"
        "<template id='P:1'></template></main><footer>foot</footer>"
        "<div hidden id='S:0'><p>story<template id='B:2'></template></p></div>"
        "<div hidden id='S:1'>details</div><div hidden id='S:2'> and more</div>"
        "<div hidden id='S:9'>unplaced</div><div hidden>menu</div>"
        "<div hidden id='S:3'><template id='B:3'></template>cycle</div>after</body>"
    )
    root = parse_html(page)
    assert body_text(root) == "shellstory and moreloadingdetailsfootunplacedmenucycleafter"
    assert [box.get("id") for box in root.iter("div") if box.get("hidden") is not None] == ["S:9", None, "S:3"]


def test_small_forms_removed_with_tail_kept() -> None:
    page = (
        "<body><div><form action='/search'><input name='q'><button>搜索</button></form>after the form"
        f"<p>{ZH_TEXT}</p></div></body>"
    )
    root = parse_html(page)
    assert next(root.iter("form"), None) is None
    assert body_text(root) == f"after the form{ZH_TEXT}"


def test_what_form_is_a_widget_is_a_setting() -> None:
    page = f"<body><form action='/subscribe'><p>{'订阅' * 60}</p></form><p>{ZH_TEXT}</p></body>"
    assert "订阅" not in body_text(parse_html(page))  # 120 characters: under parse.widget_form_chars (200)
    assert "订阅" in body_text(parse_html(page, settings=ParseConfig(widget_form_chars=100)))


def test_form_wrapping_the_page_is_kept() -> None:
    # ASP.NET WebForms pages put the whole body in one <form>.
    article = "".join(f"<p>{ZH_TEXT}{i}</p>" for i in range(10))
    page = f"<body><form id='form1' method='post'><input type='hidden'><div>{article}</div></form></body>"
    root = parse_html(page)
    assert len(root.findall(".//form")) == 1
    assert ZH_TEXT + "9" in body_text(root)


# --- title, path, text -------------------------------------------------------------


@pytest.mark.parametrize(
    ("head", "body", "title"),
    [
        ("<title>\n  Breaking   news\t</title>", "<h1>Headline</h1>", "Breaking news"),
        ("<title> </title><meta property='og:title' content=' 新闻 标题 '>", "<h1>H</h1>", "新闻 标题"),
        ("<meta name='og:title' content='Named'>", "<h1>H</h1>", "Named"),
        ("", "<h1></h1><h1> First <b>heading</b> </h1><h1>Second</h1>", "First heading"),
        ("", "<p>no title at all</p>", ""),
        ("<title> </title>", "<title>In the body</title><h1>H</h1>", "In the body"),
        ("<title>Head</title>", "<title>Body</title>", "Head"),
    ],
)
def test_page_title_order(head: str, body: str, title: str) -> None:
    assert page_title(parse_html(f"<html><head>{head}</head><body>{body}</body></html>")) == title


def test_page_title_is_the_first_title_of_the_page_in_document_order() -> None:
    # The head is looked at first, and only where it comes first: pages as libxml2 makes them.
    tests = Path(__file__).parent
    pages: list[str | bytes] = [path.read_bytes() for path in [*(tests / "golden").glob("*/source.html"), *(tests / "fuzz-corpus").iterdir()]]
    pages += ["<title>Before</title><head><title>Head</title></head>", "<p>x</p><title>late</title>", "<html><head></head><title>T</title>"]
    for page in pages:
        root = parse_html(page)
        first = next((text for text in map(text_of, root.iter("title")) if text), None)
        if first is not None:
            assert page_title(root) == first


def test_svg_title_is_not_the_page_title() -> None:
    root = parse_html("<body><svg><title>icon</title></svg><h1>Real</h1></body>")
    assert page_title(root) == "Real"


def test_element_path() -> None:
    root = parse_html("<body><div>a</div><div><div><p>x</p></div><div><p>y</p></div></div></body>")
    y = root.xpath("//p")[1]
    assert element_path(y) == "/html/body/div[2]/div[2]/p"
    assert root.xpath(element_path(y))[0] is y


def test_text_of_normalises_whitespace() -> None:
    root = parse_html("<p>  Hello\n\t<b>big</b>\u00a0 world\u3000！ </p>")
    p = root.find(".//p")
    p.tail = "not mine"
    assert text_of(p) == "Hello big world ！"


# --- robustness --------------------------------------------------------------------

_MARKUP = st.lists(
    st.one_of(
        st.sampled_from(
            ["<div>", "</div>", "<p>", "</p>", "<html>", "</html>", "<body>", "</body>", "<head>", "</head>",
             "<script>", "</script>", "<form>", "</form>", "<title>", "</title>", "<!--", "-->", "<?x ?>",
             "<table><tr><td>", "<svg>", "<br>", "&amp;", "&#0;", "<", ">", "\x00", "中文"]
        ),
        st.text(max_size=8),
    ),
    max_size=40,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(_MARKUP)
def test_any_text_gives_a_clean_tree(text: str) -> None:
    root = parse_html(text, max_depth=8)
    assert root.tag == "html" and root.find("body") is not None
    assert max_level(root) <= 8
    for tag in JUNK_TAGS:
        assert next(root.iter(tag), None) is None
    assert isinstance(page_title(root), str)


@settings(max_examples=300, deadline=None)
@given(_MARKUP)
def test_utf8_bytes_give_the_tree_of_their_text(text: str) -> None:
    # decode.Decoded.utf8: a crawl's valid UTF-8 goes to the parser as it is.
    as_text = parse_html(text, max_depth=8)
    as_bytes = parse_html(text.encode("utf-8", "replace"), max_depth=8)
    assert etree.tostring(as_bytes, encoding="unicode") == etree.tostring(as_text, encoding="unicode")


def test_a_textarea_of_markup_goes_and_one_of_text_stays():
    root = parse_html(
        "<html><body><p>The story.</p>"
        '<textarea>&lt;div class="slide"&gt;&lt;img src="a.jpg"&gt;&lt;/div&gt;</textarea>after'
        "<textarea>A poem the page shows in a box.</textarea></body></html>"
    )
    texts = [t.text for t in root.iter("textarea")]
    assert texts == ["A poem the page shows in a box."]
    assert "after" in "".join(root.find("body").itertext())


def test_a_control_that_swallows_the_page_keeps_its_text():
    # libxml2 leaves an unclosed <button> open over everything after it: the article
    # is inside it, and must not go with it as a form control.
    article = "An article paragraph long enough to be the page's main text. " * 6
    root = parse_html(f"<html><body><button><span>Menu</span><div><p>{article}</p></div></body></html>")
    assert article.strip() in text_of(root.find("body"))
    small = parse_html("<html><body><p>Text.</p><button>Subscribe now</button></body></html>")
    assert "Subscribe" not in text_of(small.find("body"))


def test_a_long_select_of_options_stays_junk():
    options = "".join(f"<option>Archive of month {n}</option>" for n in range(40))
    root = parse_html(f"<html><body><p>The story.</p><select>{options}</select></body></html>")
    assert "Archive" not in text_of(root.find("body"))


def test_a_script_link_around_paragraphs_is_a_box():
    # A "javascript:" link goes to no page: around paragraphs it is a box the reader
    # clicks, and its text is not a link's (Readability.js reads it so too).
    root = parse_html('<html><body><a href=" javascript:void(0)"><p>abc</p><p>def</p>ghi</a></body></html>')
    assert [el.tag for el in root.find("body")] == ["div"]
    kept = parse_html(
        '<html><body><a href="javascript:open()">Show more</a>'
        '<a href="/story"><p>A teaser</p></a></body></html>'
    )
    assert [el.tag for el in kept.find("body")] == ["a", "a"]

