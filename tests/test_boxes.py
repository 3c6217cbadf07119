"""The names of a line's nearest boxes (webclean.boxes) and the box lexicon that weighs them."""

import math

import pytest

from webclean.boxes import box_words, name_words
from webclean.config import LexiconConfig
from webclean.lexicon import LineCounts, NoiseLexicon, box_keys, build_box_lexicon, build_line_lexicon
from webclean.line_features import RICH_FEATURE_NAMES, line_units, rich_rows
from webclean.parse import parse_html
from webclean.segment import segment


def test_a_name_gives_its_words_camel_case_and_separators_apart():
    assert name_words("postBody related_links-2 x  ARTICLE") == ("post", "body", "related", "links", "article")
    assert name_words("") == ()


def test_a_line_takes_the_words_of_its_three_nearest_named_boxes_owner_first():
    root = parse_html(
        "<html><body><div class='page'><div class='wrap main'><section id='story-body'><div>"
        "<p class='lead'>The first paragraph.</p><p>The second, in no box of its own.</p>"
        "</div></section></div></div></body></html>"
    )
    lead, plain = root.iter("p")
    assert box_words([lead, plain]) == ["lead story body wrap main", "story body wrap main page"]


def test_a_box_word_enters_the_lexicon_by_its_counts_and_sites():
    counts = LineCounts()
    for _ in range(3):
        counts.add_site(["Share"], ["Text"] * 9, noise_boxes=["share bar"] * 10, content_boxes=["article bar"] * 10)
    config = LexiconConfig(box_count=20, line_sites=3)
    boxes = build_box_lexicon(counts, config)
    # share: 30 times in noise, never in text; bar: 30 and 30; article: never noise.
    assert boxes["share"] == pytest.approx(math.log(31 / 1))
    assert boxes["bar"] == pytest.approx(0.0)
    assert "article" not in boxes
    assert all(not key.startswith("@") for key in build_line_lexicon(counts, LexiconConfig(line_sites=1, min_count=1)))
    assert build_box_lexicon(counts, LexiconConfig(box_count=20, line_sites=4)) == {}


def test_a_lines_box_columns_are_the_highest_and_lowest_weights_of_its_words():
    lexicon = NoiseLexicon(words={}, marks={}, boxes={"share": 3.0, "article": -2.0})
    assert lexicon.box_indices(["share article other", "other", ""]) == [(3.0, -2.0), (0.0, 0.0), (0.0, 0.0)]
    assert NoiseLexicon.from_dict(lexicon.to_dict()).boxes == lexicon.boxes
    root = parse_html(
        "<html><body><div class='article'><p>A paragraph of the story.</p></div>"
        "<div class='share-tools'><p>Share this</p></div></body></html>"
    )
    units = line_units(segment(root.find("body")))
    X = rich_rows(units, [u.text for u in units], lexicon)
    high, low = RICH_FEATURE_NAMES.index("box_noise_max"), RICH_FEATURE_NAMES.index("box_noise_min")
    assert X[:, high].tolist() == [-2.0, 3.0]
    assert X[:, low].tolist() == [-2.0, 3.0]


def test_box_keys_are_apart_from_line_keys():
    assert box_keys("share bar") == ["@share", "@bar"]
    assert box_keys("") == []
