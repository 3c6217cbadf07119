"""When a run of the extract job fails, and what the jobs' exit codes say.

A run passes when at most ``max_error_share`` of its pages have an error status and,
with ``fail_on_file_errors``, every input file was read to its end without a damaged
record, and, with ``fail_on_empty``, its input held at least one page. The job writes
its rows and its summary either way; only a run that passes gets its ``_SUCCESS`` marker
(docs/output.md, "The run's summary").
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import dataclass

from webclean.result import Status

__all__ = ["ERROR_STATUSES", "EXIT_CRASH", "EXIT_OK", "EXIT_POLICY", "EXIT_USAGE", "FailurePolicy", "Verdict", "share"]

# The jobs' exit codes (jobs/extract.py, jobs/train.py, jobs/lexicon.py).
EXIT_OK = 0  # done; the extract job's run passed its policy
EXIT_CRASH = 1  # an unexpected exception: Python's own code, with the traceback on stderr
EXIT_USAGE = 2  # a wrong argument, input or configuration, said in one line (argparse's code too)
EXIT_POLICY = 3  # the job ran, but its result failed a check: a run over its error share, a lexicon below its minimum

# Statuses that say the extraction failed on a page. The others say what the page is:
# ok, low_confidence (a text the model expects little of), empty (no main text), not_html,
# too_large (refused by its size alone), and truncated and damaged, the rows of a file that
# broke (fail_on_file_errors).
ERROR_STATUSES = frozenset({Status.DECODE_ERROR, Status.PARSE_ERROR, Status.TIMEOUT, Status.ERROR})


@dataclass(frozen=True)
class Verdict:
    """What the policy found in a run: its error pages and, when it fails, why."""

    pages: int
    error_pages: int
    error_share: float
    files_with_errors: int
    failures: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return not self.failures


@dataclass(frozen=True)
class FailurePolicy:
    """``max_error_share``: the share of pages with an error status above which a run
    fails. ``fail_on_file_errors``: a run fails when a file could not be read to its end
    or had a damaged record skipped. ``fail_on_empty``: a run without a page fails."""

    max_error_share: float = 0.05
    fail_on_file_errors: bool = False
    fail_on_empty: bool = False

    def __post_init__(self) -> None:
        if not 0.0 <= self.max_error_share <= 1.0:
            raise ValueError(f"the maximum error share must lie in [0, 1], not {self.max_error_share}")

    def judge(self, pages_by_status: Mapping[str, int]) -> Verdict:
        """The verdict on a run that wrote ``pages_by_status`` rows (a file that broke has one
        ``truncated`` row, and one ``damaged`` row a damaged record skipped)."""
        truncated, damaged = pages_by_status.get(Status.TRUNCATED, 0), pages_by_status.get(Status.DAMAGED, 0)
        broken = truncated + damaged
        pages = sum(pages_by_status.values()) - broken
        errors = sum(n for status, n in pages_by_status.items() if status in ERROR_STATUSES)
        share = errors / pages if pages else 0.0
        failures = []
        if share > self.max_error_share:
            failures.append(
                f"{errors} of {pages} pages ({share:.1%}) have an error status, over the maximum share of {self.max_error_share}"
            )
        if self.fail_on_file_errors and truncated:
            failures.append(f"{truncated} input file{'s' if truncated > 1 else ''} could not be read to the end")
        if self.fail_on_file_errors and damaged:
            failures.append(f"{damaged} damaged record{'s' if damaged > 1 else ''} skipped in the input files")
        if self.fail_on_empty and not pages:
            failures.append("the input holds no page to extract")
        return Verdict(pages, errors, round(share, 6), broken, tuple(failures))


def share(text: str) -> float:
    """A command-line argument that is a share, in [0, 1]: --max-error-share, --max-rejected-share."""
    value = float(text)
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"a share lies in [0, 1], not {text}")
    return value
