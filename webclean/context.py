"""Method svm's second stage: each line decided again beside its neighbours.

The first stage (Step 3) classifies a line from what it and its place say. Main text
and noise come in runs, and what a line is often shows only beside the others: a
heading over lines all dropped, a label whose line is dropped, a run of links, the
lines after the article's last paragraph or before the block. Rules once decided these
one by one; the second stage learns them: boosted trees over the first stage's
decision value of the line and of its neighbours, where the page's confident prose
lies, and how much of the page the first stage keeps (CONTEXT_FEATURE_NAMES). They are
fitted on out-of-fold first-stage values (training.fit_context), so that they learn how
far to trust the first stage on pages it never saw.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from webclean.classifier import SVMParams, TreeEnsemble, fit_trees
from webclean.config import ClassifierConfig
from webclean.line_features import RICH_FEATURE_NAMES
from webclean.units import Unit

# What the second stage reads of a line itself: columns of the first stage's rows
# (line_features.RICH_FEATURE_NAMES), or the same figures from its unit (unit_inputs).
INPUT_NAMES = ("log_text_length", "link_ratio", "kind_heading", "before_block", "after_block")
INPUT_COLUMNS = [RICH_FEATURE_NAMES.index(name) for name in INPUT_NAMES]
CONTEXT_FEATURE_NAMES = (
    "decision",
    "prev_decision",
    "next_decision",
    "prev2_decision",
    "next2_decision",
    "window_mean",
    "max_before",
    "max_after",
    "section_max",
    "log_since_prose",
    "log_until_prose",
    "log_link_run",
    "kept_share",
    "kept_text_share",
    *INPUT_NAMES,
)
# The decision value a line beyond the page's ends stands for: confident noise.
EDGE = -4.0
# Lines up to this far on either side make a line's window.
WINDOW = 3
# The confident prose the distances count from: lines the first stage keeps with a
# decision value above CONFIDENT, of few links, no heading (in any script alike).
CONFIDENT = 1.0
PROSE_LINK_RATIO = 0.3
# A line whose text is all link.
ALL_LINK = 0.999


def unit_inputs(units: Sequence[Unit]) -> np.ndarray:
    """INPUT_NAMES for each unit, as the first stage's rows give them for its whole text."""
    return np.array(
        [(math.log1p(u.length), u.link_ratio, u.kind == "heading", u.region < 0, u.region > 0) for u in units],
        dtype=np.float64,
    ).reshape(len(units), len(INPUT_NAMES))


def context_rows(values: np.ndarray, inputs: np.ndarray, starts: Sequence[int] = (0,)) -> np.ndarray:
    """The rows of CONTEXT_FEATURE_NAMES for lines whose first-stage decision values are
    ``values`` and whose INPUT_NAMES are ``inputs``; ``starts`` are where each page's
    lines begin (one page by default): neighbours are read within a page."""
    n = len(values)
    out = np.empty((n, len(CONTEXT_FEATURE_NAMES)))
    bounds = [*starts, n]
    for start, end in zip(bounds, bounds[1:]):
        if end > start:
            out[start:end] = _page_rows(np.asarray(values[start:end], dtype=np.float64), inputs[start:end])
    return out


def _page_rows(values: np.ndarray, inputs: np.ndarray) -> np.ndarray:
    n = len(values)
    log_length, link_ratio, heading = inputs[:, 0], inputs[:, 1], inputs[:, 2] > 0
    padded = np.full(n + 2 * WINDOW, EDGE)
    padded[WINDOW : WINDOW + n] = values
    shifted = {k: padded[WINDOW + k : WINDOW + k + n] for k in range(-WINDOW, WINDOW + 1)}
    # The window's mean over the lines it holds (the page's ends shorten it).
    inside = np.zeros(n + 2 * WINDOW)
    inside[WINDOW : WINDOW + n] = 1.0
    totals = sum(np.where(inside[WINDOW + k : WINDOW + k + n] > 0, shifted[k], 0.0) for k in shifted)
    counts = sum(inside[WINDOW + k : WINDOW + k + n] for k in shifted)
    before = np.concatenate(([EDGE], np.maximum.accumulate(values)[:-1]))
    after = np.concatenate((np.maximum.accumulate(values[::-1])[::-1][1:], [EDGE]))
    kept = values > 0
    lengths = np.expm1(log_length)
    prose = (values > CONFIDENT) & (link_ratio <= PROSE_LINK_RATIO) & ~heading
    places = np.arange(n)
    last = np.maximum.accumulate(np.where(prose, places, -1))
    next_ = np.minimum.accumulate(np.where(prose, places, n)[::-1])[::-1]
    since = np.where(last >= 0, places - last, n + 1)
    until = np.where(next_ < n, next_ - places, n + 1)
    return np.column_stack(
        (
            values,
            shifted[-1],
            shifted[1],
            shifted[-2],
            shifted[2],
            totals / counts,
            before,
            after,
            _section_max(values, heading),
            np.log1p(since),
            np.log1p(until),
            np.log1p(_link_runs(link_ratio >= ALL_LINK)),
            np.full(n, kept.mean()),
            np.full(n, lengths[kept].sum() / lengths.sum() if lengths.sum() > 0 else 0.0),
            inputs,
        )
    )


def _section_max(values: np.ndarray, heading: np.ndarray) -> np.ndarray:
    """For each line, the highest decision value of the lines after it up to the next
    heading (EDGE where none): what a heading heads, what follows a line in its section."""
    out = np.empty(len(values))
    best = EDGE
    for i in range(len(values) - 1, -1, -1):
        out[i] = best
        best = EDGE if heading[i] else max(best, values[i])
    return out


def _link_runs(links: np.ndarray) -> np.ndarray:
    """For each line, the length of the run of all-link lines it belongs to (0 if none)."""
    out = np.zeros(len(links))
    i = 0
    while i < len(links):
        if not links[i]:
            i += 1
            continue
        j = i
        while j < len(links) and links[j]:
            j += 1
        out[i:j] = j - i
        i = j
    return out


def page_starts(pages: np.ndarray) -> list[int]:
    """Where each page's rows begin, for rows in page order (``pages``: each row's page)."""
    return [0, *(np.flatnonzero(np.diff(pages)) + 1).tolist()] if len(pages) else [0]


def fit_context(
    X: np.ndarray,
    y: np.ndarray,
    labelled: np.ndarray,
    pages: np.ndarray,
    first: SVMParams,
    config: ClassifierConfig,
    weights: np.ndarray | None = None,
    held_out: np.ndarray | None = None,
) -> TreeEnsemble:
    """The second stage, fitted on the first stage's rows ``X`` of every line of the
    training pages in page order (``pages``: each row's page; ``labelled``: the rows
    with a label ``y``, the others only neighbours).

    The first stage's values are out of fold: the SVM's as they are (it learned from a
    sample of a few thousand lines), the trees' from ``config.context_folds`` fits each
    on the other folds' pages, so that the second stage learns what the first stage's
    values are worth on pages it never saw.
    """
    values = replace(first, trees=None, context=None).decision_function(X)
    if first.trees is not None:
        folds = pages % config.context_folds
        trees = np.zeros(len(X))
        for fold in range(config.context_folds):
            train, rows = labelled & (folds != fold), folds == fold
            fitted = fit_trees(
                X[train], y[train], None if weights is None else weights[train], config.trees, config.tree_leaves,
                config.tree_rate, config.random_state, config.tree_depth, None if held_out is None else held_out[train],
            )  # fmt: skip
            trees[rows] = fitted.decision_function(X[rows])
        values += first.tree_weight * trees
    rows = context_rows(values, X[:, INPUT_COLUMNS], page_starts(pages))
    return fit_trees(
        rows[labelled], y[labelled], None if weights is None else weights[labelled], config.trees, config.tree_leaves,
        config.tree_rate, config.random_state, config.tree_depth, None if held_out is None else held_out[labelled],
    )  # fmt: skip
