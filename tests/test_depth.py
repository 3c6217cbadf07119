"""webclean.depth: parse_html's depth cap, with no recursion and no lost text."""

from __future__ import annotations

import time

import lxml.html
from lxml import etree
from test_parse import body_text, max_level, nested_divs

from webclean import depth, parse
from webclean.parse import parse_html


def test_libxml2_alone_stops_at_its_depth_limit() -> None:
    # What the depth handling is for: libxml2 stops parsing at 256 levels (2048 with
    # huge_tree, which parse uses), and drops the rest of the page, not just the
    # deep part. If a libxml2 upgrade changes this, revisit MAX_SUPPORTED_DEPTH.
    page = nested_divs(200_000)
    for parser, limit in ((lxml.html.HTMLParser(), 256), (parse._PARSER, 2048)):
        root = etree.fromstring(page.encode("utf-8"), parser)
        assert max_level(root) <= limit
        text = "".join(root.itertext())
        assert "before" in text and "deep text" not in text and "after" not in text
    assert depth.MAX_SUPPORTED_DEPTH < 2048


def test_200k_nested_divs_keep_their_text_without_recursion() -> None:
    page = nested_divs(200_000)
    start = time.perf_counter()
    root = parse_html(page)
    elapsed = time.perf_counter() - start
    assert max_level(root) <= 400
    assert body_text(root) == "before deep text after"
    assert elapsed < 10  # about 0.4 s; quadratic work would take minutes


def test_max_depth_flattens_into_the_element_at_the_cap() -> None:
    inner = "<p>one</p><p>two<b>bold</b>tail</p>"
    root = parse_html(nested_divs(30, inner), max_depth=10)
    assert max_level(root) == 10
    capped = root.xpath("/*" * 10)[0]
    assert len(capped) == 0 and capped.tag == "div"
    # Block boundaries become newlines, inline markup joins without a gap.
    assert capped.text.split() == ["one", "twoboldtail"]
    assert body_text(root) == "before one twoboldtail after"


def test_pages_within_the_cap_are_untouched() -> None:
    root = parse_html(nested_divs(300), max_depth=400)
    assert max_level(root) == 302  # html, body, 300 divs
    assert body_text(root) == "beforedeep textafter"


def test_max_depth_above_libxml2_limit_is_clamped() -> None:
    root = parse_html(nested_divs(5000), max_depth=100_000)
    assert max_level(root) <= depth.MAX_SUPPORTED_DEPTH
    assert body_text(root).split() == ["before", "deep", "text", "after"]


def test_deep_markup_prepass_ignores_tags_inside_scripts_and_comments() -> None:
    text = "<div><script>s = '<div><div><div>';</script><!-- <div><div> --><div><div>x</div></div></div>"
    flat = depth.flatten_markup(text, 2)
    assert "<script>s = '<div><div><div>';</script>" in flat and "<!-- <div><div> -->" in flat
    outside = flat.replace("<script>s = '<div><div><div>';</script>", "").replace("<!-- <div><div> -->", "")
    assert outside.count("<div>") == 2 and outside.count("</div>") == 2 and "x" in outside


def test_deep_markup_prepass_survives_stray_end_tags() -> None:
    page = "<div>" * 50_000 + "</span>" * 50_000 + "text" + "</div>" * 50_000
    root = parse_html(page)
    assert body_text(root) == "text"
