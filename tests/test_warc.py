"""webclean.warc: pages out of WARC files, and a last value that says where a bad file stopped."""

from __future__ import annotations

import gzip
import io
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("warcio")

from warcio.warcwriter import WARCWriter  # noqa: E402

from webclean.result import Status  # noqa: E402
from webclean.warc import WarcEnd, WarcPage, decode_payload, dechunk, iter_warc  # noqa: E402

SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "sample.warc.gz"
GZIPPED = gzip.compress(b"<p>both</p>")
SAMPLE_COUNTS = {"warcinfo": 1, "request": 5, "metadata": 1, "response": 49, "revisit": 1}


def read(source, **kwargs) -> tuple[list[WarcPage], WarcEnd]:
    items = list(iter_warc(source, **kwargs))
    assert isinstance(items[-1], WarcEnd)
    assert all(isinstance(i, WarcPage) for i in items[:-1])
    return items[:-1], items[-1]


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
    assert end.offset == full[len(pages)].offset  # the first record not read whole
    assert "truncated" in end.error


@pytest.mark.parametrize("broken", [1, 20, 48])
def test_corrupt_gzip_member_stops_there(sample, broken):
    full, _ = sample
    data = bytearray(SAMPLE.read_bytes())
    start = full[broken].offset
    for i in range(start + 20, start + 60):  # inside the member's deflate data
        data[i] ^= 0x5A
    pages, end = read(io.BytesIO(bytes(data)))
    assert [p.warc_record_id for p in pages] == [p.warc_record_id for p in full[:broken]]
    assert not end.complete
    assert end.offset == start
    assert end.error.isprintable()


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
