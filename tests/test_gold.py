"""webclean.gold: labels from a gold text, and from other extractors' texts of a page."""

from __future__ import annotations

import pytest

from webclean.classifier import CONTENT, NOISE
from webclean.config import Config, ConfigError, GoldConfig, WeakConfig
from webclean.datasets import Page
from webclean.gold import MIXED, GoldMatcher, PeerVotes

GOLD = (
    "The river rose two metres overnight and flooded the lower town.\n"
    "Volunteers filled sandbags along the quay until dawn, and the fire brigade pumped water out of "
    "forty cellars on the market square before the shops opened in the morning."
)


@pytest.fixture
def full_gold() -> GoldMatcher:
    return GoldMatcher(Page(id="1", source="t", url=None, lang="en", html="", text=GOLD))


def test_text_found_in_the_gold_is_content(full_gold):
    assert full_gold.label("The river rose two metres overnight and flooded the lower town.") == CONTENT


def test_matching_ignores_case_space_and_punctuation(full_gold):
    assert full_gold.label("the river  rose two-metres overnight, and flooded the LOWER town") == CONTENT


def test_text_almost_in_the_gold_is_content(full_gold):
    # One word differs (a typo fixed on the page): most of its n-grams are still in the gold.
    edited = (
        "Volunteers filled sandbags along the quay until dawn, and the fire brigade pumped water out of "
        "fourty cellars on the market square before the shops opened in the morning."
    )
    assert full_gold.label(edited) == CONTENT


def test_text_not_in_the_gold_is_noise(full_gold):
    assert full_gold.label("Subscribe to our newsletter for weekly updates") == NOISE
    assert full_gold.label("Home") == NOISE


def test_half_gold_half_other_is_mixed(full_gold):
    text = "The river rose two metres overnight and flooded the lower town. Subscribe to our newsletter for weekly updates and offers"
    assert full_gold.label(text) == MIXED


def test_text_without_word_characters_is_left_out(full_gold):
    assert full_gold.label("") == MIXED
    assert full_gold.label(" | » — ") == MIXED


@pytest.fixture
def snippets() -> GoldMatcher:
    page = Page(
        id="2",
        source="t",
        url=None,
        lang="en",
        html="",
        text="The ferry returns in June",
        gold_type="snippets",
        with_snippets=("The ferry returns in June",),
        without_snippets=("Sign up for our newsletter",),
    )
    return GoldMatcher(page)


def test_snippet_page_content(snippets):
    assert snippets.label("The ferry returns in June") == CONTENT
    assert snippets.label("After two years of repairs the ferry returns in June, the harbour authority said.") == CONTENT


def test_snippet_page_noise(snippets):
    assert snippets.label("Sign up for our newsletter") == NOISE
    assert snippets.label("Sign up for our newsletter today and get ten percent off") == NOISE


def test_snippet_page_unknown_text_is_left_out(snippets):
    # On a snippets page only what a snippet names is known: the rest is neither.
    assert snippets.label("Weather: sunny, 21 degrees, light wind from the west") == MIXED


# --- weak labels: the agreement of other extractors' texts ------------------------

FERRY = "After two years of repairs the ferry returns in June, the harbour authority said."
WEATHER = "Weather: sunny, 21 degrees, light wind from the west"


def test_peer_votes_count_the_texts_that_hold_a_unit():
    votes = PeerVotes([f"Headline\n{FERRY}", f"{FERRY} More text after it.", "Something else entirely"])
    assert votes.count("afterTwoYearsOfRepairs".lower()) == 2  # a part of a line, long enough
    assert votes.count("headline") == 1  # a whole line
    assert votes.count("nothing") == 0
    assert len(votes) == 3


def test_peer_votes_do_not_find_a_short_unit_inside_a_paragraph():
    # "more" is in the second text only as a part of a line: by chance, not as a line of its own.
    votes = PeerVotes(["More", f"{FERRY} More text after it."])
    assert votes.count("more") == 1


def _snippet_page(peers: dict[str, str]) -> Page:
    return Page.from_json(
        {
            "id": "3",
            "html": "",
            "text": "The ferry returns in June",
            "gold_type": "snippets",
            "with": ["The ferry returns in June"],
            "without": ["Sign up for our newsletter"],
            "peers": peers,
        }
    )


@pytest.fixture
def peered() -> GoldMatcher:
    peers = {
        "a": f"{FERRY}\nThe mayor opened the new quay.\nSign up for our newsletter",
        "b": f"{FERRY}\nThe mayor opened the new quay.",
        "c": f"{FERRY}\nThe mayor opened the new quay.\nShare\nSign up for our newsletter",
        "d": "Sign up for our newsletter\nShare",
    }
    return GoldMatcher(_snippet_page(peers), WeakConfig(min_peers=3, content_votes=3, noise_votes=0))


def test_a_unit_most_peers_hold_is_content(peered):
    assert peered.label("The mayor opened the new quay.") == CONTENT


def test_a_unit_no_peer_holds_is_noise(peered):
    assert peered.label(WEATHER) == NOISE


def test_a_unit_some_peers_hold_is_left_out(peered):
    assert peered.label("Share") == MIXED  # two of four


def test_the_snippets_decide_before_the_peers(peered):
    # Three of the four peers keep the newsletter line, which the gold names as noise.
    assert peered.label("Sign up for our newsletter") == NOISE
    assert peered.label("The ferry returns in June") == CONTENT


def test_too_few_peer_texts_give_no_weak_label():
    page = _snippet_page({"a": "The mayor opened the new quay.", "b": "The mayor opened the new quay."})
    matcher = GoldMatcher(page, WeakConfig(min_peers=3))
    assert matcher.label("The mayor opened the new quay.") == MIXED
    assert matcher.label(WEATHER) == MIXED


def test_without_a_weak_configuration_peers_are_ignored():
    page = _snippet_page({name: "The mayor opened the new quay." for name in "abc"})
    assert GoldMatcher(page).label(WEATHER) == MIXED


def test_a_full_gold_is_not_overruled_by_peers():
    page = Page.from_json({"id": "4", "html": "", "text": GOLD, "peers": {n: WEATHER for n in "abc"}})
    matcher = GoldMatcher(page, WeakConfig())
    assert page.has_full_gold
    assert matcher.label(WEATHER) == NOISE


def test_a_page_with_peers_and_no_gold_is_weak():
    page = Page.from_json({"id": "5", "html": "<p>x</p>", "peers": {"a": "x", "b": "x", "c": "x"}})
    assert page.gold_type == "weak"
    assert not page.has_full_gold
    assert page.peers == (("a", "x"), ("b", "x"), ("c", "x"))
    with pytest.raises(ValueError, match="peers"):
        Page.from_json({"id": "6", "html": "", "peers": ["a text"]})


def test_weak_votes_must_leave_room_between_noise_and_content():
    with pytest.raises(ConfigError, match="noise_votes"):
        Config().with_overrides(["weak.noise_votes=3", "weak.content_votes=3"])


def test_how_much_of_a_unit_the_gold_holds_is_a_setting():
    page = Page(id="1", source="t", url=None, lang="en", html="", text=GOLD)
    edited = GOLD.splitlines()[1].replace("forty", "fourty")
    assert GoldMatcher(page).label(edited) == CONTENT
    assert GoldMatcher(page, gold=GoldConfig(content_share=0.99)).label(edited) == MIXED
    other = "Subscribe to our newsletter for weekly updates"
    assert GoldMatcher(page, gold=GoldConfig(noise_share=0.0)).label(other) == NOISE  # no n-gram in the gold
    # The configuration a training run holds, as --set gives it.
    strict = Config().with_overrides(["gold.content_share=0.99"])
    assert GoldMatcher(page, strict.weak, strict.gold).label(edited) == MIXED
