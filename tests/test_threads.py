"""Forum threads located as their posts (webclean/threads.py)."""

from dataclasses import replace

from webclean.config import Config
from webclean.extract import locate_units
from webclean.parse import parse_html
from webclean.region import locate_region
from webclean.segment import segment


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


def _records_units(slot_text: str, rest_text: str) -> list:
    from webclean.line_features import line_units

    records = "".join(
        f"<div class='rec' id='r{n}'><div class='slot'>{slot_text} {n}</div><div class='rest'>{rest_text} {n}</div></div>"
        for n in range(3)
    )
    root = parse_html(f"<html><body><div id='list'>{records}</div></body></html>")
    block = root.find(".//div[@id='list']")
    slots = {e for s in block.iterfind(".//div[@class='slot']") for e in s.iter()}
    recs = {e for r in block.iterfind("div") for e in r.iter()}
    return line_units(segment(root.find("body")), block, posts=(slots, recs))


def test_records_whose_other_lines_hold_more_prose_than_their_posts_are_no_thread():
    prose = "This section explains how the request body is built and sent, with every option it takes. " * 2
    posts = [unit.post for unit in _records_units("Options", prose)]
    assert posts == [0] * 6  # a manual's sections: every line left to the classifier
    # The same records with the prose in the posts' texts and a short panel: a thread.
    posts = [unit.post for unit in _records_units(prose, "Joined 2019")]
    assert posts == [1, -1] * 3


def test_a_ranked_list_whose_titles_are_links_is_no_thread():
    # A news aggregator's rows: alike as posts are, but each row's only counted text is
    # its rank, the title, its site and its age being links. Taken for posts, the ranks
    # were kept and the titles dropped as the records' rest.
    def row(number: int) -> str:
        return (
            f"<tr class='athing submission' id='{4500 + number}'><td class='title'><span class='rank'>{number}.</span></td>"
            f"<td><img src='s.gif'></td><td class='title'><span class='titleline'><a href='/item{number}'>Startup {number} "
            f"is hiring engineers to build tools</a><span class='sitebit'> (<a href='/from{number}'>site{number}.com</a>)"
            f"</span></span></td></tr><tr><td colspan='2'></td><td class='subtext'><a href='/age{number}'>{number} days ago"
            "</a></td></tr><tr class='spacer'></tr>"
        )

    markup = (
        "<html><body><center><table><tr><td><a href='/'>Hacker News</a> <a href='/new'>new</a></td></tr><tr><td>"
        "<div>These are jobs at startups. See more at <a href='/jobs'>the jobs board of all our startups</a>.</div>"
        "<table>" + "".join(row(n) for n in range(1, 13)) + "</table></td></tr></table></center></body></html>"
    )
    block, units = locate_units(parse_html(markup), Config(method="svm"))
    assert block.slots == ()
    assert not any(u.post for u in units)  # each line goes to the classifier


def _question_and_answers(titled: bool = False) -> str:
    """A question page: the question and its answers are records unlike each other,
    each post's text in a ``<div class='post-body'>``; the question's comment adds too
    little text for the block to grow over it, and enough to stop its growth.
    ``titled``: each record under a linked heading, as the stories of a feed are."""
    question = (
        "I am trying to understand how coroutines share one thread. I expected two tasks that each "
        "run a long loop to take turns, but the first task runs to its end before the second starts. "
        "Why does awaiting a coroutine that never suspends not give the other task a chance to run? "
        "When I add a sleep of zero seconds inside the loop the output interleaves as I expected, and I "
        "would like to understand what happens at a lower level and why a plain await is not enough. Is there a rule for where a task may be switched out? "
        "The documentation says that tasks run concurrently, which is what confuses me here."
    )
    answers = [
        "Awaiting a coroutine does not yield to the event loop by itself. Control goes back to the loop "
        "only when something actually suspends, such as a sleep, a socket read or a future that is not done.",
        "Your long function never reaches a suspension point, so the loop never gets control back. Put an "
        "await of asyncio.sleep(0) inside the loop, or run the work in an executor so it does not block.",
        "Think of await as a function call that may suspend. If the callee never suspends, it is just a call, "
        "and the loop cannot switch tasks until the whole chain of calls returns or suspends somewhere.",
    ]

    def title(number: int) -> str:
        return f"<h2><a href='/q/{number}'>Story number {number}</a></h2>" if titled else ""

    def user(name: str) -> str:
        return f"<div class='user-card'><a href='/users/{name}'>{name}</a> <span>1,024</span></div>"

    comments = (
        "<div class='comments'><ul><li>Did you try running it with debug mode on? It reports every callback that holds the loop for longer than a tenth of a second. <a href='/users/c1'>someone</a></li></ul></div>"
    )
    head = "<div id='header'><h1><a href='/q/1'>Why does await not switch tasks?</a></h1></div>"
    first = (
        f"<div id='question' class='question'>{title(0)}<div class='votes'><a href='/up'>▲</a> 12</div>"
        f"<div class='post-cell'><div class='post-body'><p>{question}</p></div>{user('asker')}</div>{comments}</div>"
    )
    rest = "".join(
        f"<div id='answer-{n}' class='answer'>{title(n)}<div class='votes'><a href='/up'>▲</a> {n}</div>"
        f"<div class='answer-cell'><div class='post-body'><p>{text}</p></div>{user(f'helper{n}')}</div></div>"
        for n, text in enumerate(answers, 1)
    )
    return (
        "<html><body><div id='nav'><a href='/'>Home</a> <a href='/questions'>Questions</a></div>"
        f"<div id='content'>{head}<div id='mainbar'>{first}<div id='answers'><h2>3 Answers</h2>{rest}</div></div>"
        "<div id='sidebar'><a href='/hot'>Hot questions</a></div></div></body></html>"
    )


def test_a_question_and_its_answers_are_found_by_their_texts_alike():
    block, units = locate_units(parse_html(_question_and_answers()), Config(method="svm"))
    assert block.element.get("id") == "mainbar"
    assert [slot.getparent().get("class") for slot in block.slots] == ["post-cell", "answer-cell", "answer-cell", "answer-cell"]
    assert [record.get("id") for record in block.records] == ["question", "answer-1", "answer-2", "answer-3"]
    kept = {u.text for u in units if u.post > 0}
    assert any(text.startswith("Think of await as a function call") for text in kept)
    assert not any("debug mode" in text or "helper1" in text for text in kept)


def test_posts_alike_under_linked_titles_are_a_feed_not_a_thread():
    block, _ = locate_units(parse_html(_question_and_answers(titled=True)), Config(method="svm"))
    assert block.slots == ()


def test_a_thread_is_read_as_lines_where_the_address_is_no_forums_and_the_page_no_story():
    # Records alike on a site's front page, a shop's collection or a service's cards are
    # no posts: there the posts' rule would drop each card's title and price as the rest
    # of a post's record. A page without an address, a forum's address or a page that
    # says it is one story keeps its thread.
    from webclean.denoise import POST, POST_REST
    from webclean.extract import classify_page, locate_page, page_threads
    from webclean.model import default_model

    config = Config(method="svm")
    page = locate_page(_thread_markup(), config)
    assert any(unit.post > 0 for unit in page.units) and any(unit.post < 0 for unit in page.units)
    assert page_threads(page, None, False) is page
    assert page_threads(page, "https://bbs.example.org/thread-4321-1-1.html", True) is page
    plain = page_threads(page, "https://www.example.org/collections/all", False)
    assert not any(unit.post for unit in plain.units)
    assert [unit.text for unit in plain.units] == [unit.text for unit in page.units]
    article = _thread_markup().replace("<html>", "<html><head><meta property='og:type' content='article'></head>")
    story = locate_page(article, config)
    assert page_threads(story, "https://www.example.org/collections/all", False) is story

    def outcomes(url: str) -> set[str]:
        # A model without a page type model: the address tells a forum.
        model = replace(default_model(), page_types=None)
        classified = classify_page(_thread_markup(), config, model, url=url)
        return {decision.outcome for decision in classified.decisions}

    assert {POST, POST_REST} <= outcomes("https://bbs.example.org/thread-4321-1-1.html")
    assert not {POST, POST_REST} & outcomes("https://www.example.org/collections/all")


def test_how_many_records_make_a_thread_is_a_setting():
    # The thread of four posts is one with threads.records = 3 (the default) or 4, not 5.
    for records, found in ((3, 4), (4, 4), (5, 0)):
        block, _ = locate_units(parse_html(_thread_markup()), Config().with_overrides([f"threads.records={records}"]))
        assert len(block.records) == found
