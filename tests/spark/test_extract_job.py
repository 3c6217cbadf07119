"""The extract job end to end on a local SparkSession: every input record becomes one row."""

from __future__ import annotations

import dataclasses
import gzip
import importlib.util
import json
import os
import re
import subprocess
import sys
import types
import zlib
from collections import Counter
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

pytest.importorskip("pyspark")

from pyspark import cloudpickle  # noqa: E402

from webclean.config import Config, InputConfig  # noqa: E402
from webclean.model import MODELS_DIR, ModelError  # noqa: E402
from webclean.policy import EXIT_POLICY, FailurePolicy  # noqa: E402
from webclean.result import Extraction, Status  # noqa: E402
from webclean.spark.extract_job import (  # noqa: E402
    ExtractJob,
    RunSummary,
    partition_path,
    run_extract,
    success_path,
    summary_path,
)
from webclean.spark.inputs import list_inputs, pack_partitions  # noqa: E402
from webclean.spark.rows import DAMAGED, OUTPUT_SCHEMA, TRUNCATED  # noqa: E402
from webclean.warc import WarcDamage, WarcEnd, WarcPage, iter_warc  # noqa: E402
from webclean.warc_ranges import byte_ranges  # noqa: E402

pytestmark = pytest.mark.spark

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "samples" / "sample.warc.gz"
WARCIO = REPO / "tests" / "fixtures" / "warcio"
SAMPLE_COUNTS = {"warcinfo": 1, "request": 5, "metadata": 1, "response": 49, "revisit": 1}
REQUIRED_COLUMNS = {
    "url", "warc_record_id", "warc_date", "source_file", "title", "text", "lang",
    "status", "error", "bytes_in", "chars_out", "model_version", "run_date",
}  # fmt: skip
RUN_DATE = "2024-01-15"

# The job's plumbing is tested with a quick stand-in for the extractor; the real
# extractor and the packaged model run in the tests from test_real_extractor_... on.
FAKE_MODEL = types.SimpleNamespace(version="fake-1")


def fake_extract(html, url=None, *, config=None, model=None, http_charset=None) -> Extraction:
    """The page's text with its tags stripped: shows which characters reached the extractor."""
    if isinstance(html, bytes):
        html = html.decode(http_charset or "utf-8", errors="replace")
    text = " ".join(re.sub(r"<[^>]*>", " ", html).split())
    return Extraction(text=text, title="", status=Status.OK if text else Status.EMPTY)


def confident_extract(html, url=None, **kwargs) -> Extraction:
    """fake_extract as by a model with a confidence model: a confidence drawn from the text."""
    result = fake_extract(html, url, **kwargs)
    return dataclasses.replace(result, confidence=zlib.crc32(result.text.encode("utf-8")) % 1000 / 999)


# Python workers cannot import this test module: send its functions by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])


def run(spark, inputs, output: Path, run_date: str = RUN_DATE, **options) -> tuple[RunSummary, list[dict]]:
    job = ExtractJob(inputs=tuple(map(str, inputs)), output=str(output), run_date=run_date, **options)
    summary = run_extract(spark, job, model=FAKE_MODEL, extract_fn=fake_extract)
    return summary, read_partition(output, run_date)


def read_partition(output: Path, run_date: str) -> list[dict]:
    return pq.read_table(partition_path(str(output), run_date)).to_pylist()


def load_check_run() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("check_run", REPO / "docs" / "examples" / "check_run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def warc_items(path: Path) -> tuple[list[WarcPage], WarcEnd]:
    items = list(iter_warc(str(path)))
    return [i for i in items if isinstance(i, WarcPage)], items[-1]


def cut_in_half(path: Path) -> Path:
    data = SAMPLE.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return path


def corrupt_member(path: Path, record: int = 20) -> Path:
    data = bytearray(SAMPLE.read_bytes())
    start = warc_items(SAMPLE)[0][record].offset
    for i in range(start + 20, start + 60):
        data[i] ^= 0x5A
    path.write_bytes(bytes(data))
    return path


def test_sample_warc_gives_one_row_per_response(spark, tmp_path):
    summary, rows = run(spark, [SAMPLE], tmp_path / "out")
    assert len(rows) == 49
    assert len({r["warc_record_id"] for r in rows}) == 49
    assert summary.records_by_type == SAMPLE_COUNTS
    assert summary.pages_by_status == {"not_html": 1, "ok": 48}
    assert summary.files_with_errors == []
    assert summary.pages == 49 and summary.files == 1
    assert all(r["model_version"] == "fake-1" and r["source_file"] == str(SAMPLE) for r in rows)
    assert all(r["chars_out"] == len(r["text"]) and r["bytes_in"] > 0 for r in rows)
    # The HTTP charset reaches the extractor: GB18030 bodies come out as Chinese.
    chinese = [r for r in rows if r["http_charset"] == "gb18030"]
    assert len(chinese) == 4 and any("法国" in r["text"] for r in chinese)
    pdf = next(r for r in rows if r["content_type"] == "application/pdf")
    assert pdf["status"] == Status.NOT_HTML and pdf["text"] == ""


def test_min_confidence_marks_the_ok_pages_under_it_and_the_summary_gives_the_quartiles(spark, tmp_path):
    job = ExtractJob(inputs=(str(SAMPLE),), output=str(tmp_path / "out"), run_date=RUN_DATE, min_confidence=0.5)
    summary = run_extract(spark, job, model=FAKE_MODEL, extract_fn=confident_extract)
    rows = read_partition(tmp_path / "out", RUN_DATE)
    assert len(rows) == 49  # every row kept
    low = [r for r in rows if r["status"] == Status.LOW_CONFIDENCE]
    ok = [r for r in rows if r["status"] == Status.OK]
    assert low and ok and len(low) + len(ok) == 48
    assert all(r["confidence"] < 0.5 and r["text"] and r["error"].startswith("confidence ") for r in low)
    assert all(r["confidence"] >= 0.5 and r["error"] is None for r in ok)
    assert next(r for r in rows if r["status"] == Status.NOT_HTML)["confidence"] is None
    assert summary.pages_by_status == {"low_confidence": len(low), "not_html": 1, "ok": len(ok)}
    assert summary.passed and summary.error_pages == 0
    # The quartiles of the pages' confidences, from the tasks' histograms.
    confidences = [r["confidence"] for r in rows if r["confidence"] is not None]
    quartiles = summary.confidence_quartiles
    assert quartiles is not None and list(quartiles) == ["min", "q1", "median", "q3", "max"]
    assert np.allclose(list(quartiles.values()), np.percentile(confidences, [0, 25, 50, 75, 100]), rtol=0, atol=0.001 + 1e-12)
    written = json.loads(Path(summary_path(str(tmp_path / "out"), RUN_DATE)).read_text(encoding="utf-8"))
    assert written["confidence_quartiles"] == quartiles and written["pages_by_status"]["low_confidence"] == len(low)
    assert f"confidence:           min {quartiles['min']:.3f}, q1 " in summary.to_text()
    # The same pages read by many tasks: the same quartiles.
    config = Config(input=InputConfig(task_bytes=50_000))
    split = run_extract(spark, dataclasses.replace(job, config=config), model=FAKE_MODEL, extract_fn=confident_extract)
    assert (split.confidence_quartiles, split.pages_by_status) == (quartiles, summary.pages_by_status)


def test_output_has_the_columns_and_the_summary_file(spark, tmp_path):
    summary, _ = run(spark, [SAMPLE], tmp_path / "out")
    columns = set(spark.read.parquet(str(tmp_path / "out")).columns)
    assert REQUIRED_COLUMNS <= columns
    assert columns == set(OUTPUT_SCHEMA.names) | {"run_date"}
    written = json.loads(Path(summary_path(str(tmp_path / "out"), RUN_DATE)).read_text(encoding="utf-8"))
    assert written == json.loads(json.dumps(summary.to_dict()))
    assert "pages out by status" in summary.to_text()
    # No page has a confidence: none to give the quartiles of.
    assert written["confidence_quartiles"] is None and "confidence:           (no page has one)" in summary.to_text()


def test_html_folder_jsonl_and_parquet(spark, tmp_path, html_inputs):
    summary, rows = run(spark, html_inputs, tmp_path / "out")
    by_type: dict[str, list[dict]] = {}
    for row in rows:
        by_type.setdefault(row["record_type"], []).append(row)
    assert {k: len(v) for k, v in by_type.items()} == {"html": 4, "jsonl": 5, "parquet": 3}
    assert summary.records_by_type == {"html": 4, "jsonl": 5, "parquet": 3}
    assert summary.pages_by_status == {"ok": 11, "decode_error": 1}
    texts = {r["text"] for r in rows}
    assert {"A Page a", "Seite b: Grüße", "Page c, gzipped", "Page d", "Line 0", "P1"} <= texts
    bad = next(r for r in rows if r["status"] == Status.DECODE_ERROR)
    assert (bad["source_file"].endswith("pages.jsonl"), bad["offset"]) == (True, 2)
    assert "not JSON" in bad["error"]


def test_broken_warcs_keep_what_was_read_and_say_where_they_stopped(spark, tmp_path):
    half = cut_in_half(tmp_path / "half.warc.gz")
    corrupt = corrupt_member(tmp_path / "corrupt.warc.gz")
    listing = tmp_path / "inputs.txt"
    listing.write_text(f"# crawl segment\nhalf.warc.gz\ncorrupt.warc.gz\n{SAMPLE}\n", encoding="utf-8")
    summary, rows = run(spark, [listing], tmp_path / "out")

    pages, end = warc_items(half)
    assert not end.complete
    from_half = [r for r in rows if r["source_file"] == str(half)]
    assert len(from_half) == len(pages) + 1
    stop = [r for r in from_half if r["status"] == TRUNCATED]
    assert [(s["offset"], s["error"]) for s in stop] == [(end.offset, end.error)]
    # The corrupt member is a damaged row of its own, and every record after it is read.
    from_corrupt = [r for r in rows if r["source_file"] == str(corrupt)]
    damaged = [r for r in from_corrupt if r["status"] == DAMAGED]
    assert len(from_corrupt) == 49 and len(damaged) == 1 and "corrupt gzip data" in damaged[0]["error"]
    assert {r["offset"] for r in from_corrupt} == {p.offset for p in warc_items(SAMPLE)[0]}
    assert len(rows) == 49 + len(pages) + 1 + 49
    assert summary.pages_by_status[TRUNCATED] == 1 and summary.pages_by_status[DAMAGED] == 1
    assert sorted(e["source_file"] for e in summary.files_with_errors) == sorted([str(corrupt), str(half)])
    # The tasks count what they write: the summary agrees with the rows read back.
    assert summary.pages_by_status == dict(sorted(Counter(r["status"] for r in rows).items()))
    stops = sorted((r["source_file"], r["offset"], r["error"]) for r in rows if r["status"] in (TRUNCATED, DAMAGED))
    assert [(e["source_file"], e["offset"], e["error"]) for e in summary.files_with_errors] == stops


def test_warcs_read_in_byte_ranges_by_many_tasks_give_the_rows_of_one_task_a_file(spark, tmp_path):
    """input.task_bytes of 50 kB: the sample (600 kB) and a copy of it with a corrupt member
    across a range boundary are read in 13 ranges each, each range by a task of its own."""
    task_bytes = 50_000
    cuts = [start for start, _ in byte_ranges(SAMPLE.stat().st_size, task_bytes)[1:]]
    corrupt = tmp_path / "corrupt.warc.gz"
    for record in range(49):
        damage = next(i for i in iter_warc(str(corrupt_member(corrupt, record))) if isinstance(i, WarcDamage))
        if any(damage.offset < cut < damage.resumed for cut in cuts):
            break
    else:
        pytest.fail("no member of the sample runs across a boundary")
    whole, whole_rows = run(spark, [SAMPLE, corrupt], tmp_path / "whole")
    config = Config(input=InputConfig(task_bytes=task_bytes))
    split, split_rows = run(spark, [SAMPLE, corrupt], tmp_path / "split", config=config)
    key = lambda r: (r["source_file"], r["offset"])  # noqa: E731
    assert sorted(split_rows, key=key) == sorted(whole_rows, key=key)
    assert len(split_rows) == 49 + 49 and [key(r) for r in split_rows if r["status"] == DAMAGED] == [(str(corrupt), damage.offset)]
    assert (split.records_by_type, split.pages_by_status) == (whole.records_by_type, whole.pages_by_status)
    assert split.files_with_errors == whole.files_with_errors and split.files == whole.files == 2
    # A Parquet file a task: many tasks wrote rows of each file, where one did without ranges.
    assert [tasks_that_wrote(tmp_path / "whole", source) for source in (SAMPLE, corrupt)] == [1, 1]
    assert all(tasks_that_wrote(tmp_path / "split", source) >= 10 for source in (SAMPLE, corrupt))


def tasks_that_wrote(output: Path, source: Path) -> int:
    parts = Path(partition_path(str(output), RUN_DATE)).glob("*.parquet")
    return sum(str(source) in pq.read_table(part).column("source_file").to_pylist() for part in parts)


def test_the_policy_judges_the_run_and_only_a_run_that_passes_gets_its_marker(spark, tmp_path, html_inputs):
    out = tmp_path / "out"
    marker = Path(success_path(str(out), RUN_DATE))
    # One page of 12 has an error status (a line that is not JSON): 8.3 %.
    passed, _ = run(spark, html_inputs, out, policy=FailurePolicy(max_error_share=0.1))
    assert passed.passed and (passed.error_pages, passed.error_share) == (1, round(1 / 12, 6))
    assert marker.is_file() and marker.read_bytes() == b""
    assert "run: passed" in passed.to_text()
    # The scheduler's check (docs/scheduling.md) reads the summary the job wrote.
    check = load_check_run()
    assert check.check_run(str(out), RUN_DATE)["pages"] == 12

    # The same date again under the default policy (5 %): rows and summary replaced, marker gone.
    failed, rows = run(spark, html_inputs, out)
    assert not failed.passed and failed.failures == [
        "1 of 12 pages (8.3%) have an error status, over the maximum share of 0.05"
    ]
    assert len(rows) == 12 and not marker.exists()
    written = json.loads(Path(summary_path(str(out), RUN_DATE)).read_text(encoding="utf-8"))
    assert {k: written[k] for k in ("passed", "failures", "max_error_share", "summary_version")} == {
        "passed": False, "failures": failed.failures, "max_error_share": 0.05, "summary_version": 1,
    }  # fmt: skip
    assert "run: FAILED: 1 of 12 pages" in failed.to_text()
    with pytest.raises(check.RunNotPassed, match="1 of 12 pages"):
        check.check_run(str(out), RUN_DATE)
    # Spark reads the output with the marker in a partition.
    assert spark.read.parquet(str(out)).count() == 12


def test_a_running_task_says_its_pages_out_every_progress_interval(monkeypatch):
    from webclean.spark import extract_job

    monkeypatch.setattr(extract_job, "PROGRESS_SECONDS", 15.0)
    now = [100.0]
    progress = extract_job.TaskProgress(3, clock=lambda: now[0])
    assert [progress.row("a.warc.gz") for _ in range(9)] == [None] * 9  # none before the interval
    now[0] = 115.0
    assert progress.row("a.warc.gz") == "progress: partition 3: 10 pages out, 0.7 pages/s, reading a.warc.gz"
    now[0] = 120.0
    assert progress.row("b.warc.gz") is None  # the next one an interval after it
    now[0] = 130.0
    assert progress.row("b.warc.gz") == "progress: partition 3: 12 pages out, 0.4 pages/s, reading b.warc.gz"


def test_a_task_of_one_file_reports_progress_before_it_ends(monkeypatch, capsys):
    """The driver's accumulator hears of a task only when it ends: the 1 GB file of issue 60
    showed "0 pages out" for minutes. map_files, as a worker runs it (no JVM here), says
    how far it is while it reads."""
    from webclean.spark import extract_job
    from webclean.spark.rows import Shared

    monkeypatch.setattr(extract_job, "PROGRESS_SECONDS", 0.0)  # a line a row
    value = types.SimpleNamespace
    reported = []
    batches = extract_job.map_files(
        [pa.RecordBatch.from_pydict({"id": [0]})],
        plan=value(value=[list_inputs([str(SAMPLE)], "warc")]),
        shared=value(value=Shared(Config(), FAKE_MODEL, "fake-1")),
        extract_fn=fake_extract,
        counts=value(add=reported.append),
    )
    rows = sum(batch.num_rows for batch in batches)
    lines = capsys.readouterr().err.splitlines()
    assert rows == 49 and len(lines) == rows
    assert lines[0].startswith("progress: partition 0: 1 pages out, ") and lines[0].endswith(f"reading {SAMPLE}")
    assert lines[-1].startswith("progress: partition 0: 49 pages out, ")
    assert sum(reported[0][0].statuses.values()) == 49


def test_the_drivers_line_says_the_tasks_done_and_running_and_the_pages_of_those_done():
    from webclean.spark.extract_job import PartitionCounts, progress_line

    stage = types.SimpleNamespace(numTasks=12, numCompletedTasks=3, numActiveTasks=2)
    counted = [PartitionCounts(statuses=Counter(ok=40, empty=5)), PartitionCounts(statuses=Counter(ok=15))]
    line = progress_line([stage], counted, 10.0)
    assert line == "progress: 3/12 tasks done, 2 running, 60 pages out of those done, 6.0 pages/s"


def test_the_driver_logs_its_line_while_the_tasks_run(spark, tmp_path, monkeypatch, caplog):
    from webclean.spark import extract_job

    monkeypatch.setattr(extract_job, "PROGRESS_SECONDS", 0.2)
    config = Config(input=InputConfig(task_bytes=50_000))  # 13 tasks
    with caplog.at_level("INFO", logger="webclean.spark"):
        run(spark, [SAMPLE], tmp_path / "out", config=config)
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("progress: ")]
    assert lines and all(re.fullmatch(r"progress: \d+/13 tasks done, \d+ running, \d+ pages out of those done, [\d.]+ pages/s", line) for line in lines)


def test_a_partition_extracted_twice_is_counted_once(spark, tmp_path, monkeypatch):
    from webclean.spark import extract_job

    write = extract_job._write

    def write_after_a_first_pass(pages, job):
        pages.count()  # every task runs once more, as when a stage runs again after a lost executor
        write(pages, job)

    monkeypatch.setattr(extract_job, "_write", write_after_a_first_pass)
    summary, rows = run(spark, [SAMPLE, cut_in_half(tmp_path / "half.warc.gz")], tmp_path / "out")
    pages, end = warc_items(tmp_path / "half.warc.gz")
    records = Counter(SAMPLE_COUNTS) + Counter(end.counts)
    assert summary.records_by_type == dict(sorted(records.items()))
    assert summary.pages_by_status == dict(sorted(Counter(r["status"] for r in rows).items()))
    assert len(summary.files_with_errors) == 1 and summary.pages == 49 + len(pages)


def test_every_record_of_warcios_test_files_gives_a_row(spark, tmp_path):
    summary, rows = run(spark, [WARCIO], tmp_path / "out")
    expected: Counter[tuple[str, int | None]] = Counter()
    records: Counter[str] = Counter()
    files = sorted(p for p in WARCIO.iterdir() if p.name.endswith((".warc", ".warc.gz", ".arc", ".arc.gz")))
    for path in files:
        pages, end = warc_items(path)
        expected.update((str(path), p.offset) for p in pages)
        expected.update([(str(path), end.offset)] if not end.complete else [])
        records.update(end.counts)
    assert Counter((r["source_file"], r["offset"]) for r in rows) == expected
    assert summary.records_by_type == dict(sorted(records.items()))
    assert summary.files == len(files) == 15
    # Not WARC or ARC by its name: example-bad.warc.gz.bad, and the licence, notice and README.
    assert summary.files_skipped == 4
    urls = {r["url"] for r in rows if r["source_file"].endswith(".arc")}
    assert "http://example.com/index.cfm?FuseAction=Email&EmailTitle=Examples%20From%20The%20Live%20Web&IsPopUp=False" in urls


@pytest.fixture
def wget_site(tmp_path: Path) -> Path:
    """Pages as wget saves a site: query strings, other extensions, no extension."""
    site = tmp_path / "example.test"
    site.mkdir()
    canonical = '<link href="https://example.test/article?id=3&amp;p=1" rel="canonical">'
    (site / "index.php?id=3").write_text(f"<html><head>{canonical}</head><p>Article three</p></html>", encoding="utf-8")
    (site / "news.shtml").write_bytes(gzip.compress(b"<p>News, gzipped</p>"))
    (site / "about").write_text("<p>About us</p>", encoding="utf-8")
    (site / "a[1].html").write_text("<link rel=canonical href=/relative><p>Page a</p>", encoding="utf-8")
    return site


def test_input_format_html_takes_every_file_with_its_url(spark, tmp_path, wget_site):
    summary, rows = run(spark, [wget_site], tmp_path / "out", input_format="html")
    assert (summary.files, summary.files_skipped) == (4, 0)
    by_name = {Path(r["source_file"]).name: r for r in rows}
    assert {name: r["text"] for name, r in by_name.items()} == {
        "index.php?id=3": "Article three", "news.shtml": "News, gzipped", "about": "About us", "a[1].html": "Page a",
    }  # fmt: skip
    assert by_name["index.php?id=3"]["url"] == "https://example.test/article?id=3&p=1"  # its canonical link
    # No canonical link, or a relative one: the file's own URI.
    assert by_name["about"]["url"] == (wget_site / "about").as_uri()
    assert by_name["a[1].html"]["url"] == (wget_site / "a[1].html").as_uri()
    assert by_name["news.shtml"]["bytes_in"] == (wget_site / "news.shtml").stat().st_size  # as stored, gzipped


def test_auto_format_counts_and_logs_the_files_it_skips(spark, tmp_path, wget_site, caplog):
    with caplog.at_level("WARNING", logger="webclean.spark"):
        summary, rows = run(spark, [wget_site, f"{wget_site}/*"], tmp_path / "out")
    assert [Path(r["source_file"]).name for r in rows] == ["a[1].html"]
    assert summary.files_skipped == 3
    written = json.loads(Path(summary_path(str(tmp_path / "out"), RUN_DATE)).read_text(encoding="utf-8"))
    assert written["files_skipped"] == 3
    assert "files skipped:        3" in summary.to_text()
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert all(name in logged for name in ("index.php?id=3", "news.shtml", "about"))


def test_each_task_extracts_the_files_packed_for_it(spark, tmp_path, html_inputs):
    out = tmp_path / "out"
    run(spark, html_inputs, out)
    files = list_inputs(map(str, html_inputs))
    packed = pack_partitions(files, spark.sparkContext.defaultParallelism, Config().input.task_bytes)
    assert len(files) == 7 and len(packed) == 7  # fewer files than TASKS_PER_CORE a core: one each
    # One task per partition, and one Parquet file per task.
    written = [
        sorted({row["source_file"] for row in pq.read_table(part).to_pylist()})
        for part in Path(partition_path(str(out), RUN_DATE)).glob("*.parquet")
    ]
    assert sorted(written) == sorted(sorted(f.path for f in part) for part in packed)


def test_rerun_of_a_date_replaces_only_that_partition(spark, tmp_path, html_inputs):
    out = tmp_path / "out"
    _, first = run(spark, [SAMPLE], out, run_date="2024-01-15")
    _, other = run(spark, html_inputs, out, run_date="2024-01-16")
    other_files = sorted(p.name for p in Path(partition_path(str(out), "2024-01-16")).iterdir())

    _, again = run(spark, [SAMPLE], out, run_date="2024-01-15")
    key = lambda r: (r["source_file"], r["offset"])  # noqa: E731
    assert sorted(again, key=key) == sorted(first, key=key)
    assert sorted(p.name for p in Path(partition_path(str(out), "2024-01-16")).iterdir()) == other_files
    assert read_partition(out, "2024-01-16") == other

    # A re-run with other inputs replaces the partition rather than adding to it.
    summary, replaced = run(spark, [cut_in_half(tmp_path / "half.warc.gz")], out, run_date="2024-01-15")
    assert len(replaced) == summary.pages + 1 < len(first)
    assert spark.read.parquet(str(out)).count() == len(replaced) + len(other)


def parquet_files(output: Path, run_date: str) -> list[str]:
    return sorted(p.name for p in Path(partition_path(str(output), run_date)).iterdir() if not p.name.startswith("_"))


def test_a_rerun_whose_input_yields_no_row_empties_the_partition(spark, tmp_path, caplog):
    out = tmp_path / "out"
    run(spark, [SAMPLE], out)
    assert parquet_files(out, RUN_DATE)
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    with caplog.at_level("WARNING", logger="webclean.spark"):
        summary = run_extract(spark, ExtractJob(inputs=(str(empty),), output=str(out), run_date=RUN_DATE), model=FAKE_MODEL)
    assert summary.pages == 0 and summary.passed
    assert parquet_files(out, RUN_DATE) == []  # no earlier rows beside the fresh marker
    assert Path(success_path(str(out), RUN_DATE)).is_file()
    assert "no page to extract" in caplog.text
    # With --fail-on-empty the same run fails its policy.
    job = ExtractJob(inputs=(str(empty),), output=str(out), run_date=RUN_DATE, policy=FailurePolicy(fail_on_empty=True))
    failed = run_extract(spark, job, model=FAKE_MODEL)
    assert not failed.passed and failed.failures == ["the input holds no page to extract"]
    assert not Path(success_path(str(out), RUN_DATE)).exists()
    assert json.loads(Path(summary_path(str(out), RUN_DATE)).read_text(encoding="utf-8"))["fail_on_empty"]


def crashing_extract(html, url=None, **kwargs) -> Extraction:
    raise RuntimeError("a bug in the extractor")


def test_a_crashed_rerun_leaves_no_summary_that_says_passed_and_stale_staging_goes(spark, tmp_path):
    out = tmp_path / "out"
    passed, _ = run(spark, [SAMPLE], out)
    assert passed.passed and Path(summary_path(str(out), RUN_DATE)).is_file()
    # What runs killed before their commit left: staging folders of this date and of another.
    for folder, date in (("dead", RUN_DATE), ("other", "2024-01-16")):
        staged = out / f".spark-staging-{folder}" / f"run_date={date}"
        staged.mkdir(parents=True)
        (staged / "part-00000.parquet").write_bytes(b"PAR1")
    job = ExtractJob(inputs=(str(SAMPLE),), output=str(out), run_date=RUN_DATE)
    with pytest.raises(Exception, match="a bug in the extractor"):
        run_extract(spark, job, model=FAKE_MODEL, extract_fn=crashing_extract)
    assert not Path(summary_path(str(out), RUN_DATE)).exists()
    assert not Path(success_path(str(out), RUN_DATE)).exists()
    assert not (out / ".spark-staging-dead").exists() and (out / ".spark-staging-other").exists()
    assert len(read_partition(out, RUN_DATE)) == 49  # the earlier rows stay until a run replaces them


def test_real_extractor_and_packaged_model_on_the_sample(spark, tmp_path):
    job = ExtractJob(inputs=(str(SAMPLE),), output=str(tmp_path / "out"), run_date=RUN_DATE)
    summary = run_extract(spark, job)
    rows = read_partition(tmp_path / "out", RUN_DATE)
    assert len(rows) == 49
    assert summary.pages_by_status.get(Status.OK, 0) >= 40
    assert summary.pages_by_status[Status.NOT_HTML] == 1
    assert Status.ERROR not in summary.pages_by_status
    assert {r["model_version"] for r in rows} == {summary.model_version} != {"unversioned"}
    chinese = [r for r in rows if r["http_charset"] == "gb18030"]
    assert {r["encoding"] for r in chinese} == {"gb18030"}
    assert all(r["lang"] == "zh" and re.search("[\u4e00-\u9fff]", r["text"]) for r in chinese)


@pytest.mark.parametrize("method", ["blocks", "mlp"])
def test_the_seed_methods_run_in_the_job_and_fill_publication_columns(spark, tmp_path, method):
    job = ExtractJob(
        inputs=(str(SAMPLE),), output=str(tmp_path / "out"), run_date=RUN_DATE, config=Config(method=method)
    )
    summary = run_extract(spark, job)
    rows = read_partition(tmp_path / "out", RUN_DATE)
    assert len(rows) == 49
    assert {r["method"] for r in rows if r["status"] == Status.OK} == {method}
    assert summary.pages_by_status.get(Status.OK, 0) >= 40
    assert (summary.model_version == "none") == (method == "blocks")
    # Chinese news pages carry their time of publication.
    assert any(r["published"] for r in rows if r["lang"] == "zh")


def test_model_of_another_method_fails_before_the_job(spark, tmp_path):
    job = ExtractJob(
        inputs=(str(SAMPLE),), output=str(tmp_path / "out"), run_date=RUN_DATE,
        config=Config(method="paper"), model_path=str(MODELS_DIR / "svm"),
    )  # fmt: skip
    with pytest.raises(ModelError):
        run_extract(spark, job)
    assert not (tmp_path / "out").exists()


def test_job_script_runs_from_the_repo_root(tmp_path):
    out = tmp_path / "out"
    command = [
        sys.executable, "jobs/extract.py", "--input", str(SAMPLE), "--output", str(out),
        "--run-date", RUN_DATE, "--set", "limits.max_bytes=100000",
    ]  # fmt: skip
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable}
    env.pop("PYTHONPATH", None)  # the script must find webclean by itself
    result = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "pages out by status" in result.stdout
    summary = json.loads(Path(summary_path(str(out), RUN_DATE)).read_text(encoding="utf-8"))
    assert sum(summary["pages_by_status"].values()) == 49
    assert summary["passed"] and Path(success_path(str(out), RUN_DATE)).is_file()
    # --set reached the workers: the pages over 100 kB were refused.
    assert summary["pages_by_status"][Status.TOO_LARGE] >= 3


def test_submit_runs_without_the_venv_on_path_and_exits_3_when_the_run_fails(tmp_path):
    """scripts/submit, the command make extract runs, from a shell that has neither the venv
    on PATH nor PYSPARK_PYTHON, on a crawl with a broken file: it exits with the job's code."""
    venv = Path(sys.prefix)
    if not (venv / "bin" / "spark-submit").is_file():
        pytest.skip("the tests do not run in a virtual env with pip's spark-submit")
    out, half = tmp_path / "out", cut_in_half(tmp_path / "half.warc.gz")
    env = {k: v for k, v in os.environ.items() if k not in ("PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON", "SPARK_HOME", "PYTHONPATH")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if Path(p) != venv / "bin")
    env["WEBCLEAN_VENV"] = str(venv)
    command = [
        "scripts/submit", "jobs/extract.py", "--input", str(SAMPLE), str(half), "--output", str(out),
        "--run-date", RUN_DATE, "--fail-on-file-errors",
    ]  # fmt: skip
    result = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=400)
    assert result.returncode == EXIT_POLICY, result.stderr[-3000:]
    # The driver's stderr reaches stderr (spark-submit alone merges it into its stdout).
    assert "extract: failed: 1 input file could not be read to the end" in result.stderr
    assert "extract: failed" not in result.stdout and "run: FAILED" in result.stdout
    summary = json.loads(Path(summary_path(str(out), RUN_DATE)).read_text(encoding="utf-8"))
    assert not summary["passed"] and summary["pages_by_status"][TRUNCATED] == 1
    assert summary["fail_on_file_errors"] and len(summary["files_with_errors"]) == 1
    assert not Path(success_path(str(out), RUN_DATE)).exists()
    assert len(read_partition(out, RUN_DATE)) == sum(summary["pages_by_status"].values())
