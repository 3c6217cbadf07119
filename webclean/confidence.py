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
from typing import Any, NamedTuple

import numpy as np

from webclean import core
from webclean.classifier import TreeEnsemble
from webclean.config import PAGE_TYPES, ConfidenceConfig, LinesConfig
from webclean.denoise import DROPPED, KEPT, PARTLY_KEPT, POST, Decision
from webclean.line_features import is_prose
from webclean.locate import Block
from webclean.metrics import tokens, tokens_found
from webclean.segment import Line
from webclean.text import CJK_IDEOGRAPH_RANGES, CJK_RE
from webclean.units import SAMPLE_UNIT_TAGS, Unit

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
# Where the compiled core finds the fields it reads in a Line, a Unit and a Decision.
_LINE_LENGTH_AT, _LINE_RATIO_AT = Line._fields.index("length"), Line._fields.index("link_ratio")
_UNIT_AT = tuple(Unit._fields.index(name) for name in ("tag", "length", "link_ratio", "region"))
_DECISION_AT = tuple(Decision._fields.index(name) for name in ("text", "outcome", "value"))
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
    row: list[Any] = [0.0] * len(SIGNAL_NAMES)  # an array once filled: a list takes values faster
    page_chars, links, counted = _line_sums(lines, theta)
    row[_AT["page_chars"]] = np.log1p(page_chars)
    row[_AT["page_lines"]] = np.log1p(len(lines))
    row[_AT["page_link_share"]] = sum(links) / max(page_chars, 1)
    if type_probabilities is not None:
        row[_AT["typed"]] = 1.0
        row[_AT["type_article"] : _AT["type_article"] + len(PAGE_TYPES)] = type_probabilities.tolist()
    sample, empty = _text_start(decisions, settings.sample_chars)
    row[_AT["empty"]] = empty
    row[_AT["cjk_share"]] = _cjk_count(sample) / max(len(sample), 1)
    wanted = set(tokens(title))
    row[_AT["title_found"]] = tokens_found(wanted, sample) / len(wanted) if wanted else 0.0
    if block is None or not units:
        return np.asarray(row, dtype=np.float64)
    kept = _Kept.of(units, decisions, lines_settings)
    some = max(kept.chars, 1)
    row[_AT["samples"]] = np.log1p(kept.samples)
    row[_AT["kept_samples_share"]] = kept.kept_count / max(kept.samples, 1)
    row[_AT["kept_chars"]] = np.log1p(kept.chars)
    row[_AT["kept_share_block"]] = kept.chars / max(kept.block_chars, 1)
    row[_AT["kept_share_page"]] = kept.chars / max(page_chars, 1)
    row[_AT["block_share_page"]] = kept.block_chars / max(page_chars, 1)
    row[_AT["margin_kept_share"]] = kept.margin / some
    row[_AT["kept_link_share"]] = sum(kept.links) / some
    row[_AT["kept_prose_share"]] = kept.prose / some
    row[_AT["partly_kept_share"]] = kept.partly / some
    decided = max(kept.decided, 1)
    row[_AT["pass_kept_share"]] = kept.pass_kept / decided
    row[_AT["pass_dropped_share"]] = kept.pass_dropped / decided
    row[_AT["posts_share"]] = kept.posts / decided
    row[_AT["valued_share"]] = len(kept.values) / max(kept.samples, 1)
    if kept.values:
        values = np.asarray(kept.values)
        taken = np.asarray(kept.taken)
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
    row[_AT["block_counted_share"]] = block.score / max(counted, 1)
    return np.asarray(row, dtype=np.float64)


def _line_sums(lines: Sequence[Line], theta: float) -> tuple[int, list[float], int]:
    """The lines' characters, each line's characters in links, and the characters of
    the lines whose link ratio is at most ``theta``."""
    if core.compiled is not None:  # one loop in C (webclean/_core_sums.pxi)
        found = core.compiled.line_sums(lines if isinstance(lines, list) else list(lines), _LINE_LENGTH_AT, _LINE_RATIO_AT, theta)
        if found is not None:
            return found
    return (
        sum(line.length for line in lines),
        [line.length * line.link_ratio for line in lines],
        sum(line.length for line in lines if line.link_ratio <= theta),
    )


def _text_start(decisions: Sequence[Decision], chars: int) -> tuple[str, bool]:
    """The first ``chars`` characters of the page's text (its kept texts, a line break
    between two), joining only the texts they come from, and whether the text is empty."""
    pieces, size = [], -1
    for decision in decisions:
        if decision.text:
            pieces.append(decision.text)
            size += len(decision.text) + 1
            if size >= chars:
                break
    return "\n".join(pieces)[:chars], not pieces


def _cjk_count(text: str) -> int:
    """How many CJK ideographs ``text`` holds (text.CJK_RE's matches)."""
    if core.compiled is not None:  # counted in C (webclean/_core_sums.pxi)
        return core.compiled.count_in(text, CJK_IDEOGRAPH_RANGES)
    return len(CJK_RE.findall(text))


class _Kept(NamedTuple):
    """What the block's units and their decisions add up to: the samples (Unit.is_sample),
    the kept ones, and the characters of each kind."""

    samples: int
    kept_count: int  # samples kept
    chars: int  # their characters ...
    block_chars: int  # ... of the block's own units (not the margins') ...
    margin: int  # ... of the kept samples of the margins
    links: list[float]  # each kept sample's characters in links
    prose: int  # the kept samples' characters of prose (line_features.is_prose)
    partly: int  # ... of those partly kept
    decided: int  # the samples' characters
    pass_kept: int  # ... of the samples a pass decided: kept, not as a post ...
    pass_dropped: int  # ... dropped ...
    posts: int  # ... as a post
    values: list[float]  # the samples' decision values, where they have one ...
    taken: list[bool]  # ... and whether each was kept

    @classmethod
    def of(cls, units: Sequence[Unit], decisions: Sequence[Decision], lines_settings: LinesConfig) -> _Kept:
        if core.compiled is not None:  # one loop in C (webclean/_core_sums.pxi)
            found = core.compiled.kept_totals(
                units if isinstance(units, list) else list(units), decisions if isinstance(decisions, list) else list(decisions),
                _UNIT_AT, _DECISION_AT, SAMPLE_UNIT_TAGS, PARTLY_KEPT, POST, _CLASSIFIER_OUTCOMES, lines_settings,
            )  # fmt: skip
            if found is not None:
                return cls(*found)
        samples = count = chars = margin = prose = partly = decided = pass_kept = pass_dropped = posts = 0
        links: list[float] = []
        values: list[float] = []
        taken: list[bool] = []
        for unit, decision in zip(units, decisions):
            if not unit.is_sample:
                continue
            length, text, outcome = unit.length, decision.text, decision.outcome
            samples += 1
            decided += length
            if text:
                count += 1
                chars += length
                margin += length if unit.region else 0
                links.append(length * unit.link_ratio)
                prose += length if is_prose(length, unit.link_ratio, lines_settings) else 0
                partly += length if outcome == PARTLY_KEPT else 0
            if outcome not in _CLASSIFIER_OUTCOMES:
                pass_kept += length if text and outcome != POST else 0
                pass_dropped += 0 if text else length
                posts += length if outcome == POST else 0
            if decision.value is not None:
                values.append(decision.value)
                taken.append(bool(text))
        block_chars = sum(unit.length for unit in units if not unit.region)
        return cls(samples, count, chars, block_chars, margin, links, prose, partly, decided, pass_kept, pass_dropped, posts, values, taken)


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
