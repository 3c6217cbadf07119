from lxml import html

from webclean.config import Config
from webclean.extract import locate_units
from webclean.parse import parse_html
from webclean.region import locate_region
from webclean.segment import drop_hidden, segment


def _body(markup):
    return html.document_fromstring(markup).find("body")


def test_lines_split_at_blocks_and_br_and_join_inline():
    body = _body(
        "<html><body><div>第一行<br>第二行有<b>粗体</b>和<a href='#'>链接</a>"
        "<p>段落</p>尾巴</div><ul><li>列表</li></ul><h2>小标题</h2></body></html>"
    )
    lines = segment(body)
    assert [line.text for line in lines] == ["第一行", "第二行有粗体和链接", "段落", "尾巴", "列表", "小标题"]
    assert [line.kind for line in lines] == ["text", "text", "p", "text", "list", "heading"]
    assert lines[1].link_ratio == 2 / 9


def test_every_visible_character_lands_in_one_line():
    markup = "<html><body><div>a<span>b<i>c</i>d</span>e<div>f</div>g<table><tr><td>h</td><td>i<br>j</td></tr></table>k</div></body></html>"
    lines = segment(_body(markup))
    assert "".join(line.text for line in lines) == "abcdefghijk"


def test_class_and_id_words_mark_context():
    body = _body(
        "<html><body><div class='article-content'><p>正文。</p></div>"
        "<div id='comments'><p>评论。</p></div><nav><p>导航</p></nav>"
        "<div class='tagline'><p>not a tag list</p></div></body></html>"
    )
    lines = segment(body)
    assert [(line.content_attr, line.noise_attr) for line in lines] == [(True, False), (False, True), (False, True), (False, False)]


def test_ancestor_groups_gather_every_box_a_line_lies_in():
    from webclean.segment import ANCESTOR_GROUPS

    bit = {name: 1 << k for k, (name, _) in enumerate(ANCESTOR_GROUPS)}
    body = _body(
        "<html><body><div class='entry'><p>Story.</p>"
        "<div class='post-author-box'><div class='inner'><p>About her.</p></div></div>"
        "<figure><figcaption>A caption</figcaption></figure>"
        "<div id='share-bar2'><form><p>Your email</p></form></div>"
        "<blockquote>Quoted.</blockquote><p>Last.</p></div>"
        "<div class='authority'><p>not an author box</p></div></body></html>"
    )
    groups = {line.text: line.groups for line in segment(body)}
    assert groups["Story."] == groups["Last."] == 0
    assert groups["About her."] == bit["author"]  # from an ancestor two levels up
    assert groups["A caption"] == bit["caption"]  # from the tags
    assert groups["Your email"] == bit["share"] | bit["form"]  # a digit may follow a word
    assert groups["Quoted."] == bit["quote"]
    assert groups["not an author box"] == 0  # whole words only


def test_all_link_lines_are_of_kind_link():
    lines = segment(_body("<html><body><div><a href='/'>首页</a></div></body></html>"))
    assert lines[0].kind == "link" and lines[0].link_ratio == 1.0


def test_hidden_elements_are_dropped_with_their_text_but_not_their_tail():
    root = html.document_fromstring(
        "<html><body><div>看得见<div style='display: none'>看不见</div>尾巴"
        "<p hidden>藏起来</p><span aria-hidden='true'>图标</span></div></body></html>"
    )
    assert drop_hidden(root) == 3
    assert "".join(root.find("body").itertext()) == "看得见尾巴"


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


def _sectioned_block(beside: int, sections: int) -> str:
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
    block = locate_region(segment(root.find("body")), root, 0.3, frozenset({"div", "article", "body"}), ascend_gain=0.25)
    return block.element.get("class") or block.element.tag


def test_block_grows_past_a_caption_beside_it_when_the_text_continues():
    # The caption adds 12 % to the lead: too much to look past as a wrapper, too
    # little to grow into; the sections after it hold three times the lead's text.
    assert _sectioned_block(beside=50, sections=4) == "article"


def test_block_stops_beside_a_caption_when_little_text_follows():
    assert _sectioned_block(beside=50, sections=1) == "lead"


def test_block_stops_beside_more_than_a_caption():
    assert _sectioned_block(beside=90, sections=4) == "lead"


def test_improved_method_finds_text_without_p():
    markup = "<html><body><table><tr><td>菜单</td><td>没有段落标签的正文，用换行分开。<br>第二句话也在这里。</td></tr></table></body></html>"
    root = parse_html(markup)
    paper_block, _ = locate_units(root, Config(method="paper"))
    assert paper_block is None
    block, units = locate_units(parse_html(markup), Config(method="svm"))
    assert block is not None
    assert [u.text for u in units][-2:] == ["没有段落标签的正文，用换行分开。", "第二句话也在这里。"]


def test_class_and_id_words_are_whole_words_or_parts_between_separators():
    from webclean.segment import _attr_marks

    noise = ["nav", "NavBar x", "site-footer", "comment2", "box_related", "ads", "top  menu", "x sidebar-left"]
    not_noise = ["navigation", "commentary", "adsense", "headline", "footnote", "sharedx", "nav.bar"]
    for value in noise:
        assert _attr_marks(value)[0], value
    for value in not_noise:
        assert not _attr_marks(value)[0], value
    assert _attr_marks("post-body entry-content")[1]
    assert not _attr_marks("postscript maintenance")[1]


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


def _thread_markup(post_tag: str = "div", numbered: bool = True) -> str:
    """A forum thread: posts alike but for their number, each with a user panel beside
    its message."""
    replies = ["楼主说得对，我家也是这样装的，用了三年没出问题。", "请问地板是哪个牌子的？", "我也想知道，求推荐靠谱的品牌。"]
    question = "想问一下大家地板选实木的好还是复合的好，预算每平米两百块左右，家里有老人和小孩，比较在意环保和防滑。" * 3
    messages = [question, *replies]

    def post(number: int, message: str) -> str:
        ident = f" id='post_{1000 + number}'" if numbered else ""
        panel = f"<td class='pls'><a href='/u/{number}'>用户{number}</a><p>积分 {100 * number}</p></td>"
        body = f"<td class='plc'><div class='authi'>发表于 2023-5-{number + 1}</div><div class='pct'><div class='t_f'>{message}</div></div></td>"
        return f"<{post_tag} class='post'{ident}><table><tr>{panel}{body}</tr></table></{post_tag}>"

    markup = (
        "<html><body><div id='nav'><a href='/'>首页</a><a href='/bbs'>论坛</a></div><div id='postlist'>"
        + "".join(post(n, m) for n, m in enumerate(messages))
        + "</div><div id='footer'>Powered by Discuz!</div></body></html>"
    )
    return markup


def _thread_block(post_tag: str = "div", numbered: bool = True) -> str:
    """The block Step 1 finds in _thread_markup."""
    root = parse_html(_thread_markup(post_tag, numbered))
    block = locate_region(segment(root.find("body")), root, 0.3, frozenset({"div", "td", "body"}), ascend_gain=0.25)
    return block.element.get("id") or block.element.get("class")


def test_a_thread_is_located_as_its_list_of_posts():
    assert _thread_block() == "postlist"
    assert _thread_block(post_tag="section", numbered=False) == "postlist"


def test_posts_without_class_or_id_are_not_records():
    # Bare <div>s alike are every page's markup, not a sign of a thread: the same
    # posts are records with a class, and not without one.
    def located(attribute: str) -> str:
        posts = [f"<div{attribute}><div>{'正' * 100}</div><div>{'注' * 15}</div></div>"]
        posts += [f"<div{attribute}><div>{'回' * 20}</div></div>"] * 3
        root = parse_html(f"<html><body><div id='main'>{''.join(posts)}</div></body></html>")
        block = locate_region(segment(root.find("body")), root, 0.3, frozenset({"div", "body"}), ascend_gain=0.25)
        return root.getroottree().getpath(block.element)

    assert located(" class='post'") == "/html/body/div"
    assert located("") == "/html/body/div/div[1]/div[1]"


def test_each_posts_text_is_found_in_its_record():
    from webclean.config import Config
    from webclean.extract import locate_units

    block, units = locate_units(parse_html(_thread_markup()), Config(method="svm"))
    assert [slot.get("class") for slot in block.slots] == ["t_f"] * 4
    assert len(block.records) == 4
    posts = {u.text: u.post for u in units if u.region == 0}
    assert posts["请问地板是哪个牌子的？"] == 1  # a post's text
    assert posts["用户2"] == -1 and posts["发表于 2023-5-3"] == -1  # its record's panel and date


def _loose_thread(signed: bool = True, head: str = "", tail: str = "") -> str:
    """A thread whose posts differ in their classes beyond a number (the first post
    marked, the replies alternating) and whose panels hold links only, so that Step 1's
    growth does not stop at the winning post."""
    question = "养了快三个月的桃美人，最近一周叶子明显发软，底下几片还有点皱，是缺水还是根坏了？" * 3
    messages = [question, "先脱盆看看根吧。", "看描述不太像缺水，下面潮说明排水不好。", "楼主记得晾根期间别晒太阳。"]

    def post(number: int, message: str) -> str:
        marks = " noborder" if number == 0 else (" bg1", " bg2")[number % 2]
        tag = "a" if signed else "span"
        main = " first" if number == 0 else ""
        return (
            f"<div class='l_post j_post{marks}'><div class='d_author'><{tag} href='#'>用户{number}</{tag}>"
            f"<{tag} href='#'>{number + 3}</{tag}></div>"
            f"<div class='d_main{main}'><div class='p_content'><div class='d_text'>{message}</div></div>"
            f"<div class='tail'><{tag} href='#'>回复</{tag}><span>{number + 1}楼</span></div></div></div>"
        )

    return (
        "<html><body><div id='nav'><a href='/'>首页</a><a href='/f'>贴吧</a><a href='/g'>游戏</a></div>"
        f"<div class='p_postlist'>{head}" + "".join(post(n, m) for n, m in enumerate(messages)) + f"{tail}</div>"
        "<div id='footer'><a href='/about'>关于我们</a><a href='/help'>帮助</a></div></body></html>"
    )


def test_posts_alike_in_their_first_class_word_are_a_thread_inside_the_grown_block():
    block, units = locate_units(parse_html(_loose_thread()), Config(method="svm"))
    assert block.element.get("class") == "p_postlist"
    assert len(block.records) == 4
    assert [slot.get("class") for slot in block.slots] == ["d_text"] * 4
    posts = {u.text: u.post for u in units}
    assert posts["先脱盆看看根吧。"] == 1 and posts["楼主记得晾根期间别晒太阳。"] == 1
    assert posts["用户14"] == -1 and posts["回复2楼"] == -1  # a panel's links, a post's tail
    from webclean.extract import extract

    assert extract(_loose_thread()).text.splitlines()[1:] == ["先脱盆看看根吧。", "看描述不太像缺水，下面潮说明排水不好。", "楼主记得晾根期间别晒太阳。"]


def test_a_loose_likeness_needs_a_linked_name_outside_the_posts_text():
    # Sections and cards are alike in their first class word too; without a link
    # beside each text (a name, a reply button) they are not taken for posts.
    block, _ = locate_units(parse_html(_loose_thread(signed=False)), Config(method="svm"))
    assert block.records == () and block.slots == ()


def test_a_loose_likeness_needs_the_posts_texts_to_hold_most_of_the_records_text():
    # Cards whose matching element is a short caption beside a long text of its own.
    def card(number: int) -> str:
        text = "这座博物馆建于上世纪初，馆内收藏了大量当地的历史文物和民俗用品，每年吸引很多游客前来参观。" * (3 if number == 0 else 2)
        return (
            f"<div class='card c{number}'><a href='/map/{number}'>地图</a><div class='body'>{text}</div>"
            f"<div class='credit small'>摄影：作者{number}</div></div>"
        )

    markup = "<html><body><div id='list'>" + "".join(card(n) for n in range(4)) + "</div></body></html>"
    root = parse_html(markup)
    winner = root.find(".//div[@class='credit small']")
    from webclean.threads import loose_thread

    total = {el: len("".join(el.itertext())) for el in root.iter()}
    assert loose_thread(winner, winner.getparent(), total) is None
    assert loose_thread(root.find(".//div[@class='body']"), winner.getparent(), total) is not None


def test_a_thread_ends_with_its_last_post():
    # What follows the last post inside the thread's block (who is online, a reply box)
    # is dropped with the records' panels; what comes before the first post is left
    # to the classifier.
    head = "<h1>新手求助：多肉叶子发软发皱是缺水还是根坏了</h1>"
    tail = "<div class='online'>当前在线用户共十二人，其中会员三人，游客九人</div>"
    block, units = locate_units(parse_html(_loose_thread(head=head, tail=tail)), Config(method="svm"))
    posts = {u.text: u.post for u in units}
    assert len(block.records) == 4
    assert posts["新手求助：多肉叶子发软发皱是缺水还是根坏了"] == 0
    assert posts["当前在线用户共十二人，其中会员三人，游客九人"] == -1
    from webclean.extract import extract

    assert "当前在线" not in extract(_loose_thread(head=head, tail=tail)).text


def test_a_page_hidden_until_its_scripts_run_is_shown():
    from webclean.segment import drop_hidden

    story = "A paragraph of the story that a script reveals once the page has loaded. " * 5
    streamed = parse_html(
        "<html><body><div hidden id='S:0'><p>" + story + "</p></div>"
        "<div style='display:none'><p>Mobile menu</p></div><p>Skip</p></body></html>"
    )
    assert drop_hidden(streamed) == 0
    assert story.strip() in " ".join(streamed.find("body").itertext())
    # A page with its own visible text loses its hidden parts, however long.
    shown = parse_html(
        "<html><body><div hidden><p>" + story + "</p></div><p>" + story.upper() + "</p></body></html>"
    )
    assert drop_hidden(shown) == 1
    assert "reveals" not in " ".join(shown.find("body").itertext())
