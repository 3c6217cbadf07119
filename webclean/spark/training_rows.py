"""The rows of the training jobs' input, checked against one schema before any work.

Every line of a JSON Lines file of pages with gold must be UTF-8, JSON, an object, and
hold the fields of :data:`TRAINING_SCHEMA` with their types (pyarrow converts each
field to its type, or says it cannot); ``html`` and ``text`` must be there and not null,
but a page with ``peers`` may go without ``text`` (datasets.py: a weak page). Other
fields are allowed and ignored. A row that fails is rejected, counted by its reason;
the job fails (exit 2, one line naming the first rejected row) when more than its
``--max-rejected-share`` of the rows are rejected, and reads the rest without them.

pyarrow only: no pyspark, so this runs and is tested without a JVM.
"""

from __future__ import annotations

import gzip
import io
import json
import zlib
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa

from webclean.datasets import DataError
from webclean.warc import open_input

TRAINING_SCHEMA = pa.schema(
    [
        pa.field("html", pa.string(), nullable=False),
        pa.field("text", pa.string(), nullable=False),  # may be left out by a page with peers
        pa.field("id", pa.string()),
        pa.field("source", pa.string()),
        pa.field("url", pa.string()),
        pa.field("lang", pa.string()),
        pa.field("gold_type", pa.string()),
        pa.field("with", pa.list_(pa.string())),
        pa.field("without", pa.list_(pa.string())),
        pa.field("peers", pa.map_(pa.string(), pa.string())),
        pa.field("page_type", pa.string()),
        pa.field("domain", pa.string()),
        pa.field("site", pa.string()),
    ]
)
# The fields a page with peers may leave out: its labels come from the peers' agreement.
_WEAK_OPTIONAL = frozenset({"text"})
_TYPE_NAMES = {
    pa.string(): "a string",
    pa.list_(pa.string()): "a list of strings",
    pa.map_(pa.string(), pa.string()): "an object of strings",
}


def check_row(row: Any) -> str | None:
    """Why a parsed JSON line cannot train, or None when it fits the schema."""
    if not isinstance(row, dict):
        return "not a JSON object"
    weak = bool(row.get("peers"))
    for column in TRAINING_SCHEMA:
        value = row.get(column.name)
        if value is None:
            if not column.nullable and not (weak and column.name in _WEAK_OPTIONAL):
                return f"no {column.name}" if column.name not in row else f"{column.name} is null"
            continue
        try:
            pa.array([value], type=column.type)
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            return f"{column.name} is not {_TYPE_NAMES.get(column.type, str(column.type))}"
    return None


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


def judge_input(checks: Sequence[FileCheck], max_rejected_share: float) -> InputReport:
    """The report of the files' checks; DataError, in one line, for a file that cannot be
    read, an input without a page, or more rejected rows than ``max_rejected_share``."""
    for check in checks:
        if check.error:
            raise DataError(check.error)
    rows = sum(check.rows for check in checks)
    rejected: Counter[str] = Counter()
    for check in checks:
        rejected.update(check.rejected)
    total = sum(rejected.values())
    if rows == total:
        raise DataError(f"no page to train on in {', '.join(check.path for check in checks)} ({rows} rows, all rejected)")
    if total > max_rejected_share * rows:
        path, number, reason = next((c.path, min(c.first.values()), _first_reason(c)) for c in checks if c.rejected)
        reasons = ", ".join(f"{why}: {n}" for why, n in rejected.most_common())
        raise DataError(
            f"{path}:{number}: {reason}; {total} of {rows} rows rejected ({reasons}), "
            f"over --max-rejected-share {max_rejected_share}"
        )
    return InputReport(rows, dict(rejected.most_common()))


def _first_reason(check: FileCheck) -> str:
    return min(check.first, key=lambda reason: check.first[reason])
