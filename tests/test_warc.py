"""webclean.warc: pages out of WARC files, and a last value that says where a bad file stopped."""

from __future__ import annotations

import gzip
import io
import random
import zlib
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("warcio")

from warcio.archiveiterator import ArchiveIterator  # noqa: E402
from warcio.exceptions import ArchiveLoadFailed  # noqa: E402
from warcio.warcwriter import WARCWriter  # noqa: E402

from webclean.payload import dechunk, decode_payload  # noqa: E402
from webclean.result import Status  # noqa: E402
from webclean.warc import WarcDamage, WarcEnd, WarcPage, iter_warc  # noqa: E402

SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "sample.warc.gz"
GZIPPED = gzip.compress(b"<p>both</p>")
SAMPLE_COUNTS = {"warcinfo": 1, "request": 5, "metadata": 1, "response": 49, "revisit": 1}


def read(source, **kwargs) -> tuple[list[WarcPage], WarcEnd]:
    """The pages and the end of a file read without damage."""
    pages, damages, end = read_all(source, **kwargs)
    assert damages == []
    return pages, end


def read_all(source, **kwargs) -> tuple[list[WarcPage], list[WarcDamage], WarcEnd]:
    items = list(iter_warc(source, **kwargs))
    assert isinstance(items[-1], WarcEnd)
    assert all(isinstance(i, WarcPage | WarcDamage) for i in items[:-1])
    return [i for i in items if isinstance(i, WarcPage)], [i for i in items if isinstance(i, WarcDamage)], items[-1]


def build_warc(bodies: list[tuple[bytes, list[tuple[str, str]]]], *, compress: bool = True) -> bytes:
    """A WARC of one response record per (body, HTTP headers), written by warcio."""
    out = io.BytesIO()
    writer = WARCWriter(out, gzip=compress)
    for number, (body, headers) in enumerate(bodies):
        head = "HTTP/1.1 200 OK\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers) + "\r\n"
        payload = head.encode("latin-1") + body
        record = writer.create_warc_record(f"http://example.test/{number}", "response", payload=io.BytesIO(payload), length=len(payload))
        writer.write_record(record)
    return out.getvalue()


@pytest.fixture(scope="module")
def sample() -> tuple[list[WarcPage], WarcEnd]:
    return read(str(SAMPLE))


def test_sample_yields_every_response_and_counts_every_record(sample):
    pages, end = sample
    assert end.complete and end.offset is None
    assert end.counts == SAMPLE_COUNTS
    assert len(pages) == 49
    assert {p.record_type for p in pages} == {"response"}
    assert len({p.warc_record_id for p in pages}) == 49
    assert all(p.url and p.warc_date and p.warc_date.tzinfo for p in pages)
    assert [p.offset for p in pages] == sorted(p.offset for p in pages)


def test_sample_bodies_are_decoded(sample):
    pages, _ = sample
    html = [p for p in pages if p.content_type == "text/html"]
    assert len(html) == 48
    # gzip, deflate and chunked bodies all come out as markup.
    assert all(p.status is None and p.body.lstrip()[:1] == b"<" for p in html)
    assert any(p.length < len(p.body) for p in html)  # some were compressed
    gb = [p for p in html if p.charset == "gb18030"]
    assert len(gb) == 4
    assert all("<" in p.body.decode("gb18030") for p in gb)
    assert any("法国" in p.body.decode("gb18030") for p in gb)
    pdf = [p for p in pages if p.content_type == "application/pdf"]
    assert len(pdf) == 1 and pdf[0].body.startswith(b"%PDF")


def test_uncompressed_warc_from_a_stream_and_a_file_uri(tmp_path):
    plain = tmp_path / "sample.warc"
    plain.write_bytes(gzip.decompress(SAMPLE.read_bytes()))
    from_uri, end = read(plain.as_uri())
    with open(plain, "rb") as handle:
        from_stream, _ = read(handle)
    assert end.complete
    assert [p.warc_record_id for p in from_uri] == [p.warc_record_id for p in from_stream]
    assert len(from_uri) == 49


def test_missing_file_is_an_end_value_not_an_exception(tmp_path):
    pages, end = read(str(tmp_path / "nowhere.warc.gz"))
    assert pages == []
    assert not end.complete and end.offset == 0
    assert "cannot open" in end.error


def test_file_cut_in_half_keeps_what_was_read(sample, tmp_path):
    full, _ = sample
    data = SAMPLE.read_bytes()
    cut = tmp_path / "half.warc.gz"
    cut.write_bytes(data[: len(data) // 2])
    pages, end = read(str(cut))
    assert 0 < len(pages) < len(full)
    assert [p.warc_record_id for p in pages] == [p.warc_record_id for p in full[: len(pages)]]
    assert not end.complete
    # The record cut short gives its page, with the payload that arrived, and the end says where.
    cut_page, whole_page = pages[-1], full[len(pages) - 1]
    assert end.offset == cut_page.offset
    assert len(cut_page.body) < len(whole_page.body) and whole_page.body.startswith(cut_page.body)
    assert "truncated" in end.error


def garble(data: bytes, start: int, stop: int) -> bytes:
    damaged = bytearray(data)
    for i in range(start, stop):
        damaged[i] ^= 0x5A
    return bytes(damaged)


def member_offsets(data: bytes) -> list[int]:
    """The offsets of a WARC's gzip members (one a record), and the end of the file."""
    records = ArchiveIterator(io.BytesIO(data))
    offsets = []
    for record in records:
        offsets.append(records.get_record_offset())
        record.raw_stream.read()
    return offsets + [len(data)]


@pytest.mark.parametrize("broken", [1, 20, 48])
@pytest.mark.parametrize("where", [0.05, 0.6], ids=["header", "payload"])
def test_a_corrupt_gzip_member_is_skipped_and_every_later_record_read(sample, broken, where):
    full, whole = sample
    data = SAMPLE.read_bytes()
    start = full[broken].offset
    members = member_offsets(data)
    following = members[members.index(start) + 1]
    garbled_from = start + 20 + int((following - start - 60) * where)
    pages, damages, end = read_all(io.BytesIO(garble(data, garbled_from, garbled_from + 20)))
    assert [p.warc_record_id for p in pages] == [p.warc_record_id for p in full if p.offset != start]
    assert [p.offset for p in pages] == [p.offset for p in full if p.offset != start]
    (damage,) = damages
    assert (damage.offset, damage.resumed) == (start, following)
    assert damage.error.isprintable() and "corrupt gzip data" in damage.error and f"byte {start}" in damage.error
    assert end.complete and end.counts["response"] == whole.counts["response"] - 1


def test_a_garbled_record_of_an_uncompressed_warc_is_skipped_to_the_next_warc_line(sample):
    full, _ = sample
    plain = gzip.decompress(SAMPLE.read_bytes())
    offsets = [p.offset for p in read(io.BytesIO(plain))[0]]
    start = offsets[20]
    data = plain[:start] + b"X" * 30 + plain[start + 30 :]
    pages, damages, end = read_all(io.BytesIO(data))
    assert [p.warc_record_id for p in pages] == [p.warc_record_id for i, p in enumerate(full) if i != 20]
    assert [(d.offset, d.resumed) for d in damages] == [(start, data.index(b"\nWARC/1.0", start) + 1)]
    assert end.complete


def test_bytes_between_records_are_skipped_and_say_so(sample):
    full, _ = sample
    plain = gzip.decompress(SAMPLE.read_bytes())
    start = read(io.BytesIO(plain))[0][30].offset
    data = plain[:start] + b"garbage\r\nmore garbage\r\n\r\n" + plain[start:]
    pages, damages, end = read_all(io.BytesIO(data))
    assert [p.warc_record_id for p in pages] == [p.warc_record_id for p in full]
    assert len(damages) == 1 and damages[0].resumed == start + len(b"garbage\r\nmore garbage\r\n\r\n")
    assert end.complete


def test_a_corrupt_payload_gives_the_damaged_records_address():
    # Bytes that do not compress: the member is read in many blocks, the header in the first.
    noise = random.Random(7).randbytes(200_000)
    data = build_warc([(b"<p>page %d</p>" % n + noise, []) for n in range(3)])
    offsets = [p.offset for p in read(io.BytesIO(data))[0]]
    damaged = garble(data, offsets[2] - 5000, offsets[2] - 4900)
    pages, damages, end = read_all(io.BytesIO(damaged))
    assert [p.url for p in pages] == ["http://example.test/0", "http://example.test/2"]
    assert [(d.offset, d.resumed, d.url) for d in damages] == [(offsets[1], offsets[2], "http://example.test/1")]
    assert end.complete


def test_a_corrupt_last_member_ends_the_file_as_before(sample):
    full, _ = sample
    data = SAMPLE.read_bytes()
    start = full[-1].offset
    pages, damages, end = read_all(io.BytesIO(garble(data[: full[-1].offset + 200], start + 20, start + 60)))
    assert damages == [] and len(pages) == len(full) - 1
    assert not end.complete and end.offset == start and "corrupt gzip data" in end.error


@pytest.mark.parametrize("data", [b"", gzip.compress(b"")], ids=["empty", "empty-gzip"])
def test_a_file_without_records_says_so(data):
    pages, end = read(io.BytesIO(data))
    assert pages == [] and not end.complete and end.offset == 0 and "empty" in end.error


@pytest.mark.parametrize("text", [b"a b c d e\nsome text\n", b"hello world\n"], ids=["five-words", "two-words"])
@pytest.mark.parametrize("compress", [lambda data: data, gzip.compress], ids=["plain", "gzip"])
def test_a_text_file_is_not_a_warc_or_an_arc(text, compress):
    pages, end = read(io.BytesIO(compress(text)))
    assert pages == [] and not end.complete and end.error.startswith("not a WARC or ARC file")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fraction=st.floats(min_value=0.0, max_value=1.0))
def test_any_cut_gives_a_prefix_of_the_pages(sample, fraction):
    full, _ = sample
    data = SAMPLE.read_bytes()
    pages, end = read(io.BytesIO(data[: int(len(data) * fraction)]))
    assert [p.warc_record_id for p in pages] == [p.warc_record_id for p in full[: len(pages)]]
    assert end.complete or end.offset is not None


@settings(max_examples=60, deadline=None)
@given(data=st.binary(max_size=2000) | st.binary(max_size=500).map(lambda b: b"WARC/1.0\r\n" + b))
def test_any_bytes_end_with_an_end_value(data):
    read(io.BytesIO(data))


def test_body_over_the_cap_is_too_large_and_the_next_record_is_read():
    data = build_warc([(b"<p>" + b"x" * 5000, []), (b"<p>small</p>", [])])
    pages, end = read(io.BytesIO(data), max_bytes=1000)
    assert end.complete
    assert pages[0].status == Status.TOO_LARGE and pages[0].body == b""
    assert pages[0].length == 5003
    assert pages[1].status is None and pages[1].body == b"<p>small</p>"


def test_decoding_errors_are_statuses():
    bomb = gzip.compress(b"\0" * 2_000_000)
    data = build_warc(
        [
            (bomb, [("Content-Encoding", "gzip")]),
            (b"\x1f\x8b\x08\x00garbage-not-deflate", [("Content-Encoding", "gzip")]),
            (b"<p>br</p>", [("Content-Encoding", "br")]),
            (b"<p>fine</p>", []),
        ]
    )
    pages, end = read(io.BytesIO(data), max_bytes=100_000)
    assert end.complete
    assert [p.status for p in pages] == [Status.TOO_LARGE, Status.DECODE_ERROR, Status.DECODE_ERROR, None]
    assert "br" in pages[2].error
    assert pages[3].body == b"<p>fine</p>"


def test_charset_and_type_come_from_the_http_header():
    data = build_warc([(b"<p>x</p>", [("Content-Type", 'Text/HTML; Charset="GBK"')])], compress=False)
    pages, _ = read(io.BytesIO(data))
    assert (pages[0].content_type, pages[0].charset) == ("text/html", "gbk")


def test_a_quoted_charset_may_have_white_space_inside_the_quotes():
    # As decode reads a whole Content-Type: one pattern for both (decode.header_charset).
    data = build_warc([(b"<p>x</p>", [("Content-Type", 'text/html; charset=" gb2312"')])], compress=False)
    pages, _ = read(io.BytesIO(data))
    assert pages[0].charset == "gb2312"


@pytest.mark.parametrize(
    ("raw", "transfer", "content", "expected"),
    [
        (gzip.compress(b"<p>g</p>"), None, "gzip", b"<p>g</p>"),
        (gzip.compress(b"<p>g</p>"), None, "x-gzip", b"<p>g</p>"),
        (zlib.compress(b"<p>z</p>"), None, "deflate", b"<p>z</p>"),
        (zlib.compress(b"<p>raw</p>")[2:-4], None, "deflate", b"<p>raw</p>"),  # raw deflate, no zlib wrapper
        (b"<p>already decoded</p>", None, "gzip", b"<p>already decoded</p>"),
        (gzip.compress(b"<p>cut short</p>" * 50)[:-30], None, "gzip", None),  # keeps a prefix
        (b"4;ext=1\r\n<p>a\r\n5\r\n</p>b\r\n0\r\n\r\n", "chunked", None, b"<p>a</p>b"),
        (b"<p>not chunked</p>", "chunked", None, b"<p>not chunked</p>"),
        (b"%x\r\n%s\r\n0\r\n\r\n" % (len(GZIPPED), GZIPPED), "chunked", "gzip", b"<p>both</p>"),
        (b"<p>plain</p>", None, "identity", b"<p>plain</p>"),
    ],
)
def test_decode_payload(raw, transfer, content, expected):
    payload = decode_payload(raw, transfer_encoding=transfer, content_encoding=content, max_bytes=10_000)
    assert payload.status is None
    assert payload.length == len(raw)
    if expected is None:
        assert payload.body and payload.body.startswith(b"<p>")
    else:
        assert payload.body == expected


def test_dechunk_keeps_the_chunks_that_arrived():
    assert dechunk(b"3\r\nabc\r\n3\r\nde") == b"abcde"
    assert dechunk(b"") == b""


# ---------------------------------------------------------------- warcio's own test files

WARCIO = Path(__file__).resolve().parent / "fixtures" / "warcio"
WARCIO_FILES = sorted(p for p in WARCIO.iterdir() if p.name not in ("LICENSE", "NOTICE", "README.md"))
# Records per file: what the reader that reads most of each file finds (checked below
# against warcio itself), pinned so that a reader that reads less fails here too.
WARCIO_RECORDS = {
    "bad.arc": 4,
    "example-bad-non-chunked.warc.gz": 6,  # one gzip member: warcio stops after the first record
    "example-bad.warc.gz.bad": 6,  # likewise
    "example-digest.warc": 4,
    "example-iana.org-chunked.warc": 3,
    "example-resource.warc.gz": 3,
    "example-space-in-target-uri.warc.gz": 2,
    "example-space-in-url.arc": 2,  # the last record's length runs past the end of the file
    "example-trunc.warc": 4,
    "example-wget-bad-target-uri.warc.gz": 6,
    "example-wrong-chunks.warc.gz": 2,  # gzip members cut inside records: warcio reads half of one
    "example.arc": 2,
    "example.arc.gz": 2,
    "example.warc": 6,
    "example.warc.gz": 6,
    "post-test.warc.gz": 6,
}


def warcio_counts(data: bytes) -> Counter[str]:
    """The records warcio's own iterator yields before it stops, by type."""
    counts: Counter[str] = Counter()
    try:
        for record in ArchiveIterator(io.BytesIO(data)):
            counts[record.rec_type] += 1
    except ArchiveLoadFailed:
        pass
    return counts


def test_every_warcio_test_file_is_a_fixture():
    assert sorted(p.name for p in WARCIO_FILES) == sorted(WARCIO_RECORDS)


@pytest.mark.parametrize("path", WARCIO_FILES, ids=lambda p: p.name)
def test_every_record_that_any_reader_reads_is_read(path):
    data = path.read_bytes()
    readers = [warcio_counts(data)]  # warcio on the file as stored
    if data[:2] == b"\x1f\x8b":
        readers.append(warcio_counts(gzip.decompress(data)))  # warcio on the decompressed bytes, as zcat gives them
    most = max(readers, key=lambda counts: sum(counts.values()))
    pages, end = read(str(path))
    assert sum(end.counts.values()) == WARCIO_RECORDS[path.name]
    assert end.counts == dict(most)
    assert len(pages) == most["response"] + most["resource"]
    assert all(p.url for p in pages)


def test_a_warc_compressed_as_one_gzip_member_is_read_to_the_end():
    data = build_warc([(b"<p>page %d</p>" % n, []) for n in range(5)], compress=False)
    one_member = gzip.compress(data)
    pages, end = read(io.BytesIO(one_member))
    assert end.complete
    assert [p.body for p in pages] == [b"<p>page %d</p>" % n for n in range(5)]
    assert [p.url for p in pages] == [p.url for p in read(io.BytesIO(data))[0]]
    # Offsets after the first record are those of the decompressed bytes.
    assert [p.offset for p in pages] == [p.offset for p in read(io.BytesIO(data))[0]]


def test_a_single_member_stream_that_cannot_seek_keeps_its_first_record():
    data = gzip.compress(build_warc([(b"<p>page %d</p>" % n, []) for n in range(3)], compress=False))
    unseekable = io.BufferedReader(io.BytesIO(data))
    unseekable.seekable = lambda: False
    pages, end = read(unseekable)
    assert [p.body for p in pages] == [b"<p>page 0</p>"]
    assert not end.complete and "non-chunked gzip" in end.error


@pytest.mark.parametrize("compress", [lambda data: data, gzip.compress], ids=["plain", "one-member"])
def test_a_header_cut_after_its_warc_type_is_a_truncation(compress):
    plain = build_warc([(b"<p>page %d</p>" % n, []) for n in range(3)], compress=False)
    third = plain.index(b"WARC/1.0", plain.index(b"http://example.test/1"))
    cut = plain[: plain.index(b"WARC-Date", third)]
    pages, end = read(io.BytesIO(compress(cut)))
    assert [p.body for p in pages] == [b"<p>page 0</p>", b"<p>page 1</p>"]
    assert not end.complete and end.offset == third and "header" in end.error


@settings(max_examples=25, deadline=None)
@given(fraction=st.floats(min_value=0.0, max_value=1.0))
def test_any_cut_of_a_single_member_warc_keeps_a_prefix_of_the_pages(fraction):
    plain = build_warc([(b"<p>page %d</p>" % n + b"x" * 2000, []) for n in range(4)], compress=False)
    whole = read(io.BytesIO(plain))[0]
    data = gzip.compress(plain)
    cut = int(len(data) * fraction)
    pages, end = read(io.BytesIO(data[:cut]))
    assert [p.warc_record_id for p in pages] == [p.warc_record_id for p in whole[: len(pages)]]
    assert end.complete == (cut == len(data))


def test_arc_records_give_their_url_and_date():
    pages, end = read(str(WARCIO / "example.arc.gz"))
    assert end.complete
    assert [(p.url, p.warc_date.isoformat()) for p in pages] == [("http://example.com/", "2014-02-16T05:02:21+00:00")]
    assert pages[0].content_type == "text/html" and b"Example Domain" in pages[0].body


def test_an_arc_record_with_spaces_in_its_url_is_read():
    pages, end = read(str(WARCIO / "example-space-in-url.arc"))
    assert [p.url for p in pages] == [
        "http://example.com/index.cfm?FuseAction=Email&EmailTitle=Examples%20From%20The%20Live%20Web&IsPopUp=False"
    ]
    assert b"Example Domain" in pages[0].body
    # Its length runs past the end of the file: the page is kept, and the end says so.
    assert not end.complete and end.offset == pages[0].offset and "truncated" in end.error


def test_gzip_members_cut_inside_records_are_read_as_one_stream():
    pages, end = read(str(WARCIO / "example-wrong-chunks.warc.gz"))
    assert end.complete
    assert [p.url for p in pages] == ["http://example.com/"]
    assert pages[0].body.rstrip().endswith(b"</html>")


def test_warcio_writes_nothing_to_stderr_or_the_log(sample, capfd, caplog):
    full, _ = sample
    start = full[20].offset
    damaged = garble(SAMPLE.read_bytes(), start + 20, start + 60)
    plain = gzip.decompress(SAMPLE.read_bytes())
    at = read(io.BytesIO(plain))[0][30].offset
    shifted = plain[:at] + b"garbage\r\n" + plain[at:]  # as after a Content-Length gone wrong
    with caplog.at_level("DEBUG"):
        for source in (io.BytesIO(damaged), io.BytesIO(shifted), str(WARCIO / "example-space-in-target-uri.warc.gz")):
            list(iter_warc(source))
    assert capfd.readouterr().err == ""
    assert not [r for r in caplog.records if r.name.startswith("warcio")]
