"""Step 3's training sample, drawn from labelled units, and the report of a training run.

The paper balances the classes 1:1 by sampling the larger one; method svm draws the
units in their classes' own proportion, pages weighted (a departure, see
:func:`page_weights`). Every trainer fills a :class:`TrainReport`.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable
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
    language_shares: dict[str, float] = field(default_factory=dict)  # method svm: each language's weight in the sample
    line_keys: int = 0  # method svm: the line lexicon's keys
    tree_rows: int = 0  # method svm: the labelled units the boosted trees learned from
    trees: int = 0  # ... and how many trees they made (early stopping may end them sooner)
    second_trees: int = 0  # method svm: the second stage's trees
    page_type_words: int = 0  # method svm: the page type lexicon's words (0: no page type model)
    confidence_pages: int = 0  # method svm: the held-out extractions the confidence model learned from (0: none)

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


def unit_keys(source: str, page_id: str, texts: Iterable[str], seed: int) -> np.ndarray:
    """A number in (0, 1) for each unit of a page, fixed by its set, its page, its text
    (and which occurrence of that text it is on the page) and the seed.

    :func:`keyed_sample` draws by these keys, so a unit's chance of being drawn does
    not depend on the other units: pages that a change leaves alone keep their draw.
    """
    seen: Counter[str] = Counter()
    values = []
    for text in texts:
        seen[text] += 1
        name = f"{seed}\0{source}\0{page_id}\0{seen[text]}\0{text}".encode("utf-8", "surrogatepass")
        values.append(int.from_bytes(hashlib.blake2b(name, digest_size=8).digest(), "big"))
    keys = (np.asarray(values, dtype=np.uint64) >> np.uint64(11)).astype(np.float64)
    return (keys + 0.5) * 2.0**-53


def keyed_sample(labels: np.ndarray, size: int, keys: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """Indices of up to ``size`` labelled samples, drawn without replacement with
    probability by ``weights`` (uniform if None): the ``size`` largest of
    log(key) / weight (Efraimidis and Spirakis, 2006), ``keys`` as :func:`unit_keys`
    makes them. Method svm's sample; unlike :func:`natural_sample`, adding or removing
    units leaves the draw of the others as it was.
    """
    labelled = labels != MIXED
    if weights is not None:
        labelled &= weights > 0
    candidates = np.flatnonzero(labelled)
    size = min(size, len(candidates))
    if size == 0:
        return candidates
    w = np.ones(len(candidates)) if weights is None else weights[candidates]
    scores = np.log(keys[candidates]) / w
    top = np.argpartition(-scores, size - 1)[:size]
    return np.sort(candidates[top])


def held_out_rows(keys: np.ndarray, share: float = 0.1) -> np.ndarray:
    """Which units, by their keys (:func:`unit_keys`), the boosted trees' early stopping
    scores: about ``share`` of them, chosen by the keys' low digits, so that the choice
    does not follow :func:`keyed_sample`'s, which the keys' size decides."""
    return (keys * 1024.0) % 1.0 < share


def page_weights(
    labels: np.ndarray,
    pages: np.ndarray,
    sets: np.ndarray,
    power: float,
    langs: np.ndarray | None = None,
    language_power: float = 1.0,
) -> np.ndarray:
    """A weight for each unit: 1 / (labelled units of its page) ** power, scaled so that
    each set (``sets``: the page's source) keeps its share of the labelled units, and,
    with ``langs`` (the page's language), each language weighs in proportion to its
    labelled units ** ``language_power``, its sets keeping their shares within it.

    Departure (method svm): drawn uniformly, the lines of a few long pages fill the
    sample; weighted, it holds more pages. Mixed units weigh 0.
    """
    weights = np.zeros(len(labels))
    labelled = labels != MIXED
    if not labelled.any():
        return weights
    _, page_of, per_page = np.unique(pages[labelled], return_inverse=True, return_counts=True)
    raw = 1.0 / per_page[page_of].astype(np.float64) ** power
    _, set_of, per_set = np.unique(sets[labelled], return_inverse=True, return_counts=True)
    raw *= per_set[set_of] / np.bincount(set_of, weights=raw)[set_of]
    if langs is not None:
        _, lang_of, per_lang = np.unique(langs[labelled], return_inverse=True, return_counts=True)
        share = per_lang.astype(np.float64) ** language_power
        raw *= (share / share.sum() * len(raw) / np.bincount(lang_of, weights=raw))[lang_of]
    weights[labelled] = raw
    return weights


def language_shares(weights: np.ndarray, langs: np.ndarray) -> dict[str, float]:
    """Each language's share of the total weight (the sample's expected make-up)."""
    total = weights.sum()
    names, lang_of = np.unique(langs, return_inverse=True)
    sums = np.bincount(lang_of, weights=weights)
    return {str(name): round(float(w / total), 4) for name, w in zip(names, sums)} if total else {}
