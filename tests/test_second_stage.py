"""Method svm's second stage (webclean.second_stage): each line decided again from the
first stage's values of it, its neighbours and its page."""

import numpy as np
import pytest

from webclean import extract
from webclean.classifier import TreeEnsemble
from webclean.config import Config, DenoiseConfig
from webclean.datasets import Page
from webclean.denoise import DROPPED, KEPT, denoise
from webclean.explain import explain
from webclean.lexicon import NoiseLexicon
from webclean.line_features import RICH_FEATURE_NAMES
from webclean.model import load_model, save_model
from webclean.second_stage import CONTEXT_NAMES, context_columns, stage_rows
from webclean.text import text_length
from webclean.training import train
from webclean.units import Unit

WIDTH = len(RICH_FEATURE_NAMES)
LENGTH = RICH_FEATURE_NAMES.index("log_text_length")
AFTER_BLOCK = RICH_FEATURE_NAMES.index("after_block")


def rows(lengths, after_block=()):
    X = np.zeros((len(lengths), WIDTH))
    X[:, LENGTH] = np.log1p(lengths)
    for i in after_block:
        X[i, AFTER_BLOCK] = 1.0
    return X


def column(out, name):
    return out[:, CONTEXT_NAMES.index(name)]


def test_the_neighbours_values_are_the_lines_around_it_and_zero_past_the_page():
    out = context_columns(rows([10] * 4), np.array([1.0, -2.0, 3.0, -4.0]))
    assert column(out, "value").tolist() == [1.0, -2.0, 3.0, -4.0]
    assert column(out, "value_before_1").tolist() == [0.0, 1.0, -2.0, 3.0]
    assert column(out, "value_after_2").tolist() == [3.0, -4.0, 0.0, 0.0]
    assert column(out, "log_lines_before").tolist() == pytest.approx(np.log1p([0, 1, 2, 3]).tolist())


def test_values_are_clipped_so_that_far_tails_make_no_splits_of_their_own():
    out = context_columns(rows([10, 10]), np.array([50.0, -50.0]))
    assert column(out, "value").tolist() == [8.0, -8.0]


def test_the_kept_text_on_either_side_and_the_distance_to_the_nearest_kept_lines():
    # Kept by the first stage: lines 0 (100 characters) and 3 (300).
    out = context_columns(rows([100, 50, 50, 300, 20]), np.array([1.0, -1.0, -1.0, 2.0, -1.0]))
    assert column(out, "kept_share_before").tolist() == pytest.approx([0.0, 0.25, 0.25, 0.25, 1.0])
    assert column(out, "kept_share_after").tolist() == pytest.approx([0.75, 0.75, 0.75, 0.0, 0.0])
    # Lines back to the last kept line before (none before line 0: its index + 1).
    assert np.expm1(column(out, "log_lines_from_kept_before")).round().tolist() == [1, 1, 2, 3, 1]
    assert np.expm1(column(out, "log_lines_to_kept_after")).round().tolist() == [3, 2, 1, 2, 1]


def test_the_blocks_figures_leave_out_the_margins():
    # The last line lies after the located block: the block is the first two.
    out = context_columns(rows([100, 100, 100], after_block=[2]), np.array([1.0, -1.0, 5.0]))
    assert column(out, "block_kept_share").tolist() == pytest.approx([0.5] * 3)
    assert np.expm1(column(out, "log_block_lines")).round().tolist() == [2, 2, 2]


def test_a_page_never_reads_the_values_of_another():
    X = rows([10] * 4)
    values = np.array([5.0, 5.0, -5.0, -5.0])
    together = stage_rows(X, values)
    apart = stage_rows(X, values, pages=np.array([0, 0, 1, 1]))
    before = WIDTH + CONTEXT_NAMES.index("value_before_1")
    assert together[2, before] == 5.0
    assert apart[2, before] == 0.0
    assert apart[:, :WIDTH].tolist() == X.tolist()


def _kept_after_a_content_line() -> TreeEnsemble:
    """One tree: content (+1) where the line before had a first-stage value above 0."""
    feature = WIDTH + CONTEXT_NAMES.index("value_before_1")
    return TreeEnsemble(
        feature=np.array([feature, 0, 0]),
        threshold=np.array([0.0, np.inf, np.inf]),
        left=np.array([1, 1, 2]),
        right=np.array([2, 1, 2]),
        value=np.array([0.0, -1.0, 1.0]),
        roots=np.array([0]),
        baseline=0.0,
        width=WIDTH + len(CONTEXT_NAMES),
    )


class ByLength:
    """A first stage whose value for a row is set by the row's text length."""

    def __init__(self, values):
        self.values = values

    def decision_function(self, X):
        return np.array([self.values[int(round(np.expm1(x[LENGTH])))] for x in X])


def _unit(text):
    return Unit(tag="line", text=text, length=text_length(text), link_ratio=0.0, position=0.0)


def test_the_second_stage_decides_and_the_first_stage_only_informs_it():
    texts = ["a" * 11, "b" * 12, "c" * 13, "d" * 14]
    first = ByLength({11: 1.0, 12: -1.0, 13: -1.0, 14: 1.0})
    lexicon = NoiseLexicon(words={}, marks={})
    decisions = denoise([_unit(t) for t in texts], lexicon, first, DenoiseConfig(), "rich", (), values=True, second=_kept_after_a_content_line())
    assert [d.outcome for d in decisions] == [DROPPED, KEPT, DROPPED, DROPPED]
    assert [d.value for d in decisions] == [-1.0, 1.0, -1.0, -1.0]
    alone = denoise([_unit(t) for t in texts], lexicon, first, DenoiseConfig(), "rich", ())
    assert [d.outcome for d in alone] == [KEPT, DROPPED, DROPPED, KEPT]


def test_a_trained_model_carries_its_second_stage_through_save_and_load(tmp_path):
    article = "".join(f"<p>Paragraph {k} of the story tells what happened in the town, at length and in order.</p>" for k in range(6))
    menu = "".join(f'<li><a href="/s{k}">Section {k}</a></li>' for k in range(6))
    pages = [
        Page(
            id=f"p{n}",
            site=f"site{n % 5}",
            html=f"<html><body><ul>{menu}</ul><div class='story'>{article}</div><div class='foot'>Copyright {n}</div></body></html>",
            text="\n".join(f"Paragraph {k} of the story tells what happened in the town, at length and in order." for k in range(6)),
            url=f"https://site{n % 5}.example/story",
            source="toy",
            lang="en",
        )
        for n in range(30)
    ]
    config = Config(method="svm").with_overrides(["classifier.folds=2", "classifier.second_folds=2", "classifier.trees=5", "classifier.second_trees=5"])
    model, report = train(pages, config)
    assert model.second is not None and report.second_trees == len(model.second.roots) > 0
    loaded = load_model(save_model(model, tmp_path / "m"))
    X = np.random.default_rng(0).random((7, model.second.width))
    assert loaded.second.decision_function(X).tolist() == model.second.decision_function(X).tolist()
    without = train(pages, config.with_overrides(["classifier.second_trees=0"]))[0]
    assert without.second is None
    # Extraction reads the loaded model's second stage: its decision values are the second stage's.
    page = pages[0].html
    assert "Paragraph 3 of the story" in extract(page, config=config, model=loaded).text
    values = [unit.decision for unit in explain(page, config=config, model=loaded).units if unit.decision is not None]
    first_only = [unit.decision for unit in explain(page, config=config, model=without).units if unit.decision is not None]
    assert len(values) == len(first_only) > 0 and values != first_only
