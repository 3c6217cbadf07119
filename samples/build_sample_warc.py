"""Build ``samples/sample.warc.gz`` from pages whose licence allows shipping them.

Run from the repository root with ``../shared`` beside it::

    python samples/build_sample_warc.py [--data ../shared/data] [--out samples/sample.warc.gz]

The pages come from ``readability.jsonl.gz`` (Apache-2.0) and ``cwced_modern.jsonl.gz``
(MIT); ``samples/README.md`` records their provenance. The records are chosen so that
the sample exercises every decoding path of ``webclean.warc``: GB18030 bodies with a
matching charset header, one UTF-8 body whose header wrongly says gb2312, gzip and
deflate Content-Encoding, chunked Transfer-Encoding, a non-HTML body, and the record
types that are counted but not extracted (warcinfo, request, metadata, revisit).

The output is byte-for-byte reproducible: record ids, dates and gzip headers are
derived from the input, never from the clock or a random source.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import re
import sys
import uuid
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from webclean.datasets import jsonl_rows  # noqa: E402

HERE = Path(__file__).resolve().parent
DEFAULT_DATA = HERE.parent.parent / "shared" / "data"
DEFAULT_OUT = HERE / "sample.warc.gz"

# Readability.js' own test pages are addressed as http://fakehost/test/...; keep that
# host so nobody mistakes a sample URL for a live page.
READABILITY_URL = "http://fakehost/test/{id}/page.html"
GOV_URL = "http://fakehost/cwced/{id}/index.html"
START = datetime(2024, 1, 15, 8, 0, 0, tzinfo=timezone.utc)
NAMESPACE = uuid.UUID("6f1c1c57-3a59-4d38-9c61-5c1b3f6d2a10")

READABILITY_PAGES = 34
READABILITY_MAX_BYTES = 240_000
CHINESE_PAGES = 14
GB18030_PAGES = 4  # the first Chinese pages are re-encoded; the next is mislabelled
REQUEST_EVERY = 12  # one request record before every twelfth response

META_CHARSET = re.compile(rb"""(<meta[^>]{0,200}?charset\s*=\s*["']?)([A-Za-z0-9_-]+)""", re.IGNORECASE)

TINY_PDF = (
    b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n"
    b"2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n"
    b"trailer << /Root 1 0 R >>\n%%EOF\n"
)


@dataclass(frozen=True)
class SamplePage:
    """One response to write: the page's bytes and how the server sent them."""

    key: str
    url: str
    body: bytes
    charset: str
    content_type: str = "text/html"
    content_encoding: str | None = None
    chunked: bool = False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder holding the dev data")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    pages = list(choose_pages(args.data))
    with open(args.out, "wb") as handle:
        counts = write_warc(handle, pages)
    size = args.out.stat().st_size
    print(f"{args.out}: {size / 1e6:.2f} MB, records {json.dumps(counts, sort_keys=True)}")


def choose_pages(data: Path) -> Iterator[SamplePage]:
    """The pages of the sample, in the order they are written."""
    yield from _readability_pages(data / "readability.jsonl.gz")
    yield from _chinese_pages(data / "cwced_modern.jsonl.gz")
    yield SamplePage(
        key="not-html", url="http://fakehost/files/report.pdf", body=TINY_PDF, charset="", content_type="application/pdf"
    )


def _readability_pages(path: Path) -> Iterator[SamplePage]:
    rows = [r for r in _read_jsonl(path) if len(r["html"].encode("utf-8")) <= READABILITY_MAX_BYTES]
    # Every k-th page by id gives a spread of sites and languages, not only the first letters.
    step = max(1, len(rows) // READABILITY_PAGES)
    for number, row in enumerate(rows[::step][:READABILITY_PAGES]):
        encoding, chunked = _transport(number)
        yield SamplePage(
            key=f"readability/{row['id']}",
            url=READABILITY_URL.format(id=row["id"]),
            body=row["html"].encode("utf-8"),
            charset="utf-8",
            content_encoding=encoding,
            chunked=chunked,
        )


def _transport(number: int) -> tuple[str | None, bool]:
    """How the server sent the n-th page: a few gzip, one deflate, one chunked."""
    if number == 3:
        return "deflate", False
    if number == 5:
        return None, True
    if number % 6 == 1:
        return "gzip", False
    return None, False


def _chinese_pages(path: Path) -> Iterator[SamplePage]:
    for number, row in enumerate(_read_jsonl(path)[:CHINESE_PAGES]):
        html = row["html"].encode("utf-8")
        charset = "utf-8"
        if number < GB18030_PAGES:
            html = META_CHARSET.sub(rb"\1gb18030", row["html"].encode("gb18030"))
            charset = "gb18030"
        elif number == GB18030_PAGES:
            # As on many Chinese sites: the bytes are UTF-8 but the header still says gb2312.
            charset = "gb2312"
        url = row.get("url") or GOV_URL.format(id=row["id"].split("/")[-1])
        yield SamplePage(
            key=row["id"],
            url=url,
            body=html,
            charset=charset,
            content_encoding="gzip" if number in (1, 7) else None,
        )


def write_warc(handle: io.BufferedIOBase, pages: list[SamplePage]) -> dict[str, int]:
    """Write warcinfo, then the responses with some requests, a metadata and a revisit record."""
    writer = WARCWriter(handle, gzip=True)
    counts: dict[str, int] = {}

    def write(record: object, kind: str) -> None:
        writer.write_record(record)
        counts[kind] = counts.get(kind, 0) + 1

    write(_warcinfo(writer, len(pages)), "warcinfo")
    first_response = None
    for number, page in enumerate(pages):
        when = START + timedelta(seconds=number)
        if number % REQUEST_EVERY == 0:
            write(_request(writer, page, when), "request")
        response = _response(writer, page, when)
        write(response, "response")
        if first_response is None:
            first_response = (page, response, when)
        if number == 2:
            write(_metadata(writer, page, when), "metadata")
    page, response, when = first_response
    write(_revisit(writer, page, response, when, START + timedelta(days=1)), "revisit")
    return counts


def _warcinfo(writer: WARCWriter, pages: int) -> object:
    info = {
        "software": "webclean samples/build_sample_warc.py",
        "format": "WARC File Format 1.1",
        "description": f"{pages} sample responses from readability (Apache-2.0) and cwced_modern (MIT)",
    }
    record = writer.create_warcinfo_record("sample.warc.gz", info)
    _fix_headers(record, "warcinfo", START - timedelta(seconds=1))
    return record


def _request(writer: WARCWriter, page: SamplePage, when: datetime) -> object:
    path = "/" + page.url.split("/", 3)[-1]
    host = page.url.split("/")[2]
    head = f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept-Encoding: gzip, deflate\r\n\r\n".encode()
    record = writer.create_warc_record(page.url, "request", payload=io.BytesIO(head), length=len(head))
    _fix_headers(record, "request/" + page.key, when)
    return record


def _response(writer: WARCWriter, page: SamplePage, when: datetime) -> object:
    body = _encode_body(page.body, page.content_encoding)
    headers = [("Content-Type", page.content_type + (f"; charset={page.charset}" if page.charset else ""))]
    if page.content_encoding:
        headers.append(("Content-Encoding", page.content_encoding))
    if page.chunked:
        headers.append(("Transfer-Encoding", "chunked"))
        body = _chunk(body)
    else:
        headers.append(("Content-Length", str(len(body))))
    head = "HTTP/1.1 200 OK\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers) + "\r\n"
    payload = head.encode("latin-1") + body
    record = writer.create_warc_record(page.url, "response", payload=io.BytesIO(payload), length=len(payload))
    _fix_headers(record, "response/" + page.key, when)
    return record


def _metadata(writer: WARCWriter, page: SamplePage, when: datetime) -> object:
    text = f"fetchTimeMs: 120\noutlinks: {page.url}#top\n".encode()
    record = writer.create_warc_record(
        page.url, "metadata", payload=io.BytesIO(text), length=len(text), warc_content_type="application/warc-fields"
    )
    _fix_headers(record, "metadata/" + page.key, when)
    return record


def _revisit(writer: WARCWriter, page: SamplePage, original: object, first: datetime, when: datetime) -> object:
    digest = original.rec_headers.get_header("WARC-Payload-Digest")
    http = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8")], protocol="HTTP/1.1")
    record = writer.create_revisit_record(page.url, digest, page.url, _warc_date(first), http_headers=http)
    _fix_headers(record, "revisit/" + page.key, when)
    return record


def _fix_headers(record: object, key: str, when: datetime) -> None:
    """Replace the random record id and the clock's date, so that re-runs are identical."""
    headers = record.rec_headers
    headers.replace_header("WARC-Record-ID", f"<urn:uuid:{uuid.uuid5(NAMESPACE, key)}>")
    headers.replace_header("WARC-Date", _warc_date(when))


def _warc_date(when: datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def _encode_body(body: bytes, encoding: str | None) -> bytes:
    if encoding == "gzip":
        return gzip.compress(body, mtime=0)
    if encoding == "deflate":
        return zlib.compress(body)
    return body


def _chunk(body: bytes, size: int = 8192) -> bytes:
    parts = [b"%x\r\n%s\r\n" % (len(body[i : i + size]), body[i : i + size]) for i in range(0, len(body), size)]
    return b"".join(parts) + b"0\r\n\r\n"


def _read_jsonl(path: Path) -> list[dict]:
    return sorted((row for _, row in jsonl_rows(path)), key=lambda r: r["id"])


if __name__ == "__main__":
    main()
