"""A page record to its output row, without Spark: the confidence column and the
low_confidence status of --min-confidence.

No SparkSession and no JVM (pyarrow only): not marked ``spark``, so ``make test-fast``
runs them.
"""

from __future__ import annotations

import re
import types
from collections import Counter
from pathlib import Path

import pytest

pa = pytest.importorskip("pyarrow")
pytest.importorskip("warcio")

from webclean.config import Config  # noqa: E402
from webclean.result import Extraction, Status  # noqa: E402
from webclean.spark.inputs import InputFile  # noqa: E402
from webclean.spark.rows import OUTPUT_SCHEMA, RowBatch, Shared, extract_rows  # noqa: E402

MODEL = types.SimpleNamespace(version="fake-1")


def text_with_confidence(html, url=None, *, config=None, model=None, http_charset=None) -> Extraction:
    """The page's text, with the confidence the page names in its text (``c=0.35``), if it names one."""
    html = html.decode("utf-8") if isinstance(html, bytes) else html
    text = " ".join(re.sub(r"<[^>]*>", " ", html).split())
    named = re.search(r"c=([\d.]+)", text)
    status = Status.OK if "nothing" not in text else Status.EMPTY
    return Extraction(text=text, title="T", status=status, confidence=float(named.group(1)) if named else None)


@pytest.fixture
def pages(tmp_path: Path) -> InputFile:
    bodies = ["<p>c=0.35</p>", "<p>c=0.5</p>", "<p>c=0.9</p>", "<p>no confidence</p>", "<p>nothing c=0.1</p>"]
    path = tmp_path / "pages.jsonl"
    path.write_text("".join(f'{{"url": "u{i}", "html": "{body}"}}\n' for i, body in enumerate(bodies)), encoding="utf-8")
    return InputFile(str(path), "jsonl", path.stat().st_size)


def rows_of(file: InputFile, minimum: float | None) -> list[dict]:
    shared = Shared(Config(), MODEL, "fake-1", minimum)
    return list(extract_rows(file, shared, text_with_confidence, Counter()))


def test_the_confidence_column_stands_beside_the_page_types_probability():
    names = OUTPUT_SCHEMA.names
    assert names.index("confidence") == names.index("page_type_probability") + 1
    assert OUTPUT_SCHEMA.field("confidence").type == pa.float64()


def test_every_page_keeps_its_row_and_an_ok_one_under_the_bound_is_low_confidence(pages):
    rows = rows_of(pages, 0.5)
    assert [(r["url"], r["status"], r["confidence"]) for r in rows] == [
        ("u0", Status.LOW_CONFIDENCE, 0.35),
        ("u1", Status.OK, 0.5),  # at the bound
        ("u2", Status.OK, 0.9),
        ("u3", Status.OK, None),  # no confidence: left as it is
        ("u4", Status.EMPTY, 0.1),  # not ok: left as it is
    ]
    assert rows[0]["text"] == "c=0.35" and rows[0]["title"] == "T" and rows[0]["chars_out"] == 6
    assert rows[0]["error"] == "confidence 0.35 is under --min-confidence 0.5"
    assert all(r["error"] is None for r in rows[1:])
    # Without a bound the rows are the extractions as they are.
    assert [r["status"] for r in rows_of(pages, None)] == [Status.OK] * 4 + [Status.EMPTY]


def test_the_confidence_reaches_the_arrow_batch(pages):
    batch = RowBatch()
    for row in rows_of(pages, 0.5):
        batch.add(row)
    table = pa.Table.from_batches([batch.flush()])
    assert table.column("confidence").to_pylist() == [0.35, 0.5, 0.9, None, 0.1]
    assert table.column("status").to_pylist() == ["low_confidence", "ok", "ok", "ok", "empty"]
