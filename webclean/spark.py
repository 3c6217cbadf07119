"""The Spark glue, and the only module of webclean that imports pyspark.

A run of the extract job, in order:

1. ``find_inputs`` expands the input arguments (files, directories, globs, listing
   files) into files with a format, on the driver; a missing input fails here, and
   the files of folders and globs that are not of the format are skipped and counted.
2. The paths, never the contents, are packed into partitions of similar byte size,
   so each Python worker streams its own files (WARCs through ``webclean.warc``).
3. The model, the configuration and the packed paths are broadcast once; each Python
   worker loads a broadcast once and reuses it for every task it runs.
4. ``mapInArrow`` over ``range`` turns partition i's paths into rows of extracted
   pages, a bounded batch at a time. Every page record gives one row with its status;
   a file that could not be read to its end adds one row with status ``truncated``
   that says where it stopped.
5. The rows are written as Parquet partitioned by ``run_date``, overwriting only that
   partition, in the job's one Spark job; each task reports what its partition read
   and wrote, keyed by partition so that a task run twice is counted once, and from
   those counts a summary is printed and written to ``_summary/`` beside them.
6. The failure policy (webclean.policy) judges the counts: a run that passes gets a
   ``_SUCCESS`` marker in its partition.

The last section holds the training jobs (jobs/train.py, jobs/lexicon.py):
webclean.training's stages with the per-page work in executors.
"""

from __future__ import annotations

import atexit
import fnmatch
import gzip
import heapq
import io
import json
import logging
import math
import os
import shutil
import sys
import tempfile
import threading
import time
import zipfile
import zlib
from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import date, datetime
from functools import partial
from pathlib import Path, PurePosixPath
from typing import Any, Callable, Iterable, Iterator, Mapping, NamedTuple, Sequence

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from pyarrow import fs
from pyspark import RDD, Accumulator, AccumulatorParam, Broadcast, StorageLevel
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F
from pyspark.sql.pandas.types import from_arrow_schema

import webclean
from webclean.address import file_uri, page_address
from webclean.config import Config
from webclean.datasets import Page, gold_page
from webclean.extract import FEATURE_SET, check_model, extract
from webclean.features import feature_matrix
from webclean.lexicon import NoiseLexicon, TermCounts, build_lexicon, is_stopword_candidate
from webclean.model import Model, load_model
from webclean.policy import FailurePolicy
from webclean.result import Extraction, Status
from webclean.tokenize import special_marks, words
from webclean.training import (
    CONTENT,
    MIXED,
    NOISE,
    LabelledPage,
    TrainReport,
    choose_sample,
    fit_sample,
    label_page,
    training_units,
    with_metadata,
)
from webclean.warc import WarcEnd, WarcPage, decode_payload, iter_warc, open_input, to_pyarrow_uri

log = logging.getLogger("webclean.spark")

INPUT_FORMATS = ("auto", "warc", "html", "jsonl", "parquet")
# The status of the row that stands for the unread rest of a file that broke.
TRUNCATED = Status.TRUNCATED

EXTENSIONS = {
    "warc": (".warc", ".warc.gz", ".arc", ".arc.gz"),
    "html": (".html", ".htm", ".html.gz", ".htm.gz"),
    "jsonl": (".jsonl", ".jsonl.gz"),
    "parquet": (".parquet",),
}
# Text files that list inputs one per line, as cc-pyspark takes them (warc.paths.gz).
LISTING_EXTENSIONS = (".paths", ".paths.gz", ".txt", ".txt.gz")
GLOB_CHARS = frozenset("*?[")
GZIP_MAGIC = b"\x1f\x8b"
HTML_COLUMN_TYPES = (pa.types.is_string, pa.types.is_large_string, pa.types.is_binary, pa.types.is_large_binary)

# Bodies that cannot hold a page whatever their bytes say; the extractor is not asked.
BINARY_MEDIA = ("image/", "audio/", "video/", "font/")
BINARY_TYPES = frozenset(
    {"application/pdf", "application/zip", "application/gzip", "application/x-gzip", "application/octet-stream"}
)

# A partition holds about this many input bytes, so that a task lasts minutes, not
# hours; a single WARC (about 1 GB at Common Crawl) is never split.
PARTITION_BYTES = 256 << 20
# At least this many partitions a core, files permitting: Spark hands the next partition
# to whichever core is free, so a file slower to extract than its size says delays the
# run by a fraction of a core's share instead of the whole difference. A worker process
# runs its tasks one after another with the broadcast model already loaded.
TASKS_PER_CORE = 4
# An output batch is sent to the JVM when it holds this many rows or text characters.
BATCH_ROWS = 512
BATCH_CHARS = 16 << 20
PROGRESS_SECONDS = 15.0
# The summary lists the files that broke, the first ones by path.
MAX_ERRORS_LISTED = 1000
# The log names the first files skipped, and counts the rest.
SKIPPED_LOGGED = 20
# The version of the summary's fields (docs/output.md): raised when one changes or goes.
SUMMARY_VERSION = 1
SUCCESS_MARKER = "_SUCCESS"

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
        ("bytes_in", pa.int64()),
        ("chars_out", pa.int64()),
        ("model_version", pa.string()),
    ]
)

ExtractFn = Callable[..., Extraction]


class InputError(ValueError):
    """An input argument that names nothing readable: the job stops before it starts."""


@dataclass(frozen=True)
class ExtractJob:
    """What one run of the extract job reads, writes and with which settings."""

    inputs: tuple[str, ...]
    output: str
    run_date: str
    input_format: str = "auto"
    config: Config = field(default_factory=Config)
    model_path: str | None = None
    policy: FailurePolicy = field(default_factory=FailurePolicy)

    def __post_init__(self) -> None:
        if self.input_format not in INPUT_FORMATS:
            raise InputError(f"input format must be one of {', '.join(INPUT_FORMATS)}, not {self.input_format!r}")
        if not self.inputs:
            raise InputError("no input given")
        date.fromisoformat(self.run_date)


@dataclass(frozen=True)
class InputFile:
    path: str
    format: str
    size: int = 0


class Skipped(NamedTuple):
    """A file of a folder or glob that is not of the format wanted."""

    path: str


@dataclass(frozen=True)
class InputListing:
    """What the input arguments name: the files to read, and the paths of those skipped."""

    files: list[InputFile]
    skipped: list[str]


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


@dataclass(frozen=True)
class Shared:
    """What every Python worker needs once: broadcast, loaded once per worker process."""

    config: Config
    model: Model
    model_version: str


@dataclass(frozen=True)
class RunSummary:
    run_date: str
    output: str
    input_format: str
    files: int
    files_skipped: int  # in the folders and globs given, not of the input format
    records_by_type: dict[str, int]
    pages_by_status: dict[str, int]
    files_with_errors: list[dict[str, Any]]
    pages: int
    wall_seconds: float
    pages_per_second: float
    model_version: str
    # The failure policy and its verdict (webclean.policy).
    error_pages: int
    error_share: float
    max_error_share: float
    fail_on_file_errors: bool
    passed: bool
    failures: list[str]
    summary_version: int = SUMMARY_VERSION

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_text(self) -> str:
        lines = [
            f"run_date {self.run_date}: {self.pages} pages from {self.files} files in {self.wall_seconds:.1f} s "
            f"({self.pages_per_second:.1f} pages/s), model {self.model_version}",
            "records read by type: " + _counts_text(self.records_by_type),
            "pages out by status:  " + _counts_text(self.pages_by_status),
            f"files with errors:    {len(self.files_with_errors)}",
            f"files skipped:        {self.files_skipped} (not of the input format)",
        ]
        lines += [f"  {e['source_file']} at {e['offset']}: {e['error']}" for e in self.files_with_errors]
        lines.append(
            f"error pages:          {self.error_pages} ({self.error_share:.1%}; at most {self.max_error_share:.1%} pass)"
        )
        lines.append("run: passed" if self.passed else "run: FAILED: " + "; ".join(self.failures))
        lines.append(f"output: {self.output}")
        return "\n".join(lines)


# ---------------------------------------------------------------- the session


def configure_logging() -> None:
    """What every job logs: warnings from everything, progress from webclean."""
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("webclean").setLevel(logging.INFO)


def build_session(app_name: str = "webclean", conf: Mapping[str, str] | None = None) -> SparkSession:
    """A SparkSession from spark-submit's configuration plus ``conf``; ships webclean if needed."""
    conf = dict(conf or {})
    launched_here = "PYSPARK_GATEWAY_PORT" not in os.environ  # not under spark-submit
    if launched_here and conf.get("spark.master", "local").startswith("local"):
        # A script, a notebook or the tests: local workers must run this interpreter,
        # the one with webclean's dependencies, not whichever python3 is on PATH.
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = SparkSession.builder.appName(app_name)
    for key, value in conf.items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    _ship_package(spark)
    return spark


def _ship_package(spark: SparkSession) -> None:
    """Send this webclean to the executors unless it is installed as a package.

    A job run from a checkout imports webclean from the source tree, which executors
    do not have; a zip of the package on the Python path of every task fixes that and
    guarantees the executors run the driver's code. Only the code goes: the model
    reaches the executors as a broadcast, and files inside a zip cannot be opened by path.
    """
    package = Path(webclean.__file__).resolve().parent
    sc = spark.sparkContext
    installed = any(part in ("site-packages", "dist-packages") for part in package.parts)
    if installed or any(f.endswith("/webclean.zip") for f in sc.listFiles):
        return
    scratch = tempfile.mkdtemp(prefix="webclean-pyfiles-")
    # Spark serves the file from here while the application runs: removed at exit.
    atexit.register(shutil.rmtree, scratch, ignore_errors=True)
    archive = Path(scratch) / "webclean.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as out:
        for path in sorted(package.rglob("*.py")):
            out.write(path, Path("webclean") / path.relative_to(package))
    sc.addPyFile(str(archive))


# ---------------------------------------------------------------- listing inputs


def list_inputs(paths: Iterable[str], input_format: str = "auto") -> list[InputFile]:
    """Expand files, directories, globs and listing files into input files with a format."""
    return find_inputs(paths, input_format).files


def find_inputs(paths: Iterable[str], input_format: str = "auto") -> InputListing:
    """The input files, and the files of the folders and globs given that are not of the format wanted.

    Skipped files are logged, and counted in the run's summary. Hidden files (a name
    that starts with ``.`` or ``_``, as ``_SUCCESS``) are not inputs and not counted.
    """
    paths = list(paths)
    files: dict[str, InputFile] = {}
    skipped: dict[str, None] = {}  # in the order found
    for path in paths:
        for found in _expand(path, input_format):
            if isinstance(found, InputFile):
                files.setdefault(found.path, found)
            else:
                skipped[found.path] = None
    skipped_paths = [path for path in skipped if path not in files]
    if skipped_paths:
        shown = ", ".join(skipped_paths[:SKIPPED_LOGGED])
        more = f" and {len(skipped_paths) - SKIPPED_LOGGED} more" if len(skipped_paths) > SKIPPED_LOGGED else ""
        log.warning("skipped files that are not %s (%d): %s%s", _wanted(input_format), len(skipped_paths), shown, more)
    if not files:
        hint = f" ({len(skipped_paths)} other files skipped" if skipped_paths else ""
        hint += ("; --input-format html takes every file)" if input_format == "auto" else ")") if hint else ""
        raise InputError(f"no {_wanted(input_format)} in {', '.join(paths)}{hint}")
    return InputListing(list(files.values()), skipped_paths)


def _wanted(input_format: str) -> str:
    if input_format == "auto":
        return "input files (" + ", ".join(e for extensions in EXTENSIONS.values() for e in extensions) + ")"
    return f"{input_format} files ({', '.join(EXTENSIONS[input_format])})"


def _expand(path: str, input_format: str) -> Iterator[InputFile | Skipped]:
    """A path as given: a glob unless a file or directory of that very name exists."""
    path = _absolute(path)
    if GLOB_CHARS & set(path) and not _exists(path):
        matches = list(_glob(path))
        if not matches:
            raise InputError(f"{path}: no file matches")
        for match in matches:
            # A match is a name, never a pattern: wget saves pages as index.php?id=3.
            yield from _expand_name(match, input_format, pattern=path)
        return
    yield from _expand_name(path, input_format)


def _exists(path: str) -> bool:
    filesystem, inner, _ = _locate(path)
    return filesystem.get_file_info(inner).type != fs.FileType.NotFound


def _expand_name(path: str, input_format: str, pattern: str | None = None) -> Iterator[InputFile | Skipped]:
    """A file, a directory or a listing file named by ``path``, taken literally.

    A file named as an argument or in a listing must be of a format it can be read as;
    a file that the glob ``pattern`` matched is skipped, as in a folder, when it is not,
    and is a listing only if the pattern names listings (``*.paths.gz``, not ``site/*``
    over a robots.txt).
    """
    filesystem, inner, prefix = _locate(path)
    info = filesystem.get_file_info(inner)
    if info.type == fs.FileType.NotFound:
        raise InputError(f"{path}: no such file or directory")
    if info.type == fs.FileType.Directory:
        yield from _directory(filesystem, inner, prefix, input_format)
    elif path.endswith(LISTING_EXTENSIONS) and (pattern or path).endswith(LISTING_EXTENSIONS):
        for line in _listing(path):
            yield from _expand(line, input_format)
    elif input_format != "auto":
        yield InputFile(path, input_format, info.size or 0)
    elif fmt := _detect_format(path):
        yield InputFile(path, fmt, info.size or 0)
    elif pattern is None:
        raise InputError(f"{path}: cannot tell the format from the name; pass --input-format")
    else:
        yield Skipped(path)


def _directory(
    filesystem: fs.FileSystem, inner: str, prefix: str, input_format: str
) -> Iterator[InputFile | Skipped]:
    """Every file of a folder and its subfolders in the format wanted: any file for ``html``."""
    selector = fs.FileSelector(inner, recursive=True)
    for info in sorted(filesystem.get_file_info(selector), key=lambda i: i.path):
        hidden = any(part.startswith((".", "_")) for part in PurePosixPath(info.path).relative_to(inner).parts)
        if info.type != fs.FileType.File or hidden:
            continue
        fmt = "html" if input_format == "html" else _detect_format(info.base_name)
        if fmt and input_format in ("auto", fmt):
            yield InputFile(prefix + info.path, fmt, info.size or 0)
        else:
            yield Skipped(prefix + info.path)


def _glob(pattern: str) -> Iterator[str]:
    """Shell-style matching, one path component at a time: ``*`` does not cross ``/``."""
    static = pattern[: min(pattern.index(c) for c in GLOB_CHARS if c in pattern)]
    base = static.rsplit("/", 1)[0]
    filesystem, inner, prefix = _locate(base)
    wanted = pattern.split("/")
    depth = pattern.count("/") - base.count("/")
    selector = fs.FileSelector(inner, recursive=depth > 1)
    for info in filesystem.get_file_info(selector):
        candidate = (prefix + info.path).split("/")
        if len(candidate) == len(wanted) and all(map(_matches, candidate, wanted)):
            yield "/".join(candidate)


def _matches(name: str, pattern: str) -> bool:
    """As the shell does it: a wildcard does not match a leading dot; a name matches itself."""
    if name == pattern:  # a folder named like a pattern (pages[1]) on the way to the wildcard
        return True
    return fnmatch.fnmatchcase(name, pattern) and (not name.startswith(".") or pattern.startswith("."))


def _listing(path: str) -> Iterator[str]:
    """The paths in a listing file; relative ones are taken from the listing's folder."""
    folder = path.rsplit("/", 1)[0]
    with open_input(path) as stream:
        raw = stream.read()
    text = gzip.decompress(raw) if path.endswith(".gz") else raw
    for line in text.decode("utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            yield line if "://" in line or line.startswith("/") else f"{folder}/{line}"


def _detect_format(name: str) -> str | None:
    lowered = name.lower()
    for fmt, extensions in EXTENSIONS.items():
        if lowered.endswith(extensions):
            return fmt
    return None


def _absolute(path: str) -> str:
    if path.startswith("file://"):
        return path[len("file://") :]
    return path if "://" in path else os.path.abspath(path)


def _filesystem(path: str) -> tuple[fs.FileSystem, str]:
    if "://" not in path:
        return fs.LocalFileSystem(), path
    return fs.FileSystem.from_uri(to_pyarrow_uri(path))


def _locate(path: str) -> tuple[fs.FileSystem, str, str]:
    """The file system, the path within it, and the prefix that turns the latter back into ``path``.

    pyarrow drops the scheme and, for S3, keeps the bucket: ``s3://b/k`` is ``b/k``
    with prefix ``s3://``, ``hdfs://nn:8020/d`` is ``/d`` with prefix ``hdfs://nn:8020``.
    """
    filesystem, inner = _filesystem(path)
    if not path.endswith(inner):
        raise InputError(f"{path}: cannot list this location")
    return filesystem, inner, path[: len(path) - len(inner)]


def pack_partitions(files: Sequence[InputFile], slots: int) -> list[list[InputFile]]:
    """Largest file first into the lightest partition: about PARTITION_BYTES each, and
    at least TASKS_PER_CORE partitions for each of the ``slots`` cores when there are
    files enough."""
    total = sum(f.size for f in files)
    count = min(len(files), max(slots * TASKS_PER_CORE, math.ceil(total / PARTITION_BYTES)))
    partitions: list[list[InputFile]] = [[] for _ in range(count)]
    loads = [(0, i) for i in range(count)]
    for file in sorted(files, key=lambda f: (-f.size, f.path)):
        load, index = heapq.heappop(loads)
        partitions[index].append(file)
        heapq.heappush(loads, (load + max(file.size, 1), index))
    return partitions


# ---------------------------------------------------------------- reading records


def read_input(file: InputFile, max_bytes: int) -> Iterator[InputRecord | WarcEnd]:
    """The page records of one file, then a :class:`WarcEnd` (for every format)."""
    readers = {"warc": _warc_records, "html": _html_records, "jsonl": _jsonl_records, "parquet": _parquet_records}
    return readers[file.format](file, max_bytes)


def _warc_records(file: InputFile, max_bytes: int) -> Iterator[InputRecord | WarcEnd]:
    for item in iter_warc(file.path, max_bytes=max_bytes):
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


def _html_records(file: InputFile, max_bytes: int) -> Iterator[InputRecord | WarcEnd]:
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


def _jsonl_records(file: InputFile, max_bytes: int) -> Iterator[InputRecord | WarcEnd]:
    path = file.path
    number = records = 0
    try:
        with open_input(path) as raw:
            # pyarrow's streams cannot read lines; a buffered reader over them can.
            lines = gzip.GzipFile(fileobj=raw) if path.endswith(".gz") else io.BufferedReader(raw)
            for number, line in enumerate(lines, 1):
                if line.strip():
                    records += 1
                    yield _jsonl_record(path, number, line, max_bytes)
    except (OSError, EOFError, zlib.error) as exc:
        # The line after the last one read is where the file broke.
        yield WarcEnd(path, {"jsonl": records}, offset=number + 1, error=f"{type(exc).__name__}: {exc}")
        return
    yield WarcEnd(path, {"jsonl": records})


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


def _parquet_records(file: InputFile, max_bytes: int) -> Iterator[InputRecord | WarcEnd]:
    path = file.path
    number = 0
    try:
        filesystem, inner = _filesystem(path)
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
                for url, html in zip(urls, batch.column("html").to_pylist()):
                    yield _text_record(path, "parquet", number, _url(url), html or "", max_bytes)
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


# ---------------------------------------------------------------- extracting rows


def extract_record(record: InputRecord, shared: Shared, extract_fn: ExtractFn) -> Extraction:
    method = shared.config.method
    if record.status is not None:
        return Extraction.failed(record.status, record.error or record.status, method=method)
    if _is_binary(record.content_type):
        return Extraction.failed(Status.NOT_HTML, f"Content-Type {record.content_type}", method=method)
    return extract_fn(record.html, record.url, config=shared.config, model=shared.model, http_charset=record.http_charset)


def extract_rows(file: InputFile, shared: Shared, extract_fn: ExtractFn, counts: Counter[str]) -> Iterator[dict[str, Any]]:
    """One row per page record of ``file``, plus one ``truncated`` row if reading broke."""
    for item in read_input(file, shared.config.limits.max_bytes):
        if isinstance(item, InputRecord):
            yield page_row(item, extract_record(item, shared, extract_fn), shared.model_version)
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


def _is_binary(content_type: str | None) -> bool:
    return bool(content_type) and (content_type in BINARY_TYPES or content_type.startswith(BINARY_MEDIA))


class _Batch:
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


@dataclass(frozen=True)
class PartitionCounts:
    """What one task tells the driver of its partition: records read by type, rows
    written by status, and where each broken file stopped."""

    records: Counter[str] = field(default_factory=Counter)
    statuses: Counter[str] = field(default_factory=Counter)
    stops: list[tuple[str, int, str]] = field(default_factory=list)


class _ByPartition(AccumulatorParam):
    """PartitionCounts keyed by partition. A partition reported twice (a task retried,
    a stage run again after a lost executor) replaces its report instead of adding to
    it: its files, and so its counts, are the same on every attempt."""

    def zero(self, value: dict[int, PartitionCounts]) -> dict[int, PartitionCounts]:
        return {}

    def addInPlace(
        self, value1: dict[int, PartitionCounts], value2: dict[int, PartitionCounts]
    ) -> dict[int, PartitionCounts]:
        value1.update(value2)
        return value1


def map_files(
    batches: Iterable[pa.RecordBatch], *, plan: Broadcast, shared: Broadcast, extract_fn: ExtractFn, counts: Accumulator
) -> Iterator[pa.RecordBatch]:
    """The ``mapInArrow`` function: batches of partition indexes in, batches of rows out."""
    loaded: Shared = shared.value
    partitions: list[list[InputFile]] = plan.value
    batch = _Batch()
    for indexes in batches:
        for index in indexes.column("id").to_pylist():
            counted = PartitionCounts()
            for file in partitions[index]:
                for row in extract_rows(file, loaded, extract_fn, counted.records):
                    counted.statuses[row["status"]] += 1
                    if row["status"] == TRUNCATED:
                        counted.stops.append((row["source_file"], row["offset"], row["error"]))
                    batch.add(row)
                    if batch.full:
                        yield batch.flush()
            counts.add({index: counted})
    if batch.rows:
        yield batch.flush()


# ---------------------------------------------------------------- the run


def run_extract(
    spark: SparkSession, job: ExtractJob, *, model: Model | None = None, extract_fn: ExtractFn = extract
) -> RunSummary:
    """Extract every input page, write run_date's partition, and return the run's summary.

    ``model`` defaults to the one at ``job.model_path`` (or the packaged one).
    """
    started = time.perf_counter()
    listing = find_inputs(job.inputs, job.input_format)
    files = listing.files
    if model is None:
        model = load_model(job.model_path, method=job.config.method)
        # A model of the other method would fail every page: stop here instead.
        check_model(model, job.config)
    sc = spark.sparkContext
    # Methods blocks and ladom need no model.
    model_version = str(model.version) if model is not None else "none"
    shared = sc.broadcast(Shared(job.config, model, model_version))
    partitions = pack_partitions(files, sc.defaultParallelism)
    plan = sc.broadcast(partitions)
    counts = sc.accumulator({}, _ByPartition())
    log.info("extract: %d %s files in %d partitions -> %s", len(files), job.input_format, len(partitions), job.output)
    # The marker says that the partition's rows passed: none while they are replaced.
    remove_success_marker(job.output, job.run_date)
    with _Progress(sc, counts, started):
        _write(_pages(spark, plan, len(partitions), shared, extract_fn, counts), job)
    summary = _summarise(job, listing, counts.value, model_version, time.perf_counter() - started)
    write_summary(job.output, summary)
    if summary.passed:
        write_success_marker(job.output, job.run_date)
    for broadcast in (plan, shared):
        broadcast.unpersist()
    return summary


def _pages(
    spark: SparkSession, plan: Broadcast, partitions: int, shared: Broadcast, extract_fn: ExtractFn, counts: Accumulator
) -> DataFrame:
    """The rows of every page: partition i holds one row, i, and extracts the files ``plan.value[i]``.

    ``range`` makes those partitions in the JVM, so no Python worker runs before the
    extraction's own (the paths sent as rows from Python took a stage of Python workers
    of their own); the file lists reach each worker once, in the broadcast.
    """
    indexes = spark.range(0, partitions, 1, numPartitions=partitions)
    work = partial(map_files, plan=plan, shared=shared, extract_fn=extract_fn, counts=counts)
    return indexes.mapInArrow(work, from_arrow_schema(OUTPUT_SCHEMA))


def _write(pages: DataFrame, job: ExtractJob) -> None:
    (
        pages.withColumn("run_date", F.lit(job.run_date))
        .write.mode("overwrite")
        # Dynamic: a re-run replaces its own run_date partition and leaves the others.
        .option("partitionOverwriteMode", "dynamic")
        .option("compression", "zstd")
        .partitionBy("run_date")
        .parquet(job.output)
    )


def _summarise(
    job: ExtractJob, listing: InputListing, counts: Mapping[int, PartitionCounts], model_version: str, wall: float
) -> RunSummary:
    """The run's summary from what the tasks counted, each partition once: no second pass over the rows."""
    records: Counter[str] = Counter()
    by_status: Counter[str] = Counter()
    for counted in counts.values():
        records.update(counted.records)
        by_status.update(counted.statuses)
    stops = sorted(stop for counted in counts.values() for stop in counted.stops)[:MAX_ERRORS_LISTED]
    verdict = job.policy.judge(by_status)
    pages = verdict.pages
    return RunSummary(
        run_date=job.run_date,
        output=job.output,
        input_format=job.input_format,
        files=len(listing.files),
        files_skipped=len(listing.skipped),
        records_by_type=dict(sorted(records.items())),
        pages_by_status=dict(sorted(by_status.items())),
        files_with_errors=[{"source_file": path, "offset": offset, "error": error} for path, offset, error in stops],
        pages=pages,
        wall_seconds=round(wall, 3),
        pages_per_second=round(pages / wall, 2) if wall > 0 else 0.0,
        model_version=model_version,
        error_pages=verdict.error_pages,
        error_share=verdict.error_share,
        max_error_share=job.policy.max_error_share,
        fail_on_file_errors=job.policy.fail_on_file_errors,
        passed=verdict.passed,
        failures=list(verdict.failures),
    )


def partition_path(output: str, run_date: str) -> str:
    return f"{output.rstrip('/')}/run_date={run_date}"


def summary_path(output: str, run_date: str) -> str:
    return f"{output.rstrip('/')}/_summary/run_date={run_date}/summary.json"


def success_path(output: str, run_date: str) -> str:
    return f"{partition_path(output, run_date)}/{SUCCESS_MARKER}"


def write_success_marker(output: str, run_date: str) -> str:
    """An empty ``_SUCCESS`` in the run date's partition: its rows passed the failure policy."""
    path = _absolute(success_path(output, run_date))
    filesystem, inner = _filesystem(path)
    filesystem.create_dir(inner.rsplit("/", 1)[0], recursive=True)
    with filesystem.open_output_stream(inner):
        pass
    return path


def remove_success_marker(output: str, run_date: str) -> None:
    filesystem, inner = _filesystem(_absolute(success_path(output, run_date)))
    if filesystem.get_file_info(inner).type == fs.FileType.File:
        filesystem.delete_file(inner)


def write_summary(output: str, summary: RunSummary) -> str:
    """Write the summary beside the data; Spark skips ``_summary`` when it reads the output."""
    path = _absolute(summary_path(output, summary.run_date))
    filesystem, inner = _filesystem(path)
    filesystem.create_dir(inner.rsplit("/", 1)[0], recursive=True)
    with filesystem.open_output_stream(inner) as out:
        out.write(json.dumps(summary.to_dict(), indent=1, sort_keys=True, default=str).encode("utf-8") + b"\n")
    return path


class _Progress:
    """Logs finished tasks and rows written while the job runs, from a daemon thread.

    Tasks report their accumulators when they finish, so the count moves task by task.
    """

    def __init__(self, sc: Any, counts: Accumulator, started: float) -> None:
        self._sc = sc
        self._counts = counts  # PartitionCounts by partition
        self._started = started
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="webclean-progress", daemon=True)

    def __enter__(self) -> "_Progress":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(PROGRESS_SECONDS):
            tracker = self._sc.statusTracker()
            stages = [tracker.getStageInfo(s) for s in tracker.getActiveStageIds()]
            done = sum(s.numCompletedTasks for s in stages if s)
            total = sum(s.numTasks for s in stages if s)
            rows = sum(sum(counted.statuses.values()) for counted in list(self._counts.value.values()))
            elapsed = time.perf_counter() - self._started
            log.info("progress: %d/%d tasks done, %d pages out, %.1f pages/s", done, total, rows, rows / elapsed)


def _counts_text(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in counts.items()) or "none"


# ================================================================ training and the lexicon
#
# jobs/train.py and jobs/lexicon.py. Pages are read, parsed, located and labelled in
# executors (training.label_page) and kept cached for the three passes over them:
# the word count of n_i and h_i, the labels, and the feature rows of the sample.
# The driver builds the lexicon, draws the sample and fits the SVM with the library's
# own functions. A page is keyed by (input file index, line number), the order in which
# datasets.read_pages reads it, so that the driver draws exactly the sample that
# `webclean train` draws and the two give the same model for the same input.

PageKey = tuple[int, int]
WORD, MARK = "word", "mark"
# Reading a page costs far less than parsing and locating it, so the pages are spread
# over at least two slices per core, and more for large inputs (compressed bytes).
TRAIN_SLICE_BYTES = 8 << 20
TOP_WORDS = 20
LEXICON_CHANGES_FILE = "lexicon-changes.json"


def read_training_file(index: int, path: str) -> Iterator[tuple[PageKey, Page]]:
    """The pages of one JSON Lines file of pages with gold, as datasets.read_pages reads them."""
    source = PurePosixPath(path).name.split(".")[0]
    with open_input(path) as raw:
        # pyarrow's streams cannot read lines; a buffered reader over them can.
        lines = gzip.GzipFile(fileobj=raw) if path.endswith(".gz") else io.BufferedReader(raw)
        for number, line in enumerate(lines, 1):
            # Training data is curated: a bad line fails the job, as it fails `webclean train`.
            page = gold_page(line, f"{path}:{number}", source)
            if page is not None:
                yield (index, number), page


def labelled_pages(spark: SparkSession, files: Sequence[InputFile], config: Config) -> RDD:
    """(PageKey, LabelledPage) for every page of ``files``, labelled in executors."""
    sc = spark.sparkContext
    indexed = [(i, f.path) for i, f in enumerate(files)]
    slices = max(2 * sc.defaultParallelism, math.ceil(sum(f.size for f in files) / TRAIN_SLICE_BYTES))
    log.info("labelling the pages of %d files in %d slices", len(files), slices)
    return (
        sc.parallelize(indexed, len(indexed))
        .flatMap(lambda item: read_training_file(*item))
        .repartition(slices)
        .mapValues(partial(label_page, config=config))
    )


def _unit_terms(page: LabelledPage) -> Iterator[tuple[tuple[str, str], tuple[int, int]]]:
    """((kind, term), (n, h)) for each word and mark of each content or noise unit."""
    for item in page.units:
        if item.label == MIXED:
            continue
        noise = item.label == NOISE
        text = item.unit.text
        for kind, counts in ((WORD, Counter(words(text))), (MARK, special_marks(text))):
            for term, count in counts.items():
                yield (kind, term), ((count, 0) if noise else (0, count))


def _add_pairs(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    return a[0] + b[0], a[1] + b[1]


def _may_be_stopword(item: tuple[tuple[str, str], tuple[int, int]]) -> bool:
    (kind, term), (n, h) = item
    return kind == WORD and is_stopword_candidate(term, n, h)


def _by_content_count(item: tuple[tuple[str, str], tuple[int, int]]) -> tuple[int, str]:
    return -item[1][1], item[0][1]


def term_counts(labelled: RDD, *, prune: bool = True, stopwords: int = 0) -> TermCounts:
    """n_i and h_i by a word count over (kind, term); equal to training.count_terms.

    With ``prune``, terms never seen in noise stay in the executors: their p_i is 0, so
    they cannot enter the lexicon, and they are most of a vocabulary; but the
    ``stopwords`` most frequent words of main text that can be stop words come back
    with them. The lexicon built from pruned counts is the same.
    """
    pairs = labelled.values().flatMap(_unit_terms).reduceByKey(_add_pairs)
    if prune:
        pairs = pairs.persist(StorageLevel.MEMORY_AND_DISK)
        frequent = pairs.filter(_may_be_stopword).takeOrdered(stopwords, key=_by_content_count) if stopwords else []
        collected = pairs.filter(lambda item: item[1][0] > 0).collect()
        pairs.unpersist()
        found = {term for term, _ in collected}
        collected += [item for item in frequent if item[0] not in found]
    else:
        collected = pairs.collect()
    counts = TermCounts()
    for (kind, term), (n, h) in collected:
        if kind == WORD:
            noise, content = counts.noise_words, counts.content_words
        else:
            noise, content = counts.noise_marks, counts.content_marks
        if n:
            noise[term] = n
        if h:
            content[term] = h
    return counts


@dataclass(frozen=True)
class LabelIndex:
    """The label of every unit in read order, and where each page's units start in it."""

    keys: list[PageKey]
    starts: np.ndarray  # starts[i]: position of page i's first unit in ``labels``
    labels: np.ndarray
    pages_with_block: int
    sources: list[str] = field(default_factory=list)  # of each page

    def unit_pages(self) -> tuple[np.ndarray, np.ndarray]:
        """Each unit's page (its number in read order) and the page's source."""
        sizes = np.diff(np.append(self.starts, len(self.labels)))
        numbers = np.repeat(np.arange(len(self.keys)), sizes)
        return numbers, np.asarray(self.sources, dtype=object)[numbers]

    def locate(self, chosen: np.ndarray) -> dict[PageKey, list[tuple[int, int]]]:
        """For each page with units in ``chosen``: (unit within the page, row in the sample)."""
        pages = np.searchsorted(self.starts, chosen, side="right") - 1
        picks: dict[PageKey, list[tuple[int, int]]] = {}
        for row, (unit, page) in enumerate(zip(chosen, pages)):
            picks.setdefault(self.keys[page], []).append((int(unit - self.starts[page]), row))
        return picks

    def report(self) -> TrainReport:
        labels = self.labels
        return TrainReport(
            pages=len(self.keys),
            pages_with_block=self.pages_with_block,
            content_units=int((labels == CONTENT).sum()),
            noise_units=int((labels == NOISE).sum()),
            mixed_units=int((labels == MIXED).sum()),
        )


def _page_labels(item: tuple[PageKey, LabelledPage]) -> tuple[PageKey, bool, bytes, str]:
    key, page = item
    return key, page.block_found, np.asarray([u.label for u in page.units], dtype=np.int8).tobytes(), page.source


def label_index(labelled: RDD) -> LabelIndex:
    """Collect one byte per unit: the driver draws the sample from all the labels, as train does."""
    rows = sorted(labelled.map(_page_labels).collect(), key=lambda row: row[0])
    per_page = [np.frombuffer(labels, dtype=np.int8) for _, _, labels, _ in rows]
    sizes = np.asarray([len(p) for p in per_page], dtype=np.int64)
    return LabelIndex(
        keys=[key for key, _, _, _ in rows],
        starts=np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64) if rows else np.zeros(0, np.int64),
        labels=np.concatenate(per_page).astype(np.int64) if per_page else np.zeros(0, np.int64),
        pages_with_block=sum(found for _, found, _, _ in rows),
        sources=[source for _, _, _, source in rows],
    )


def _sample_rows(
    item: tuple[PageKey, LabelledPage], shared: Broadcast, feature_set: str
) -> list[tuple[int, list[float]]]:
    picks, lexicon = shared.value
    key, page = item
    chosen = picks.get(key)
    if not chosen:
        return []
    X = feature_matrix([page.units[unit].unit for unit, _ in chosen], lexicon, feature_set)
    return [(row, list(values)) for (_, row), values in zip(chosen, X.tolist())]


def sample_matrix(
    labelled: RDD, index: LabelIndex, chosen: np.ndarray, lexicon: NoiseLexicon, feature_set: str
) -> np.ndarray:
    """The feature rows of the sample ``chosen``, computed in executors, in sample order."""
    shared = labelled.context.broadcast((index.locate(chosen), lexicon))
    try:
        rows = labelled.flatMap(partial(_sample_rows, shared=shared, feature_set=feature_set)).collect()
    finally:
        shared.unpersist()
    if len(rows) != len(chosen):
        raise RuntimeError(f"the executors returned {len(rows)} sample rows for {len(chosen)} chosen units")
    return np.asarray([values for _, values in sorted(rows, key=lambda row: row[0])], dtype=np.float64)


def fit_on_spark(labelled: RDD, lexicon: NoiseLexicon, config: Config) -> tuple[Model, TrainReport]:
    """training.fit_on_units with the feature rows computed in executors."""
    index = label_index(labelled)
    pages, sets = index.unit_pages()
    chosen = choose_sample(index.labels, config, pages, sets)
    units = training_units(index.labels, chosen, config)
    X = sample_matrix(labelled, index, units, lexicon, FEATURE_SET[config.method])
    log.info("train: %d units labelled, features of %d, the SVM on %d", len(index.labels), len(units), len(chosen))
    return fit_sample(X, index.labels, chosen, lexicon, config, index.report(), units, pages, sets)


def train_on_spark(
    spark: SparkSession, files: Sequence[InputFile], config: Config, sources: Sequence[str] = ()
) -> tuple[Model, TrainReport]:
    """training.train on a cluster: the same model for the same pages, with the same metadata."""
    labelled = labelled_pages(spark, files, config).persist(StorageLevel.MEMORY_AND_DISK)
    try:
        lexicon = build_lexicon(term_counts(labelled, stopwords=config.lexicon.stopwords), config.lexicon)
        log.info("train: lexicon of %d words and %d marks", len(lexicon.words), len(lexicon.marks))
        model, report = fit_on_spark(labelled, lexicon, config)
    finally:
        labelled.unpersist()
    return with_metadata(model, report, sources), report


@dataclass(frozen=True)
class LexiconChanges:
    """What a rebuilt lexicon changed: terms added (new weight) and removed (old weight)."""

    derived_from: str
    refit: bool
    words_before: int
    words_after: int
    words_added: dict[str, float]
    words_removed: dict[str, float]
    marks_added: dict[str, float]
    marks_removed: dict[str, float]
    top_words: list[dict[str, Any]]  # word, weight, old_weight (None when new)
    # Stop words (method svm's stop-word density), sorted.
    stopwords_added: list[str] = field(default_factory=list)
    stopwords_removed: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_text(self) -> str:
        lines = [
            f"lexicon from model {self.derived_from}: {self.words_before} -> {self.words_after} words "
            f"(+{len(self.words_added)} -{len(self.words_removed)}), marks +{len(self.marks_added)} "
            f"-{len(self.marks_removed)}; classifier {'refitted' if self.refit else 'kept'}",
            "words added:   " + _terms_text(self.words_added),
            "words removed: " + _terms_text(self.words_removed),
            "marks added:   " + _terms_text(self.marks_added),
            "marks removed: " + _terms_text(self.marks_removed),
            "stop words added:   " + _words_text(self.stopwords_added),
            "stop words removed: " + _words_text(self.stopwords_removed),
            f"top {len(self.top_words)} words by weight:",
        ]
        for top in self.top_words:
            old = "new" if top["old_weight"] is None else f"was {top['old_weight']:.2f}"
            lines.append(f"  {top['word']:<24} {top['weight']:9.2f}  ({old})")
        return "\n".join(lines)


def compare_lexicons(
    old: NoiseLexicon, new: NoiseLexicon, derived_from: str, refit: bool, top: int = TOP_WORDS
) -> LexiconChanges:
    heaviest = sorted(new.words.items(), key=lambda item: (-item[1], item[0]))[:top]
    return LexiconChanges(
        derived_from=derived_from,
        refit=refit,
        words_before=len(old.words),
        words_after=len(new.words),
        words_added=_heaviest_first(new.words, set(new.words) - set(old.words)),
        words_removed=_heaviest_first(old.words, set(old.words) - set(new.words)),
        marks_added=_heaviest_first(new.marks, set(new.marks) - set(old.marks)),
        marks_removed=_heaviest_first(old.marks, set(old.marks) - set(new.marks)),
        top_words=[{"word": w, "weight": weight, "old_weight": old.words.get(w)} for w, weight in heaviest],
        stopwords_added=sorted(new.stopwords - old.stopwords),
        stopwords_removed=sorted(old.stopwords - new.stopwords),
    )


def _heaviest_first(weights: Mapping[str, float], terms: set[str]) -> dict[str, float]:
    return {t: weights[t] for t in sorted(terms, key=lambda t: (-weights[t], t))}


def _words_text(words: Sequence[str], shown: int = 30) -> str:
    more = len(words) - shown
    return (", ".join(words[:shown]) + (f", and {more} more" if more > 0 else "")) or "none"


def _terms_text(terms: Mapping[str, float], shown: int = 15) -> str:
    text = ", ".join(f"{t} ({w:.2f})" for t, w in list(terms.items())[:shown])
    more = len(terms) - shown
    return (text + (f", and {more} more" if more > 0 else "")) or "none"


def rebuild_lexicon(
    spark: SparkSession, files: Sequence[InputFile], model: Model, *, refit: bool = False, sources: Sequence[str] = ()
) -> tuple[Model, LexiconChanges]:
    """A new noise lexicon from ``files`` with the model's config; the classifier kept or refitted.

    A kept classifier keeps its scaling and support vectors, learned on the old lexicon's
    T and S; ``refit`` fits it again on these pages, which is training with the model's config.
    """
    config = model.config
    labelled = labelled_pages(spark, files, config).persist(StorageLevel.MEMORY_AND_DISK)
    try:
        lexicon = build_lexicon(term_counts(labelled, stopwords=config.lexicon.stopwords), config.lexicon)
        if refit:
            fitted, report = fit_on_spark(labelled, lexicon, config)
            svm, trained_on = fitted.svm, list(sources)
        else:
            report = _kept_classifier_report(label_index(labelled).report(), model.metadata.get("report", {}), lexicon)
            svm, trained_on = model.svm, list(model.metadata.get("trained_on", []))
    finally:
        labelled.unpersist()
    metadata = {
        "trained_on": trained_on,
        "lexicon_from": list(sources),
        "derived_from": model.version,
        "report": report.to_dict(),
    }
    new = Model(lexicon=lexicon, svm=svm, config=config, feature_set=model.feature_set, metadata=metadata)
    return new, compare_lexicons(model.lexicon, lexicon, model.version, refit)


def _kept_classifier_report(report: TrainReport, old: Mapping[str, Any], lexicon: NoiseLexicon) -> TrainReport:
    """Units counted on the new pages; the classifier's figures are those of the old fit."""
    for name in ("samples_per_class", "training_samples", "cv_accuracy", "best_params"):
        if name in old:
            setattr(report, name, old[name])
    report.lexicon_words = len(lexicon.words)
    report.lexicon_marks = len(lexicon.marks)
    return report


def write_lexicon_changes(changes: LexiconChanges, directory: str | Path) -> Path:
    """Write the changes beside the model; load_model reads only its own two files."""
    path = Path(directory) / LEXICON_CHANGES_FILE
    path.write_text(json.dumps(changes.to_dict(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return path
