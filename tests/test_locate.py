from lxml import html

from webclean.config import LocateConfig
from webclean.locate import link_ratio, locate_block
from webclean.text import text_length

PAGE = """<html><body>
<div id="nav"><p><a href="/">首页</a> <a href="/news">新闻</a> <a href="/sport">体育</a></p></div>
<div id="main">
  <p>今天上午，市政府召开新闻发布会，介绍了今年的经济运行情况。</p>
  <p>发布会上，有关负责人表示，全年经济增长目标有望实现，<a href="/x">详见</a>附件。</p>
  <div id="inner"><p>这是一个嵌套的块，自己计分。</p></div>
</div>
<div id="footer"><p>版权所有 © 2018 某某网</p></div>
</body></html>"""


def _root(text=PAGE):
    return html.document_fromstring(text)


def test_link_ratio_is_linked_share_of_text():
    p = html.fragment_fromstring("<p>abcdef<a href='#'>ghij</a></p>")
    assert link_ratio(p) == 0.4
    assert link_ratio(html.fragment_fromstring("<p>no links</p>")) == 0.0


def test_the_block_with_most_counted_text_wins():
    block = locate_block(_root(), LocateConfig())
    assert block is not None
    assert block.element.get("id") == "main"
    assert block.path == "/html/body/div[2]"


def test_nested_blocks_score_on_their_own():
    block = locate_block(_root(), LocateConfig())
    inner_length = text_length("这是一个嵌套的块，自己计分。")
    outer_length = text_length(
        "今天上午，市政府召开新闻发布会，介绍了今年的经济运行情况。"
        "发布会上，有关负责人表示，全年经济增长目标有望实现，详见附件。"
    )
    assert block.score == outer_length
    assert block.score != outer_length + inner_length


def test_link_list_paragraphs_do_not_count():
    page = """<html><body>
    <div id="links"><p><a href="/a">一条很长很长很长很长很长很长很长很长很长的链接文字</a></p></div>
    <div id="text"><p>短正文。</p></div></body></html>"""
    block = locate_block(_root(page), LocateConfig(theta=0.3))
    assert block.element.get("id") == "text"
    # With θ = 1 every <p> counts and the link list wins.
    assert locate_block(_root(page), LocateConfig(theta=1.0)).element.get("id") == "links"


def test_no_paragraph_no_block():
    assert locate_block(_root("<html><body><div>text only</div></body></html>"), LocateConfig()) is None


def test_other_block_tags_can_compete():
    page = "<html><body><table><tr><td><p>表格里的正文，很长很长的一段。</p></td></tr></table></body></html>"
    assert locate_block(_root(page), LocateConfig()) is None
    block = locate_block(_root(page), LocateConfig(block_tags=("div", "td")))
    assert block.element.tag == "td"
