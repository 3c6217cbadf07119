"""webclean.policy: when a run of the extract job fails."""

from __future__ import annotations

import pytest

from webclean.policy import ERROR_STATUSES, FailurePolicy
from webclean.result import Status


def test_a_run_passes_up_to_the_maximum_share_of_error_pages():
    policy = FailurePolicy(max_error_share=0.05)
    # not_html, empty and too_large say what a page is, not that the extraction failed.
    at_limit = policy.judge({"ok": 80, "not_html": 10, "empty": 4, "too_large": 1, "timeout": 3, "parse_error": 2})
    assert (at_limit.pages, at_limit.error_pages, at_limit.error_share) == (100, 5, 0.05)
    assert at_limit.passed and at_limit.failures == ()
    over = policy.judge({"ok": 94, "decode_error": 5, "error": 1})
    assert not over.passed
    assert over.failures == ("6 of 100 pages (6.0%) have an error status, over the maximum share of 0.05",)


def test_a_file_that_broke_fails_the_run_only_when_asked():
    counts = {"ok": 40, Status.TRUNCATED: 2}
    lenient = FailurePolicy().judge(counts)
    assert lenient.passed and lenient.pages == 40 and lenient.files_with_errors == 2
    strict = FailurePolicy(fail_on_file_errors=True).judge(counts)
    assert strict.failures == ("2 input files could not be read to the end",)
    assert FailurePolicy(fail_on_file_errors=True).judge({"ok": 3}).passed


def test_a_damaged_record_is_a_file_error_and_no_page():
    counts = {"ok": 40, Status.DAMAGED: 1}
    lenient = FailurePolicy().judge(counts)
    assert lenient.passed and lenient.pages == 40 and lenient.files_with_errors == 1
    strict = FailurePolicy(fail_on_file_errors=True).judge(counts)
    assert strict.failures == ("1 damaged record skipped in the input files",)


def test_both_failures_are_given_and_a_run_without_pages_passes():
    verdict = FailurePolicy(max_error_share=0.0, fail_on_file_errors=True).judge({"error": 1, Status.TRUNCATED: 1})
    assert len(verdict.failures) == 2
    assert FailurePolicy(max_error_share=0.0).judge({}).passed
    assert FailurePolicy(max_error_share=1.0).judge({"error": 7}).passed


def test_every_error_status_is_a_status():
    assert ERROR_STATUSES < set(Status)
    what_a_page_is = {Status.OK, Status.LOW_CONFIDENCE, Status.EMPTY, Status.NOT_HTML, Status.TOO_LARGE, Status.TRUNCATED, Status.DAMAGED}
    assert what_a_page_is | ERROR_STATUSES == set(Status) and not what_a_page_is & ERROR_STATUSES


def test_low_confidence_pages_count_as_pages_and_never_as_errors():
    verdict = FailurePolicy(max_error_share=0.0).judge({Status.OK: 3, Status.LOW_CONFIDENCE: 5})
    assert verdict.passed and (verdict.pages, verdict.error_pages) == (8, 0)


@pytest.mark.parametrize("share", [-0.1, 1.5])
def test_a_share_out_of_range_is_refused(share):
    with pytest.raises(ValueError, match="lie in"):
        FailurePolicy(max_error_share=share)


def test_a_run_without_a_page_fails_only_with_fail_on_empty():
    for counts in ({}, {Status.TRUNCATED: 1}):
        assert FailurePolicy().judge(counts).passed
        assert FailurePolicy(fail_on_empty=True).judge(counts).failures[-1] == "the input holds no page to extract"
    assert FailurePolicy(fail_on_empty=True).judge({"empty": 1}).passed
