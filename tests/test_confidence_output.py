"""webclean.confidence_output: the low_confidence status under --min-confidence, and the
quartiles of a run's confidences read from merged histograms."""

from __future__ import annotations

import argparse
import json

import numpy as np
import pytest

from webclean.confidence_output import BINS, ConfidenceHistogram, mark_low_confidence, min_confidence
from webclean.result import Extraction, Status


def extraction(confidence: float | None, status: Status = Status.OK) -> Extraction:
    return Extraction(
        text="The first paragraph.\nThe second.", title="A title", status=status, block_path="/html/body/div",
        lang="en", page_type="article", page_type_probability=0.9, confidence=confidence,
    )  # fmt: skip


def test_the_confidence_is_part_of_the_result_and_its_dict():
    row = extraction(0.8125).to_dict()
    assert json.loads(json.dumps(row))["confidence"] == 0.8125
    assert list(row)[-2:] == ["page_type_probability", "confidence"]
    assert Extraction.failed(Status.TIMEOUT, "slow").to_dict()["confidence"] is None
    assert Status.LOW_CONFIDENCE == "low_confidence" and Status("low_confidence") is Status.LOW_CONFIDENCE


def test_an_ok_page_under_the_bound_is_low_confidence_with_all_else_kept():
    page = extraction(0.41)
    marked = mark_low_confidence(page, 0.5)
    assert marked.status == Status.LOW_CONFIDENCE and not marked.ok
    assert marked.error == "confidence 0.41 is under --min-confidence 0.5"
    kept = {k: v for k, v in marked.to_dict().items() if k not in ("status", "error")}
    assert kept == {k: v for k, v in page.to_dict().items() if k not in ("status", "error")}
    assert page.status == Status.OK  # the extraction itself is left as it was


@pytest.mark.parametrize("confidence", [0.5, 0.500001, 0.9, 1.0])
def test_an_ok_page_at_or_above_the_bound_is_left_as_it_is(confidence):
    page = extraction(confidence)
    assert mark_low_confidence(page, 0.5) is page


def test_the_bounds_of_the_range():
    assert mark_low_confidence(extraction(0.0), 0.0).status == Status.OK  # 0 marks none
    assert mark_low_confidence(extraction(0.999), 1.0).status == Status.LOW_CONFIDENCE
    assert mark_low_confidence(extraction(1.0), 1.0).status == Status.OK
    assert mark_low_confidence(extraction(0.2), None).status == Status.OK  # no bound given


def test_a_page_without_a_confidence_is_never_marked():
    page = extraction(None)
    assert mark_low_confidence(page, 1.0) is page


@pytest.mark.parametrize("status", [s for s in Status if s != Status.OK])
def test_a_page_of_another_status_is_never_marked(status):
    page = extraction(0.1, status)
    assert mark_low_confidence(page, 0.9) is page


@pytest.mark.parametrize(("text", "value"), [("0", 0.0), ("0.7", 0.7), ("1", 1.0), ("1e-1", 0.1)])
def test_the_argument_takes_a_number_in_the_unit_interval(text, value):
    assert min_confidence(text) == value


@pytest.mark.parametrize("text", ["-0.1", "1.01", "nan", "inf", "abc", "", "70%"])
def test_the_argument_refuses_anything_else(text):
    with pytest.raises(argparse.ArgumentTypeError, match="confidence"):
        min_confidence(text)


def test_no_confidence_no_quartiles():
    assert ConfidenceHistogram().quartiles() is None
    assert ConfidenceHistogram().merge(ConfidenceHistogram()).quartiles() is None


@pytest.mark.parametrize("size", [1, 2, 3, 4, 9, 100, 5_000])
@pytest.mark.parametrize("seed", range(4))
def test_the_quartiles_of_merged_histograms_are_numpys_within_a_thousandth(size, seed):
    rng = np.random.default_rng(seed)
    values = rng.beta(5, 2, size) if seed % 2 else rng.random(size)
    values[: size // 10] = np.round(values[: size // 10], 3)  # on the bins' edges too
    parts = [ConfidenceHistogram() for _ in range(3)]
    for n, value in enumerate(values):
        parts[n % 3].add(float(value))
    merged = ConfidenceHistogram()
    for part in parts:
        merged.merge(part)
    quartiles = merged.quartiles()
    assert quartiles is not None and list(quartiles) == ["min", "q1", "median", "q3", "max"]
    expected = np.percentile(values, [0, 25, 50, 75, 100])
    assert np.all(np.abs(np.array(list(quartiles.values())) - expected) <= 0.001 + 1e-12), (quartiles, expected)
    assert (quartiles["min"], quartiles["max"]) == (round(values.min(), 3), round(values.max(), 3))
    assert all(value == round(value, 3) for value in quartiles.values())


def test_a_histogram_holds_one_count_a_bin_it_uses():
    histogram = ConfidenceHistogram()
    for value in (0.0, 0.0004, 0.5, 0.9999, 1.0):
        histogram.add(value)
    assert histogram.bins == {0: 2, BINS // 2: 1, BINS - 1: 2} and histogram.count == 5
    # q1 is the second value, 0.0004, read as the middle of its bin, 0.0005.
    assert histogram.quartiles() == {"min": 0.0, "q1": 0.001, "median": 0.5, "q3": 1.0, "max": 1.0}
