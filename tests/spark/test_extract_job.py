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
from collections import Counter
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

pytest.importorskip("pyspark")

from pyspark import cloudpickle  # noqa: E402

from webclean.config import Config  # noqa: E402
from webclean.model import MODELS_DIR, ModelError  # noqa: E402
from webclean.policy import EXIT_POLICY, FailurePolicy  # noqa: E402
from webclean.result import Extraction, Status  # noqa: E402
from webclean.spark import (  # noqa: E402
    OUTPUT_SCHEMA,
    PARTITION_BYTES,
    TASKS_PER_CORE,
    TRUNCATED,
    ExtractJob,
    InputError,
    InputFile,
    RunSummary,
    find_inputs,
    list_inputs,
    pack_partitions,
    partition_path,
    read_input,
    run_extract,
    success_path,
    summary_path,
)
from webclean.warc import WarcEnd, WarcPage, iter_warc  # noqa: E402

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
    return items[:-1], items[-1]


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


@pytest.fixture
def html_inputs(tmp_path: Path) -> list[Path]:
    """Four HTML files (one gzipped, one nested) beside files the job must skip,
    a JSON Lines file with a bad line, a gzipped one, and a Parquet file."""
    pages = tmp_path / "pages"
    (pages / "sub").mkdir(parents=True)
    (pages / "a.html").write_text("<html><title>A</title><p>Page a</p></html>", encoding="utf-8")
    (pages / "b.htm").write_bytes("<p>Seite b: Grüße</p>".encode("utf-8"))
    (pages / "c.html.gz").write_bytes(gzip.compress(b"<p>Page c, gzipped</p>"))
    (pages / "sub" / "d.html").write_text("<p>Page d</p>", encoding="utf-8")
    (pages / ".hidden.html").write_text("<p>skip</p>", encoding="utf-8")
    (pages / "_SUCCESS").write_text("", encoding="utf-8")
    (pages / "notes.md").write_text("not a page", encoding="utf-8")
    lines = [json.dumps({"url": f"http://example.test/{i}", "html": f"<p>Line {i}</p>"}) for i in range(2)]
    jsonl = tmp_path / "pages.jsonl"
    jsonl.write_text("\n".join([lines[0], "{not json", lines[1]]) + "\n", encoding="utf-8")
    jsonl_gz = tmp_path / "more.jsonl.gz"
    jsonl_gz.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode("utf-8")))
    parquet = tmp_path / "pages.parquet"
    urls = ["http://example.test/p0", None, "http://example.test/p2"]
    pq.write_table(pa.table({"url": urls, "html": ["<p>P0</p>", "<p>P1</p>", "<p>P2</p>"]}), parquet)
    return [pages, jsonl, jsonl_gz, parquet]


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


def test_output_has_the_columns_and_the_summary_file(spark, tmp_path):
    summary, _ = run(spark, [SAMPLE], tmp_path / "out")
    columns = set(spark.read.parquet(str(tmp_path / "out")).columns)
    assert REQUIRED_COLUMNS <= columns
    assert columns == set(OUTPUT_SCHEMA.names) | {"run_date"}
    written = json.loads(Path(summary_path(str(tmp_path / "out"), RUN_DATE)).read_text(encoding="utf-8"))
    assert written == json.loads(json.dumps(summary.to_dict()))
    assert "pages out by status" in summary.to_text()


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

    expected_rows = 49
    for broken in (half, corrupt):
        pages, end = warc_items(broken)
        assert not end.complete
        from_file = [r for r in rows if r["source_file"] == str(broken)]
        assert len(from_file) == len(pages) + 1
        stop = [r for r in from_file if r["status"] == TRUNCATED]
        assert [(s["offset"], s["error"]) for s in stop] == [(end.offset, end.error)]
        expected_rows += len(pages) + 1
    assert len(rows) == expected_rows
    assert summary.pages_by_status[TRUNCATED] == 2
    assert sorted(e["source_file"] for e in summary.files_with_errors) == sorted([str(corrupt), str(half)])
    # The tasks count what they write: the summary agrees with the rows read back.
    assert summary.pages_by_status == dict(sorted(Counter(r["status"] for r in rows).items()))
    stops = sorted((r["source_file"], r["offset"], r["error"]) for r in rows if r["status"] == TRUNCATED)
    assert [(e["source_file"], e["offset"], e["error"]) for e in summary.files_with_errors] == stops


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


def test_a_partition_extracted_twice_is_counted_once(spark, tmp_path, monkeypatch):
    from webclean import spark as spark_module

    write = spark_module._write

    def write_after_a_first_pass(pages, job):
        pages.count()  # every task runs once more, as when a stage runs again after a lost executor
        write(pages, job)

    monkeypatch.setattr(spark_module, "_write", write_after_a_first_pass)
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
    packed = pack_partitions(files, spark.sparkContext.defaultParallelism)
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


def test_the_summary_contract_lists_every_field_of_the_summary():
    doc = (REPO / "docs" / "output.md").read_text(encoding="utf-8")
    contract = doc.split("## The run's summary", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^\| `(\w+)` \|", contract, flags=re.MULTILINE)
    assert sorted(listed) == sorted(f.name for f in dataclasses.fields(RunSummary))


def test_job_help_gives_the_input_schema_of_each_format():
    result = subprocess.run([sys.executable, "jobs/extract.py", "--help"], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    for words in (".arc.gz", "WARC-Target-URI", "rel=canonical", "{\"url\": ..., \"html\": \"...\"}", "html column", "files_skipped"):
        assert words in result.stdout


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--set", "nope.key=1"], "unknown configuration key 'nope.key'"),
        (["--config", "missing.toml"], "missing.toml: No such file or directory"),
    ],
)
def test_job_script_reports_a_bad_argument_in_one_line(arguments, message):
    command = [sys.executable, "jobs/extract.py", "--input", str(SAMPLE), "--output", "out", *arguments]
    result = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.strip() == f"extract: error: {message}"


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
    # spark-submit sends the driver's stderr to its stdout.
    assert "extract: failed: 1 input file could not be read to the end" in result.stdout
    summary = json.loads(Path(summary_path(str(out), RUN_DATE)).read_text(encoding="utf-8"))
    assert not summary["passed"] and summary["pages_by_status"][TRUNCATED] == 1
    assert summary["fail_on_file_errors"] and len(summary["files_with_errors"]) == 1
    assert not Path(success_path(str(out), RUN_DATE)).exists()
    assert len(read_partition(out, RUN_DATE)) == sum(summary["pages_by_status"].values())


# ---------------------------------------------------------------- listing inputs (no job)


def test_listing_finds_formats_and_skips_hidden_files(html_inputs):
    pages = html_inputs[0]
    found = list_inputs([str(p) for p in html_inputs])
    names = sorted((Path(f.path).relative_to(pages.parent).as_posix(), f.format) for f in found)
    assert names == [
        ("more.jsonl.gz", "jsonl"),
        ("pages.jsonl", "jsonl"),
        ("pages.parquet", "parquet"),
        ("pages/a.html", "html"),
        ("pages/b.htm", "html"),
        ("pages/c.html.gz", "html"),
        ("pages/sub/d.html", "html"),
    ]
    assert find_inputs([str(pages)]).skipped == [str(pages / "notes.md")]
    # --input-format html takes every file but the hidden ones.
    as_html = find_inputs([str(pages)], "html")
    assert [Path(f.path).name for f in as_html.files] == ["a.html", "b.htm", "c.html.gz", "notes.md", "d.html"]
    assert {f.format for f in as_html.files} == {"html"} and as_html.skipped == []
    assert {f.format for f in list_inputs([str(pages.parent)], "jsonl")} == {"jsonl"}


def test_globs_listing_files_and_duplicates(tmp_path, html_inputs):
    pages = html_inputs[0]
    assert sorted(Path(f.path).name for f in list_inputs([f"{pages}/*.htm*"])) == ["a.html", "b.htm", "c.html.gz"]
    assert [Path(f.path).name for f in list_inputs([f"{tmp_path}/*/*/d.html"])] == ["d.html"]
    listing = tmp_path / "warc.paths.gz"
    listing.write_bytes(gzip.compress(f"{SAMPLE}\n\n# note\n{SAMPLE.as_uri()}\n".encode("utf-8")))
    assert list_inputs([str(listing), str(SAMPLE)]) == [InputFile(str(SAMPLE), "warc", SAMPLE.stat().st_size)]


# Names as wget saves them: a query string, brackets, a star.
ODD_NAMES = ("index.php?id=3", "a[1].html", "x*y.html")


def test_glob_matches_with_glob_characters_are_not_globbed_again(tmp_path):
    site = tmp_path / "site[1]"  # a folder named like a pattern on the way, too
    site.mkdir()
    for name in ODD_NAMES:
        (site / name).write_text(f"<p>{name}</p>", encoding="utf-8")
    (tmp_path / "site1").mkdir()  # what the folder's name matches as a pattern
    (tmp_path / "site1" / "other.html").write_text("<p>other</p>", encoding="utf-8")
    found = list_inputs([f"{site}/*"], "html")
    assert sorted(Path(f.path).relative_to(tmp_path).as_posix() for f in found) == sorted(
        [f"site[1]/{name}" for name in ODD_NAMES] + ["site1/other.html"]
    )
    assert sorted(Path(f.path).name for f in list_inputs([f"{site}/*.html"])) == ["a[1].html", "other.html", "x*y.html"]


def test_a_glob_reads_listing_files_only_where_its_pattern_names_them(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "robots.txt").write_text("User-agent: *\nDisallow: /private\n", encoding="utf-8")
    (site / "index.html").write_text("<p>x</p>", encoding="utf-8")
    listings = tmp_path / "segments"
    listings.mkdir()
    (listings / "a.paths").write_text(f"{site / 'index.html'}\n", encoding="utf-8")
    as_html = find_inputs([f"{site}/*"], "html")
    assert sorted(Path(f.path).name for f in as_html.files) == ["index.html", "robots.txt"]
    assert [Path(f.path).name for f in find_inputs([f"{site}/*"]).files] == ["index.html"]
    assert [Path(f.path).name for f in find_inputs([f"{listings}/*.paths"]).files] == ["index.html"]


@pytest.mark.parametrize("name", ODD_NAMES)
def test_a_path_with_glob_characters_that_exists_is_taken_as_it_is(tmp_path, name):
    page = tmp_path / name
    page.write_text("<p>x</p>", encoding="utf-8")
    (tmp_path / "a1.html").write_text("<p>what a[1].html matches as a pattern</p>", encoding="utf-8")
    assert list_inputs([str(page)], "html") == [InputFile(str(page), "html", page.stat().st_size)]


@pytest.mark.parametrize("bad", ["missing.warc.gz", "*.nothing", "README"])
def test_inputs_that_name_nothing_fail_at_start(tmp_path, bad):
    (tmp_path / "README").write_text("hello", encoding="utf-8")
    with pytest.raises(InputError):
        list_inputs([str(tmp_path / bad)])


def test_bad_job_arguments_fail_at_start():
    with pytest.raises(InputError):
        ExtractJob(inputs=("x",), output="o", run_date=RUN_DATE, input_format="csv")
    with pytest.raises(ValueError):
        ExtractJob(inputs=("x",), output="o", run_date="15/01/2024")


def test_partitions_are_packed_by_size():
    warcs = [InputFile(f"w{i}.warc.gz", "warc", PARTITION_BYTES * 4) for i in range(3)]
    assert sorted(len(p) for p in pack_partitions(warcs, 2)) == [1, 1, 1]
    small = [InputFile(f"p{i}.html", "html", 1000 + i) for i in range(101)]
    parts = pack_partitions(small, 4)
    # Small files: TASKS_PER_CORE partitions a core, whatever their bytes, of similar size.
    assert len(parts) == 4 * TASKS_PER_CORE
    assert sorted(len(p) for p in parts) == [6] * 11 + [7] * 5
    assert sorted(f.path for p in parts for f in p) == sorted(f.path for f in small)
    # Enough bytes for more partitions than that: about PARTITION_BYTES each.
    many = [InputFile(f"m{i}.warc.gz", "warc", PARTITION_BYTES // 2) for i in range(40)]
    assert sorted(len(p) for p in pack_partitions(many, 2)) == [2] * 20


def test_text_inputs_count_and_cap_utf8_bytes(tmp_path):
    page = "<p>" + "法" * 400 + "</p>"  # 407 characters, 1,207 bytes
    small = "<p>Grüße</p>"
    jsonl = tmp_path / "pages.jsonl"
    jsonl.write_text("\n".join(json.dumps({"url": f"u{i}", "html": html}) for i, html in enumerate([page, small])), encoding="utf-8")
    parquet = tmp_path / "pages.parquet"
    pq.write_table(pa.table({"url": ["u0", "u1"], "html": [page, small]}), parquet)
    for file in (InputFile(str(jsonl), "jsonl"), InputFile(str(parquet), "parquet")):
        big, fits, _ = read_input(file, 1000)
        assert (big.status, big.length, big.html) == (Status.TOO_LARGE, 1207, "")
        assert (fits.status, fits.length, fits.html) == (None, len(small.encode("utf-8")), small)
        assert fits.length == 14 != len(small)


def test_a_jsonl_row_without_html_keeps_its_url(tmp_path):
    jsonl = tmp_path / "pages.jsonl"
    jsonl.write_text('{"url": "http://example.test/a", "text": "no html"}\n{"url": 7, "html": null}\n[1]\n', encoding="utf-8")
    rows = list(read_input(InputFile(str(jsonl), "jsonl"), 1000))[:-1]
    assert [(r.url, r.status, r.error) for r in rows] == [
        ("http://example.test/a", Status.DECODE_ERROR, "no html field"),
        ("7", Status.DECODE_ERROR, "no html field"),
        (None, Status.DECODE_ERROR, "not a JSON object"),
    ]


def test_a_parquet_html_column_that_is_not_text_ends_the_file_with_a_reason(tmp_path):
    path = tmp_path / "numbers.parquet"
    pq.write_table(pa.table({"html": [1, 2]}), path)
    (end,) = read_input(InputFile(str(path), "parquet"), 1000)
    assert not end.complete and "int64" in end.error


def test_parquet_html_may_be_bytes_and_url_may_be_missing(tmp_path):
    path = tmp_path / "b.parquet"
    pq.write_table(pa.table({"html": [b"<p>x</p>"]}), path)
    items = list(read_input(InputFile(str(path), "parquet"), 1000))
    assert items[0].html == b"<p>x</p>" and items[0].url is None
    assert items[-1] == WarcEnd(str(path), {"parquet": 1})


def test_the_package_zip_shipped_from_a_checkout_is_removed_at_exit(monkeypatch):
    import atexit
    import zipfile

    from webclean import spark as spark_module

    shipped: list[str] = []
    context = types.SimpleNamespace(listFiles=[], addPyFile=shipped.append)
    at_exit: list[tuple] = []
    monkeypatch.setattr(atexit, "register", lambda function, *args, **kwargs: at_exit.append((function, args, kwargs)))
    spark_module._ship_package(types.SimpleNamespace(sparkContext=context))
    assert len(shipped) == 1 and zipfile.ZipFile(shipped[0]).getinfo("webclean/extract.py")
    for function, args, kwargs in at_exit:
        function(*args, **kwargs)
    assert not Path(shipped[0]).parent.exists()
