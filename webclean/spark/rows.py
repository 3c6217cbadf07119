"""A page record to its output row: the extraction, the Parquet schema of the rows, and
the batches in which a task hands them to the JVM.

pyarrow only: no pyspark, so this runs and is tested without a JVM.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from webclean.confidence_output import mark_low_confidence
from webclean.config import Config
from webclean.model import Model
from webclean.result import Extraction, Status
from webclean.spark.inputs import InputFile
from webclean.spark.readers import InputRecord, read_input
from webclean.warc import WarcDamage, WarcEnd

# The status of the row that stands for the unread rest of a file that broke.
TRUNCATED = Status.TRUNCATED
# The status of the row that stands for a damaged record skipped in a file read on.
DAMAGED = Status.DAMAGED
# The rows that say a file could not be read whole.
FILE_ERRORS = frozenset({TRUNCATED, DAMAGED})

# Bodies that cannot hold a page whatever their bytes say; the extractor is not asked.
BINARY_MEDIA = ("image/", "audio/", "video/", "font/")
BINARY_TYPES = frozenset(
    {"application/pdf", "application/zip", "application/gzip", "application/x-gzip", "application/octet-stream"}
)

# An output batch is sent to the JVM when it holds this many rows or text characters.
BATCH_ROWS = 512
BATCH_CHARS = 16 << 20

OUTPUT_SCHEMA = pa.schema(
    [
        ("url", pa.string()),
        ("warc_record_id", pa.string()),
        ("warc_date", pa.timestamp("us", tz="UTC")),
        ("record_type", pa.string()),
        ("source_file", pa.string()),
        ("offset", pa.int64()),
        ("content_type", pa.string()),
        ("http_charset", pa.string()),
        ("encoding", pa.string()),
        ("title", pa.string()),
        ("text", pa.string()),
        ("lang", pa.string()),
        ("lang_declared", pa.string()),
        ("status", pa.string()),
        ("error", pa.string()),
        ("block_path", pa.string()),
        ("method", pa.string()),
        ("published", pa.string()),
        ("source", pa.string()),
        ("page_type", pa.string()),
        ("page_type_probability", pa.float64()),
        ("confidence", pa.float64()),
        ("bytes_in", pa.int64()),
        ("chars_out", pa.int64()),
        ("model_version", pa.string()),
    ]
)

ExtractFn = Callable[..., Extraction]


@dataclass(frozen=True)
class Shared:
    """What every Python worker needs once: broadcast, loaded once per worker process."""

    config: Config
    model: Model
    model_version: str
    min_confidence: float | None = None  # an ok page under it is low_confidence (--min-confidence)


def extract_record(record: InputRecord, shared: Shared, extract_fn: ExtractFn) -> Extraction:
    method = shared.config.method
    if record.status is not None:
        return Extraction.failed(Status(record.status), record.error or record.status, method=method)
    if _is_binary(record.content_type):
        return Extraction.failed(Status.NOT_HTML, f"Content-Type {record.content_type}", method=method)
    return extract_fn(record.html, record.url, config=shared.config, model=shared.model, http_charset=record.http_charset)


def extract_rows(file: InputFile, shared: Shared, extract_fn: ExtractFn, counts: Counter[str]) -> Iterator[dict[str, Any]]:
    """One row per page record of ``file``, one ``damaged`` row per damaged record skipped,
    and one ``truncated`` row if reading broke."""
    for item in read_input(file, shared.config.limits.max_bytes):
        if isinstance(item, InputRecord):
            result = mark_low_confidence(extract_record(item, shared, extract_fn), shared.min_confidence)
            yield page_row(item, result, shared.model_version)
            continue
        if isinstance(item, WarcDamage):
            yield damage_row(file.path, item, shared.model_version)
            continue
        counts.update(item.counts)
        if not item.complete:
            yield stop_row(file.path, item, shared.model_version)


def page_row(record: InputRecord, result: Extraction, model_version: str) -> dict[str, Any]:
    return {
        "url": record.url,
        "warc_record_id": record.warc_record_id,
        "warc_date": record.warc_date,
        "record_type": record.record_type,
        "source_file": record.source_file,
        "offset": record.offset,
        "content_type": record.content_type,
        "http_charset": record.http_charset,
        "encoding": result.encoding,
        "title": result.title,
        "text": result.text,
        "lang": result.lang,
        "lang_declared": result.lang_declared,
        "status": result.status,
        "error": result.error,
        "block_path": result.block_path,
        "method": result.method,
        "published": result.published,
        "source": result.source,
        "page_type": result.page_type,
        "page_type_probability": result.page_type_probability,
        "confidence": result.confidence,
        "bytes_in": record.length,
        "chars_out": len(result.text),
        "model_version": model_version,
    }


def stop_row(path: str, end: WarcEnd, model_version: str) -> dict[str, Any]:
    """The row that stands for the unread rest of a file: where reading stopped, and why."""
    row = dict.fromkeys(OUTPUT_SCHEMA.names)
    row.update(source_file=path, offset=end.offset, status=TRUNCATED, error=end.error, title="", text="")
    row.update(bytes_in=0, chars_out=0, model_version=model_version)
    return row


def damage_row(path: str, damage: WarcDamage, model_version: str) -> dict[str, Any]:
    """The row of a damaged record: where it starts, its address if its header was read, and why."""
    row = dict.fromkeys(OUTPUT_SCHEMA.names)
    row.update(source_file=path, offset=damage.offset, status=DAMAGED, error=damage.error, title="", text="")
    row.update(url=damage.url, warc_record_id=damage.warc_record_id)
    row.update(bytes_in=damage.resumed - damage.offset, chars_out=0, model_version=model_version)
    return row


def _is_binary(content_type: str | None) -> bool:
    return content_type is not None and (content_type in BINARY_TYPES or content_type.startswith(BINARY_MEDIA))


class RowBatch:
    """Rows gathered column by column until the batch is worth sending."""

    def __init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        self.columns: dict[str, list[Any]] = {name: [] for name in OUTPUT_SCHEMA.names}
        self.rows = 0
        self.chars = 0

    def add(self, row: Mapping[str, Any]) -> None:
        for name, values in self.columns.items():
            values.append(row[name])
        self.rows += 1
        self.chars += row["chars_out"] or 0

    @property
    def full(self) -> bool:
        return self.rows >= BATCH_ROWS or self.chars >= BATCH_CHARS

    def flush(self) -> pa.RecordBatch:
        batch = pa.RecordBatch.from_pydict(self.columns, schema=OUTPUT_SCHEMA)
        self._reset()
        return batch
