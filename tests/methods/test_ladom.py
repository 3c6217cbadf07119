"""webclean.methods.ladom: link-noise regions and anchored extraction (after Chen et al., 2007)."""

from __future__ import annotations

from lxml import etree
from pages import EN_PAGE, EN_PARAGRAPHS, ZH_PAGE, ZH_PARAGRAPHS

from webclean.config import Config
from webclean.extract import extract
from webclean.methods.ladom import ladom_record, link_noise_regions, preprocess
from webclean.parse import page_title, parse_html


def _record(html: str):
    root = parse_html(html)
    return ladom_record(root, page_title(root), "2005-06-12T21:37:05", "新华社")


def test_chinese_news_page_becomes_a_record():
    record = _record(ZH_PAGE)
    assert record.title == "北京举行春季植树活动"  # the headline, not the <title> with the site name
    assert (record.published, record.source) == ("2005-06-12T21:37:05", "新华社")
    assert list(record.body) == ZH_PARAGRAPHS  # no menu, no time line, no related links, no footer


def test_english_news_page():
    record = _record(EN_PAGE)
    assert record.title == "Night buses return"
    assert list(record.body) == EN_PARAGRAPHS


def test_preprocess_drops_rule_one_tags_alone():
    # A form that wraps the page (parse_html keeps those: over 200 characters).
    kept = "Kept text of a page that an ASP.NET form wraps whole. " * 5
    root = parse_html(f"<html><body><form action='/x'><p>{kept}<img src='a.png'>tail</p><input name='q'></form></body></html>")
    preprocess(root)
    assert [e.tag for e in root.iter()] == ["html", "body", "p"]
    assert "".join(root.find("body").itertext()) == kept + "tail"


def test_link_noise_regions_use_both_ratios_post_order():
    body = parse_html(
        "<html><body><div id='nav'><a>one</a><a>two</a><a>three</a></div>"
        "<div id='text'><p>A long paragraph of text with <a>one link</a> inside it, which is prose.</p></div>"
        "<div id='mixed'><a>x</a><a>y</a><a>z</a> and a long stretch of plain text that outweighs the links</div></body></html>"
    ).find("body")
    noise = link_noise_regions(body, 0.5, 0.5)
    ids = {e.get("id") for e in noise if e.get("id")}
    assert ids == {"nav"}  # 'mixed' has few non-link leaves but most characters are not links
    assert all(a in noise for a in body.find("div").iter("a"))  # descendants of a region are in it
    assert body not in noise


def test_walk_is_not_recursive():
    depth = 5000
    body = etree.Element("body")
    node = body
    for _ in range(depth):
        node = etree.SubElement(node, "div")
    link = etree.SubElement(node, "a")
    link.text = "deep link"
    noise = link_noise_regions(body, 0.5, 0.5)
    assert link in noise and len(noise) == depth + 2  # every div, the link and the body hold only the link


def test_backward_filter_drops_trailing_short_lines_but_keeps_the_last_sentence():
    html = (
        "<html><head><title>Bridge opens</title></head><body><h1>Bridge opens</h1>"
        "<p>The new bridge over the river opened this morning after two years of work.</p>"
        "<p>Traffic is expected to ease in the old town centre from next week on.</p>"
        "<p>Share</p><p>Print</p><p>Comments (0)</p></body></html>"
    )
    root = parse_html(html)
    body = ladom_record(root, page_title(root)).body
    assert body[-1] == "Traffic is expected to ease in the old town centre from next week on."
    assert len(body) == 2


def test_extract_with_method_ladom_fills_the_structured_fields():
    result = extract(ZH_PAGE.encode("utf-8"), config=Config(method="ladom"))
    assert result.ok and result.method == "ladom"
    assert result.title == "北京举行春季植树活动"
    assert result.published == "2005-06-12T21:37:05" and result.source == "新华社"
    assert result.text == "\n".join(ZH_PARAGRAPHS)
