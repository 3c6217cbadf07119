"""The rows of a training input (pages with gold), checked against one schema before any work.

``webclean train`` and the Spark jobs jobs/train.py and jobs/lexicon.py read their
input through this module, so that both accept and reject the same rows. Every line of
a JSON Lines file of pages with gold must be UTF-8, JSON, and a row that fits the schema
of datasets.check_row, the one ``webclean evaluate`` reads by. A row that fails is
rejected, counted by its reason; the input fails (DataError, one line naming the first
rejected row as FILE:LINE) when more than its ``--max-rejected-share`` of the rows are
rejected, and is read without them otherwise.

The rows are checked by a JSON Schema validator (datasets.PAGE_SCHEMA), over JSON's own
types: pyarrow is only in the ``spark`` extra, and the library trains without it.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from webclean.datasets import DataError, Page, check_row
from webclean.policy import share
from webclean.storage import open_input


def parse_line(line: bytes) -> tuple[dict | None, str | None]:
    """A line's row and None, or None and why it is rejected; (None, None) for a blank line."""
    if not line.strip():
        return None, None
    try:
        row = json.loads(line.decode("utf-8"))
    except UnicodeDecodeError as exc:
        return None, f"not UTF-8 ({exc.reason} at byte {exc.start})"
    except ValueError:
        return None, "not JSON"
    reason = check_row(row)
    return (row, None) if reason is None else (None, reason)


def training_rows(path: str) -> Iterator[tuple[int, dict | None, str | None]]:
    """(line number, row, reason) for each non-blank line; raises DataError for a file that
    cannot be read (missing, not gzip, cut short)."""
    try:
        with open_input(path) as raw:
            # pyarrow's streams cannot read lines; a buffered reader over them can.
            lines = gzip.GzipFile(fileobj=raw) if path.endswith(".gz") else io.BufferedReader(raw)  # type: ignore[type-var]
            for number, line in enumerate(lines, 1):
                row, reason = parse_line(line)
                if row is not None or reason is not None:
                    yield number, row, reason
    except (OSError, EOFError, zlib.error) as exc:
        raise DataError(f"{path}: cannot be read: {getattr(exc, 'strerror', None) or exc}") from exc


def file_pages(path: str) -> Iterator[tuple[int, Page]]:
    """(line number, page) for each row of ``path`` that fits the schema; the rejected rows,
    which check_file counts, are left out."""
    source = PurePosixPath(path).name.split(".")[0]
    for number, row, _ in training_rows(path):
        if row is not None:
            yield number, Page.from_json(row, source=source)


def checked_pages(paths: Iterable[str]) -> Iterator[Page]:
    """The pages of each file in turn, as datasets.read_pages reads them, without the rejected rows."""
    for path in paths:
        yield from (page for _, page in file_pages(path))


@dataclass
class FileCheck:
    """What one file holds: its rows, those rejected by reason, the first of each, or the
    error that stopped its reading."""

    path: str
    rows: int = 0
    rejected: Counter[str] = field(default_factory=Counter)
    first: dict[str, int] = field(default_factory=dict)  # reason -> line number
    error: str | None = None


def check_file(path: str) -> FileCheck:
    check = FileCheck(path)
    try:
        for number, _, reason in training_rows(path):
            check.rows += 1
            if reason is not None:
                check.rejected[reason] += 1
                check.first.setdefault(reason, number)
    except DataError as exc:
        check.error = str(exc)
    return check


@dataclass(frozen=True)
class InputReport:
    """The training input as checked: its rows, and those rejected by reason."""

    rows: int
    rejected: dict[str, int]

    def to_dict(self) -> dict[str, object]:
        return {"input_rows": self.rows, "rejected_rows": self.rejected}

    def describe(self) -> str:
        """One line for the log: how many rows were rejected, and why."""
        return f"training input: {sum(self.rejected.values())} of {self.rows} rows rejected: {self.rejected}"


def judge_input(checks: Sequence[FileCheck], max_rejected_share: float) -> InputReport:
    """The report of the files' checks; DataError, in one line, for a file that cannot be
    read, more rejected rows than ``max_rejected_share`` (naming the first as FILE:LINE),
    or an input without a page."""
    for check in checks:
        if check.error:
            raise DataError(check.error)
    rows = sum(check.rows for check in checks)
    rejected: Counter[str] = Counter()
    for check in checks:
        rejected.update(check.rejected)
    total = sum(rejected.values())
    if total > max_rejected_share * rows:
        path, number, reason = next((c.path, min(c.first.values()), _first_reason(c)) for c in checks if c.rejected)
        reasons = ", ".join(f"{why}: {n}" for why, n in rejected.most_common())
        raise DataError(
            f"{path}:{number}: {reason}; {total} of {rows} rows rejected ({reasons}), "
            f"over --max-rejected-share {max_rejected_share}"
        )
    if rows == total:
        raise DataError(f"no page to train on in {', '.join(check.path for check in checks)} ({rows} rows, all rejected)")
    return InputReport(rows, dict(rejected.most_common()))


def _first_reason(check: FileCheck) -> str:
    return min(check.first, key=lambda reason: check.first[reason])


def add_rejected_share(parser: argparse.ArgumentParser) -> None:
    """The option of every command that trains: how many malformed rows it leaves out before failing."""
    parser.add_argument(
        "--max-rejected-share", type=share, default=0.0, metavar="SHARE",
        help="leave out rows that do not fit the schema (docs/output.md), counted by reason, up to this share of "
        "the rows; past it, fail with exit 2 naming the first (default: %(default)s, none)",
    )  # fmt: skip
