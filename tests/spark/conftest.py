"""One local SparkSession for every Spark test (two cores, few partitions, quiet logs),
and the input files that the job's tests and its listing tests share.

pyspark is imported by the session's fixture only: the tests of the listing and the
readers need pyarrow alone.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from session_settings import local_settings  # noqa: E402

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


@pytest.fixture(scope="session")
def spark() -> Iterator[SparkSession]:
    pytest.importorskip("pyspark")
    from webclean.spark.session import build_session

    session = build_session("webclean-tests", local_settings())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture
def html_inputs(tmp_path: Path) -> list[Path]:
    """Four HTML files (one gzipped, one nested) beside files the job must skip,
    a JSON Lines file with a bad line, a gzipped one, and a Parquet file."""
    pages = tmp_path / "pages"
    (pages / "sub").mkdir(parents=True)
    (pages / "a.html").write_text("<html><title>A</title><p>Page a</p></html>", encoding="utf-8")
    (pages / "b.htm").write_bytes("<p>Seite b: Grüße</p>".encode())
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
