"""Method svm's second stage: each line decided again from what the first stage said of
it, of its neighbours and of its page.

The first stage (the SVM and the trees, Step 3) reads a line with what its own place
on the page says. What depends on the decisions around it, it cannot read: a run of
links amid kept prose, the tail after the text's last paragraph, a headline over a
kept summary, a page of items where almost nothing reads as prose. The second stage is
boosted trees over the first stage's row of the line and :data:`CONTEXT_NAMES`: the
first stage's decision values of the line and its neighbours, the distance to the kept
lines before and after it, the share of the page's kept text on either side, and what
the first stage kept of the located block.

It learns from first-stage values of models that never saw the line's site
(training.fit_sample: folds of whole sites), so that it weighs them as they are on a
page of a new site.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from webclean.line_features import RICH_FEATURE_NAMES

# A decision value as the second stage reads it: clipped, so that the far tails of the
# first stage's scale do not make split points of their own.
VALUE_LIMIT = 8.0
_NEIGHBOURS = (1, 2, 3)
_NEAR, _FAR = 2, 6  # the windows of the neighbours' mean values, in lines each side

CONTEXT_NAMES = (
    "value",
    *(f"value_before_{d}" for d in _NEIGHBOURS),
    *(f"value_after_{d}" for d in _NEIGHBOURS),
    "near_mean_value",
    "far_mean_value",
    "kept_share_before",
    "kept_share_after",
    "log_lines_from_kept_before",
    "log_lines_to_kept_after",
    "log_lines_before",
    "log_lines_after",
    "block_kept_share",
    "block_kept_lines_share",
    "block_mean_value",
    "block_link_share",
    "log_block_lines",
)

_LENGTH = RICH_FEATURE_NAMES.index("log_text_length")
_LINK_RATIO = RICH_FEATURE_NAMES.index("link_ratio")
_BEFORE_BLOCK = RICH_FEATURE_NAMES.index("before_block")
_AFTER_BLOCK = RICH_FEATURE_NAMES.index("after_block")


def stage_rows(X: np.ndarray, values: np.ndarray, pages: np.ndarray | None = None) -> np.ndarray:
    """The second stage's rows: each line's first-stage row (the rich features, X)
    followed by its CONTEXT_NAMES columns. ``values`` are the first stage's decision
    values of the rows; ``pages`` gives each row's page, the rows of a page together and
    in document order (None: all rows are one page's)."""
    X = np.asarray(X, dtype=np.float64)
    values = np.asarray(values, dtype=np.float64)
    out = np.empty((len(X), X.shape[1] + len(CONTEXT_NAMES)))
    out[:, : X.shape[1]] = X
    if pages is None or len(pages) == 0:
        bounds: Sequence[int] = (0, len(X))
    else:
        cuts = np.flatnonzero(np.diff(pages)) + 1
        bounds = (0, *cuts.tolist(), len(X))
    for start, end in zip(bounds[:-1], bounds[1:]):
        out[start:end, X.shape[1] :] = context_columns(X[start:end], values[start:end])
    return out


def context_columns(X: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The CONTEXT_NAMES columns of one page's lines (rows X, first-stage ``values``)."""
    n = len(X)
    out = np.zeros((n, len(CONTEXT_NAMES)))
    if n == 0:
        return out
    v = np.clip(values, -VALUE_LIMIT, VALUE_LIMIT)
    length = np.expm1(X[:, _LENGTH])
    weight = X[:, _LENGTH]  # log(1 + length): a long line counts more, not overwhelmingly
    kept = v > 0
    index = np.arange(n)
    col = 0
    out[:, col] = v
    col += 1
    for sign in (-1, 1):
        for d in _NEIGHBOURS:
            shifted = index + sign * d
            inside = (shifted >= 0) & (shifted < n)
            out[inside, col] = v[shifted[inside]]
            col += 1
    for reach in (_NEAR, _FAR):
        out[:, col] = _window_mean(v, weight, reach)
        col += 1
    kept_chars = np.where(kept, length, 0.0)
    total = kept_chars.sum()
    before = np.cumsum(kept_chars) - kept_chars
    out[:, col] = before / total if total else 0.0
    out[:, col + 1] = (total - before - kept_chars) / total if total else 0.0
    col += 2
    out[:, col] = np.log1p(_lines_from_last(kept))
    out[:, col + 1] = np.log1p(_lines_from_last(kept[::-1])[::-1])
    out[:, col + 2] = np.log1p(index)
    out[:, col + 3] = np.log1p(n - 1 - index)
    col += 4
    block = (X[:, _BEFORE_BLOCK] == 0) & (X[:, _AFTER_BLOCK] == 0)
    if block.any():
        block_length = length[block]
        chars = block_length.sum()
        out[:, col] = kept_chars[block].sum() / chars if chars else 0.0
        out[:, col + 1] = kept[block].mean()
        out[:, col + 2] = np.average(v[block], weights=weight[block]) if weight[block].sum() else v[block].mean()
        out[:, col + 3] = (block_length * X[block, _LINK_RATIO]).sum() / chars if chars else 0.0
        out[:, col + 4] = np.log1p(block.sum())
    return out


def _window_mean(v: np.ndarray, weight: np.ndarray, reach: int) -> np.ndarray:
    """The weighted mean value of the lines up to ``reach`` away on either side, the line
    itself left out (0 where none is)."""
    padded_v = np.concatenate([np.zeros(reach), v * weight, np.zeros(reach)])
    padded_w = np.concatenate([np.zeros(reach), weight, np.zeros(reach)])
    sums = np.cumsum(np.concatenate([[0.0], padded_v]))
    weights = np.cumsum(np.concatenate([[0.0], padded_w]))
    span = 2 * reach + 1
    total = sums[span:] - sums[:-span] - v * weight
    mass = weights[span:] - weights[:-span] - weight
    return np.divide(total, mass, out=np.zeros_like(total), where=mass > 0)


def _lines_from_last(kept: np.ndarray) -> np.ndarray:
    """For each line, how many lines back the nearest kept line before it lies (the
    lines since the page's start, plus one, where none is)."""
    n = len(kept)
    index = np.arange(n)
    last = np.where(kept, index, -1)
    last = np.maximum.accumulate(np.concatenate([[-1], last[:-1]]))  # the last kept line before each
    return np.where(last >= 0, index - last, index + 1).astype(np.float64)
