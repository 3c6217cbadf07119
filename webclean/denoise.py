"""Step 4 of method.md: keep the content units of the block, cut noise off long tags (β).

A ``<p>`` or ``<a>`` of at most β characters is classified whole. A longer one goes
through the noise filter: noise in a long tag sits at its end, so its last sentence is
classified, dropped when noise, and the next one from the end tried, until the first
sentence classified as content, which is kept with everything before it. The paper
writes the filter recursively; here it is a loop over all long tags at once, so each
round is one vectorised classification, and no page can reach the recursion limit.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from webclean.classifier import CONTENT, SVMParams
from webclean.features import FEATURE_SETS, Unit
from webclean.lexicon import NoiseLexicon
from webclean.locate import text_length
from webclean.tokenize import split_sentences


def denoise(
    units: Sequence[Unit], lexicon: NoiseLexicon, svm: SVMParams, beta: int, feature_set: str = "paper"
) -> list[str]:
    """The kept text of each kept unit, in document order."""
    row = FEATURE_SETS[feature_set]
    kept: list[str | None] = [u.text if not u.is_sample else None for u in units]
    short = [i for i, u in enumerate(units) if u.is_sample and text_length(u.text) <= beta]
    if short:
        rows = [row(units[i], units[i].text, lexicon) for i in short]
        for i, label in zip(short, svm.predict(np.asarray(rows))):
            if label == CONTENT:
                kept[i] = units[i].text
    long_units = [i for i, u in enumerate(units) if u.is_sample and text_length(u.text) > beta]
    for i, text in zip(long_units, noise_filter([units[i] for i in long_units], lexicon, svm, feature_set)):
        kept[i] = text
    return [text for text in kept if text]


def noise_filter(
    units: Sequence[Unit], lexicon: NoiseLexicon, svm: SVMParams, feature_set: str = "paper"
) -> list[str | None]:
    """For each long unit, its text up to and including its last content sentence."""
    row = FEATURE_SETS[feature_set]
    sentences = [split_sentences(u.text) for u in units]
    # ends[k]: how many of unit k's sentences are still in play; None once decided.
    ends: list[int | None] = [len(s) for s in sentences]
    result: list[str | None] = [None] * len(units)
    while True:
        pending = [k for k, end in enumerate(ends) if end]
        if not pending:
            return result
        rows = []
        for k in pending:
            unit, last = units[k], sentences[k][ends[k] - 1]  # type: ignore[operator]
            rows.append(row(unit, last.strip(), lexicon))
        for k, label in zip(pending, svm.predict(np.asarray(rows))):
            end = ends[k] - 1  # type: ignore[operator]
            if label == CONTENT:
                result[k] = "".join(sentences[k][: end + 1]).strip()
                ends[k] = None
            else:
                ends[k] = end if end > 0 else None
