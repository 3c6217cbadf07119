"""The passes of method svm after the classifier (webclean.smoothing)."""

import re

import pytest
from scripted import LONG, PARAGRAPH, ValuesByText, line_unit

from webclean.denoise import KEPT, denoise
from webclean.features import FEATURE_SETS, FEATURE_WIDTHS
from webclean.line_features import is_prose, line_units
from webclean.parse import parse_html
from webclean.segment import _RELATED_NAME_RE, GROUP_BIT, IN_RELATED, RELATED_NAME, segment
from webclean.smoothing import (
    _COMMENT_CALL_RE,
    _FILED_RE,
    _PAGE_LABEL_RE,
    ARTICLE_CHARS,
    CODE,
    CORE_GAP,
    EMPTY_HEADING,
    FORUM_POST,
    FURNITURE,
    ITEM,
    ITEM_BARE_KEPT_SHARE,
    ITEM_LINES,
    ITEM_LIST_KEPT_SHARE,
    LINK_RUN,
    LONG_LINE,
    NOTICE,
    PROSE,
    RELATED_BOX,
    UNSURE_MARGIN,
    UNSURE_TAIL,
    apply_passes,
    author_boxes,
    bare_prose,
    code_lines,
    comment_boxes,
    comments_heading,
    forum_prose,
    items,
    link_runs,
    margin_lines,
    past_core,
    smooth,
    tail_lines,
    teaser_heads,
)


def test_link_runs_drop_runs_of_all_link_lines_only():
    units = [line_unit(LONG), line_unit("Home", "link"), line_unit("News", "link"), line_unit(LONG), line_unit("Lone link", "link")]
    kept = [u.text for u in units]
    out = smooth(units, kept, 40, ("link_runs",), link_run=2)
    assert out == [LONG, None, None, LONG, "Lone link"]

def test_no_pass_changes_nothing():
    units = [line_unit("Home", "link"), line_unit("News", "link")]
    assert smooth(units, ["Home", "News"], 40, ()) == ["Home", "News"]

def test_an_unknown_pass_is_an_error():
    import pytest

    with pytest.raises(ValueError, match="unknown smoothing"):
        smooth([line_unit(LONG)], [LONG], 40, ("bridge",))

def test_link_runs_take_the_short_lines_around_a_run_with_beta():
    units = [
        line_unit(LONG),
        line_unit("Related"),
        line_unit("One", "link"),
        line_unit("Two", "link"),
        line_unit("More"),
        line_unit(LONG),
        line_unit("Label"),
        line_unit("Lone link", "link"),
    ]
    assert link_runs(units) == [False, False, True, True, False, False, False, False]
    # The heading before a run and the label after it go with it; long lines and the
    # lines around a single link stay.
    assert link_runs(units, beta=40) == [False, True, True, True, True, False, False, False]
    assert link_runs(units, beta=2) == [False, False, True, True, False, False, False, False]

def test_a_long_all_link_line_is_no_part_of_a_run():
    figure = "Figure 2 shows the platform's flow: the courier uploads the parcel's data when it is handed over, " * 2
    units = [line_unit("Home", "link"), line_unit(figure, "link"), line_unit("World", "link"), line_unit("Sport", "link")]
    assert link_runs(units) == [False, False, True, True]

def test_link_runs_leave_the_headline_after_a_menu():
    units = [line_unit("Home", "link"), line_unit("World", "link"), line_unit("Storm hits the coast", "heading"), line_unit(LONG)]
    assert link_runs(units, beta=40) == [True, True, True, False]
    assert link_runs(units, beta=40, title="Storm hits the coast | The Daily") == [True, True, False, False]

def test_method_svm_smooths_link_runs_and_paper_does_not():
    from webclean.registry import classifier_spec

    assert classifier_spec("paper").smoothing == ()
    assert classifier_spec("svm").smoothing == (
        "link_runs", "credits", "see_also", "notices", "related_boxes", "empty_headings", "empty_labels",
        "repeats", "tail_lines", "margin_lines", "items", "code", "furniture", "comments", "past_core", "author_boxes", "prose",
        "forum_prose",
    )  # fmt: skip

def test_credits_drop_short_lines_that_name_a_source_or_an_editor():
    body = "本报讯 记者从市环保局获悉，今年以来全市空气质量优良天数比例同比提高了五个百分点。"
    lines = [body, "（责任编辑：张三）", "来源：新华社", "來源： 中央社", "编辑:李四 校对:王五"]
    units = [line_unit(text) for text in lines]
    assert smooth(units, list(lines), 40, ("credits",)) == [body, None, None, None, None]
    # A label in a longer line is prose that quotes one, or a paragraph that ends with it.
    quoting = "据报道，来源：当地政府的一份通报称，今年以来全市空气质量优良天数比例同比提高了五个百分点。"
    assert smooth([line_unit(quoting)], [quoting], 40, ("credits",)) == [quoting]
    # Without a label, or without the colon, a short line is the classifier's.
    assert smooth([line_unit("新华社"), line_unit("编辑推荐")], ["新华社", "编辑推荐"], 40, ("credits",)) == ["新华社", "编辑推荐"]

def test_credits_drop_a_pictures_credit_up_to_a_caption_long():
    prose = "The council met on Monday to discuss the new bridge over the river, and voted to fund it. " * 3
    caption = "Marco Odermatt, the Swiss skier, at the start in Wengen. © AFP / Marco Bertorello"
    lines = [prose, caption, "Foto: dpa", "(crédito: Minervino Júnior/CB/D.A.Press)", "Image: a cat on a roof"]
    units = [line_unit(text) for text in lines]
    assert smooth(units, list(lines), 40, ("credits",)) == [prose, None, None, None, None]
    # A label in a long paragraph, or a word without its colon, is the classifier's.
    long_line = prose + "Photo: the bridge as it will look."
    kept = ["The photo shows the bridge.", long_line]
    assert smooth([line_unit(text) for text in kept], list(kept), 40, ("credits",)) == kept

def test_see_also_drops_a_line_that_opens_with_a_read_also_label():
    prose = "The council met on Monday to discuss the new bridge over the river, and voted to fund it. " * 3
    lines = [
        prose,
        "Lesen Sie auch: Diese 3 Sternzeichen verschenken ihr Herz an den Falschen",
        "VEA TAMBIÉN: Estrella de la educación no brilla para estudiantes",
        "Czytaj też: Wyścig zbrojeń ruszył z kopyta",
        "延伸阅读：57岁小学肄业 广西骗子演绎惊天骗局",
    ]
    units = [line_unit(text) for text in lines]
    assert smooth(units, list(lines), 40, ("see_also",)) == [prose, None, None, None, None]
    # The label must open the line and be followed by its delimiter.
    kept = ["We read also the minutes of the last meeting: nothing new.", "See also the table below", "Related"]
    assert smooth([line_unit(text) for text in kept], list(kept), 40, ("see_also",)) == kept

def _notices_drop_only(dropped: list[str], kept: list[str]) -> None:
    """The pass notices drops every line of ``dropped`` and none of ``kept``."""
    assert smooth([line_unit(text) for text in dropped], list(dropped), 40, ("notices",)) == [None] * len(dropped)
    assert smooth([line_unit(text) for text in kept], list(kept), 40, ("notices",)) == kept


def test_notices_drop_the_sites_calls_to_its_reader():
    prose = "The council met on Monday to discuss the new bridge over the river, and voted to fund it. " * 3
    lines = [
        prose,
        "Sign up for our newsletter to get the latest stories in your inbox.",
        "Please understand that comments are moderated and it is not always possible to publish all.",
        "Folgen Sie uns auf Twitter",
        "Copyright 2023 Example Television Corp. All rights reserved.",
        "Suscríbete a nuestro boletín",
        "You need to enable JavaScript to run this app.",
        "Bitte aktivieren Sie JavaScript und laden Sie die Seite erneut.",
    ]
    units = [line_unit(text) for text in lines]
    assert smooth(units, list(lines), 40, ("notices",)) == [prose] + [None] * 7
    # News prose about subscribers or newsletters is the story's; so is a long paragraph.
    kept = [
        "The streaming service added 2.4 million subscribers in the quarter, more than expected.",
        "The newsletter industry has never been healthier, on paper.",
        "Welcome to the State of AI Newsletter",
        "I built my newsletter with two things: my voice and a repeatable system.",
        "Its subscription price rises to $12 in March.",
        "The framework renders every page in JavaScript, which search engines now run.",
        "Its active JavaScript community maintains the plug-ins.",
        prose + "Readers can sign up at the library.",
    ]
    assert smooth([line_unit(text) for text in kept], list(kept), 40, ("notices",)) == kept


def test_notices_drop_a_call_to_a_newsletter_and_its_boxs_title_not_prose_about_newsletters():
    _notices_drop_only(
        [
            "Join our Newsletter for the latest news right to your inbox",
            "Never miss the latest news by signing up to our newsletter today!",
            "By subscribing to this newsletter, you agree to our terms of service.",
            "Stay up to date with our free daily newsletter",
            "Kostenlos zum Newsletter anmelden und Jahresabo gewinnen",
            "Lass dir die besten Storys jede Woche liefern: melde dich für unseren Newsletter an.",
            "PC Gamer Newsletter",
            "Newsletter",
        ],
        [
            "Newsletters are booming. More people are writing them, and more people are paying for them.",
            "In every case, your newsletter has to pass through an intermediary that optimizes for one thing.",
            "The Guardian US added 680,000 newsletter subscribers in a single year.",
            "What This Means for Newsletter Writers?",
        ],
    )


def test_notices_take_signing_up_and_subscribing_as_calls_not_as_prose():
    _notices_drop_only(
        [
            "Sign up for free",
            "Sign up",
            "Already have an account? Sign up now and save 10%.",
            "Click here to sign up",
            "Please subscribe",
            "Subscribe to our channel for more videos",
            "Like what you read? Subscribe today!",
        ],
        [
            "You can sign up to the academy or access our learning content, which covers every topic.",
            "LaunchRock has helped customers sign up 5 million users since its launch.",
            "The purpose of our hook is to subscribe us to a friend's status.",
            "I also subscribe to many non-tech Substacks, such as Cafe Anne.",
            "Readers who subscribe get the paper a day early.",
        ],
    )


def test_notices_drop_a_chinese_sites_legal_notice_not_the_storys_words_for_one():
    notices = [
        "特别声明：以上内容(如有图片或视频亦包括在内)为自媒体平台“网易号”用户上传并发布，本平台仅提供信息存储服务。",
        "【免责声明】本文仅代表作者本人观点，与本站无关。",
        "声明：本报力求信息真实、准确，文章提及内容仅供参考，不构成实质性投资建议。",
        "反侵权公告：",
        "图片来自网络，如有侵权，请联系删除。",
        "转载请注明出处：快科技",
        "平台声明：该文观点仅代表作者本人，本平台仅提供信息存储空间服务。",
    ]
    stories = [
        "公司在声明中表示，将在三十日内完成整改。",
        "外交部发言人发表声明：中方坚决反对。",
        "午间公告：天奇股份中标广汽丰田项目",
        "【美国The Next Web作品的中文相关权益归本站独家所有。未经授权，不得转载、摘编等。】",
    ]
    _notices_drop_only(notices, stories)


def test_notices_drop_the_pages_labels_whole_lines_only():
    labels = ["Advertisement", "- Anzeige -", "Share this article:", "Drucken", "4 min read", "Lesezeit: 2 Minuten"]
    labels += ["分享到：", "一键转发", "分享让更多人看到", "T + -", "A+ A-", "登录 后参与讨论", "展开全文"]
    kept = ["Advertising revenue fell by a tenth.", "Share prices rose.", "Print runs are shorter now."]
    kept += ["分享经济的规模去年扩大了一成。", "A+ 级的评级维持不变。", "T", "欢迎读者参与讨论。"]
    _notices_drop_only(labels, kept)


def test_notices_drop_the_pages_buttons_and_controls_not_prose_that_opens_with_their_words():
    buttons = [
        "Read more",
        "Weiterlesen »",
        "→ Learn more",
        "REGISTER NOW",
        "Jetzt anmelden",
        "Comments (18)",
        "评论(0)",
        "Search",
        "Search This Blog",
        "Close",
        "Skip to content",
        "▲ Back to top",
        "Table of Contents",
        "« Previous Post | Next post »",
        "More on This Story",
        "Mehr aus Thüringen",
        "Neueste Beiträge",
        "War der Artikel nützlich?",
        "(Noch keine Bewertungen)",
    ]
    kept = [
        "Read more about the council's plans in our explainer.",
        "Learn more languages, the minister said.",
        "Search and rescue teams reached the village on Friday.",
        "Close to a thousand people came.",
        "Top 10 tips for a first marathon",
        "More on this in the second part of the report, which the council publishes in May.",
        "Next, whisk the eggs.",
        "Quote: “We will not back down.”",
        "Was this article helpful to the council? Its members disagree.",
    ]
    _notices_drop_only(buttons, kept)


def test_notices_drop_where_a_post_is_filed_not_a_category_line_or_code():
    filed = ["Tags: python, docker, getting started", "Posted in:", "Schlagwörter: Garten, Rosen", "Themen: Ehrenamt Jugendverbände"]
    _notices_drop_only(filed, ["Kategorie: Kinderbuch", "Category:Portage", '{ tags: ["a", "b"] }', "Tags are how readers find a post."])


def test_notices_drop_a_link_back_not_a_line_of_prose_that_opens_so():
    back = line_unit("Zurück zur Übersicht", "link")
    prose = line_unit("Back to the street, the crowd had thinned.")
    assert back.link_ratio == 1.0 and prose.link_ratio == 0.0
    assert smooth([back, prose], [back.text, prose.text], 40, ("notices",)) == [None, prose.text]


def test_notices_drop_a_comment_sections_furniture_not_what_talks_of_comments():
    furniture = [
        "Leave a Reply",
        "Schreibe einen Kommentar",
        "11 Antworten zu „Die Loneliest Woman“",
        "3 thoughts on “A Walk in the Woods”",
        "27 commentaires",
        "Comments are closed.",
        "Comment by Daniel — 17.07, 2011 @ 13:10",
        "Du musst angemeldet sein, um einen Kommentar abzugeben.",
        "发表评论",
        "Reply",
        "Reply ↓",
        "Antworten",
        "Quote",
        "Diese Website verwendet Akismet, um Spam zu reduzieren. Erfahre mehr darüber, wie deine Kommentardaten verarbeitet werden.",
        "No comments yet.",
        "RSS feed for comments on this post.",
        "blog comments powered by Disqus",
        "Listed below are links to weblogs that reference Flash, Flash, FLASH!:",
    ]
    # Whole lines only: a story about comments, a column named so, a reply's text.
    kept = [
        "Ein Kommentar von Anna Weber",
        "The minister did not leave a comment on the report.",
        "3 thoughts on the budget, from our economics editor:",
        "Comments from readers poured in after the decision.",
        "Thanks, I will leave a reply to this later.",
    ]
    _notices_drop_only(furniture, kept)

def test_notices_drop_a_link_to_the_post_before_or_after_not_prose_that_names_it():
    adjacent = line_unit("Previous Post The Flawed Case for Fiscal Stimulus")._replace(link_ratio=0.72)
    older = line_unit("« Older entry: A walk in the woods", "link")
    prose = line_unit("Next post: I will write about the bridge once the council has voted.")
    assert smooth([adjacent, older, prose], [adjacent.text, older.text, prose.text], 40, ("notices",)) == [None, None, prose.text]


def test_every_notice_holds_one_of_the_cues_looked_for_first():
    from webclean.smoothing import _NOTICE_CUES, _NOTICE_RE

    # Each alternative of the pattern, in every form it matches, as re.IGNORECASE reads
    # it: any case, and the letters that fold to an ASCII one (ſ for s, İ and ı for i).
    forms = (
        "subscribe", "sign up", "sign-up", "signup", "join our newsletter", "get the daily newsletters",
        "newsletter and sign up", "newsletters in your inbox", "signing up for newsletters", "subscribing to newsletters",
        "follow us", "comments are moderated",
        "all rights reserved", "abonnieren", "abonniere", "newsletter-anmeldung", "folgen sie uns", "folge uns",
        "suscríbete", "suscribete", "suscríbase", "suscribase", "suscribirse", "abonnez-vous", "s'abonner",
        "inscrivez-vous", "enable javascript", "turn on your javascript", "activate javascript",
        "javascript is disabled", "javascript required", "javascript must be enabled",
        "requires javascript", "need to enable javascript", "javascript aktivieren", "aktivieren sie javascript", "javascript einschalten",
        "activez le javascript", "activer javascript", "habilite el javascript", "habilitar javascript",
    )  # fmt: skip
    for phrase in forms:
        assert _NOTICE_RE.search(f"Please {phrase} today"), phrase
        for variant in (phrase, phrase.upper(), phrase.title(), phrase.replace("s", "ſ"), phrase.replace("i", "İ"),
                        phrase.replace("i", "ı")):  # fmt: skip
            text = f"Please {variant} today"
            if _NOTICE_RE.search(text):
                assert any(cue in text.casefold() for cue in _NOTICE_CUES), variant


def test_every_picture_credit_holds_one_of_the_cues_looked_for_first():
    from webclean.smoothing import _PICTURE_CREDIT_CUES, _PICTURE_CREDIT_RE

    # Each alternative, in every form re.IGNORECASE matches (as for the notices' cues).
    forms = (
        "©", "foto:", "fotos:", "photo:", "photos:", "bild:", "bilder:", "crédito:", "credit:", "credits:",
        "kuva:", "zdjęcie:", "image:", "imagen:", "Photo :",
    )  # fmt: skip
    for label in forms:
        assert _PICTURE_CREDIT_RE.search(f"A caption. {label} Agency"), label
        for variant in (label, label.upper(), label.title(), label.replace("s", "ſ"), label.replace("i", "İ"),
                        label.replace("i", "ı"), label.replace("k", "\u212a")):  # fmt: skip
            text = f"A caption. {variant} Agency"
            if _PICTURE_CREDIT_RE.search(text):
                assert any(cue in text.casefold() for cue in _PICTURE_CREDIT_CUES), variant


def test_empty_headings_drop_a_heading_over_nothing_kept_after_the_text():
    prose = "The council met on Monday to discuss the new bridge over the river, and voted to fund it. " * 2
    units = [
        line_unit("The bridge", "heading"),
        line_unit(prose),
        line_unit("What comes next", "heading"),
        line_unit("Work starts in May."),
        line_unit("Related stories", "heading"),
        line_unit("Another story about another bridge", "link"),
        line_unit("Newsletter", "heading"),
    ]
    kept = [u.text for u in units]
    kept[5] = None  # the related story, dropped by the classifier
    out = smooth(units, kept, 40, ("empty_headings",))
    # A heading over a kept short paragraph stays; those over nothing kept go.
    assert out == ["The bridge", prose, "What comes next", "Work starts in May.", None, None, None]
    # Without a long paragraph kept, nothing is a tail.
    short = [line_unit("A heading", "heading"), line_unit("Short text.")]
    assert smooth(short, ["A heading", None], 40, ("empty_headings",)) == ["A heading", None]

def test_empty_headings_inside_the_text_need_dropped_lines_under_them():
    prose = "The council met on Monday to discuss the new bridge over the river, and voted to fund it. " * 2
    units = [
        line_unit("Bridge vote", "heading"),
        line_unit("A deck under the headline", "heading"),
        line_unit(prose),
        line_unit("You may also like", "heading"),
        line_unit("Subscribe to our newsletter"),
        line_unit("What the council said", "heading"),
        line_unit("Costs", "heading"),
        line_unit(prose),
    ]
    kept = [u.text for u in units]
    kept[4] = None  # the teaser box's line, dropped by the classifier
    out = smooth(units, kept, 40, ("empty_headings",))
    # Between the long paragraphs: the heading over a dropped line goes; a heading
    # directly over another heading stays, as do the headline and its deck before
    # the first long paragraph.
    assert out == ["Bridge vote", "A deck under the headline", prose, None, None, "What the council said", "Costs", prose]

def test_related_boxes_drop_a_named_box_after_the_texts_first_long_paragraph():
    prose = "The council met on Monday to discuss the new bridge over the river, and voted to fund it. " * 2
    teaser = "Another bridge, in another town, opened last year: a summary of that story long enough to be prose."
    units = [
        line_unit("Related", "heading")._replace(related=RELATED_NAME),
        line_unit("A box before the story", "link")._replace(related=IN_RELATED),
        line_unit(prose),
        line_unit("Related stories", "heading")._replace(related=RELATED_NAME),
        line_unit(teaser, "list")._replace(related=IN_RELATED),
        line_unit("Another teaser", "link")._replace(related=IN_RELATED),
        line_unit("The story's last line."),
        line_unit("A line of a thread's post", "list")._replace(related=IN_RELATED, post=1),
    ]
    kept = [u.text for u in units]
    kept[5] = None  # dropped by the classifier: the pass leaves it to it
    out, by = apply_passes(units, kept, 40, ("related_boxes",))
    # Before the text's first long paragraph a box is left as it is; the lines of a
    # thread's posts are their own; the box ends where its lines do.
    assert out == ["Related", "A box before the story", prose, None, None, None, "The story's last line.", units[7].text]
    assert by == [None, None, None, RELATED_BOX, RELATED_BOX, None, None, None]


def test_empty_labels_drop_a_label_whose_line_is_dropped():
    units = [
        line_unit(LONG),
        line_unit("Tags:"),
        line_unit("bridges", "link"),
        line_unit("The council listed three reasons:"),
        line_unit("It is cheaper than a tunnel."),
        line_unit("Last modified:"),
    ]
    kept = [u.text for u in units]
    kept[2] = None  # the tag, dropped by the classifier
    out = smooth(units, kept, 40, ("empty_labels",))
    # A label over a kept line stays, one over a dropped line or over the end goes;
    # a line that merely contains a colon is not a label.
    assert out == [LONG, None, None, "The council listed three reasons:", "It is cheaper than a tunnel.", None]
    long_label = "Everything the council decided on Monday about the bridge:"
    assert smooth([line_unit(long_label)], [long_label], 40, ("empty_labels",)) == [long_label]
    assert smooth([line_unit("来源："), line_unit(LONG)], ["来源：", None], 40, ("empty_labels",)) == [None, None]

def test_repeats_drop_the_text_shown_again_elsewhere_on_the_page():
    description = "A wheel thrown mug with a matte speckled finish and a clear glazed interior."
    care = "Suitable for dishwashers and microwave ovens; avoid rapid heating and cooling."
    refrain = "And the river ran on to the sea, as it always had and always would."
    page = (
        f"<html><body><div class='product'><h1>White speckle mug</h1><p>{description}</p><p>{care}</p></div>"
        f"<div class='tabs'><div class='tab'><p>{description}</p><p>{care}</p></div></div>"
        f"<div class='poem'><p>{refrain}</p><p>The boats came home at night.</p><p>{refrain}</p></div></body></html>"
    )
    units = line_units(segment(parse_html(page).find("body")))
    assert [u.copy for u in units] == [0, 0, 0, 2, 2, 0, 0, 0]
    kept = [u.text for u in units]
    out = smooth(units, kept, 40, ("repeats",))
    # The shop's description again in its tabs goes; a refrain within its poem stays.
    assert out == ["White speckle mug", description, care, None, None, refrain, "The boats came home at night.", refrain]
    # A copy stays when its first was dropped: the text is then kept once.
    kept[1] = None
    assert smooth(units, kept, 40, ("repeats",))[3] == description

def test_a_line_repeated_alone_in_other_elements_is_no_copy():
    # Each card's fine print: the same line in each card, between lines that differ.
    terms = "Cannot be combined with other offers. Valid at participating locations only."
    cards = "".join(f"<div class='card'><h3>{n} off any repair</h3><p>{terms}</p><p>Expires {n} May</p></div>" for n in (10, 20, 30))
    units = line_units(segment(parse_html(f"<html><body>{cards}</body></html>").find("body")))
    assert [u.text for u in units].count(terms) == 3
    assert all(u.copy == 0 for u in units)

def test_tail_lines_drop_what_the_classifier_is_unsure_of_after_the_texts_last_paragraph():
    lines = {
        "Short line before the text": 0.4,
        PARAGRAPH: 2.0,
        "A bio of the author": 0.6,
        "Share this story": 0.2,
        "The last word, sure": 1.5,
        "本文作者是本报记者": 0.3,
    }
    scripted = ValuesByText(lines)
    units = [line_unit(text) for text in lines]
    kept = list(lines)
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(FEATURE_SETS, "scripted", scripted.rows)
        patch.setitem(FEATURE_WIDTHS, "scripted", 1)
        unsure = tail_lines(units, kept, None, scripted, "scripted")
        # Before the last long paragraph nothing changes; after it, a line needs 1 or
        # more, and a line in CJK ideographs is left to the decision at 0.
        assert unsure == [False, False, True, True, False, False]
        assert [d.text for d in denoise(units, None, scripted, 40, "scripted", ("tail_lines",))] == [
            "Short line before the text", PARAGRAPH, "", "", "The last word, sure", "本文作者是本报记者",
        ]  # fmt: skip
        # A thread's posts keep their lines; a page without a long paragraph has no tail.
        post = units[2]._replace(post=1)
        assert tail_lines([units[1], post], [PARAGRAPH, post.text], None, scripted, "scripted") == [False, False]
        assert tail_lines(units[2:4], kept[2:4], None, scripted, "scripted") == [False, False]


def test_tail_lines_drop_a_line_all_link_after_the_text_and_its_heading_goes_with_it():
    lines = {
        "Read the report": 3.0,
        PARAGRAPH: 2.0,
        "相关报道链接": 3.0,
        "Contact the newsroom": 1.5,
        "More from the newsroom": 2.0,
        "Another story's headline": 3.0,
    }
    scripted = ValuesByText(lines)
    kinds = ["link", "p", "link", "p", "heading", "link"]
    units = [line_unit(text, kind) for text, kind in zip(lines, kinds)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(FEATURE_SETS, "scripted", scripted.rows)
        patch.setitem(FEATURE_WIDTHS, "scripted", 1)
        # A link before the last long paragraph, a line the classifier is sure of and a
        # link in CJK ideographs stay; the link after the text goes whatever its decision.
        assert tail_lines(units, list(lines), None, scripted, "scripted") == [False, False, False, False, False, True]
        # The heading over it heads nothing now: with the pass empty_headings it goes too.
        decisions = denoise(units, None, scripted, 40, "scripted", ("empty_headings", "tail_lines"))
        assert [d.outcome for d in decisions] == [KEPT, KEPT, KEPT, KEPT, EMPTY_HEADING, UNSURE_TAIL]
        decisions = denoise(units, None, scripted, 40, "scripted", ("tail_lines",))
        assert [d.outcome for d in decisions] == [KEPT, KEPT, KEPT, KEPT, KEPT, UNSURE_TAIL]


def test_a_long_line_all_link_is_no_last_paragraph_of_the_text():
    headline = "Another story's headline under the text, long enough to pass for one of its paragraphs if it were no link"
    lines = {PARAGRAPH: 2.0, "A bio of the author": 0.6, headline: 3.0}
    scripted = ValuesByText(lines)
    units = [line_unit(PARAGRAPH), line_unit("A bio of the author"), line_unit(headline, "link")]
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(FEATURE_SETS, "scripted", scripted.rows)
        patch.setitem(FEATURE_WIDTHS, "scripted", 1)
        # The text ends with the paragraph: the bio and the headline are its tail.
        assert tail_lines(units, list(lines), None, scripted, "scripted") == [False, True, True]


def test_margin_lines_drop_what_the_classifier_is_unsure_of_before_the_block():
    lines = {
        "Storm hits the coast": 1.2,
        "Weather › Storms": 0.1,
        "By Jane Doe, 3 March": 0.3,
        "Most read: the bridge reopens": 0.2,
        "南方，家里没有烘干机，冬天衣服只能晾在阳台。": 0.1,
        PARAGRAPH: 2.0,
        "A line of the block the classifier keeps at 0.1": 0.1,
    }
    scripted = ValuesByText(lines)
    units = [line_unit(text)._replace(region=-1) for text in list(lines)[:5]]
    units += [line_unit(text) for text in list(lines)[5:]]
    kept = list(lines)
    kept[3] = None  # dropped by the classifier: stays dropped
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(FEATURE_SETS, "scripted", scripted.rows)
        patch.setitem(FEATURE_WIDTHS, "scripted", 1)
        # Before the block a kept line needs 0.25 or more, unless it is written in CJK
        # ideographs; the block's lines keep their decision.
        assert margin_lines(units, kept, None, scripted, "scripted") == [False, True, False, False, False, False, False]
        decisions = denoise(units, None, scripted, 40, "scripted", ("margin_lines",))
        assert [d.text for d in decisions] == [
            "Storm hits the coast", "", "By Jane Doe, 3 March", "", kept[4], PARAGRAPH, kept[6],
        ]  # fmt: skip
        assert decisions[1].outcome == UNSURE_MARGIN


def test_margin_lines_drop_a_line_all_link_before_the_block_whatever_its_decision():
    lines = {"Home News World": 2.0, "Storm hits the coast": 1.2, "新闻首页": 2.0, PARAGRAPH: 2.0, "Read the report": 2.0}
    scripted = ValuesByText(lines)
    kinds = ["link", "heading", "link", "p", "link"]
    units = [line_unit(text, kind)._replace(region=-1 if i < 3 else 0) for i, (text, kind) in enumerate(zip(lines, kinds))]
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(FEATURE_SETS, "scripted", scripted.rows)
        patch.setitem(FEATURE_WIDTHS, "scripted", 1)
        # The menu before the block goes; a link in CJK ideographs and a link inside the
        # block are left to their decisions.
        assert margin_lines(units, list(lines), None, scripted, "scripted") == [True, False, False, False, False]


ITEM_TITLES = [f"Council approves budget for road number {n}" for n in range(ITEM_LINES + 2)]


def test_items_keep_the_block_of_a_page_whose_decisions_keep_almost_nothing_of_it():
    units = [line_unit("Home", "link")._replace(region=-1), *(line_unit(title, "link") for title in ITEM_TITLES)]
    dropped: list[str | None] = [None] * len(units)
    # Every line of the block is taken; the line before it is left to its decision.
    assert items(units, dropped) == [False] + [True] * len(ITEM_TITLES)
    # A thread's post panels stay dropped.
    panel = [units[0], units[1]._replace(post=-1), *units[2:]]
    assert items(panel, dropped) == [False, False] + [True] * (len(ITEM_TITLES) - 1)


def test_items_leave_a_block_with_prose_or_with_kept_text_or_with_few_lines():
    units = [line_unit(title, "link") for title in ITEM_TITLES]
    # The decisions keep a twentieth of the block's text or more: an article's block.
    kept = [ITEM_TITLES[0], *[None] * (len(units) - 1)]
    assert not any(items(units, kept))
    # A fifth of the block's text in lines of prose: the classifier dropped an article.
    prose = "The council met on Monday and approved the budget for the roads of the north. " * 2
    assert len(prose) >= LONG_LINE
    with_prose = [*units, line_unit(prose), line_unit(prose), line_unit(prose)]
    assert not any(items(with_prose, [None] * len(with_prose)))
    # Fewer lines than a list of items holds: an error page, a short notice.
    few = units[: ITEM_LINES - 1]
    assert not any(items(few, [None] * len(few)))


def test_a_page_that_is_no_story_is_a_page_of_items_with_more_of_it_kept():
    units = [line_unit(title, "link") for title in ITEM_TITLES]
    one_kept = [ITEM_TITLES[0], *[None] * (len(units) - 1)]  # a twelfth of the block's text
    asked: list[bool] = []

    def no_story() -> bool:
        asked.append(True)
        return False

    # A shop's category page keeps its intro: still a page of items.
    assert items(units, one_kept, no_story) == [False] + [True] * (len(units) - 1)
    # A story's block that keeps as much is the story's: left as it is.
    assert not any(items(units, one_kept, lambda: True))
    # A sixth of the block kept, in a block with a line of prose: no page of items,
    # whatever the page says.
    prose = "The council met on Monday and approved the budget for the roads of the north. " * 2
    with_prose = [*units, *(line_unit(title, "link") for title in ITEM_TITLES), line_unit(prose)]
    five_kept = [*ITEM_TITLES[:5], *[None] * (len(with_prose) - 5)]
    share = sum(unit.length for unit in with_prose[:5]) / sum(unit.length for unit in with_prose)
    assert ITEM_LIST_KEPT_SHARE < share < ITEM_BARE_KEPT_SHARE
    assert not any(items(with_prose, five_kept, no_story))
    # In a block without a line of prose a sixth kept is still a list's few lines that
    # look like text; a third kept is not.
    two_kept = [*ITEM_TITLES[:2], *[None] * (len(units) - 2)]
    assert ITEM_LIST_KEPT_SHARE < 2 / len(units) < ITEM_BARE_KEPT_SHARE
    assert items(units, two_kept, no_story) == [False, False] + [True] * (len(units) - 2)
    four_kept = [*ITEM_TITLES[:4], *[None] * (len(units) - 4)]
    assert 4 / len(units) > ITEM_BARE_KEPT_SHARE
    assert not any(items(units, four_kept, no_story))
    # Where nothing is kept the question is not asked (it walks the page's tree).
    asked.clear()
    assert all(items(units, [None] * len(units), no_story))
    assert not asked


def test_a_menu_kept_in_the_block_does_not_make_a_page_of_items_an_article():
    # The classifier keeps a footer's lines, which the furniture pass drops whatever
    # kept them: they do not count as the block's text kept.
    footer = [line_unit(f"Contact us at our office number {n}")._replace(furniture=True) for n in range(3)]
    units = [*(line_unit(title, "link") for title in ITEM_TITLES), *footer]
    kept = [None] * len(ITEM_TITLES) + [unit.text for unit in footer]
    assert items(units, kept) == [True] * len(ITEM_TITLES) + [False] * len(footer)
    # The same lines kept outside the furniture are the block's own text.
    plain = [*units[: len(ITEM_TITLES)], *(unit._replace(furniture=False) for unit in footer)]
    assert not any(items(plain, kept))


def test_denoise_names_the_lines_a_page_of_items_keeps():
    units = [line_unit(title, "link") for title in ITEM_TITLES]
    scripted = ValuesByText({title: -1.0 for title in ITEM_TITLES})
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(FEATURE_SETS, "scripted", scripted.rows)
        patch.setitem(FEATURE_WIDTHS, "scripted", 1)
        assert [d.text for d in denoise(units, None, scripted, 40, "scripted", ())] == [""] * len(units)
        decisions = denoise(units, None, scripted, 40, "scripted", ("link_runs", "items"))
    assert [d.text for d in decisions] == ITEM_TITLES
    assert {d.outcome for d in decisions} == {ITEM}


def test_furniture_drops_the_kept_lines_of_a_footer_whatever_kept_them():
    about = "We are a small team writing about bicycles and the roads they ride on since 2005."
    units = [line_unit(LONG), line_unit(about)._replace(furniture=True), line_unit("Home", "link")._replace(furniture=True)]
    scripted = ValuesByText({LONG: 2.0, about: 1.5, "Home": -1.0})
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(FEATURE_SETS, "scripted", scripted.rows)
        patch.setitem(FEATURE_WIDTHS, "scripted", 1)
        before = denoise(units, None, scripted, 40, "scripted", ())
        decisions = denoise(units, None, scripted, 40, "scripted", ("furniture",))
    assert [d.text for d in before] == [LONG, about, ""]
    # The line the classifier kept is the pass's; the one it dropped stays its own.
    assert [(d.text, d.outcome) for d in decisions] == [(LONG, "kept"), ("", FURNITURE), ("", "dropped")]


TEASERS = [
    ("Left-handed people are more competitive, a study says", "A recent study suggests that left-handed people have an advantage in contests of speed and surprise."),
    ("Sleep apnea often goes undetected in women", "Doctors have long looked for the signs that men show, and a new screening test is starting to change that."),
    ("The last mystery of the blood falls is solved", "New research sheds light on what drives the reddish water that pours out of the glacier every summer."),
]


def _feed(pairs: int) -> tuple[list, list[str | None]]:
    units, kept = [], []
    for head, summary in TEASERS[:pairs]:
        units += [line_unit(head, "link"), line_unit(summary), line_unit("Jane Doe")]
        kept += [None, summary, None]
    return units, kept


def test_teaser_heads_keep_the_headlines_of_kept_summaries_on_a_page_that_is_no_story():
    units, kept = _feed(3)
    assert teaser_heads(units, kept, [None] * len(units), lambda: False) == [True, False, False] * 3
    # On a story the pairs are the feed of other stories after it.
    assert not any(teaser_heads(units, kept, [None] * len(units), lambda: True))
    # Two pairs are no feed; a headline a pass dropped (a run of links) stays dropped.
    few, few_kept = _feed(2)
    assert not any(teaser_heads(few, few_kept, [None] * len(few), lambda: False))
    by_run = [LINK_RUN, None, None] * 3
    assert teaser_heads(units, kept, by_run, lambda: False) == [False] * len(units)
    # A headline whose summary the classifier dropped too makes no pair: two are left.
    unkept = [None if i == 1 else text for i, text in enumerate(kept)]
    assert not any(teaser_heads(units, unkept, [None] * len(units), lambda: False))


def test_the_patterns_matched_against_lower_cased_text_are_written_in_lower_case():
    # They are compiled without re.IGNORECASE: a capital in one would never match.
    for pattern in (_COMMENT_CALL_RE, _PAGE_LABEL_RE, _FILED_RE, _RELATED_NAME_RE):
        assert not pattern.flags & re.IGNORECASE
        letters = re.sub(r"\\[A-Za-z]", "", pattern.pattern)  # escapes such as \W and \d are no letters
        assert letters == letters.lower(), pattern.pattern[:40]


def test_code_keeps_a_pre_inside_the_text_that_the_classifier_dropped():
    code = 'services:\n  web:\n    ports:\n      - "8000:8000"'
    line = 'services: web: ports: - "8000:8000"'
    units = [
        line_unit(LONG),
        line_unit(line, "text")._replace(code=code),
        line_unit(PARAGRAPH),
        line_unit("npm install", "text")._replace(code="npm install", span=1),
        line_unit("Home Docs Blog", "text")._replace(code="Home\nDocs\nBlog", region=-1),
        line_unit("Docs", "link")._replace(code="Docs"),
        line_unit("Quote", "text")._replace(code="Quote", post=-1),
    ]
    kept = [LONG, None, PARAGRAPH, None, None, None, None]
    # Between the text's paragraphs only: not after them, not in the margin, not a
    # <pre> of links, not a thread's panel.
    assert code_lines(units, kept) == [False, True, False, False, False, False, False]
    scripted = ValuesByText({LONG: 2.0, line: -1.5, PARAGRAPH: 2.0})
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(FEATURE_SETS, "scripted", scripted.rows)
        patch.setitem(FEATURE_WIDTHS, "scripted", 1)
        decisions = denoise(units[:3], None, scripted, 40, "scripted", ("code", "furniture"))
        # The furniture's lines stay out, code or not.
        in_footer = denoise([units[0], units[1]._replace(furniture=True), units[2]], None, scripted, 40, "scripted", ("code", "furniture"))
    # The code is given as the page sets it out, line breaks and indents kept.
    assert [(d.text, d.outcome) for d in decisions] == [(LONG, KEPT), (code, CODE), (PARAGRAPH, KEPT)]
    assert [d.text for d in in_footer] == [LONG, "", PARAGRAPH]


def test_a_code_sample_between_the_paragraphs_of_a_manual_is_extracted_as_set_out():
    from webclean import extract

    prose = "To give the database a port of its own on the host, map it in the service's ports. "
    page = (
        "<html><body><nav><a href='/'>Home</a> <a href='/docs'>Docs</a></nav><main><h1>Networking in Compose</h1>"
        f"<p>{prose * 3}</p><pre><code>\n    services:\n      db:\n        image: postgres:18  \n\n"
        "        ports:\n          - '8001:5432'\n</code></pre>"
        f"<p>{prose * 2}</p></main><footer>© Docs</footer></body></html>"
    )
    assert "\nservices:\n  db:\n    image: postgres:18\n\n    ports:\n      - '8001:5432'\n" in extract(page).text


def test_prose_keeps_the_blocks_paragraphs_when_nothing_else_is_kept():
    reply = "I was concerned with implicit clones as well, but the proposal keeps them explicit where it matters, and async code needs them."
    units = [
        line_unit("kkiri 1 year ago", "link"),
        line_unit(reply),
        line_unit(PARAGRAPH)._replace(furniture=True),
        line_unit(LONG)._replace(region=1),
        line_unit(LONG)._replace(post=-1),
        line_unit("Reply", "link"),
    ]
    assert bare_prose(units) == [False, True, False, False, False, False]

    def run(values, passes):
        scripted = ValuesByText({"kkiri 1 year ago": -2.0, reply: -0.3, PARAGRAPH: -1.0, LONG: -1.0, "Reply": -2.0, **values})
        with pytest.MonkeyPatch.context() as patch:
            patch.setitem(FEATURE_SETS, "scripted", scripted.rows)
            patch.setitem(FEATURE_WIDTHS, "scripted", 1)
            return denoise(units, None, scripted, 40, "scripted", passes)

    assert not any(d.text for d in run({}, ("furniture",)))
    assert [(d.text, d.outcome) for d in run({}, ("furniture", "prose")) if d.text] == [(reply, PROSE)]
    # A page with a line kept is left as the decisions made it.
    some = run({LONG: 1.0}, ("furniture", "prose"))
    assert PROSE not in [d.outcome for d in some] and any(d.text for d in some)



def test_prose_keeps_the_blocks_sentences_where_it_holds_no_paragraph():
    sentence = line_unit("Lorem ipsum dolor sit amet, consectetur adipiscing elit.")
    units = [
        sentence,
        line_unit("Price: 20 EUR incl. VAT and shipping to the whole EU"),
        line_unit("Add this lovely item to your shopping cart now.", "link"),
        line_unit("Sign up for our newsletter and get ten percent off."),
        sentence._replace(furniture=True),
    ]
    assert bare_prose(units) == [True, False, False, False, False]
    # Where the block holds a paragraph of prose, its sentences are left to the decisions.
    paragraph = line_unit(LONG + " " + LONG)
    assert bare_prose([paragraph, sentence]) == [True, False]


COMMENT_GROUP = GROUP_BIT["comment"]


def test_comments_under_an_article_are_dropped_with_its_posts_and_a_forums_kept():
    reply = line_unit("Great write-up, thanks. I ran into the same problem with my own setup last winter.")._replace(groups=COMMENT_GROUP)
    who = line_unit("jane_doe", "link")._replace(groups=COMMENT_GROUP)
    article = [line_unit(PARAGRAPH) for _ in range(ARTICLE_CHARS // len(PARAGRAPH) + 1)]
    units = [*article, line_unit("3 comments", "heading"), who, reply]
    kept = [u.text for u in units]
    assert comment_boxes(units, kept) == [False] * (len(article) + 1) + [True, True]
    # A page whose text sits in such boxes (a thread whose engine names its posts so) keeps it.
    boxed = [line_unit(PARAGRAPH), *(unit._replace(groups=COMMENT_GROUP) for unit in article[1:]), reply]
    assert not any(comment_boxes(boxed, [u.text for u in boxed]))
    # Comments located as a thread's posts go too, under an article kept outside them ...
    posted = [*article, reply._replace(post=1)]
    assert comment_boxes(posted, [u.text for u in posted]) == [False] * len(article) + [True]
    # ... and a forum whose engine names its posts so keeps them all, its first post among them.
    thread = [*(unit._replace(post=1) for unit in boxed), reply._replace(post=1)]
    assert not any(comment_boxes(thread, [u.text for u in thread]))
    # A short post under its comments: the box to write one says they are a blog's.
    short = [line_unit("A picture of the harbour at dawn."), who, reply]
    short_kept = [u.text for u in short]
    assert not any(comment_boxes(short, short_kept))
    assert comment_boxes(short, short_kept, lambda: True) == [False, True, True]
    assert not any(comment_boxes(short, [None, *short_kept[1:]], lambda: True))
    # What the decisions dropped stays dropped, and is not the pass's; nor does it count.
    assert comment_boxes(units, [*kept[:-1], None]) == [False] * (len(article) + 1) + [True, False]
    assert not any(comment_boxes(units, [None] * len(article) + kept[len(article) :]))


def test_the_lines_under_a_comment_sections_heading_are_dropped():
    article = [line_unit(PARAGRAPH) for _ in range(ARTICLE_CHARS // len(PARAGRAPH) + 1)]
    comment = line_unit("I ran into the same problem with my own setup last winter, thanks for writing it up.")
    for name in ("Comments", "12 Comments", "Post a Comment", "Leave a Reply", "3 thoughts on “The harbour”", "网友评论"):
        units = [*article, line_unit(name, "heading"), line_unit("jane_doe"), comment]
        kept = [u.text for u in units]
        assert comments_heading(units, kept) == len(article), name
        assert comment_boxes(units, kept) == [False] * (len(article) + 1) + [True, True], name
        # What the decisions dropped stays dropped, and is not the pass's.
        assert comment_boxes(units, [*kept[:-1], None]) == [False] * (len(article) + 1) + [True, False]
    # A link to the comments (a byline's "4 Comments") and a comment's button are no heading.
    for line in (line_unit("4 Comments", "link"), line_unit("Reply")):
        units = [*article, line, comment]
        assert comments_heading(units, [u.text for u in units]) is None
    # Too little text kept before it: the heading of a short post's comments, or above the text.
    heading = line_unit("Comments", "heading")
    for units in ([line_unit(PARAGRAPH), heading, comment], [heading, *article]):
        assert comments_heading(units, [u.text for u in units]) is None
    assert comments_heading([*article, heading, comment], [None] * len(article) + [heading.text, comment.text]) is None
    # A manual's section on comments in code shows code under its heading, and stays.
    code = line_unit("// a comment runs to the end of the line")._replace(code="// a comment runs to the end of the line")
    manual = [*article, heading, line_unit("A comment is text the compiler skips."), code, line_unit("Operators", "heading")]
    assert comments_heading(manual, [u.text for u in manual]) is None
    # A page of posts, each under its count, keeps them.
    posts = [unit for count in ("2 Comments", "5 Comments", "No Comments") for unit in (*article, line_unit(count, "heading"))]
    assert comments_heading(posts, [u.text for u in posts]) is None
    # Comments located as a thread's posts are under the heading too.
    thread = [*article, heading, comment._replace(post=1), line_unit("Posted by: Jeff at 8:01 AM")._replace(post=-1)]
    assert comment_boxes(thread, [u.text for u in thread]) == [False] * (len(article) + 1) + [True, True]


def test_an_articles_comment_section_is_not_extracted():
    from webclean import Config, extract
    from webclean.explain import explain

    story = "The council voted on Tuesday to keep the library open on Sundays, after a petition signed by four thousand residents. "
    comments = [
        "I grew up two streets from that library and it is wonderful news for the families who still use it every week.",
        "Finally some good news from the council. My kids will be thrilled, they practically live in the reading room on weekends.",
    ]
    page = (
        "<html><body><div id='main'><h1>Library stays open on Sundays</h1>"
        + "".join(f"<p>{story * 2}</p>" for _ in range(5))
        + "<div id='comments'><h3>2 comments</h3><ol class='comment-list'>"
        + "".join(f"<li class='comment'><p><a href='/u'>reader{i}</a> says:</p><p>{c}</p></li>" for i, c in enumerate(comments))
        + "</ol></div></div></body></html>"
    )
    text = extract(page).text
    assert story.strip() in text and not any(comment in text for comment in comments)
    # A corpus that wants the discussion too keeps them.
    with_comments = extract(page, config=Config().with_overrides(["denoise.comments=true"])).text
    assert story.strip() in with_comments and all(comment in with_comments for comment in comments)
    # A forum's page keeps its replies, whatever their boxes are named.
    from_forum = extract(page, "https://forum.example.org/t/library-sundays/42").text
    assert all(comment in from_forum for comment in comments)
    assert not any(comment in extract(page, "https://news.example.org/library-sundays").text for comment in comments)
    assert all(not unit.kept for unit in explain(page).units if unit.text in comments)


def test_a_forums_paragraphs_of_prose_are_kept_whatever_the_classifier_said():
    reply = line_unit(PARAGRAPH)
    assert is_prose(reply.length, reply.link_ratio)
    short = line_unit("Thanks, that worked for me.")
    # Dropped or cut by the classifier, in the block, outside furniture and records: kept.
    units = [reply, reply, short, reply._replace(region=-1), reply._replace(furniture=True), reply._replace(post=-1), reply]
    kept = [None, PARAGRAPH[:40], None, None, None, None, None]
    by_pass = [None] * 6 + [NOTICE]  # what a pass decided stays decided
    assert forum_prose(units, kept, by_pass) == [True, True, False, False, False, False, False]
    assert not any(forum_prose([reply, reply._replace(post=1)], [PARAGRAPH, PARAGRAPH], [None, None]))
    # A comment box's paragraph is a post where no thread was found, not beside found posts.
    comment = reply._replace(groups=COMMENT_GROUP)
    assert forum_prose([comment], [None], [None]) == [True]
    assert forum_prose([reply._replace(post=1), comment], [PARAGRAPH, None], [None, None]) == [False, False]
    scripted = ValuesByText({PARAGRAPH: -0.8, short.text: -0.5})
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(FEATURE_SETS, "scripted", scripted.rows)
        patch.setitem(FEATURE_WIDTHS, "scripted", 1)
        on_forum = denoise([reply, short], None, scripted, 40, "scripted", ("forum_prose",))
        elsewhere = denoise([reply, short], None, scripted, 40, "scripted", ())
    assert [(d.text, d.outcome) for d in on_forum] == [(PARAGRAPH, FORUM_POST), ("", "dropped")]
    assert [d.text for d in elsewhere] == ["", ""]


def test_only_a_forums_page_runs_the_pass_forum_prose(monkeypatch: pytest.MonkeyPatch):
    import inspect
    import sys

    from webclean import extract

    module = sys.modules["webclean.extract"]
    real = module.denoise
    passes: list[tuple[str, ...]] = []

    def spy(*args, **kwargs):
        passes.append(inspect.signature(real).bind(*args, **kwargs).arguments["smoothing"])
        return real(*args, **kwargs)

    monkeypatch.setattr(module, "denoise", spy)
    page = f"<html><body><div><h1>Which tent for a first trip?</h1><p>{PARAGRAPH}</p><p>{PARAGRAPH}</p></div></body></html>"
    extract(page, "https://forum.example.org/t/which-tent/42")
    extract(page, "https://news.example.org/which-tent")
    extract(page)
    assert ["forum_prose" in used for used in passes] == [True, False, False]
    assert ["comments" in used for used in passes] == [False, True, True]


def test_a_shops_reviews_go_as_its_comments_and_a_critics_review_stays():
    from webclean import extract

    description = (
        "The kettle boils a litre of water in three minutes and switches itself off when it is done. "
        "Its steel body keeps the heat in, and the base turns all the way round, so it suits either hand. "
    )
    reviews = [
        "Bought it for my mother, she loves it and says it is much quieter than her old one.",
        "Stopped working after two months, and the seller never answered my e-mails about a refund.",
    ]
    records = "".join(
        f"<li class='review'><p><a href='/u/{i}'>buyer{i}</a> rated it {5 - i} stars</p><p>{r}</p></li>" for i, r in enumerate(reviews)
    )
    page = (
        "<html><body><div class='product'><h1>Steel kettle, 1.7 litres</h1>"
        + "".join(f"<p>{description}</p>" for _ in range(4))
        + f"<div id='customer-reviews'><h3>What buyers say</h3><ul>{records}</ul></div></div></body></html>"
    )
    text = extract(page).text
    assert description.strip() in text and not any(review in text for review in reviews)
    # A critic's article in a box named for one review, or posts that WordPress files under
    # the subject "reviews", are the page's text.
    for name in ("review-body", "category-reviews"):
        story = page.replace("id='customer-reviews'", f"class='{name}'")
        assert all(review in extract(story).text for review in reviews), name


STORY_LINE = (
    "The ferry between the two islands will run every hour from May, the harbour board said on Monday, after a year of"
    " delays and two changes of operator."
)
TEASER_LINE = (
    "Another story from the same site, summarised at such length under its headline that it reads like a paragraph of"
    " prose to the eye."
)


def _block_units(inner: str) -> list:
    body = parse_html(f"<html><body><div id='main'>{inner}</div></body></html>").find("body")
    return line_units(segment(body), body.find("div"))


def test_the_lines_past_the_box_of_the_text_are_marked():
    story = "<div class='story'><h1>Ferry every hour</h1>" + f"<p>{STORY_LINE}</p>" * 5 + "</div>"
    share = "<div class='bar'>" + "".join(f"<a href='/s{k}'>Share on network {k}</a><br>" for k in range(5)) + "</div>"
    more = "<div class='more'><h3>More from the site</h3>" + f"<p>{TEASER_LINE}</p>" * 2 + "</div>"
    units = _block_units(story + share + more)
    assert [u.past_core for u in units] == [False] * 6 + [True] * 8
    # A table is no such box: a table of prose and the references under it hold together.
    table = "<table>" + f"<tr><td>{STORY_LINE}</td></tr>" * 5 + "</table><h2>References</h2><ol><li>A book, 1999.</li></ol>"
    assert not any(u.past_core for u in _block_units(table))
    # A block with little prose has no such box.
    assert not any(u.past_core for u in _block_units(f"<div><p>{STORY_LINE}</p></div><div><p>{TEASER_LINE}</p></div>"))
    # Nor do the lines of a thread located as its posts, or of the block's margins.
    body = parse_html(f"<html><body><div>{story}{more}</div></body></html>").find("body")
    assert not any(u.past_core for u in line_units(segment(body), body.find("div"), posts=(set(), set())))
    assert not any(u.past_core for u in line_units(segment(body), body.find("div"), region=1))


def test_past_core_drops_what_follows_the_text_past_a_gap():
    story = "<div class='story'><h1>Ferry every hour</h1>" + f"<p>{STORY_LINE}</p>" * 5 + "</div>"
    links = "<div class='bar'>" + "".join(f"<a href='/s{k}'>Share on network {k}</a><br>" for k in range(CORE_GAP)) + "</div>"
    more = "<div class='more'><h3>More from the site</h3>" + f"<p>{TEASER_LINE}</p>" * 2 + "</div>"
    units = _block_units(story + links + more)
    kept = [None if u.link_ratio == 1.0 else u.text for u in units]
    assert past_core(units, kept) == [False] * (6 + CORE_GAP) + [True] * 3
    # A section that follows the text closely is kept: one line of the gap kept.
    closer = [*kept[:6], units[6].text, *kept[7:]]
    assert not any(past_core(units, closer))
    # Where no paragraph of prose is kept before the gap, what follows is the text.
    assert not any(past_core(units, [None] * (6 + CORE_GAP) + kept[6 + CORE_GAP :]))
    assert not any(past_core(units, [units[0].text, *[None] * (5 + CORE_GAP), *kept[6 + CORE_GAP :]]))


def test_author_boxes_drop_the_box_about_the_author_after_the_text():
    author = GROUP_BIT["author"]
    byline = line_unit("By Jane Doe, transport correspondent")._replace(groups=author)
    story = [line_unit(PARAGRAPH) for _ in range(3)]
    bio = [line_unit("About Jane Doe", "heading"), line_unit("Jane Doe covers transport and the harbour for the paper.")]
    bio = [unit._replace(groups=author) for unit in bio]
    units = [byline, *story, *bio]
    kept = [u.text for u in units]
    # The byline above the text stays; the box after it goes.
    assert author_boxes(units, kept) == [False] * 4 + [True, True]
    # What the decisions dropped is not the pass's.
    assert author_boxes(units, [*kept[:-1], None]) == [False] * 4 + [True, False]
    # A page whose article sits in a box so named keeps it: the box holds more than the text before it.
    boxed = [line_unit(PARAGRAPH), *(unit._replace(groups=author) for unit in story)]
    assert not any(author_boxes(boxed, [u.text for u in boxed]))
    # A page with no paragraph of prose outside such boxes has no text to follow.
    assert not any(author_boxes(bio, [u.text for u in bio]))
