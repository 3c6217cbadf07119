"""How far to trust an extraction: the token F1 that webclean expects to have reached on
the page, learned.

:func:`confidence_signals` measures what the extraction itself knows — what it kept of
the block and of the page, how sure the classifier was of the lines it decided (their
decision values, and how many lie near the boundary), what the passes decided, the
block's share of the page and its shape, the link text and prose of what was kept, the
script of the text, whether the title is found in it, and the page type's
probabilities — and :class:`ConfidenceModel`, boosted trees (scikit-learn's
HistGradientBoostingRegressor as arrays), predicts the token F1 from them. Training
(training.confidence_stage) fits the trees on held-out extractions: each training
page extracted by a model that never saw its site, scored against its gold text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from webclean.classifier import TreeEnsemble
from webclean.config import PAGE_TYPES, ConfidenceConfig, LinesConfig
from webclean.denoise import DROPPED, KEPT, PARTLY_KEPT, POST, Decision
from webclean.line_features import is_prose
from webclean.locate import Block
from webclean.metrics import tokens
from webclean.segment import Line
from webclean.text import CJK_RE
from webclean.units import Unit

SIGNAL_NAMES = (
    "samples", "kept_samples_share", "kept_chars", "kept_share_block", "kept_share_page", "block_share_page",
    "margin_kept_share", "kept_link_share", "kept_prose_share", "partly_kept_share", "pass_kept_share",
    "pass_dropped_share", "posts_share", "valued_share", "value_mean", "value_spread", "value_kept_mean",
    "value_dropped_mean", "near_share", "near_kept_share", "block_level", "block_body", "thread", "block_score_share",
    "block_counted_share",
    "page_chars", "page_lines", "page_link_share", "cjk_share", "title_found", "empty", "typed",
    *(f"type_{kind}" for kind in PAGE_TYPES),
)  # fmt: skip
_AT = {name: k for k, name in enumerate(SIGNAL_NAMES)}
_CLASSIFIER_OUTCOMES = frozenset({KEPT, PARTLY_KEPT, DROPPED})


def confidence_signals(
    units: Sequence[Unit],
    decisions: Sequence[Decision],
    lines: Sequence[Line],
    block: Block | None,
    title: str,
    type_probabilities: np.ndarray | None,
    lines_settings: LinesConfig,
    settings: ConfidenceConfig,
    theta: float,
) -> np.ndarray:
    """The row of SIGNAL_NAMES of one classified page: its block's ``units`` and the
    ``decisions`` on them (denoise), the page's ``lines``, its located ``block``
    (locate.Block, or None), its title and page type probabilities (or None);
    ``lines_settings``: what a line of prose is; ``theta``: the link ratio up to which a
    line's text counts for Step 1 (locate.theta)."""
    row = np.zeros(len(SIGNAL_NAMES))
    page_chars = sum(line.length for line in lines)
    row[_AT["page_chars"]] = np.log1p(page_chars)
    row[_AT["page_lines"]] = np.log1p(len(lines))
    row[_AT["page_link_share"]] = sum(line.length * line.link_ratio for line in lines) / max(page_chars, 1)
    if type_probabilities is not None:
        row[_AT["typed"]] = 1.0
        row[_AT["type_article"] : _AT["type_article"] + len(PAGE_TYPES)] = type_probabilities
    text = "\n".join(decision.text for decision in decisions if decision.text)
    row[_AT["empty"]] = not text
    sample = text[: settings.sample_chars]
    row[_AT["cjk_share"]] = len(CJK_RE.findall(sample)) / max(len(sample), 1)
    wanted = set(tokens(title))
    row[_AT["title_found"]] = len(wanted & set(tokens(sample))) / len(wanted) if wanted else 0.0
    if block is None or not units:
        return row
    samples = [(unit, decision) for unit, decision in zip(units, decisions) if unit.is_sample]
    kept = [(unit, decision) for unit, decision in samples if decision.text]
    block_chars = sum(unit.length for unit in units if not unit.region)
    kept_chars = sum(unit.length for unit, _ in kept)
    some = max(kept_chars, 1)
    row[_AT["samples"]] = np.log1p(len(samples))
    row[_AT["kept_samples_share"]] = len(kept) / max(len(samples), 1)
    row[_AT["kept_chars"]] = np.log1p(kept_chars)
    row[_AT["kept_share_block"]] = kept_chars / max(block_chars, 1)
    row[_AT["kept_share_page"]] = kept_chars / max(page_chars, 1)
    row[_AT["block_share_page"]] = block_chars / max(page_chars, 1)
    row[_AT["margin_kept_share"]] = sum(unit.length for unit, _ in kept if unit.region) / some
    row[_AT["kept_link_share"]] = sum(unit.length * unit.link_ratio for unit, _ in kept) / some
    row[_AT["kept_prose_share"]] = sum(unit.length for unit, _ in kept if is_prose(unit.length, unit.link_ratio, lines_settings)) / some
    row[_AT["partly_kept_share"]] = sum(unit.length for unit, decision in kept if decision.outcome == PARTLY_KEPT) / some
    decided = max(sum(unit.length for unit, _ in samples), 1)
    by_pass = [(unit, decision) for unit, decision in samples if decision.outcome not in _CLASSIFIER_OUTCOMES]
    row[_AT["pass_kept_share"]] = sum(unit.length for unit, decision in by_pass if decision.text and decision.outcome != POST) / decided
    row[_AT["pass_dropped_share"]] = sum(unit.length for unit, decision in by_pass if not decision.text) / decided
    row[_AT["posts_share"]] = sum(unit.length for unit, decision in by_pass if decision.outcome == POST) / decided
    valued = [(decision.value, bool(decision.text)) for _, decision in samples if decision.value is not None]
    row[_AT["valued_share"]] = len(valued) / max(len(samples), 1)
    if valued:
        values = np.asarray([value for value, _ in valued])
        taken = np.asarray([flag for _, flag in valued])
        near = np.abs(values) < settings.near
        row[_AT["value_mean"]] = values.mean()
        row[_AT["value_spread"]] = values.std()
        row[_AT["value_kept_mean"]] = values[taken].mean() if taken.any() else 0.0
        row[_AT["value_dropped_mean"]] = values[~taken].mean() if (~taken).any() else 0.0
        row[_AT["near_share"]] = near.mean()
        row[_AT["near_kept_share"]] = near[taken].mean() if taken.any() else 0.0
    element = block.element
    row[_AT["block_level"]] = np.log1p(sum(1 for _ in element.iterancestors()))
    row[_AT["block_body"]] = element.tag in ("body", "html")
    row[_AT["thread"]] = bool(block.slots)
    row[_AT["block_score_share"]] = block.score / max(page_chars, 1)
    row[_AT["block_counted_share"]] = block.score / max(sum(line.length for line in lines if line.link_ratio <= theta), 1)
    return row


@dataclass(frozen=True)
class ConfidenceModel:
    """Trees that predict an extraction's token F1 from its row of SIGNAL_NAMES."""

    trees: TreeEnsemble

    def predict(self, row: np.ndarray) -> float:
        """The expected token F1, in [0, 1], rounded to four places."""
        value = float(self.trees.decision_function(row.reshape(1, -1))[0])
        return round(min(1.0, max(0.0, value)), 4)

    def to_data(self, prefix: str) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        """The model as JSON-able values and named arrays (model.py saves both)."""
        body = {"baseline": self.trees.baseline, "width": self.trees.width, "signals": list(SIGNAL_NAMES)}
        return body, self.trees.arrays(prefix)

    @classmethod
    def from_data(cls, body: Mapping[str, Any], arrays: Mapping[str, np.ndarray], prefix: str) -> ConfidenceModel:
        if list(body["signals"]) != list(SIGNAL_NAMES):
            raise ValueError("the confidence model reads other signals than this version measures")
        if int(body["width"]) != len(SIGNAL_NAMES):
            raise ValueError("the confidence model's trees do not read one column a signal")
        return cls(TreeEnsemble.from_data(float(body["baseline"]), arrays, int(body["width"]), prefix))


def fit_confidence(rows: np.ndarray, scores: np.ndarray, settings: ConfidenceConfig, random_state: int = 0) -> ConfidenceModel | None:
    """The confidence model of held-out extractions: their rows of SIGNAL_NAMES and their
    token F1 against the gold; None where ``settings`` trains none or rows are too few."""
    from sklearn.ensemble import HistGradientBoostingRegressor

    if not settings.trees or len(rows) < settings.min_pages:
        return None
    model = HistGradientBoostingRegressor(
        max_iter=settings.trees, max_leaf_nodes=15, max_depth=4, learning_rate=0.05, l2_regularization=1.0,
        min_samples_leaf=20, random_state=random_state, early_stopping=False,
    )  # fmt: skip
    model.fit(np.asarray(rows, dtype=np.float64), np.asarray(scores, dtype=np.float64))
    return ConfidenceModel(TreeEnsemble.from_sklearn(model))
