"""The extract job on the hostile corpus: it completes, and every record gives exactly one row."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq
import pytest

pytest.importorskip("pyspark")

from webclean.config import Config  # noqa: E402
from webclean.result import Status  # noqa: E402
from webclean.spark.extract_job import ExtractJob, partition_path, run_extract  # noqa: E402
from webclean.spark.rows import TRUNCATED  # noqa: E402
from webclean.warc import iter_warc  # noqa: E402

pytestmark = pytest.mark.spark

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))
import make_hostile_corpus as corpus_script  # noqa: E402

RUN_DATE = "2024-01-15"
# Short, so that the cases that run into the limit cost seconds, not minutes.
CONFIG = Config().with_overrides(["limits.timeout_seconds=1"])


def test_hostile_warcs_complete_and_every_record_gives_one_row(spark, tmp_path):
    corpus = corpus_script.make_corpus(tmp_path / "corpus")  # the real 50 MB page and 1 GiB bomb
    job = ExtractJob(inputs=tuple(map(str, corpus.warcs)), output=str(tmp_path / "out"), run_date=RUN_DATE, config=CONFIG)
    summary = run_extract(spark, job)
    rows = pq.read_table(partition_path(job.output, RUN_DATE)).to_pylist()

    expected: Counter[tuple[str, int | None]] = Counter()
    records: Counter[str] = Counter()
    for path in map(str, corpus.warcs):
        items = list(iter_warc(path))
        end = items[-1]
        expected.update((path, p.offset) for p in items[:-1])  # pages, and damaged records skipped
        if not end.complete:
            expected[(path, end.offset)] += 1  # the truncated row: where reading stopped
        records.update(end.counts)
    got = Counter((r["source_file"], r["offset"]) for r in rows)
    assert got == expected  # every record once: none lost, none twice
    assert len(rows) == sum(expected.values()) == summary.pages + len(summary.files_with_errors)
    assert summary.records_by_type == dict(sorted(records.items()))

    statuses = Counter(r["status"] for r in rows)
    assert Status.ERROR not in statuses
    assert statuses[TRUNCATED] == 1 and statuses[Status.DAMAGED] == 1
    by_url = {r["url"].rsplit("/", 1)[1]: r for r in rows if r["url"] and r["source_file"] == str(corpus.warc)}
    assert by_url["control-article"]["status"] == Status.OK
    assert by_url["big-page"]["status"] == Status.TOO_LARGE and by_url["big-page"]["bytes_in"] == 50_000_000
    assert by_url["gzip-bomb"]["status"] == Status.TOO_LARGE
    assert by_url["gzip-body"]["status"] == Status.OK
    assert by_url["pdf-typed"]["status"] == Status.NOT_HTML
    assert by_url["regex-backtracking"]["status"] == Status.OK  # bounded patterns: no backtracking blow-up
    # A million paragraphs: over limits.max_elements right after the parse, unless the
    # parse (C code, not interrupted) already outlasted the 1 s limit; no hour of work either way.
    assert by_url["tiny-paragraphs"]["status"] in (Status.TOO_LARGE, Status.TIMEOUT)
    assert all(r["error"] for r in rows if r["status"] != Status.OK)
    # The duplicated record: two rows, one record ID, two offsets.
    control = [r for r in rows if r["url"] == "http://hostile.test/control-article" and r["source_file"] == str(corpus.warc)]
    assert len(control) == 2 and len({r["warc_record_id"] for r in control}) == 1


def test_a_response_without_target_uri_gives_its_row_and_the_file_goes_on(spark, tmp_path):
    corpus = corpus_script.make_corpus(tmp_path / "corpus", big_page_bytes=1_000, bomb_bytes=1_000)
    job = ExtractJob(inputs=(str(corpus.no_target_uri_warc),), output=str(tmp_path / "out"), run_date=RUN_DATE, config=CONFIG)
    summary = run_extract(spark, job)
    rows = pq.read_table(partition_path(job.output, RUN_DATE)).to_pylist()
    assert sorted((r["url"] or "") for r in rows) == ["", "http://hostile.test/no-uri-0", "http://hostile.test/no-uri-2"]
    assert {r["status"] for r in rows} == {Status.OK} and not summary.files_with_errors
