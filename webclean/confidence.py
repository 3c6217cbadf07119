"""How far to trust an extraction: the token F1 that webclean expects to have reached on
the page, learned.

The classifier's decision value of each line says how sure it was. Read as a
probability that the line is content (a logistic of the value, at each slope of
:data:`SLOPES`), the values of a page's lines give the characters of content it
expects to have kept, to have kept wrongly and to have missed, and so the precision,
recall and token F1 it expects. :func:`confidence_signals` measures those, and the share
of the text the classifier was unsure of; :class:`ConfidenceModel`, boosted trees
(scikit-learn's HistGradientBoostingRegressor as arrays), learn how a page ranks among
the pages of its collection, and a calibration learned with them turns that into the F1
to expect (:func:`fit_confidence`). Training
(training.confidence_stage) fits both on held-out extractions: each training page
extracted by a model that never saw its site, scored against its gold text. The
signals describe the extraction's uncertainty, not the page's kind: the size, script,
block and page type of a page tell one set of pages from another, and a model that
reads them learns how good each set's extractions were, which does not hold on the
sites of another set.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from webclean import core
from webclean.classifier import TreeEnsemble
from webclean.config import ConfidenceConfig
from webclean.denoise import Decision
from webclean.units import SAMPLE_UNIT_TAGS, Unit

# The slopes of the logistic that reads a decision value as the probability that its
# line is content: the values' scale differs from one model to another, and the trees
# weigh the three readings.
SLOPES = (1.0, 2.0, 4.0)
SIGNAL_NAMES = (
    *(f"expected_{kind}_{slope:g}" for slope in SLOPES for kind in ("f1", "precision", "recall")),
    "unsure_share",
    "unsure_kept_share",
)


# Where the compiled core finds a Unit's tag and length, and a Decision's text, value and
# sentence value, in their tuples.
_TAG_AT, _LENGTH_AT = Unit._fields.index("tag"), Unit._fields.index("length")
_DECISION_AT = tuple(Decision._fields.index(name) for name in ("text", "value", "sentence_value"))


def confidence_signals(units: Sequence[Unit], decisions: Sequence[Decision], settings: ConfidenceConfig) -> np.ndarray:
    """The row of SIGNAL_NAMES of one classified page: its block's ``units`` and the
    ``decisions`` on them (denoise). Each sample counts with its characters and its
    decision value (as a whole, or that of the sentence that decided a unit the noise
    filter cut): at each slope, the expected token F1, precision and recall; then the
    characters of the lines within ``settings.near`` of the boundary, and of the kept
    ones below it, each against the kept characters. Zeros where no sample has a value
    (nothing was located)."""
    # One loop over the units (webclean/_core_pagetype.pxi); its sums of expected characters
    # differ by rounding alone from those NumPy leaves to BLAS, whose order is its own.
    if core.compiled is not None:
        row = np.empty(len(SIGNAL_NAMES))
        if core.compiled.confidence_signals(
            units if isinstance(units, list) else list(units), decisions if isinstance(decisions, tuple) else tuple(decisions),
            _TAG_AT, _LENGTH_AT, SAMPLE_UNIT_TAGS, *_DECISION_AT, SLOPES, settings.near, row,
        ):  # fmt: skip
            return row
    valued = [
        (value, unit.length, bool(decision.text))
        for unit, decision in zip(units, decisions)
        if unit.is_sample and (value := decision.sentence_value if decision.value is None else decision.value) is not None
    ]
    row = np.zeros(len(SIGNAL_NAMES))
    if not valued:
        return row
    values, lengths, kept = (np.asarray(column, dtype=np.float64) for column in zip(*valued))
    kept_chars = float(lengths @ kept)
    k = 0
    for slope in SLOPES:
        content = 1.0 / (1.0 + np.exp(-slope * values))
        right = float(lengths @ (content * kept))  # content kept
        wrong = kept_chars - right  # noise kept
        missed = float(lengths @ (content * (1.0 - kept)))  # content dropped
        row[k] = 2 * right / (2 * right + wrong + missed) if right + wrong + missed else 0.0
        row[k + 1] = right / kept_chars if kept_chars else 0.0
        row[k + 2] = right / (right + missed) if right + missed else 0.0
        k += 3
    unsure = np.abs(values) < settings.near
    row[k] = float(lengths @ unsure) / max(kept_chars, 1.0)
    row[k + 1] = float(lengths @ (kept * (values < settings.near))) / max(kept_chars, 1.0)
    return row


@dataclass(frozen=True)
class ConfidenceModel:
    """Trees that predict an extraction's token F1 from its row of SIGNAL_NAMES, and the
    calibration that maps their value to the mean F1 of pages that get it: an increasing
    piecewise-linear map through the points (``calibration_x``, ``calibration_y``),
    constant past its ends. A model without them (saved before they were learned) gives
    the trees' value."""

    trees: TreeEnsemble
    calibration_x: np.ndarray | None = None
    calibration_y: np.ndarray | None = None

    def predict(self, row: np.ndarray) -> float:
        """The expected token F1, in [0, 1], rounded to four places."""
        value = self.trees.row_value(row)
        if self.calibration_x is not None and self.calibration_y is not None:
            value = float(np.interp(value, self.calibration_x, self.calibration_y))
        return round(min(1.0, max(0.0, value)), 4)

    def to_data(self, prefix: str) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        """The model as JSON-able values and named arrays (model.py saves both)."""
        body = {"baseline": self.trees.baseline, "width": self.trees.width, "signals": list(SIGNAL_NAMES)}
        arrays = self.trees.arrays(prefix)
        if self.calibration_x is not None and self.calibration_y is not None:
            arrays[prefix + "calibration_x"] = self.calibration_x
            arrays[prefix + "calibration_y"] = self.calibration_y
        return body, arrays

    @classmethod
    def from_data(cls, body: Mapping[str, Any], arrays: Mapping[str, np.ndarray], prefix: str) -> ConfidenceModel:
        if list(body["signals"]) != list(SIGNAL_NAMES):
            raise ValueError("the confidence model reads other signals than this version measures")
        if int(body["width"]) != len(SIGNAL_NAMES):
            raise ValueError("the confidence model's trees do not read one column a signal")
        trees = TreeEnsemble.from_data(float(body["baseline"]), arrays, int(body["width"]), prefix)
        x, y = arrays.get(prefix + "calibration_x"), arrays.get(prefix + "calibration_y")
        if x is None or y is None:
            return cls(trees)
        x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
        if x.ndim != 1 or x.shape != y.shape or not len(x) or (np.diff(x) < 0).any() or (np.diff(y) < 0).any():
            raise ValueError("the confidence model's calibration is not an increasing map")
        return cls(trees, x, y)


def fit_confidence(
    rows: np.ndarray,
    scores: np.ndarray,
    settings: ConfidenceConfig,
    random_state: int = 0,
    groups: Sequence[str] | None = None,
) -> ConfidenceModel | None:
    """The confidence model of held-out extractions: their rows of SIGNAL_NAMES and their
    token F1 against the gold; None where ``settings`` trains none or rows are too few.

    The trees learn how the pages of a collection rank: each page's target is the share
    of its collection's pages (``groups``, the training pages' sets; all one where not
    given) whose F1 it beats, its F1's percentile there. Collections differ in how well
    every page of them is extracted (a gold that counts readers' comments, a set of easy
    pages), and trees that learn F1 itself spend their splits on telling one collection's
    level from another's, which orders the pages of a collection they never saw worse.
    They fit its median (absolute error), which ordered the pages of unseen sets better
    than its mean on the whole (docs/method.md). The calibration, isotonic regression
    (scikit-learn) of the F1 on the trees' values for rows that they did not learn from
    (``settings.folds`` folds of the rows), maps each value to the mean F1 of the pages
    that get it. Isotonic regression is a staircase, which would give whole ranges of
    pages one confidence: the map runs through the middle of each step instead
    (:func:`_step_middles`)."""
    from sklearn.isotonic import IsotonicRegression

    if not settings.trees or len(rows) < settings.min_pages:
        return None
    rows, scores = np.asarray(rows, dtype=np.float64), np.asarray(scores, dtype=np.float64)
    ranks = collection_percentiles(scores, groups)
    model = TreeEnsemble.from_sklearn(_regressor(settings, random_state).fit(rows, ranks))
    folds = min(settings.folds, len(rows))
    if folds < 2:  # no row to calibrate on that the trees did not learn
        return ConfidenceModel(model)
    fold = np.arange(len(rows)) % folds
    unseen = np.empty(len(rows))
    for k in range(folds):
        held = fold == k
        unseen[held] = _regressor(settings, random_state).fit(rows[~held], ranks[~held]).predict(rows[held])
    calibration = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip").fit(unseen, scores)
    x, y = _step_middles(np.asarray(calibration.X_thresholds_, dtype=np.float64), np.asarray(calibration.y_thresholds_, dtype=np.float64))
    return ConfidenceModel(model, x, y)


def collection_percentiles(scores: np.ndarray, groups: Sequence[str] | None = None) -> np.ndarray:
    """Each score's percentile among the scores of its group (all one group where
    ``groups`` is None), in (0, 1): its rank in the group, ties taking the middle of
    the ranks they share, less a half, over the group's size."""
    from scipy.stats import rankdata

    scores = np.asarray(scores, dtype=np.float64)
    names = np.zeros(len(scores), dtype=np.int64) if groups is None else np.unique(np.asarray(groups, dtype=str), return_inverse=True)[1]
    if len(names) != len(scores):
        raise ValueError(f"{len(names)} groups for {len(scores)} scores")
    out = np.empty(len(scores))
    for k in np.unique(names):
        members = names == k
        out[members] = (rankdata(scores[members]) - 0.5) / members.sum()
    return out


def _step_middles(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The points of a staircase (x increasing, y not decreasing) that an increasing
    piecewise-linear map goes through: each step's middle x, and its y."""
    starts = np.flatnonzero(np.r_[True, y[1:] != y[:-1]])
    ends = np.r_[starts[1:], len(x)]
    return (x[starts] + x[ends - 1]) / 2, y[starts]


def _regressor(settings: ConfidenceConfig, random_state: int) -> Any:
    from sklearn.ensemble import HistGradientBoostingRegressor

    return HistGradientBoostingRegressor(
        loss="absolute_error", max_iter=settings.trees, max_leaf_nodes=15, max_depth=4, learning_rate=0.05,
        l2_regularization=1.0, min_samples_leaf=20, random_state=random_state, early_stopping=False,
    )  # fmt: skip
