"""Did the extract job's run of a date pass? The check a scheduler makes after the job.

    python check_run.py OUTPUT RUN_DATE

Reads OUTPUT/_summary/run_date=RUN_DATE/summary.json and looks for
OUTPUT/run_date=RUN_DATE/_SUCCESS (docs/output.md), on a local path or through
pyarrow's file systems (s3://, s3a://, hdfs://). Exits 0 when the run passed, 3 when it
did not or has no summary. Needs pyarrow, and not webclean: it runs where the
scheduler runs (docs/scheduling.md).
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from pyarrow import fs

SUMMARY_VERSION = 1


class RunNotPassed(Exception):
    """The run of a date did not pass, or left no summary."""


def check_run(output: str, run_date: str) -> dict[str, Any]:
    """The run's summary when it passed and its _SUCCESS marker is there; else RunNotPassed."""
    base = output.rstrip("/")
    filesystem, root = _filesystem(base)
    summary_file = f"{root}/_summary/run_date={run_date}/summary.json"
    try:
        with filesystem.open_input_stream(summary_file) as stream:
            summary = json.loads(stream.read())
    except FileNotFoundError as exc:
        raise RunNotPassed(f"{base}: no summary for {run_date}: the job did not finish") from exc
    if summary.get("summary_version") != SUMMARY_VERSION:
        raise RunNotPassed(f"{base}: summary version {summary.get('summary_version')!r}, not {SUMMARY_VERSION}")
    if not summary["passed"]:
        raise RunNotPassed(f"{base}: the run of {run_date} failed: " + "; ".join(summary["failures"]))
    marker = f"{root}/run_date={run_date}/_SUCCESS"
    if filesystem.get_file_info(marker).type != fs.FileType.File:
        raise RunNotPassed(f"{base}: the run of {run_date} passed but has no _SUCCESS: a re-run is writing it")
    return summary


def _filesystem(uri: str) -> tuple[fs.FileSystem, str]:
    if "://" not in uri:
        return fs.LocalFileSystem(), uri
    # Hadoop's s3a:// and s3n:// are pyarrow's s3://.
    return fs.FileSystem.from_uri(re.sub(r"^s3[an]://", "s3://", uri))


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: check_run.py OUTPUT RUN_DATE", file=sys.stderr)
        return 2
    try:
        summary = check_run(*argv)
    except RunNotPassed as exc:
        print(f"check_run: {exc}", file=sys.stderr)
        return 3
    print(f"check_run: {argv[1]} passed: {summary['pages']} pages, {summary['error_pages']} with an error status")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
