"""The passes of method svm after the classifier (webclean.passes): what the page's structure decides."""

from dataclasses import replace

import pytest
from scripted import LONG, PARAGRAPH, ValuesByText, line_unit

from webclean.config import DenoiseConfig, ItemsConfig, LinesConfig
from webclean.denoise import denoise
from webclean.features import FEATURE_SETS, FEATURE_WIDTHS
from webclean.line_features import line_units, link_runs, section_text
from webclean.parse import parse_html
from webclean.passes import FURNITURE, ITEM, PASSES, REPEAT, check_passes, comment_boxes, copies, items, teaser_heads
from webclean.registry import classifier_spec
from webclean.segment import GROUP_BIT, segment

SETTINGS = DenoiseConfig()
ITEMS = ItemsConfig()
ARTICLE_CHARS = SETTINGS.article_chars
COMMENT_GROUP = GROUP_BIT["comment"]


def STORY() -> bool:
    return True


def NO_STORY() -> bool:
    return False


def test_method_svm_runs_the_four_passes_and_paper_none():
    assert classifier_spec("svm").passes == PASSES == ("repeats", "furniture", "comments", "items")
    assert classifier_spec("paper").passes == ()


def test_an_unknown_pass_is_an_error():
    check_passes(PASSES)
    with pytest.raises(ValueError, match="unknown passes"):
        check_passes(("link_runs",))
    with pytest.raises(ValueError, match="unknown passes"):
        denoise([line_unit(LONG)], None, None, SETTINGS, "paper", ("notices",))


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
    kept: list[str | None] = [u.text for u in units]
    # The shop's description again in its tabs goes; a refrain within its poem stays.
    assert copies(units, kept) == [False, False, False, True, True, False, False, False]
    # A copy stays when its first was dropped: the text is then kept once.
    kept[1] = None
    assert copies(units, kept)[3:5] == [False, True]
    scripted = ValuesByText({u.text: 1.0 for u in units})
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(FEATURE_SETS, "scripted", scripted.rows)
        patch.setitem(FEATURE_WIDTHS, "scripted", 1)
        decisions = denoise(units, None, scripted, SETTINGS, "scripted", ("repeats",))
    assert [d.outcome for d in decisions][3:5] == [REPEAT, REPEAT]


def test_a_line_repeated_alone_in_other_elements_is_no_copy():
    # Each card's fine print: the same line in each card, between lines that differ.
    terms = "Cannot be combined with other offers. Valid at participating locations only."
    cards = "".join(f"<div class='card'><h3>{n} off any repair</h3><p>{terms}</p><p>Expires {n} May</p></div>" for n in (10, 20, 30))
    units = line_units(segment(parse_html(f"<html><body>{cards}</body></html>").find("body")))
    assert [u.text for u in units].count(terms) == 3
    assert all(u.copy == 0 for u in units)


def test_furniture_drops_the_kept_lines_of_a_footer_whatever_kept_them():
    about = "We are a small team writing about bicycles and the roads they ride on since 2005."
    units = [line_unit(LONG), line_unit(about)._replace(furniture=True), line_unit("Home", "link")._replace(furniture=True)]
    scripted = ValuesByText({LONG: 2.0, about: 1.5, "Home": -1.0})
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(FEATURE_SETS, "scripted", scripted.rows)
        patch.setitem(FEATURE_WIDTHS, "scripted", 1)
        before = denoise(units, None, scripted, SETTINGS, "scripted", ())
        decisions = denoise(units, None, scripted, SETTINGS, "scripted", ("furniture",))
    assert [d.text for d in before] == [LONG, about, ""]
    # The line the classifier kept is the pass's; the one it dropped stays its own.
    assert [(d.text, d.outcome) for d in decisions] == [(LONG, "kept"), ("", FURNITURE), ("", "dropped")]


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


def test_comments_under_an_article_are_dropped_with_its_posts_and_a_forums_kept():
    reply = line_unit("Great write-up, thanks. I ran into the same problem with my own setup last winter.")._replace(groups=COMMENT_GROUP)
    who = line_unit("jane_doe", "link")._replace(groups=COMMENT_GROUP)
    article = [line_unit(PARAGRAPH) for _ in range(ARTICLE_CHARS // len(PARAGRAPH) + 1)]
    units = [*article, line_unit("Discussion", "heading"), who, reply]
    kept = [u.text for u in units]
    assert comment_boxes(units, kept, ARTICLE_CHARS) == [False] * (len(article) + 1) + [True, True]
    # A page whose text sits in such boxes (a thread whose engine names its posts so) keeps it.
    boxed = [line_unit(PARAGRAPH), *(unit._replace(groups=COMMENT_GROUP) for unit in article[1:]), reply]
    assert not any(comment_boxes(boxed, [u.text for u in boxed], ARTICLE_CHARS))
    # Comments located as a thread's posts go too, under an article kept outside them ...
    posted = [*article, reply._replace(post=1)]
    assert comment_boxes(posted, [u.text for u in posted], ARTICLE_CHARS) == [False] * len(article) + [True]
    # ... and a forum whose engine names its posts so keeps them all, its first post among them.
    thread = [*(unit._replace(post=1) for unit in boxed), reply._replace(post=1)]
    assert not any(comment_boxes(thread, [u.text for u in thread], ARTICLE_CHARS))
    # A short post under its comments: the box to write one says they are a blog's.
    short = [line_unit("A picture of the harbour at dawn."), who, reply]
    short_kept = [u.text for u in short]
    assert not any(comment_boxes(short, short_kept, ARTICLE_CHARS))
    assert comment_boxes(short, short_kept, ARTICLE_CHARS, lambda: True) == [False, True, True]
    assert not any(comment_boxes(short, [None, *short_kept[1:]], ARTICLE_CHARS, lambda: True))
    # What the decisions dropped stays dropped, and is not the pass's; nor does it count.
    assert comment_boxes(units, [*kept[:-1], None], ARTICLE_CHARS) == [False] * (len(article) + 1) + [True, False]
    assert not any(comment_boxes(units, [None] * len(article) + kept[len(article) :], ARTICLE_CHARS))


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
    assert not any(comment in extract(page, "https://news.example.org/library-sundays").text for comment in comments)
    assert all(not unit.kept for unit in explain(page).units if unit.text in comments)
    # A corpus that wants the discussion too, and a forum's page, leave the comments to
    # the classifier, with no evidence against them in the name of their box (a
    # forum's address also tells the page type, which the trees read).
    default = {unit.text: unit for unit in explain(page).units}
    wanted = {unit.text: unit for unit in explain(page, config=Config().with_overrides(["denoise.comments=true"])).units}
    forum = explain(page, "https://forum.example.org/t/library-sundays/42")
    # The premise: the packaged page type model types this page at a forum's address a forum.
    assert forum.page_type == "forum", "the page type model no longer types the page a forum"
    on_forum = {unit.text: unit for unit in forum.units}
    for comment in comments:
        assert default[comment].outcome == "comment" or default[comment].decision < 0
        assert wanted[comment].outcome != "comment" and wanted[comment].decision > default[comment].decision
        assert on_forum[comment].outcome != "comment"


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


def test_a_forums_page_keeps_its_comment_boxes_and_a_corpus_may_ask_for_them(monkeypatch: pytest.MonkeyPatch):
    import inspect
    import sys

    from webclean import Config, extract
    from webclean.model import default_model

    module = sys.modules["webclean.extract"]
    real = module.denoise
    used: list[tuple[str, ...]] = []

    def spy(*args, **kwargs):
        used.append(tuple(inspect.signature(real).bind(*args, **kwargs).arguments["passes"]))
        return real(*args, **kwargs)

    monkeypatch.setattr(module, "denoise", spy)
    page = f"<html><body><div><h1>Which tent for a first trip?</h1><p>{PARAGRAPH}</p><p>{PARAGRAPH}</p></div></body></html>"
    # Without a page type model, the address tells a forum.
    untyped = replace(default_model(), page_types=None)
    extract(page, "https://forum.example.org/t/which-tent/42", model=untyped)
    extract(page, "https://news.example.org/which-tent", model=untyped)
    extract(page, config=Config().with_overrides(["denoise.comments=true"]), model=untyped)
    assert ["comments" in passes for passes in used] == [False, True, False]
    assert all(set(passes) >= {"repeats", "furniture", "items"} for passes in used)
    # With one, the page's type does.
    used.clear()
    types = [extract(page, url).page_type for url in ("https://forum.example.org/t/which-tent/42", "https://news.example.org/which-tent")]
    assert ["comments" in passes for passes in used] == [kind != "forum" for kind in types]


def test_a_run_of_links_and_the_text_of_a_section_are_the_lines_context():
    page = (
        "<html><body><h2>Latest</h2><a href='/a'>One story</a><br><a href='/b'>Another story</a><br>"
        f"<a href='/c'>A third</a><h2>The story</h2><p>{LONG}</p><p>See <a href='/d'>this</a> too</p></body></html>"
    )
    units = line_units(segment(parse_html(page).find("body")))
    assert [u.text for u in units][:4] == ["Latest", "One story", "Another story", "A third"]
    assert [u.link_run for u in units] == [0, 3, 3, 3, 0, 0, 0]
    # A heading over links heads no text outside links; one over a paragraph heads it.
    assert [u.section_text for u in units][:4] == [0, 0, 0, 0]
    assert units[4].section_text == units[5].section_text > len(LONG) - LONG.count(" ")
    # A long all-link line is no part of a run.
    assert link_runs(["link", "link", "link"], [5, 500, 5]) == [1, 0, 1]
    assert section_text(["p", "heading", "p"], [10, 5, 20], [0.0, 0.0, 0.5]) == [10, 10, 10]


ITEM_TITLES = [f"Council approves budget for road number {n}" for n in range(ITEMS.lines + 2)]


def test_items_keep_the_block_of_a_page_whose_decisions_keep_almost_nothing_of_it():
    units = [line_unit("Home", "link")._replace(region=-1), *(line_unit(title, "link") for title in ITEM_TITLES)]
    dropped: list[str | None] = [None] * len(units)
    # Every line of the block is taken; the line before it is left to its decision.
    assert items(units, dropped, ITEMS, STORY) == [False] + [True] * len(ITEM_TITLES)
    # A thread's post panels stay dropped.
    panel = [units[0], units[1]._replace(post=-1), *units[2:]]
    assert items(panel, dropped, ITEMS, STORY) == [False, False] + [True] * (len(ITEM_TITLES) - 1)


def test_items_leave_a_block_with_prose_or_with_kept_text_or_with_few_lines():
    units = [line_unit(title, "link") for title in ITEM_TITLES]
    # The decisions keep a twentieth of the block's text or more: an article's block.
    kept = [ITEM_TITLES[0], *[None] * (len(units) - 1)]
    assert not any(items(units, kept, ITEMS, STORY))
    # A fifth of the block's text in lines of prose: the classifier dropped an article.
    prose = "The council met on Monday and approved the budget for the roads of the north. " * 2
    assert len(prose) >= LinesConfig().long_line
    with_prose = [*units, line_unit(prose), line_unit(prose), line_unit(prose)]
    assert not any(items(with_prose, [None] * len(with_prose), ITEMS, STORY))
    # Fewer lines than a list of items holds: an error page, a short notice.
    few = units[: ITEMS.lines - 1]
    assert not any(items(few, [None] * len(few), ITEMS, STORY))


def test_a_page_that_is_no_story_is_a_page_of_items_with_more_of_it_kept():
    units = [line_unit(title, "link") for title in ITEM_TITLES]
    one_kept = [ITEM_TITLES[0], *[None] * (len(units) - 1)]  # a twelfth of the block's text
    asked: list[bool] = []

    def no_story() -> bool:
        asked.append(True)
        return False

    # A shop's category page keeps its intro: still a page of items.
    assert items(units, one_kept, ITEMS, no_story) == [False] + [True] * (len(units) - 1)
    # A story's block that keeps as much is the story's: left as it is.
    assert not any(items(units, one_kept, ITEMS, lambda: True))
    # A sixth of the block kept, in a block with a line of prose: no page of items,
    # whatever the page says.
    prose = "The council met on Monday and approved the budget for the roads of the north. " * 2
    with_prose = [*units, *(line_unit(title, "link") for title in ITEM_TITLES), line_unit(prose)]
    five_kept = [*ITEM_TITLES[:5], *[None] * (len(with_prose) - 5)]
    share = sum(unit.length for unit in with_prose[:5]) / sum(unit.length for unit in with_prose)
    assert ITEMS.list_kept_share < share < ITEMS.bare_kept_share
    assert not any(items(with_prose, five_kept, ITEMS, no_story))
    # In a block without a line of prose a sixth kept is still a list's few lines that
    # look like text; a third kept is not.
    two_kept = [*ITEM_TITLES[:2], *[None] * (len(units) - 2)]
    assert ITEMS.list_kept_share < 2 / len(units) < ITEMS.bare_kept_share
    assert items(units, two_kept, ITEMS, no_story) == [False, False] + [True] * (len(units) - 2)
    four_kept = [*ITEM_TITLES[:4], *[None] * (len(units) - 4)]
    assert 4 / len(units) > ITEMS.bare_kept_share
    assert not any(items(units, four_kept, ITEMS, no_story))
    # Where nothing is kept the question is not asked (it walks the page's tree).
    asked.clear()
    assert all(items(units, [None] * len(units), ITEMS, no_story))
    assert not asked


def test_a_menu_kept_in_the_block_does_not_make_a_page_of_items_an_article():
    # The classifier keeps a footer's lines, which the furniture pass drops whatever
    # kept them: they do not count as the block's text kept.
    footer = [line_unit(f"Contact us at our office number {n}")._replace(furniture=True) for n in range(3)]
    units = [*(line_unit(title, "link") for title in ITEM_TITLES), *footer]
    kept = [None] * len(ITEM_TITLES) + [unit.text for unit in footer]
    assert items(units, kept, ITEMS, STORY) == [True] * len(ITEM_TITLES) + [False] * len(footer)
    # The same lines kept outside the furniture are the block's own text.
    plain = [*units[: len(ITEM_TITLES)], *(unit._replace(furniture=False) for unit in footer)]
    assert not any(items(plain, kept, ITEMS, STORY))


def test_denoise_names_the_lines_a_page_of_items_keeps():
    units = [line_unit(title, "link") for title in ITEM_TITLES]
    scripted = ValuesByText({title: -1.0 for title in ITEM_TITLES})
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(FEATURE_SETS, "scripted", scripted.rows)
        patch.setitem(FEATURE_WIDTHS, "scripted", 1)
        assert [d.text for d in denoise(units, None, scripted, SETTINGS, "scripted", ())] == [""] * len(units)
        decisions = denoise(units, None, scripted, SETTINGS, "scripted", ("items",), story=NO_STORY)
    assert [d.text for d in decisions] == ITEM_TITLES
    assert {d.outcome for d in decisions} == {ITEM}


TEASERS = [
    (
        "Left-handed people are more competitive, a study says",
        "A recent study suggests that left-handed people have an advantage in contests of speed and surprise.",
    ),
    (
        "Sleep apnea often goes undetected in women",
        "Doctors have long looked for the signs that men show, and a new screening test is starting to change that.",
    ),
    (
        "The last mystery of the blood falls is solved",
        "New research sheds light on what drives the reddish water that pours out of the glacier every summer.",
    ),
]


def _feed(pairs: int) -> tuple[list, list[str | None]]:
    units, kept = [], []
    for head, summary in TEASERS[:pairs]:
        units += [line_unit(head, "link"), line_unit(summary), line_unit("Jane Doe")]
        kept += [None, summary, None]
    return units, kept


def test_teaser_heads_keep_the_headlines_of_kept_summaries_on_a_page_that_is_no_story():
    units, kept = _feed(3)
    assert teaser_heads(units, kept, [None] * len(units), ITEMS, NO_STORY) == [True, False, False] * 3
    # On a story the pairs are the feed of other stories after it.
    assert not any(teaser_heads(units, kept, [None] * len(units), ITEMS, STORY))
    # Two pairs are no feed; a headline a pass decided stays as it was.
    few, few_kept = _feed(2)
    assert not any(teaser_heads(few, few_kept, [None] * len(few), ITEMS, NO_STORY))
    by_pass = [FURNITURE, None, None] * 3
    assert teaser_heads(units, kept, by_pass, ITEMS, NO_STORY) == [False] * len(units)
    # A headline whose summary the classifier dropped too makes no pair: two are left.
    unkept = [None if i == 1 else text for i, text in enumerate(kept)]
    assert not any(teaser_heads(units, unkept, [None] * len(units), ITEMS, NO_STORY))
