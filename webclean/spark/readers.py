"""One reader per input format: the page records of a file as :class:`InputRecord` (and,
in a WARC, the damaged records skipped as :class:`~webclean.warc.WarcDamage`), then a
:class:`~webclean.warc.WarcEnd` that counts them and says where reading stopped.

pyarrow only: no pyspark, so this runs and is tested without a JVM.
"""

from __future__ import annotations

import gzip
import io
import json
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from webclean.address import file_uri, page_address
from webclean.payload import decode_payload
from webclean.result import Status
from webclean.spark.inputs import InputFile, filesystem_for
from webclean.storage import open_input
from webclean.warc import WarcDamage, WarcEnd, WarcPage, iter_warc_range

GZIP_MAGIC = b"\x1f\x8b"
# A JSON line is read at most this many times limits.max_bytes (plus LINE_SLACK) before it is
# parsed: its html, escaped as JSON, may be longer than its bytes; a longer line is too_large
# unparsed, and its rest is skipped in blocks, so a line of any length costs that much memory.
LINE_FACTOR = 2
LINE_SLACK = 64 << 10
SKIP_BLOCK = 1 << 20
HTML_COLUMN_TYPES = (pa.types.is_string, pa.types.is_large_string, pa.types.is_binary, pa.types.is_large_binary)


@dataclass(frozen=True)
class InputRecord:
    """One page to extract, whatever the input format.

    ``offset`` locates it in ``source_file``: the byte offset of a WARC record, the
    line number in JSON Lines, the row number in Parquet, 0 for an HTML file.
    A ``status`` set here (too_large, decode_error) means the body was not read.
    """

    source_file: str
    record_type: str
    offset: int
    url: str | None
    html: bytes | str
    length: int
    http_charset: str | None = None
    content_type: str | None = None
    warc_record_id: str | None = None
    warc_date: datetime | None = None
    status: str | None = None
    error: str | None = None


FileItem = InputRecord | WarcDamage | WarcEnd


def read_input(file: InputFile, max_bytes: int) -> Iterator[FileItem]:
    """The page records of one file, then a :class:`WarcEnd` (for every format)."""
    readers = {"warc": _warc_records, "html": _html_records, "jsonl": _jsonl_records, "parquet": _parquet_records}
    return readers[file.format](file, max_bytes)


def _warc_records(file: InputFile, max_bytes: int) -> Iterator[FileItem]:
    for item in iter_warc_range(file.path, file.start, file.stop, max_bytes=max_bytes):
        yield _from_warc(file.path, item) if isinstance(item, WarcPage) else item


def _from_warc(path: str, page: WarcPage) -> InputRecord:
    return InputRecord(
        source_file=path,
        record_type=page.record_type,
        offset=page.offset,
        url=page.url,
        html=page.body,
        length=page.length,
        http_charset=page.charset,
        content_type=page.content_type,
        warc_record_id=page.warc_record_id,
        warc_date=page.warc_date,
        status=page.status,
        error=page.error,
    )


def _html_records(file: InputFile, max_bytes: int) -> Iterator[FileItem]:
    """One page per file, gzipped or not whatever its name; its URL is its canonical link or its own URI."""
    path = file.path
    try:
        with open_input(path) as stream:
            raw = stream.read(max_bytes + 1)
    except OSError as exc:
        yield WarcEnd(path, {}, offset=0, error=f"cannot read: {exc}")
        return
    if len(raw) > max_bytes:
        error = f"file over limits.max_bytes = {max_bytes}"
        yield InputRecord(path, "html", 0, file_uri(path), b"", file.size, status=Status.TOO_LARGE, error=error)
    else:
        coding = "gzip" if raw[:2] == GZIP_MAGIC else None
        payload = decode_payload(raw, transfer_encoding=None, content_encoding=coding, max_bytes=max_bytes)
        url = page_address(payload.body, path)
        yield InputRecord(path, "html", 0, url, payload.body, len(raw), status=payload.status, error=payload.error)
    yield WarcEnd(path, {"html": 1})


def _jsonl_records(file: InputFile, max_bytes: int) -> Iterator[FileItem]:
    path = file.path
    number = records = 0
    try:
        with open_input(path) as raw:
            # pyarrow's streams cannot read lines; a buffered reader over them can.
            lines = gzip.GzipFile(fileobj=raw) if path.endswith(".gz") else io.BufferedReader(raw)  # type: ignore[type-var]
            for number, (line, size) in enumerate(bounded_lines(lines, LINE_FACTOR * max_bytes + LINE_SLACK), 1):
                if line is None:
                    records += 1
                    error = f"JSON line of {size} bytes, over {LINE_FACTOR} x limits.max_bytes = {max_bytes}: not parsed"
                    yield InputRecord(path, "jsonl", number, None, "", size, status=Status.TOO_LARGE, error=error)
                elif line.strip():
                    records += 1
                    yield _jsonl_record(path, number, line, max_bytes)
    except (OSError, EOFError, zlib.error) as exc:
        # The line after the last one read is where the file broke.
        yield WarcEnd(path, {"jsonl": records}, offset=number + 1, error=f"{type(exc).__name__}: {exc}")
        return
    yield WarcEnd(path, {"jsonl": records})


def bounded_lines(stream: Any, limit: int) -> Iterator[tuple[bytes | None, int]]:
    """Each line of ``stream`` with its size in bytes; None for a line over ``limit`` bytes,
    whose rest is read in blocks and dropped, so that no line is held whole past the limit."""
    while line := stream.readline(limit + 1):
        if len(line) <= limit or line.endswith(b"\n"):
            yield line, len(line)
            continue
        size = len(line)
        del line
        while block := stream.readline(SKIP_BLOCK):
            size += len(block)
            if block.endswith(b"\n"):
                break
        yield None, size


def _jsonl_record(path: str, number: int, line: bytes, max_bytes: int) -> InputRecord:
    try:
        row = json.loads(line)
    except ValueError as exc:  # not JSON, or not UTF-8
        return InputRecord(path, "jsonl", number, None, "", len(line), status=Status.DECODE_ERROR, error=f"not JSON: {exc}")
    if not isinstance(row, dict):
        return InputRecord(path, "jsonl", number, None, "", len(line), status=Status.DECODE_ERROR, error="not a JSON object")
    url = _url(row.get("url"))
    if not isinstance(row.get("html"), str):
        return InputRecord(path, "jsonl", number, url, "", len(line), status=Status.DECODE_ERROR, error="no html field")
    return _text_record(path, "jsonl", number, url, row["html"], max_bytes)


def _parquet_records(file: InputFile, max_bytes: int) -> Iterator[FileItem]:
    path = file.path
    number = 0
    try:
        filesystem, inner = filesystem_for(path)
        with filesystem.open_input_file(inner) as handle:
            table = pq.ParquetFile(handle)
            columns = [c for c in ("url", "html") if c in table.schema_arrow.names]
            if "html" not in columns:
                yield WarcEnd(path, {}, offset=0, error="no html column")
                return
            html_type = table.schema_arrow.field("html").type
            if not any(is_type(html_type) for is_type in HTML_COLUMN_TYPES):
                yield WarcEnd(path, {}, offset=0, error=f"the html column holds {html_type}, not text or bytes")
                return
            for batch in table.iter_batches(batch_size=64, columns=columns):
                urls = batch.column("url").to_pylist() if "url" in columns else [None] * batch.num_rows
                pages = batch.column("html")
                # The sizes first, in Arrow: a page over the cap never becomes a Python string.
                sizes = pc.fill_null(pc.binary_length(pages), 0).to_pylist()
                for row, (url, size) in enumerate(zip(urls, sizes)):
                    if size > max_bytes:
                        error = f"page over limits.max_bytes = {max_bytes}"
                        yield InputRecord(path, "parquet", number, _url(url), "", size, status=Status.TOO_LARGE, error=error)
                    else:
                        yield _text_record(path, "parquet", number, _url(url), pages[row].as_py() or "", max_bytes)
                    number += 1
    except (OSError, pa.ArrowException) as exc:
        yield WarcEnd(path, {"parquet": number}, offset=number, error=f"{type(exc).__name__}: {exc}")
        return
    yield WarcEnd(path, {"parquet": number})


def _url(value: Any) -> str | None:
    return str(value) if value is not None else None


def _text_record(path: str, kind: str, offset: int, url: str | None, html: bytes | str, max_bytes: int) -> InputRecord:
    """A page given as text or bytes; ``length`` and the cap count its UTF-8 bytes, as for a WARC."""
    size = len(html) if isinstance(html, bytes) else len(html.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        return InputRecord(path, kind, offset, url, "", size, status=Status.TOO_LARGE, error=f"page over limits.max_bytes = {max_bytes}")
    return InputRecord(path, kind, offset, url, html, size)
