"""Step 4 (webclean.denoise): what becomes of each unit, and why."""

import numpy as np
import pytest
from scripted import LONG, PARAGRAPH, ValuesByText, line_unit

from webclean.denoise import DROPPED, KEPT, POST, denoise
from webclean.features import FEATURE_SETS, FEATURE_WIDTHS
from webclean.smoothing import CREDIT, LINK_RUN, NOTICE, REPEAT


def test_units_the_link_runs_pass_drops_are_not_classified():
    units = [line_unit("Home", "link"), line_unit("News", "link"), line_unit(LONG)]
    classified: list[str] = []

    def rows(units, texts, lexicon):
        classified.extend(texts)
        return np.zeros((len(texts), 1))

    class Everything:
        def decision_function(self, X):
            return np.ones(len(X))

    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(FEATURE_SETS, "counting", rows)
        decisions = denoise(units, None, Everything(), 40, "counting", ("link_runs",))
    assert decisions == [("", "link run", None), ("", "link run", None), (LONG, "kept", None)]
    assert "Home" not in classified and "News" not in classified

def test_denoise_says_what_became_of_each_unit_and_why():
    values = {"Home": 0.3, "News": 0.3, PARAGRAPH: 2.0, "来源：新华社": 0.5, "（责任编辑：张三）": -0.5, "A reply in the thread": -1.0}
    scripted = ValuesByText(values)
    units = [line_unit("Home", "link"), line_unit("News", "link"), *map(line_unit, list(values)[2:5]), line_unit("A reply in the thread")._replace(post=1)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(FEATURE_SETS, "scripted", scripted.rows)
        patch.setitem(FEATURE_WIDTHS, "scripted", 1)
        decisions = denoise(units, None, scripted, 40, "scripted", ("link_runs", "credits"), values=True)
        without_values = denoise(units, None, scripted, 40, "scripted", ("link_runs", "credits"))
    # A link run is not classified; a credit line the classifier keeps is the pass's to
    # drop, one it drops is its own; a post's text is kept whatever the classifier says.
    assert decisions == [
        ("", LINK_RUN, None),
        ("", LINK_RUN, None),
        (PARAGRAPH, KEPT, 2.0),
        ("", CREDIT, 0.5),
        ("", DROPPED, -0.5),
        ("A reply in the thread", POST, -1.0),
    ]
    assert without_values == [(text, outcome, None) for text, outcome, _ in decisions]


def test_a_posts_button_is_dropped_where_its_text_is_kept():
    values = {"Thanks, this fixed it for me as well.": -1.0, "Reply": 0.5}
    scripted = ValuesByText(values)
    units = [line_unit(text)._replace(post=1) for text in values]
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(FEATURE_SETS, "scripted", scripted.rows)
        patch.setitem(FEATURE_WIDTHS, "scripted", 1)
        decisions = denoise(units, None, scripted, 40, "scripted", ("notices",))
        without = denoise(units, None, scripted, 40, "scripted", ())
    assert decisions == [("Thanks, this fixed it for me as well.", POST, None), ("", NOTICE, None)]
    assert without[1] == ("Reply", POST, None)


def test_a_unit_is_classified_whole_once_however_many_passes_ask():
    # The tail's and the margin's passes ask again about lines the classifier decided
    # whole: they read the decision already made instead of classifying them again.
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
        decisions = denoise(units, None, scripted, 40, "scripted", ("tail_lines", "margin_lines"), values=True)
    assert [d.text for d in decisions] == ["Storm hits the coast", PARAGRAPH, "", ""]
    assert [d.value for d in decisions] == [1.2, 2.0, 0.2, 0.6]
    short = [text for text in values if len(text) <= 40]
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
        decisions = denoise(units, None, scripted, 40, "scripted", ("repeats",))
        without = denoise(units, None, scripted, 40, "scripted", ())
    assert decisions == [(question, POST, None), ("", REPEAT, None), ("Hold the button for five seconds.", POST, None)]
    assert [d.text for d in without] == [question, question, "Hold the button for five seconds."]
