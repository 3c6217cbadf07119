"""An extraction's confidence in the output: the bound under which a page is
``low_confidence`` (``--min-confidence`` of the extract job and of ``webclean extract``),
and the quartiles of a run's confidences, counted in a histogram that each task fills
and the driver merges. The confidence itself is the model's (Extraction.confidence).

Pure Python: no pyspark, so this runs and is tested without a JVM.
"""

from __future__ import annotations

import argparse
from collections import Counter
from dataclasses import dataclass, field, replace

from webclean.result import Extraction, Status

__all__ = ["BINS", "QUARTILES", "ConfidenceHistogram", "mark_low_confidence", "min_confidence"]

# Fixed-width bins over [0, 1]: a quartile read from them lies within half a bin of the
# one of the values themselves, below the 3 decimals the summary gives.
BINS = 1000
QUARTILES = {"q1": 0.25, "median": 0.5, "q3": 0.75}


def mark_low_confidence(extraction: Extraction, minimum: float | None) -> Extraction:
    """``extraction`` as ``low_confidence`` when it is ``ok`` with a confidence under
    ``minimum``, its text and all else kept and the reason in ``error``; otherwise as it is.

    An extraction without a confidence, or of another status, is never marked: the bound
    judges only the model's own expectation of a text that was extracted.
    """
    confidence = extraction.confidence
    if minimum is None or extraction.status != Status.OK or confidence is None or confidence >= minimum:
        return extraction
    reason = f"confidence {confidence} is under --min-confidence {minimum}"
    return replace(extraction, status=Status.LOW_CONFIDENCE, error=reason)


def min_confidence(text: str) -> float:
    """The command-line argument ``--min-confidence``: a confidence, in [0, 1]."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a confidence is a number in [0, 1], not {text!r}") from None
    if not 0.0 <= value <= 1.0:  # NaN too
        raise argparse.ArgumentTypeError(f"a confidence lies in [0, 1], not {text}")
    return value


@dataclass
class ConfidenceHistogram:
    """The confidences of some pages in BINS fixed-width bins over [0, 1], and the least
    and the greatest exactly. One a task, merged on the driver: the quartiles of a run
    without the run's values in one place.

    ``bins`` keeps only the bins that hold a value: a task's report stays small.
    """

    bins: Counter[int] = field(default_factory=Counter)
    low: float | None = None
    high: float | None = None

    @property
    def count(self) -> int:
        return sum(self.bins.values())

    def add(self, confidence: float) -> None:
        value = min(max(confidence, 0.0), 1.0)
        self.bins[min(int(value * BINS), BINS - 1)] += 1
        self.low = value if self.low is None else min(self.low, value)
        self.high = value if self.high is None else max(self.high, value)

    def merge(self, other: ConfidenceHistogram) -> ConfidenceHistogram:
        self.bins.update(other.bins)
        for bound in (other.low, other.high):
            if bound is not None:
                self.low = bound if self.low is None else min(self.low, bound)
                self.high = bound if self.high is None else max(self.high, bound)
        return self

    def quartiles(self) -> dict[str, float] | None:
        """min, q1, median, q3 and max to 3 decimals; None without a value.

        min and max are exact. A quartile is read as numpy.percentile's default (linear)
        reads it from the values: at rank q·(n − 1), between the two values around it,
        each taken as the middle of its bin, held within min and max.
        """
        n, low, high = self.count, self.low, self.high
        if low is None or high is None or not n:
            return None
        ranked = sorted(self.bins.items())
        result = {"min": round(low, 3)}
        for name, q in QUARTILES.items():
            rank = q * (n - 1)
            below = int(rank)
            value = _ranked_value(ranked, below, low, high)
            if rank > below:
                value += (rank - below) * (_ranked_value(ranked, below + 1, low, high) - value)
            result[name] = round(value, 3)
        result["max"] = round(high, 3)
        return result


def _ranked_value(ranked: list[tuple[int, int]], rank: int, low: float, high: float) -> float:
    """The value of 0-based ``rank`` among the counts of ``ranked`` bins: the middle of its
    bin, held within [low, high]."""
    seen = 0
    for index, count in ranked:
        seen += count
        if rank < seen:
            return min(max((index + 0.5) / BINS, low), high)
    return high
