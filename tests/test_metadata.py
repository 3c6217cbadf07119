"""webclean.metadata: time of publication and source, for every method."""

from __future__ import annotations

import heapq
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from methods.pages import EN_PAGE, ZH_PAGE

from webclean import metadata
from webclean.config import Config, MetadataConfig
from webclean.extract import extract
from webclean.metadata import find_date, find_source, page_metadata
from webclean.parse import parse_html
from webclean.vocabulary import MONTHS


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ("发布时间：2005-6-12 21:37:05", "2005-06-12T21:37:05"),
        ("2022年3月5日 08:30 来源：人民日报", "2022-03-05T08:30:00"),
        ("2022年03月05日08:30", "2022-03-05T08:30:00"),
        ("更新于 2022/3/5", "2022-03-05"),
        ("Published March 5, 2022 at 8:30 pm", "2022-03-05T20:30:00"),
        ("Updated 5 Sept. 2021", "2021-09-05"),
        ("no date here, only 2022 and 12:30", None),
        ("2022-02-30 is not a day", None),
    ],
)
def test_find_date(text, iso):
    assert find_date(text) == iso


@pytest.mark.parametrize(
    ("text", "source"),
    [
        ("2005-6-12 来源：新华社 作者：张三", "新华社"),
        ("来源: 人民日报|编辑：李四", "人民日报"),
        ("稿源：中国新闻网责任编辑：王五", "中国新闻网"),
        ("Source: Reuters  Photo: AP", "Reuters"),
        ("Via: Associated Press", "Associated Press"),
        ("no source here", None),
    ],
)
def test_find_source(text, source):
    assert find_source(text) == source


def test_a_visible_date_below_the_headline_wins_over_the_date_in_the_header():
    metadata = page_metadata(parse_html(ZH_PAGE))
    assert metadata.published == "2005-06-12T21:37:05"  # not the 2024-01-01 of the site header
    assert metadata.source == "新华社"


def test_meta_tags_come_first_and_keep_the_zone():
    metadata = page_metadata(parse_html(EN_PAGE))
    assert metadata.published == "2022-03-05T08:30:00+01:00"
    assert metadata.source == "City Gazette"


def test_time_element_and_itemprop():
    page = "<html><body><h1>A</h1><time datetime='2019-11-02'>Nov 2</time><p>Text.</p></body></html>"
    assert page_metadata(parse_html(page)).published == "2019-11-02"
    page = "<html><body><span itemprop='datePublished'>2018年7月1日</span></body></html>"
    assert page_metadata(parse_html(page)).published == "2018-07-01"


def test_nothing_found_is_none():
    metadata = page_metadata(parse_html("<html><body><p>Just some text.</p></body></html>"))
    assert metadata.published is None and metadata.source is None


@pytest.mark.parametrize("method", ["svm", "paper", "blocks", "ladom", "mlp"])
def test_every_method_fills_published_and_source(method):
    result = extract(ZH_PAGE.encode("utf-8"), config=Config(method=method))
    assert (result.published, result.source) == ("2005-06-12T21:37:05", "新华社")
    assert result.to_dict()["published"] == "2005-06-12T21:37:05"


_DATE_PARTS = ["2022", "1999", "12", "3", "05", "-", "/", ".", "年", "月", "日", " ", "\n", "March", "mar.", "SEPT",
               "may", "1st", "22nd", ",", "at", "10:30", "pm", "a", "x2021", "120221", "Jan", "th", "：", "时", "分",
               "   ", "\t", "September.,", "31st,", "(", "ſept"]


def _spans(matches):
    return [m.groupdict() | {"span": m.span()} for m in matches]


@given(st.lists(st.sampled_from(_DATE_PARTS), max_size=16).map("".join))
@example("on 05 March 2022 at 10:30 pm, 1999-3-05 and 2022年3月5日 08:30; Sept. 1st, 2021")
@example("May 5,   \n 2020 and 2021 September.,\t 31st 1999 at 10:30")
@example("MarchJan 12 2022")
@settings(max_examples=400, deadline=None)
def test_date_patterns_match_as_written_plainly(text):
    # The speed-ups only skip positions: the matches are those of the plain patterns.
    # The numeric pattern tests for a digit before the year after reading its first digits.
    numeric = metadata._NUMERIC_DATE_RE.pattern
    year = r"(?P<y>(?:19|20)(?<!\d(?:19|20))\d\d)"
    assert numeric.startswith(year)
    plain = re.compile(r"(?<!\d)(?P<y>(?:19|20)\d\d)" + numeric[len(year) :], metadata._NUMERIC_DATE_RE.flags)
    assert _spans(metadata._NUMERIC_DATE_RE.finditer(text)) == _spans(plain.finditer(text))
    # The English one opens with a look-ahead, and is searched near the years only.
    english = metadata._ENGLISH_DATE_RE
    lookahead = re.search(r"\(\?=\[[^]]*\]\)", english.pattern)
    assert lookahead is not None
    plain = re.compile(english.pattern.replace(lookahead.group(), "", 1), english.flags)
    assert _spans(english.finditer(text)) == _spans(plain.finditer(text))
    # Its month is a word of MONTHS, looked up after [a-z]{3,9} matched it: written
    # plainly, the pattern spells the names (any case of their ASCII letters).
    assert plain.pattern.count("[a-z]{3,9}") == 2
    names = "|".join("".join(f"[{c}{c.upper()}]" for c in name) for name in sorted(MONTHS, key=len, reverse=True))
    plain = re.compile(plain.pattern.replace("[a-z]{3,9}", f"(?-i:{names})"), english.flags)
    assert _spans(metadata._english_dates(text, len(text))) == _spans(plain.finditer(text))
    # find_date: the first valid match of both plain patterns by position, numeric first on a tie.
    plain_numeric = re.compile(r"(?<!\d)(?P<y>(?:19|20)\d\d)" + numeric[len(year) :], metadata._NUMERIC_DATE_RE.flags)
    merged = heapq.merge(plain_numeric.finditer(text), plain.finditer(text), key=re.Match.start)
    valid = (metadata._iso(match) for match in merged)
    assert metadata.find_date(text) == next((iso for iso in valid if iso), None)


def test_the_source_is_the_first_short_line_with_a_label_else_a_meta():
    root = parse_html('<html><head><meta property="og:site_name" content="Site"></head><body><p>x</p></body></html>')
    prose = "The source: " + "words " * 60  # a label in running prose, over 300 characters
    lines = ["新闻", prose, "Via the wire", "来源：新华社 编辑：李四", "Source: Reuters"]
    assert page_metadata(root, headline="", lines=lines).source == "新华社"
    assert page_metadata(root, headline="", lines=lines[:3]).source == "Site"
    # metadata.byline_chars (300): a longer line that holds the label is prose.
    byline = ["Source: Reuters, with reporting by our staff in the city"]
    assert page_metadata(root, headline="", lines=byline).source == "Reuters"
    assert page_metadata(root, headline="", lines=byline, settings=MetadataConfig(byline_chars=40)).source == "Site"


@pytest.mark.parametrize(
    ("head", "body", "story"),
    [
        ("<meta property='og:type' content='article'>", "<ul><li>Item</li></ul>", True),
        ("<meta name='og:type' content=' News '>", "", True),
        ("<meta property='og:type' content='website'>", "<ul class='product-grid'><li>Item</li></ul>", False),
        ("", "<div id='comments'><p>Nice.</p></div>", True),
        ("", "<section class='post-footer comment-list'></section>", True),
        ("", "<div id='respond'><form></form></div>", True),
        ("", "<div class='commentary-panel'>Market commentary</div>", False),
        ("", "<div class='grid'><a href='/p/1'>Kettle</a><a href='/p/2'>Toaster</a></div>", False),
    ],
)
def test_a_page_says_whether_it_is_one_story(head, body, story):
    page = parse_html(f"<html><head>{head}</head><body>{body}</body></html>")
    assert metadata.is_story(page) is story


@pytest.mark.parametrize(
    ("url", "forum"),
    [
        ("https://forum.example.org/topic/319445-roadmap/", True),
        ("https://community.example.com/travel/first-trip", True),
        ("https://meta.example.com/t/some-topic/123", True),
        ("http://bbs.example.cn/thread-4321-1-1.html", True),
        ("https://example.org/viewtopic.php?f=4&t=167", True),
        ("https://superuser.com/questions/442960/explorer-keeps-crashing", True),
        ("https://www.example.com/r/science/comments/1rku5x9/hair_follicles/", True),
        # A word inside a story's name, another site's own name or a file's directory is no forum.
        ("https://blog.example.com/2012/05/dont-t-wait-a-discussion-of-threads", False),
        ("https://www.warriorforum.com/beginners-area/1488296-simple-method.html", False),
        # A site's index of subjects is no forum's (a manual's, a shop's, an encyclopaedia's).
        ("https://docs.example.org/en/5.1/topics/db/models/", False),
        ("https://www.example.com/topics/camping-and-hiking/best-gps-watch", False),
        ("file:///home/me/forum/page.html", False),
        ("http://[::1", False),
        (None, False),
    ],
)
def test_a_pages_address_says_whether_it_is_a_forums(url, forum):
    assert metadata.is_forum(url) is forum


@pytest.mark.parametrize(
    ("body", "form"),
    [
        ("<div id='respond' class='comment-respond'><h3>Leave a Reply</h3></div>", True),
        ("<div class='box comment-form'></div>", True),
        ("<section class='comments-form'></section>", True),
        ("<div id='comments'><p>Nice.</p></div>", False),
        ("<div class='responsive-grid'><p>Cards</p></div>", False),
    ],
)
def test_a_page_says_whether_it_holds_the_box_to_write_a_comment(body, form):
    assert metadata.holds_comment_form(parse_html(f"<html><body>{body}</body></html>")) is form
