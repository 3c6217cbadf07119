import pytest
from lxml import html

from webclean.config import Config, LinesConfig
from webclean.parse import parse_html
from webclean.segment import IN_RELATED, RELATED_NAME, aside_furniture, drop_hidden, related_boxes, segment


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


def test_the_text_after_a_link_is_linked_when_no_longer_than_the_link():
    body = _body(
        "<html><body><ul><li><a href='/a'>Storm hits the coast</a> (2005-01-01)</li></ul>"
        "<p><a href='/redis'>Redis sets</a> are unordered collections of unique strings.</p>"
        "<p><a href='/x'>A link <b>with</b> words</a></p>"
        "<p><a href='/y'><span>in</span> the link's own text</a></p></body></html>"
    )
    title, sentence, whole, inner = segment(body)
    assert title.link_ratio == 1.0 and title.kind == "link"  # a title and its date
    assert sentence.link_ratio == 9 / 48 and sentence.kind == "p"  # prose that opens with a link
    assert whole.link_ratio == 1.0
    assert inner.link_ratio == 1.0  # a tail inside the link is the link's


def test_a_link_that_holds_a_block_is_measured_on_the_line_its_tail_ends():
    # The card's block ends a line inside the link; the tail is weighed against the
    # link's text on its own line ("abcdef"), not against a line already flushed.
    body = _body("<html><body><p><a href='/a'>First link</a><a href='/b'><div>Card</div>abcdef</a> (2005)</p></body></html>")
    lines = segment(body)
    assert [line.text for line in lines] == ["First link", "Card", "abcdef (2005)"]
    assert lines[2].link_ratio == 1.0


def test_hidden_elements_are_dropped_with_their_text_but_not_their_tail():
    # A modal dialog (aria-modal="true") comes closed as the page loads; a sheet that
    # is not modal is part of the page.
    root = html.document_fromstring(
        "<html><body><div>看得见<div style='display: none'>看不见</div>尾巴"
        "<p hidden>藏起来</p><span aria-hidden='true'>图标</span>"
        "<div role='dialog' aria-modal='true'><p>登录</p></div><div role='dialog' aria-modal='false'>说明</div>"
        "</div></body></html>"
    )
    assert drop_hidden(root) == 4
    assert "".join(root.find("body").itertext()) == "看得见尾巴说明"


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
    # Hidden bare text is no page a script reveals: keywords stuffed out of sight go,
    # however much of the page they are.
    keywords = " ".join(f"keyword{i}" for i in range(2000))
    stuffed = parse_html(
        "<html><body><p>" + story + "</p><div style='display:none'>" + keywords + "</div></body></html>"
    )
    assert drop_hidden(stuffed) == 1
    assert "keyword1" not in " ".join(stuffed.find("body").itertext())


def _texts(markup):
    return [line.text for line in segment(_body(markup))]


_STORY = "<p>" + "The story goes on at length. " * 8 + "</p>"
_STORY_TEXT = ("The story goes on at length. " * 8).strip()


def test_a_box_of_reviews_is_marked_outside_the_features_groups():
    from webclean.segment import _GROUPS_MASK, GROUP_BIT, REVIEWS_BIT, _attr_marks

    for value in ("customer-reviews", "jdgm-widget jdgm-review-widget judgeme_product_reviews", "okendo-reviews__list"):
        assert _attr_marks(value)[2] == REVIEWS_BIT, value
    for value in ("review-body", "reviewsHeader", "post category-reviews", "entry-category-camera_reviews", "previews"):
        assert not _attr_marks(value)[2] & REVIEWS_BIT, value
    assert not REVIEWS_BIT & _GROUPS_MASK
    assert _attr_marks("comment-list reviews")[2] == GROUP_BIT["comment"] | REVIEWS_BIT


def test_consent_boxes_are_passed_over_with_their_text_but_not_their_tail():
    texts = _texts(
        f"<html><body><div class='article'>{_STORY}</div>"
        "<div id='onetrust-consent-sdk'><div class='ot-pc-content'><p>We use cookies.</p>"
        "<button>Accept all</button></div></div>after the box"
        "<div class='cookie-banner'><p>This site uses cookies.</p></div>"
        "<p>Tail <span class='cmp-consent_notice'>Manage consent</span>end.</p></body></html>"
    )
    assert texts == [_STORY[3:-4].strip(), "after the box", "Tail end."]


def test_cookie_and_consent_alone_or_as_a_subject_name_no_consent_box():
    texts = _texts(
        f"<html><body><article class='post type-post category-cookies tag-consent'>{_STORY}</article>"
        "<section id='cookies'><p>How this site uses cookies.</p></section>"
        "<div class='consent'><p>Informed consent, a section.</p></div>"
        "<div class='trusted-people'><p>What they say.</p></div></body></html>"
    )
    assert texts[1:] == ["How this site uses cookies.", "Informed consent, a section.", "What they say."]


def test_a_consent_name_on_the_page_s_wrapper_or_body_passes_over_nothing():
    page = f"<div class='cookie-consent-given'>{_STORY}<p>More of the page.</p></div>"
    assert _texts(f"<html><body class='has-cookie-banner'>{page}</body></html>")[1:] == ["More of the page."]


@pytest.mark.parametrize(
    "form, kept",
    [
        ("<form id='commentform'><p>Leave a reply.</p><textarea name='comment'></textarea></form>after it", ["after it"]),
        ("<form action='/search'><label>Search the site</label><input type='search'></form>", []),
        ("<form><p>Join our newsletter for weekly stories.</p><input type='email'></form>", []),
        ("<form><p>Sign in</p><input type='password'></form>", []),
        # Without such an input: a shop's product form, a comment shown in its edit form.
        ("<form action='/cart'><p>Soft wool blanket.</p><select><option>Large</option></select></form>", ["Soft wool blanket.", "Large"]),
        ("<form class='usertext'><div class='md'><p>A reader's reply.</p></div><input type='hidden'></form>", ["A reader's reply."]),
    ],
)  # fmt: skip
def test_forms_the_reader_types_into_are_passed_over(form, kept):
    assert _texts(f"<html><body><div class='article'>{_STORY}</div>{form}</body></html>")[1:] == kept


def test_a_form_wrapping_the_page_is_walked():
    # An ASP.NET page: one form holds the whole page, and a search box in it.
    page = f"<form id='aspnetForm'>{_STORY}<p>More of the page.</p><input type='search'></form>"
    assert _texts(f"<html><body>{page}</body></html>")[1:] == ["More of the page."]


def test_lines_of_a_footer_or_a_navigation_are_marked_unless_it_wraps_the_page():
    lines = segment(_body(
        "<html><body><nav><p>Guitars</p><div><p>Solidbody Guitars Hollowbody Guitars</p></div></nav>"
        f"<article>{_STORY}<footer><p>Filed under bicycles.</p></footer></article>"
        "<div role='contentinfo'><p>Contact the editors.</p></div><ul role='navigation'><li>Basses</li></ul>"
        "<div role='banner'><p>Spoke and Chain</p></div>"
        "<footer><div><p>About us.</p><form><input type='search'></form></div></footer><p>The end.</p></body></html>"
    ))
    assert [(line.text, line.furniture) for line in lines if line.text != _STORY_TEXT] == [
        ("Guitars", True), ("Solidbody Guitars Hollowbody Guitars", True),
        ("Filed under bicycles.", True), ("Contact the editors.", True), ("Basses", True), ("Spoke and Chain", True),
        ("About us.", True),
        ("The end.", False),
    ]
    assert not next(line for line in lines if line.text == _STORY_TEXT).furniture
    # libxml2 leaves an unclosed <footer> or <nav> open over the rest of the page: a
    # wrapper, walked as text.
    for tag in ("footer", "nav"):
        wrapped = segment(_body(f"<html><body><{tag}>{_STORY}<p>More of the page.</p></{tag}></body></html>"))
        assert not any(line.furniture for line in wrapped)
        headed = segment(_body(f"<html><body><{tag}><h1>Bicycles</h1><ul><li>A bicycle for rent</li></ul></{tag}></body></html>"))
        assert not any(line.furniture for line in headed)


def test_a_menu_that_holds_most_of_the_page_but_not_its_story_is_furniture():
    menu = "".join(f"<li><span>Guitars of kind {k}</span></li>" for k in range(30))
    lines = segment(_body(f"<html><body><nav><ul>{menu}</ul></nav><h2>A microphone</h2><p>It records voices well.</p></body></html>"))
    assert [line.text for line in lines if not line.furniture] == ["A microphone", "It records voices well."]


def test_an_aside_is_furniture_unless_it_holds_the_block_or_the_story():
    body = _body(
        "<html><body><article><p>The story.</p>"
        "<aside><p>The author writes on bicycles.</p></aside><p>The story goes on.</p></article>"
        f"<aside><p>Subscribe to our letter.</p></aside><aside><div>{_STORY}</div></aside></body></html>"
    )
    lines = segment(body)
    article = body.find("article")
    assert [(line.text, line.furniture) for line in aside_furniture(lines, article)] == [
        ("The story.", False), ("The author writes on bicycles.", True), ("The story goes on.", False),
        ("Subscribe to our letter.", True),
        # A paragraph of more than 200 characters: the story, or part of it.
        (_STORY_TEXT, False),
    ]  # fmt: skip
    assert not any(line.furniture for line in lines)  # the lines given are left as they are
    # A blog theme's post in an <aside>: the block lies inside it, or is it.
    post = _body("<html><body><aside class='post'><div><h2>A ride</h2><p>We rode.</p></div></aside><aside><p>Archives</p></aside></body></html>")
    for block in (post.find("aside/div"), post.find("aside")):
        assert [line.furniture for line in aside_furniture(segment(post), block)] == [False, False, True]


def test_a_dialog_or_an_element_of_an_asides_role_is_furniture_too():
    body = _body(
        "<html><body><main><p>The story.</p></main><div role='complementary'><p>Popular now</p></div>"
        "<div role='dialog'><p>Sign up for our letter.</p></div><dialog><p>Log in</p></dialog>"
        "<div role='region'><p>A region of the page.</p></div></body></html>"
    )
    assert [(line.text, line.furniture) for line in aside_furniture(segment(body), body.find("main"))] == [
        ("The story.", False), ("Popular now", True), ("Sign up for our letter.", True), ("Log in", True),
        ("A region of the page.", False),
    ]  # fmt: skip


_CAPTION = "Production of the next film brought some 150 million pounds to the country's economy, " * 3


def test_a_gallery_beside_a_story_is_furniture():
    body = _body(
        "<html><body><article><h1>Seven secrets</h1><div class='text'><p>The story.</p>"
        f"<div class='full-gallery'><h2>News in pictures</h2><ul><li><h2>1/50 A film</h2><p>{_CAPTION}</p></li></ul></div>"
        "<p>The story goes on.</p></div>"
        "<div class='hp-slideshow-wrapper-loading'><p>Slide one</p></div>"
        # A script's hook, a word that only holds the name, a post's format and subject: no gallery.
        "<div class='js-lightbox-gallery'><p>A picture of the story.</p></div>"
        "<div class='gallery-title-wrap'><p>A title.</p></div>"
        "<section class='post format-gallery category-gallery'><p>A post whose format is a gallery.</p></section>"
        "</article></body></html>"
    )
    lines = segment(body)
    block = body.find("article/div")
    furniture = [line.text for line in aside_furniture(lines, block, story=lambda: True) if line.furniture]
    assert furniture == ["News in pictures", "1/50 A film", _CAPTION.strip(), "Slide one"]
    # On a page that is no story (a shop's pictures with its product), a gallery is text.
    assert not any(line.furniture for line in aside_furniture(lines, block, story=lambda: False))
    assert not any(line.furniture for line in aside_furniture(lines, block))
    # A gallery that wraps the block, or holds the headline, holds the story.
    page = _body(
        "<html><body><div class='photo-gallery'><h1>In pictures</h1><p>The storm.</p></div>"
        "<div class='slideshow'><div class='text'><p>A story told in slides.</p></div></div></body></html>"
    )
    lines = segment(page)
    marks = [line.furniture for line in aside_furniture(lines, page.find("div[2]/div"), story=lambda: True)]
    assert marks == [False, False, False]
    marks = [line.furniture for line in aside_furniture(lines, page.find("div/p"), story=lambda: True)]
    assert marks == [False, False, True]


def test_a_related_box_is_the_element_its_name_opens_or_the_one_after_a_name_alone():
    lines = segment(_body(
        "<html><body><article><p>The story.</p>"
        "<section><h3>You may also like</h3><ul><li><a href='/a'>One</a></li><li><a href='/b'>Two</a></li></ul></section>"
        "<p>The story goes on.</p>"
        "<div class='title'>相关推荐</div><div><ul><li>甲</li><li>乙</li></ul></div><p>End of the story.</p>"
        "<h2>Related</h2><p>A paragraph of the story headed so.</p><p>Another.</p>"
        "<p>Related: a line that is no name.</p><p>Recommended:</p><p>OS: Windows 11</p>"
        "</article></body></html>"
    ))
    assert [(line.text, mark) for line, mark in zip(lines, related_boxes(lines))] == [
        ("The story.", 0),
        ("You may also like", RELATED_NAME), ("One", IN_RELATED), ("Two", IN_RELATED),
        ("The story goes on.", 0),
        ("相关推荐", RELATED_NAME), ("甲", IN_RELATED), ("乙", IN_RELATED),
        ("End of the story.", 0),
        # A name alone among the story's paragraphs names the element after it only.
        ("Related", RELATED_NAME), ("A paragraph of the story headed so.", IN_RELATED), ("Another.", 0),
        # A label (a colon after the name) names no box.
        ("Related: a line that is no name.", 0), ("Recommended:", 0), ("OS: Windows 11", 0),
    ]  # fmt: skip


def test_a_related_name_on_the_first_line_names_no_box():
    lines = segment(_body("<html><body><div><h3>Related</h3><p>Whatever follows.</p></div></body></html>"))
    assert related_boxes(lines) == [0, 0]


@pytest.mark.parametrize(
    ("name", "names_a_box"),
    [
        ("Related coverage", True), ("Mehr zum Thema", True), ("Lo más leído", True), ("大家都在看", True),
        ("You may also like ›", True), ("Editor's picks", True), ("Das könnte dich auch interessieren", True),
        ("Czytaj także", True), ("延伸阅读", True), ("相关事件", True), ("媒体报道", True),
        # A blog's sidebar widgets: lists of posts, comments, categories, tags.
        ("Recent Posts", True), ("Neueste Kommentare", True), ("Categories", True), ("Schlagwörter", True),
        ("Empfehlungen der Redaktion", True), ("Explore further", True),
        # A listing's own items, a label, a sentence that starts as a name does; a
        # travel advice's "Recommendations" and a paper's "Discussion" are the page's.
        ("Latest news", False), ("Related:", False), ("Related stories are linked below the article.", False),
        ("Empfehlungen", False), ("Discussion", False),
    ],
)  # fmt: skip
def test_what_names_a_related_box(name, names_a_box):
    lines = segment(_body(f"<html><body><p>The story.</p><div><h3>{name}</h3><ul><li>Another story</li></ul></div></body></html>"))
    assert related_boxes(lines)[1:] == ([RELATED_NAME, IN_RELATED] if names_a_box else [0, 0])


def test_names_nested_in_one_another_mark_their_lines_once():
    nested = "<div><h3>Related</h3><p>A teaser.</p>" * 400 + "</div>" * 400
    lines = segment(_body(f"<html><body><p>The story.</p>{nested}</body></html>"))
    marks = related_boxes(lines)
    assert marks[:4] == [0, RELATED_NAME, IN_RELATED, IN_RELATED]
    assert set(marks[1:]) == {RELATED_NAME, IN_RELATED} and marks.count(RELATED_NAME) == 1


def test_what_a_line_of_links_and_a_story_are_is_a_setting():
    body = _body("<html><body><p>Read: <a href='/a'>most of this line is a link</a></p></body></html>")
    assert [line.kind for line in segment(body)] == ["p"]
    assert [line.kind for line in segment(body, LinesConfig(all_link=0.5))] == ["link"]
    # lines.story_paragraph_chars (200): a wrapping <footer> whose paragraph is shorter holds no story.
    paragraph = "A paragraph of the story that runs on for a while. " * 3  # about 150 characters
    markup = f"<html><body><footer><p>{paragraph}</p><p>More of the page.</p></footer></body></html>"
    assert not any(line.furniture for line in segment(_body(markup), LinesConfig(story_paragraph_chars=100)))
    assert all(line.furniture for line in segment(_body(markup), Config().with_overrides(["lines.story_paragraph_chars=200"]).lines))
