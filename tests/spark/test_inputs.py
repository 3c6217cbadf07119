"""The extract job's inputs, listed and read without Spark: files, folders, globs and
listings, names with glob characters, JSON Lines and Parquet rows, partition packing.

No SparkSession and no JVM (pyarrow only): not marked ``spark``, so ``make test-fast``
runs them.
"""

from __future__ import annotations

import gzip
import json
import tracemalloc
from pathlib import Path

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pytest.importorskip("warcio")

from webclean.config import InputConfig  # noqa: E402
from webclean.result import Status  # noqa: E402
from webclean.spark.inputs import (  # noqa: E402
    TASKS_PER_CORE,
    InputError,
    InputFile,
    find_inputs,
    list_inputs,
    pack_partitions,
    split_files,
)
from webclean.spark.readers import read_input  # noqa: E402
from webclean.warc import WarcEnd  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "samples" / "sample.warc.gz"
TASK_BYTES = InputConfig().task_bytes


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
    listing.write_bytes(gzip.compress(f"{SAMPLE}\n\n# note\n{SAMPLE.as_uri()}\n".encode()))
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


def test_partitions_are_packed_by_size():
    warcs = [InputFile(f"w{i}.warc.gz", "warc", TASK_BYTES * 4) for i in range(3)]
    assert sorted(len(p) for p in pack_partitions(warcs, 2, TASK_BYTES)) == [1, 1, 1]
    small = [InputFile(f"p{i}.html", "html", 1000 + i) for i in range(101)]
    parts = pack_partitions(small, 4, TASK_BYTES)
    # Small files: TASKS_PER_CORE partitions a core, whatever their bytes, of similar size.
    assert len(parts) == 4 * TASKS_PER_CORE
    assert sorted(len(p) for p in parts) == [6] * 11 + [7] * 5
    assert sorted(f.path for p in parts for f in p) == sorted(f.path for f in small)
    # Enough bytes for more partitions than that: about input.task_bytes each.
    many = [InputFile(f"m{i}.warc.gz", "warc", TASK_BYTES // 2) for i in range(40)]
    assert sorted(len(p) for p in pack_partitions(many, 2, TASK_BYTES)) == [2] * 20


def test_a_warc_over_the_task_bytes_is_cut_into_ranges_each_in_a_partition_of_its_own():
    size = 4 * TASK_BYTES + 10
    files = [
        InputFile("big.warc.gz", "warc", size),
        InputFile("plain.warc", "warc", TASK_BYTES + 1),
        InputFile("small.warc.gz", "warc", TASK_BYTES),
        InputFile("big.arc.gz", "warc", size),  # an ARC file is read whole
        InputFile("big.jsonl", "jsonl", size),
    ]
    pieces = split_files(files, TASK_BYTES)
    big = [(p.start, p.stop, p.size) for p in pieces if p.path == "big.warc.gz"]
    step = -(-size // 5)
    assert big == [(0, step, step), (step, 2 * step, step), (2 * step, 3 * step, step), (3 * step, 4 * step, step), (4 * step, None, size - 4 * step)]
    assert [(p.start, p.stop) for p in pieces if p.path == "plain.warc"] == [(0, -(-(TASK_BYTES + 1) // 2)), (-(-(TASK_BYTES + 1) // 2), None)]
    assert [p for p in pieces if p.path not in ("big.warc.gz", "plain.warc")] == files[2:]
    # Every range of the big file is a task of its own.
    partitions = pack_partitions(pieces, 2, TASK_BYTES)
    assert all(len({p.path for p in part}) == len(part) for part in partitions)
    assert sum(len(part) for part in partitions) == len(pieces) == 10


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


def peak_python_bytes(work) -> tuple[object, int]:
    """What ``work()`` returns, and the peak of the Python memory it allocated."""
    tracemalloc.start()
    try:
        result = work()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("gzipped", [False, True], ids=["plain", "gzip"])
def test_a_jsonl_line_over_the_cap_is_too_large_without_being_read_whole(tmp_path, gzipped):
    huge = json.dumps({"url": "http://example.test/huge", "html": "<p>" + "x" * 30_000_000}).encode()
    lines = huge + b"\n" + json.dumps({"url": "http://example.test/small", "html": "<p>small</p>"}).encode() + b"\n"
    path = tmp_path / ("pages.jsonl.gz" if gzipped else "pages.jsonl")
    path.write_bytes(gzip.compress(lines, compresslevel=1) if gzipped else lines)
    del lines
    items, peak = peak_python_bytes(lambda: list(read_input(InputFile(str(path), "jsonl"), 1_000_000)))
    big, small, end = items
    assert (big.status, big.offset, big.length) == (Status.TOO_LARGE, 1, len(huge) + 1) and "max_bytes" in big.error
    assert (small.status, small.offset, small.html) == (None, 2, "<p>small</p>")
    assert end == WarcEnd(str(path), {"jsonl": 2})
    assert peak < 8_000_000  # the 30 MB line was never held whole


def test_a_parquet_page_over_the_cap_never_becomes_a_python_string(tmp_path):
    path = tmp_path / "pages.parquet"
    pq.write_table(pa.table({"url": ["u0", "u1"], "html": ["<p>" + "x" * 30_000_000, "<p>small</p>"]}), path)
    items, peak = peak_python_bytes(lambda: list(read_input(InputFile(str(path), "parquet"), 1_000_000)))
    big, small, _ = items
    assert (big.url, big.status, big.length, big.html) == ("u0", Status.TOO_LARGE, 30_000_003, "")
    assert (small.url, small.status, small.html) == ("u1", None, "<p>small</p>")
    assert peak < 8_000_000
