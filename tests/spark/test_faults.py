"""Faults: a Python worker killed mid-job, a re-run of the same date, what readers see during a write.

Retries need a master of the form ``local[N,F]`` (F attempts a task; plain ``local[N]``
never retries), which the shared session of conftest.py cannot change, so the scenario
runs in a subprocess with its own session, under the master that conf/spark-defaults.conf
ships: this file run as a script.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("pyspark")

pytestmark = pytest.mark.spark

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "samples" / "sample.warc.gz"
RUN_DATE = "2024-01-15"
# The page whose extraction kills its Python worker, once: the 21st of the sample (index 20).
KILL_AT = 20


@pytest.fixture(scope="module")
def scenario(tmp_path_factory) -> dict:
    work = tmp_path_factory.mktemp("faults")
    env = {**os.environ, "PYSPARK_PYTHON": os.environ.get("PYSPARK_PYTHON", sys.executable)}
    result = subprocess.run(
        [sys.executable, __file__, str(work)], cwd=REPO, env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-4000:]
    return json.loads((work / "scenario.json").read_text(encoding="utf-8"))


def test_a_killed_worker_is_retried_and_leaves_the_clean_output(scenario):
    assert scenario["killed"] == 1, "the worker was not killed: the test proves nothing"
    assert scenario["killed_rows"] == scenario["clean_rows"]
    assert len(scenario["clean_rows"]) == 49 + 1  # the sample's responses and one HTML page
    # The summary's counts come from accumulators: the dead attempt's are not counted.
    assert scenario["killed_summary"] == scenario["clean_summary"]


def test_a_rerun_of_the_same_date_gives_identical_output(scenario):
    assert scenario["rerun_rows"] == scenario["clean_rows"]
    assert scenario["marked_after_rerun"]
    assert scenario["rerun_files"] == len(scenario["rerun_file_names"])  # old files replaced, not added to
    assert not set(scenario["rerun_file_names"]) & set(scenario["clean_file_names"])


def test_readers_never_see_a_partial_partition(scenario):
    # While tasks ran, the final partition held nothing (first run) or exactly the
    # previous run's files (re-run): tasks write under a staging folder, and the
    # partition is swapped in when the job commits.
    # The earlier run's _SUCCESS is gone while its rows are replaced.
    first, rerun = scenario["seen_during_first_run"], scenario["seen_during_rerun"]
    assert first and all(seen == [] for seen in first)
    assert rerun and all(seen == sorted(scenario["clean_file_names"]) for seen in rerun)
    assert scenario["left_over"] == []  # no staging or _temporary folders after the job


# --------------------------------------------------------------------------- the scenario


def _run_scenario(work: Path) -> None:
    import pyarrow.parquet as pq

    sys.path.insert(0, str(REPO))
    from session_settings import local_settings

    from webclean.extract import extract
    from webclean.spark.extract_job import SUCCESS_MARKER, ExtractJob, partition_path, run_extract
    from webclean.spark.session import build_session
    from webclean.warc import WarcPage, iter_warc

    pages = work / "pages"
    pages.mkdir()
    (pages / "a.html").write_text("<html><body><div><p>A page of its own, with a sentence in it.</p></div></body></html>")
    output = work / "out"
    marker = work / "killed.marker"
    seen = work / "seen"
    seen.mkdir()
    kill_url = [p for p in iter_warc(str(SAMPLE)) if isinstance(p, WarcPage)][KILL_AT].url
    kill = False
    watched = Path(partition_path(str(output), RUN_DATE))

    def watching_extract(html, url=None, **kwargs):
        """The real extract; records what a reader of the partition would see now, and
        kills its own worker at one page, once (the marker file outlives the worker)."""
        listing = sorted(p.name for p in watched.iterdir()) if watched.exists() else []
        (seen / f"{os.getpid()}-{time.monotonic_ns()}.json").write_text(json.dumps(listing))
        if kill and url == kill_url and not marker.exists():
            marker.write_text("killed once")
            os._exit(1)
        return extract(html, url, **kwargs)

    spark = build_session("webclean-faults", local_settings(shipped_master()))
    spark.sparkContext.setLogLevel("OFF")

    def run(out: Path, kill_once: bool) -> tuple[list[dict], dict, list[list[str]]]:
        nonlocal kill, watched
        kill, watched = kill_once, Path(partition_path(str(out), RUN_DATE))
        for old in seen.iterdir():
            old.unlink()
        job = ExtractJob(inputs=(str(SAMPLE), str(pages)), output=str(out), run_date=RUN_DATE)
        summary = run_extract(spark, job, extract_fn=watching_extract)
        rows = pq.read_table(partition_path(str(out), RUN_DATE)).to_pylist()
        rows = sorted((_plain(r) for r in rows), key=lambda r: (r["source_file"], r["offset"]))
        skip = ("wall_seconds", "pages_per_second", "output")
        views = [json.loads(p.read_text()) for p in seen.iterdir()]
        return rows, {k: v for k, v in summary.to_dict().items() if k not in skip}, views

    killed_rows, killed_summary, _ = run(work / "killed", kill_once=True)
    clean_rows, clean_summary, first_views = run(output, kill_once=False)
    # The data files; the _SUCCESS marker stands beside them once a run has passed.
    clean_files = sorted(p.name for p in watched.iterdir() if p.name != SUCCESS_MARKER)
    rerun_rows, _, rerun_views = run(output, kill_once=False)
    rerun_files = sorted(p.name for p in watched.iterdir() if p.name != SUCCESS_MARKER)
    marked_after_rerun = (watched / SUCCESS_MARKER).is_file()
    left_over = sorted(p.name for p in output.iterdir() if p.name not in (watched.name, "_summary", "_SUCCESS"))
    spark.stop()
    result = dict(
        killed=int(marker.exists()), killed_rows=killed_rows, killed_summary=killed_summary,
        clean_rows=clean_rows, clean_summary=clean_summary, clean_file_names=clean_files,
        rerun_rows=rerun_rows, rerun_file_names=rerun_files, rerun_files=len(rerun_files),
        seen_during_first_run=first_views, seen_during_rerun=rerun_views, left_over=left_over,
        marked_after_rerun=marked_after_rerun,
    )  # fmt: skip
    (work / "scenario.json").write_text(json.dumps(result, default=str), encoding="utf-8")


def shipped_master() -> str:
    """The master of conf/spark-defaults.conf, the settings scripts/submit runs the jobs with."""
    for line in (REPO / "conf" / "spark-defaults.conf").read_text(encoding="utf-8").splitlines():
        if line.split(maxsplit=1)[:1] == ["spark.master"]:
            return line.split()[1]
    raise AssertionError("conf/spark-defaults.conf sets no spark.master")


def test_the_shipped_master_retries_tasks():
    assert re.fullmatch(r"local\[(\*|\d+),([2-9]|\d\d+)\]", shipped_master())


def _plain(row: dict) -> dict:
    return {k: (v.isoformat() if hasattr(v, "isoformat") else v) for k, v in row.items()}


if __name__ == "__main__":
    _run_scenario(Path(sys.argv[1]))
