"""Step 4 (webclean.denoise): what becomes of each unit, and why."""

import numpy as np
import pytest
from scripted import PARAGRAPH, ValuesByText, line_unit

from webclean.config import DenoiseConfig
from webclean.denoise import DROPPED, KEPT, PARTLY_KEPT, POST, denoise
from webclean.features import FEATURE_SETS, FEATURE_WIDTHS
from webclean.passes import FURNITURE, REPEAT

SETTINGS = DenoiseConfig()


def test_denoise_says_what_became_of_each_unit_and_why():
    values = {PARAGRAPH: 2.0, "Home": 0.5, "（责任编辑：张三）": -0.5, "A reply in the thread": -1.0}
    scripted = ValuesByText(values)
    units = [line_unit(PARAGRAPH), line_unit("Home", "link")._replace(furniture=True), line_unit("（责任编辑：张三）"), line_unit("A reply in the thread")._replace(post=1)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(FEATURE_SETS, "scripted", scripted.rows)
        patch.setitem(FEATURE_WIDTHS, "scripted", 1)
        decisions = denoise(units, None, scripted, SETTINGS, "scripted", ("furniture",), values=True)
        without_values = denoise(units, None, scripted, SETTINGS, "scripted", ("furniture",))
    # A line of the page's furniture the classifier keeps is the pass's to drop, one it
    # drops is its own; a post's text is kept whatever the classifier says.
    assert decisions == [
        (PARAGRAPH, KEPT, 2.0, 2.0),
        ("", FURNITURE, 0.5, None),
        ("", DROPPED, -0.5, None),
        ("A reply in the thread", POST, -1.0, None),
    ]
    # Without values asked for, a decision carries the value of a unit classified whole on
    # the way; the long paragraph, decided sentence by sentence (Step 4), has none, but
    # the value of the sentence that decided it.
    assert without_values == [(PARAGRAPH, KEPT, None, 2.0), *decisions[1:]]


def _by_sentence(unit_text: str, values: dict[str, float]):
    """denoise of one long unit by a classifier that scores each sentence by its text."""
    scripted = ValuesByText(values)

    def rows(units, texts, lexicon):
        return np.array([[float(scripted.texts.index(sentence))] for sentence in texts])

    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(FEATURE_SETS, "scripted", rows)
        patch.setitem(FEATURE_WIDTHS, "scripted", 1)
        return denoise([line_unit(unit_text)], None, scripted, DenoiseConfig(beta=10), "scripted", ())[0]


def test_a_long_unit_carries_the_value_of_the_sentence_that_decided_it():
    # The noise filter drops the last sentence and keeps the one before it, and with it
    # the rest of the unit.
    first, second, third = "The storm reached the coast on Monday night.", "Roads were closed.", "Share this story."
    kept = _by_sentence(f"{first} {second} {third}", {third: -0.4, second: 0.7, first: 1.5})
    assert kept == (f"{first} {second}", PARTLY_KEPT, None, 0.7)
    # Where no sentence was kept: the best of them.
    dropped = _by_sentence(f"{second} {third}", {third: -0.4, second: -0.2})
    assert dropped == ("", DROPPED, None, -0.2)


def test_a_unit_is_classified_whole_once_when_its_values_are_asked():
    # The values of --explain read the decisions already made of the lines classified
    # whole instead of classifying them again.
    values = {"Storm hits the coast": 1.2, PARAGRAPH: 2.0, "Share this story": 0.2, "A bio of the author": 0.6}
    scripted = ValuesByText(values)
    units = [line_unit("Storm hits the coast")._replace(region=-1), *map(line_unit, list(values)[1:])]
    asked: list[str] = []

    def rows(units, texts, lexicon):
        asked.extend(texts)
        return scripted.rows(units, texts, lexicon)

    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(FEATURE_SETS, "scripted", rows)
        patch.setitem(FEATURE_WIDTHS, "scripted", 1)
        decisions = denoise(units, None, scripted, SETTINGS, "scripted", (), values=True)
    assert [d.value for d in decisions] == [1.2, 2.0, 0.2, 0.6]
    short = [text for text in values if len(text) <= SETTINGS.beta]
    assert sorted(text for text in asked if text in short) == sorted(short)


def test_the_passes_judge_a_posts_lines_as_any_kept_line():
    # A reply that shows the post it answers again (the layout's copy of a kept line) is
    # a copy there too: the pass repeats drops it, though a post's text is otherwise kept
    # whatever the classifier says.
    question = "How do I reset the router without losing the settings?"
    values = {question: -1.0, "Hold the button for five seconds.": -1.0}
    scripted = ValuesByText(values)
    units = [line_unit(question)._replace(post=1), line_unit(question)._replace(post=1, copy=1), line_unit("Hold the button for five seconds.")._replace(post=1)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(FEATURE_SETS, "scripted", scripted.rows)
        patch.setitem(FEATURE_WIDTHS, "scripted", 1)
        decisions = denoise(units, None, scripted, SETTINGS, "scripted", ("repeats",))
        without = denoise(units, None, scripted, SETTINGS, "scripted", ())
    assert [d[:2] for d in decisions] == [(question, POST), ("", REPEAT), ("Hold the button for five seconds.", POST)]
    assert [d.text for d in without] == [question, question, "Hold the button for five seconds."]
