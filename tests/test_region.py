"""Method svm's Step 1 (webclean/region.py): the block found among the page's lines, its growth, its margins."""

from webclean.config import Config, RegionConfig
from webclean.extract import locate_units
from webclean.parse import parse_html
from webclean.region import locate_region
from webclean.segment import segment


def test_text_split_over_sibling_blocks_is_taken_whole():
    paragraphs = "".join(f"<div class='para'>这是第{i}段正文，内容比较长，一直写到这里才结束。</div>" for i in range(8))
    markup = f"<html><body><div id='nav'><a href='/'>首页</a></div><div id='article'>{paragraphs}</div><div id='footer'>版权所有</div></body></html>"
    root = parse_html(markup)
    lines = segment(root.find("body"))
    block = locate_region(lines, root, 0.3, frozenset({"div", "body"}), ascend_gain=1.0)
    assert block.element.get("id") == "article"
    # Without growing, the block is one paragraph.
    single = locate_region(lines, root, 0.3, frozenset({"div", "body"}), ascend_gain=1000.0)
    assert single.element.get("class") == "para"


def _sectioned_block(beside: int, sections: int, region: RegionConfig | None = None) -> str:
    """The block Step 1 finds in an article whose lead (400 characters) sits in a
    wrapper with a caption of ``beside`` characters, followed by sections of 300."""
    lead = "".join(f"<p>{'导' * 100}。</p>" for _ in range(4))
    section = f"<div class='section'><p>{'节' * 150}。</p><p>{'文' * 150}。</p></div>"
    markup = (
        "<html><body><div id='nav'><a href='/'>首页</a></div><article>"
        f"<div class='wrap'><div class='lead'>{lead}</div><p>{'图' * beside}</p></div>{section * sections}"
        "</article><div id='footer'>版权所有</div></body></html>"
    )
    root = parse_html(markup)
    block = locate_region(segment(root.find("body")), root, 0.3, frozenset({"div", "article", "body"}), 0.25, region or RegionConfig())
    return block.element.get("class") or block.element.tag


def test_block_grows_past_a_caption_beside_it_when_the_text_continues():
    # The caption adds 12 % to the lead: too much to look past as a wrapper, too
    # little to grow into; the sections after it hold three times the lead's text.
    assert _sectioned_block(beside=50, sections=4) == "article"


def test_block_stops_beside_a_caption_when_little_text_follows():
    assert _sectioned_block(beside=50, sections=1) == "lead"


def test_block_stops_beside_more_than_a_caption():
    assert _sectioned_block(beside=90, sections=4) == "lead"


def test_what_the_block_grows_past_is_a_setting():
    # region.beside_chars (80): a caption of 90 characters is one with a limit of 100 ...
    assert _sectioned_block(beside=90, sections=4, region=RegionConfig(beside_chars=100)) == "article"
    # ... and region.continued (2): the text it grows into must hold three times the lead's, not twice.
    assert _sectioned_block(beside=50, sections=2) == "article"
    assert _sectioned_block(beside=50, sections=2, region=RegionConfig(continued=3.0)) == "lead"
    # Through the configuration, as --set gives it to extract.
    lead = "".join(f"<p>{'导' * 100}。</p>" for _ in range(4))
    section = f"<div class='section'><p>{'节' * 150}。</p><p>{'文' * 150}。</p></div>"
    markup = f"<html><body><article><div class='wrap'><div class='lead'>{lead}</div><p>{'图' * 90}</p></div>{section * 4}</article></body></html>"
    assert locate_units(parse_html(markup), Config())[0].element.get("class") == "lead"
    wider = Config().with_overrides(["region.beside_chars=100"])
    assert locate_units(parse_html(markup), wider)[0].element.tag == "article"


def _manual_block(container: str, sibling: str, own: str = "section") -> str:
    """The block Step 1 finds in a manual cut into sections, one of which holds a long
    list (1,200 characters) under a heading and an intro of 150 characters; the other
    sections (``sibling``, 400 characters each) are the block's section's siblings
    inside ``container``."""
    steps = "".join(f"<li>{'步' * 150}。</li>" for _ in range(8))
    other = f"<{sibling}><h2>{'标' * 20}</h2><p>{'另' * 400}。</p></{sibling.split()[0]}>"
    markup = (
        f"<html><body><div id='nav'><a href='/'>首页</a></div><{container} id='doc'>"
        f"<{own}><h2>{'题' * 30}</h2><p>{'引' * 120}。</p><div class='steps'><ol>{steps}</ol></div></{own.split()[0]}>"
        f"{other * 5}</{container}></body></html>"
    )
    root = parse_html(markup)
    block = locate_region(segment(root.find("body")), root, 0.3, frozenset({"div", "section", "ol", "body"}), ascend_gain=0.25)
    return block.element.get("id") or block.element.get("class") or block.element.tag


def test_block_grows_past_a_section_heading_into_the_sections_alike():
    # 150 characters beside the list are more than a caption, but the text the
    # manual adds lies in sections alike to the list's own.
    assert _manual_block("main", "section") == "doc"
    # <div>s whose classes differ by a number only are alike too.
    assert _manual_block("main", "div class='part part-2'", own="div class='part part-1'") == "doc"


def test_block_stops_beside_a_heading_when_the_text_around_is_unlike():
    # The same text in bare <div>s (a page's columns) is not a manual's sections.
    assert _manual_block("main", "div") == "ol"
    assert _manual_block("main", "div class='teaser'") == "ol"


def _boxed_article(sections: int, intro: int = 200) -> str:
    """The block Step 1 finds in an article cut into ``sections`` bare sections of 320
    characters, below an editorial note (600) boxed with its author's bio (120) and
    followed by an intro of ``intro`` characters."""
    section = f"<div><h2>{'标' * 20}</h2><p>{'节' * 300}。</p></div>"
    markup = (
        "<html><body><div id='nav'><a href='/'>首页</a></div><div id='content'><div class='top'>"
        f"<div class='box'><div class='note'><p>{'注' * 600}。</p></div><div class='bio'><p>{'者' * 120}。</p></div></div>"
        f"<p>{'引' * intro}。</p></div>{section * sections}</div><div id='footer'>版权所有</div></body></html>"
    )
    root = parse_html(markup)
    block = locate_region(segment(root.find("body")), root, 0.3, frozenset({"div", "body"}), ascend_gain=0.25)
    return block.element.get("id") or block.element.get("class") or block.element.tag


def test_block_grows_past_its_box_into_an_article_of_many_sections():
    # The bio and the intro stop the growth (more than a caption, too little to
    # grow into); the article around holds more than four times the note, and the
    # note's branch adds under a tenth of it.
    assert _boxed_article(sections=10) == "content"


def test_block_stays_in_its_box_when_the_text_around_is_not_much_more():
    assert _boxed_article(sections=4) == "note"
    # The note's branch adds more than a tenth of the article: the box is a part of
    # the page of its own.
    assert _boxed_article(sections=10, intro=400) == "note"


def test_improved_method_finds_text_without_p():
    markup = "<html><body><table><tr><td>菜单</td><td>没有段落标签的正文，用换行分开。<br>第二句话也在这里。</td></tr></table></body></html>"
    root = parse_html(markup)
    paper_block, _ = locate_units(root, Config(method="paper"))
    assert paper_block is None
    block, units = locate_units(parse_html(markup), Config(method="svm"))
    assert block is not None
    assert [u.text for u in units][-2:] == ["没有段落标签的正文，用换行分开。", "第二句话也在这里。"]


def test_svm_classifies_a_margin_of_lines_around_the_block(monkeypatch):
    from dataclasses import replace

    from webclean.registry import METHODS

    prose = "A sentence of the story that goes on for quite a while before it ends. " * 4
    markup = (
        "<html><body><div id='top'><a href='/'>Home</a></div>"
        "<div id='head'><h1>The headline of the story</h1><p>By a reporter</p></div>"
        f"<div id='story'><p>{prose}</p><p>{prose}</p><p>{prose}</p></div>"
        "<div id='more'><p>Related one</p><p>Related two</p><p>Related three</p><p>Related four</p></div>"
        "</body></html>"
    )
    head = ["Home", "The headline of the story", "By a reporter"]
    tail = ["Related one", "Related two", "Related three", "Related four"]
    for margin, expected_before, expected_after in (((None, 0), head, []), ((2, 3), head[-2:], tail[:3]), ((0, 0), [], [])):
        svm = METHODS["svm"]
        monkeypatch.setitem(METHODS, "svm", replace(svm, classifier=replace(svm.classifier, margins=margin)))
        block, units = locate_units(parse_html(markup), Config(method="svm"))
        assert block.element.get("id") == "story"
        assert [u.text for u in units if u.region < 0] == expected_before
        assert [u.text for u in units if u.region > 0] == expected_after
        assert [u.region for u in units if "sentence" in u.text] == [0, 0, 0]
    # The paper's method classifies the block's own tags only.
    _, paper_units = locate_units(parse_html(markup), Config(method="paper"))
    assert {u.region for u in paper_units} == {0} and len(paper_units) == 3


def test_a_page_of_links_only_still_gets_a_block():
    # Every line is mostly link text: none passes θ, so every line counts and the
    # block is where that text is, not "no block".
    linked = "".join(f"<a href='/{i}'>一段全是链接的文字，第{i}条</a>" for i in range(6))
    markup = f"<html><body><div id='menu'><a href='/'>首页</a></div><div id='post'><p>据报道，名单如下：{linked}</p></div></body></html>"
    root = parse_html(markup)
    lines = segment(root.find("body"))
    assert all(line.link_ratio > 0.3 for line in lines)
    block = locate_region(lines, root, 0.3, frozenset({"div", "body"}), ascend_gain=1.0)
    assert block is not None and block.element.get("id") == "post"
    # A page of links alone (a site map, a menu) has no block still.
    root = parse_html(markup.replace("据报道，名单如下：", ""))
    assert locate_region(segment(root.find("body")), root, 0.3, frozenset({"div", "body"}), ascend_gain=1.0) is None


def test_link_text_does_not_count_where_some_line_passes_theta():
    markup = (
        "<html><body><div id='links'>" + "<p><a href='/x'>很长很长很长的一条链接文字在这里</a></p>" * 5 + "</div>"
        "<div id='text'><p>短短的正文。</p></div></body></html>"
    )
    root = parse_html(markup)
    block = locate_region(segment(root.find("body")), root, 0.3, frozenset({"div", "body"}), ascend_gain=1.0)
    assert block.element.get("id") == "text"
