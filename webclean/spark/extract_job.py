"""The extract job (jobs/extract.py): every input page extracted into run_date's
partition of the output, a summary of the run beside it, and its ``_SUCCESS`` marker.

The order of a run is that of the package's docstring (webclean/spark/__init__.py).
"""

from __future__ import annotations

import json
import logging
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, field
from datetime import date
from functools import partial
from typing import Any

import pyarrow as pa
from pyarrow import fs
from pyspark import Accumulator, AccumulatorParam, Broadcast
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F
from pyspark.sql.pandas.types import from_arrow_schema

from webclean.confidence_output import ConfidenceHistogram
from webclean.config import Config
from webclean.extract import check_model, extract
from webclean.model import Model, load_model
from webclean.policy import FailurePolicy
from webclean.spark.inputs import (
    INPUT_FORMATS,
    InputError,
    InputFile,
    InputListing,
    absolute_path,
    filesystem_for,
    find_inputs,
    pack_partitions,
    split_files,
)
from webclean.spark.rows import FILE_ERRORS, OUTPUT_SCHEMA, ExtractFn, RowBatch, Shared, extract_rows

# The glue logs under one name, whichever of its modules speaks.
log = logging.getLogger("webclean.spark")

PROGRESS_SECONDS = 15.0
# The summary lists the files that broke, the first ones by path.
MAX_ERRORS_LISTED = 1000
# The version of the summary's fields (docs/output.md): raised when one changes or goes.
SUMMARY_VERSION = 1
SUCCESS_MARKER = "_SUCCESS"


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
    min_confidence: float | None = None  # an ok page with a confidence under it is low_confidence

    def __post_init__(self) -> None:
        if self.input_format not in INPUT_FORMATS:
            raise InputError(f"input format must be one of {', '.join(INPUT_FORMATS)}, not {self.input_format!r}")
        if self.min_confidence is not None and not 0.0 <= self.min_confidence <= 1.0:
            raise InputError(f"the minimum confidence must lie in [0, 1], not {self.min_confidence}")
        if not self.inputs:
            raise InputError("no input given")
        date.fromisoformat(self.run_date)


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
    fail_on_empty: bool = False
    pages_by_type: dict[str, int] = field(default_factory=dict)  # of the pages the model typed (page_type)
    # min, q1, median, q3, max of the pages' confidences (ConfidenceHistogram); None without one.
    confidence_quartiles: dict[str, float] | None = None
    summary_version: int = SUMMARY_VERSION

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_text(self) -> str:
        lines = [
            f"run_date {self.run_date}: {self.pages} pages from {self.files} files in {self.wall_seconds:.1f} s "
            f"({self.pages_per_second:.1f} pages/s), model {self.model_version}",
            "records read by type: " + _counts_text(self.records_by_type),
            "pages out by status:  " + _counts_text(self.pages_by_status),
            "pages out by type:    " + (_counts_text(self.pages_by_type) if self.pages_by_type else "(no page type model)"),
            "confidence:           " + _quartiles_text(self.confidence_quartiles),
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


@dataclass(frozen=True)
class PartitionCounts:
    """What one task tells the driver of its partition: records read by type, rows
    written by status, and where each broken file stopped."""

    records: Counter[str] = field(default_factory=Counter)
    statuses: Counter[str] = field(default_factory=Counter)
    page_types: Counter[str] = field(default_factory=Counter)  # of the pages the model typed
    confidences: ConfidenceHistogram = field(default_factory=ConfidenceHistogram)  # of the pages that have one
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
    batch = RowBatch()
    for indexes in batches:
        for index in indexes.column("id").to_pylist():
            counted = PartitionCounts()
            progress = TaskProgress(index)
            for file in partitions[index]:
                for row in extract_rows(file, loaded, extract_fn, counted.records):
                    if line := progress.row(file.path):
                        print(line, file=sys.stderr, flush=True)
                    counted.statuses[row["status"]] += 1
                    if row["page_type"] is not None:
                        counted.page_types[row["page_type"]] += 1
                    if row["confidence"] is not None:
                        counted.confidences.add(row["confidence"])
                    if row["status"] in FILE_ERRORS:
                        counted.stops.append((row["source_file"], row["offset"], row["error"]))
                    batch.add(row)
                    if batch.full:
                        yield batch.flush()
            counts.add({index: counted})
    if batch.rows:
        yield batch.flush()


class TaskProgress:
    """A running task's own progress line, every PROGRESS_SECONDS.

    The counts of the driver's line (_Progress) reach it only when a task ends, through
    its accumulator, so a task of one large file would show 0 pages for as long as it
    runs; the task says how far it is itself, on its stderr: the job's stderr when Spark
    runs locally, the executor's log on a cluster.
    """

    def __init__(self, partition: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.partition = partition
        self.rows = 0
        self._clock = clock
        self._started = self._last = clock()

    def row(self, source_file: str) -> str | None:
        """Count one row out; the progress line when PROGRESS_SECONDS have passed since the last."""
        self.rows += 1
        now = self._clock()
        if now - self._last < PROGRESS_SECONDS:
            return None
        self._last = now
        rate = self.rows / max(now - self._started, 1e-9)
        return f"progress: partition {self.partition}: {self.rows} pages out, {rate:.1f} pages/s, reading {source_file}"



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
    shared = sc.broadcast(Shared(job.config, model, model_version, job.min_confidence))
    task_bytes = job.config.input.task_bytes
    pieces = split_files(files, task_bytes)
    partitions = pack_partitions(pieces, sc.defaultParallelism, task_bytes)
    plan = sc.broadcast(partitions)
    counts = sc.accumulator({}, _ByPartition())
    ranges = [p for p in pieces if p.start or p.stop is not None]
    log.info(
        "extract: %d %s files (%d of them in %d byte ranges) in %d partitions -> %s",
        len(files), job.input_format, len({p.path for p in ranges}), len(ranges), len(partitions), job.output,
    )  # fmt: skip
    # The marker and the summary judge the partition's rows: none while they are replaced,
    # so that a run killed on the way leaves neither to say that it passed.
    remove_success_marker(job.output, job.run_date)
    remove_summary(job.output, job.run_date)
    remove_stale_staging(job.output, job.run_date)
    with _Progress(sc, counts, started):
        _write(_pages(spark, plan, len(partitions), shared, extract_fn, counts), job)
    summary = _summarise(job, listing, counts.value, model_version, time.perf_counter() - started)
    if not sum(summary.pages_by_status.values()):
        # Spark's dynamic overwrite replaces only the partitions it writes: none, here.
        empty_partition(job.output, job.run_date)
    if not summary.pages:
        log.warning("extract: the input holds no page to extract (%s)", _counts_text(summary.records_by_type))
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
    by_type: Counter[str] = Counter()
    confidences = ConfidenceHistogram()
    for counted in counts.values():
        records.update(counted.records)
        by_status.update(counted.statuses)
        by_type.update(counted.page_types)
        confidences.merge(counted.confidences)
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
        pages_by_type=dict(sorted(by_type.items())),
        confidence_quartiles=confidences.quartiles(),
        files_with_errors=[{"source_file": path, "offset": offset, "error": error} for path, offset, error in stops],
        pages=pages,
        wall_seconds=round(wall, 3),
        pages_per_second=round(pages / wall, 2) if wall > 0 else 0.0,
        model_version=model_version,
        error_pages=verdict.error_pages,
        error_share=verdict.error_share,
        max_error_share=job.policy.max_error_share,
        fail_on_file_errors=job.policy.fail_on_file_errors,
        fail_on_empty=job.policy.fail_on_empty,
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
    path = absolute_path(success_path(output, run_date))
    filesystem, inner = filesystem_for(path)
    filesystem.create_dir(inner.rsplit("/", 1)[0], recursive=True)
    with filesystem.open_output_stream(inner):
        pass
    return path


def remove_success_marker(output: str, run_date: str) -> None:
    _remove_file(success_path(output, run_date))


def remove_summary(output: str, run_date: str) -> None:
    _remove_file(summary_path(output, run_date))


def _remove_file(path: str) -> None:
    filesystem, inner = filesystem_for(absolute_path(path))
    if filesystem.get_file_info(inner).type == fs.FileType.File:
        filesystem.delete_file(inner)


def empty_partition(output: str, run_date: str) -> None:
    """Remove the rows of an earlier run of the date: this run wrote none."""
    filesystem, inner = filesystem_for(absolute_path(partition_path(output, run_date)))
    filesystem.delete_dir_contents(inner, missing_dir_ok=True)


def remove_stale_staging(output: str, run_date: str) -> list[str]:
    """Remove the staging folders that killed runs of this date left in the output.

    Spark writes a dynamic overwrite under ``OUTPUT/.spark-staging-<job>/run_date=…`` and
    moves it into place when the job commits; a run killed before that leaves the folder.
    Only folders that hold this date alone go: another date's may belong to a run going on.
    """
    filesystem, inner = filesystem_for(absolute_path(output))
    if filesystem.get_file_info(inner).type != fs.FileType.Directory:
        return []
    removed = []
    ours = f"run_date={run_date}"
    for folder in filesystem.get_file_info(fs.FileSelector(inner)):
        if folder.type != fs.FileType.Directory or not folder.base_name.startswith(".spark-staging-"):
            continue
        held = {entry.base_name for entry in filesystem.get_file_info(fs.FileSelector(folder.path))}
        if held <= {ours}:
            filesystem.delete_dir(folder.path)
            removed.append(folder.path)
    if removed:
        log.info("extract: removed %d staging folders of killed runs of %s", len(removed), run_date)
    return removed


def write_summary(output: str, summary: RunSummary) -> str:
    """Write the summary beside the data; Spark skips ``_summary`` when it reads the output.

    Written under a temporary name and then renamed, so that it is there whole or not at all.
    """
    path = absolute_path(summary_path(output, summary.run_date))
    filesystem, inner = filesystem_for(path)
    filesystem.create_dir(inner.rsplit("/", 1)[0], recursive=True)
    partial = inner + ".partial"
    with filesystem.open_output_stream(partial) as out:
        out.write(json.dumps(summary.to_dict(), indent=1, sort_keys=True, default=str).encode("utf-8") + b"\n")
    filesystem.move(partial, inner)
    return path


class _Progress:
    """Logs the tasks done and the rows they wrote while the job runs, from a daemon thread.

    Tasks report their accumulators when they finish, so the count moves task by task
    (a task reads at most about input.task_bytes); a task still running logs its own
    count (TaskProgress).
    """

    def __init__(self, sc: Any, counts: Accumulator, started: float) -> None:
        self._sc = sc
        self._counts = counts  # PartitionCounts by partition
        self._started = started
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="webclean-progress", daemon=True)

    def __enter__(self) -> _Progress:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(PROGRESS_SECONDS):
            tracker = self._sc.statusTracker()
            stages = [stage for stage in map(tracker.getStageInfo, tracker.getActiveStageIds()) if stage]
            if stages:  # none while Spark plans the job or commits its files
                counted = list(self._counts.value.values())
                log.info("%s", progress_line(stages, counted, time.perf_counter() - self._started))


def progress_line(stages: Iterable[Any], counted: Iterable[PartitionCounts], elapsed: float) -> str:
    """The driver's line: the tasks of the running stages (Spark's SparkStageInfo) done,
    running and in all, and the pages out of those done."""
    stages = list(stages)
    done = sum(s.numCompletedTasks for s in stages)
    running = sum(s.numActiveTasks for s in stages)
    total = sum(s.numTasks for s in stages)
    rows = sum(sum(partition.statuses.values()) for partition in counted)
    rate = rows / elapsed if elapsed > 0 else 0.0
    return f"progress: {done}/{total} tasks done, {running} running, {rows} pages out of those done, {rate:.1f} pages/s"


def _counts_text(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in counts.items()) or "none"


def _quartiles_text(quartiles: Mapping[str, float] | None) -> str:
    if quartiles is None:
        return "(no page has one)"
    return ", ".join(f"{k} {v:.3f}" for k, v in quartiles.items())
