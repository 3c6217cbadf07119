"""Step 3's training sample, drawn from labelled units, and the report of a training run.

The paper balances the classes 1:1 by sampling the larger one; method svm draws the
units in their classes' own proportion, pages weighted (a departure, see
:func:`page_weights`). Every trainer fills a :class:`TrainReport`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from webclean.classifier import CONTENT, NOISE
from webclean.gold import MIXED


@dataclass
class TrainReport:
    pages: int = 0
    pages_with_block: int = 0
    content_units: int = 0
    noise_units: int = 0
    mixed_units: int = 0
    samples_per_class: int = 0
    training_samples: int = 0
    cv_accuracy: float = 0.0
    best_params: dict[str, float] = field(default_factory=dict)
    lexicon_words: int = 0
    lexicon_marks: int = 0
    tree_rows: int = 0  # method svm: the labelled units the boosted trees learned from
    trees: int = 0  # ... and how many trees they made (early stopping may end them sooner)

    def to_dict(self) -> dict[str, object]:
        return dict(self.__dict__)


def balanced_sample(labels: np.ndarray, per_class: int, random_state: int) -> np.ndarray:
    """Indices of an equal number of content and noise samples (Step 3: 1:1)."""
    rng = np.random.default_rng(random_state)
    content = np.flatnonzero(labels == CONTENT)
    noise = np.flatnonzero(labels == NOISE)
    size = min(per_class, len(content), len(noise))
    chosen = np.concatenate([rng.choice(content, size, replace=False), rng.choice(noise, size, replace=False)])
    return np.sort(chosen)


def natural_sample(
    labels: np.ndarray, size: int, random_state: int, weights: np.ndarray | None = None
) -> np.ndarray:
    """Indices of up to ``size`` labelled samples, the classes in their own proportion;
    drawn with ``weights`` (one per unit, as :func:`page_weights` makes them) if given."""
    labelled = np.flatnonzero(labels != MIXED)
    rng = np.random.default_rng(random_state)
    size = min(size, len(labelled))
    if weights is None:
        return np.sort(rng.choice(labelled, size, replace=False))
    chosen = weights[labelled]
    return np.sort(rng.choice(labelled, size, replace=False, p=chosen / chosen.sum()))


def page_weights(labels: np.ndarray, pages: np.ndarray, sets: np.ndarray, power: float) -> np.ndarray:
    """A weight for each unit: 1 / (labelled units of its page) ** power, scaled so that
    each set (``sets``: the page's source) keeps its share of the labelled units.

    Departure (method svm; docs/experiments/quality-history.md, #39d, #45): drawn uniformly, the lines of a few
    long pages fill the sample; weighted, it holds more pages. Mixed units weigh 0.
    """
    weights = np.zeros(len(labels))
    labelled = labels != MIXED
    if not labelled.any():
        return weights
    _, page_of, per_page = np.unique(pages[labelled], return_inverse=True, return_counts=True)
    raw = 1.0 / per_page[page_of].astype(np.float64) ** power
    _, set_of, per_set = np.unique(sets[labelled], return_inverse=True, return_counts=True)
    raw *= per_set[set_of] / np.bincount(set_of, weights=raw)[set_of]
    weights[labelled] = raw
    return weights
