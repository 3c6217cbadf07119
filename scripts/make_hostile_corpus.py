#!/usr/bin/env python3
"""Generate a corpus of hostile pages and broken crawl files (nothing is downloaded).

    python scripts/make_hostile_corpus.py OUT_DIR [--big-page-bytes N] [--report]

writes into OUT_DIR:

- ``pages/<case>.body``: each hostile page as stored (a gzip body stays compressed),
  and ``pages/manifest.json``: per case its file, HTTP headers and what it is;
- ``hostile.warc.gz``: one ``response`` record per case (HTTP headers included), and
  around them a ``warcinfo``, ``request``s, a duplicated record (the same record
  written twice), two ``revisit`` records, a ``metadata`` and a ``resource`` record;
- ``truncated.warc.gz``: ``hostile.warc.gz`` cut in the middle of a record;
- ``cut-member.warc.gz``: ``hostile.warc.gz`` with one gzip member cut in half and the
  members after it kept;
- ``header-cut.warc.gz``: cut inside a record's WARC header, and
  ``no-target-uri.warc.gz``: a response record without WARC-Target-URI. These two
  broke ``iter_warc`` (docs/robustness.md, "Findings") and are kept apart.

``--report`` then runs every case through ``webclean.extract`` (the body as stored)
and through ``webclean.warc.iter_warc`` (the body a browser would see) and prints
the Markdown table of docs/robustness.md. :func:`make_corpus` does the same from Python
(tests/test_hostile.py, tests/spark/test_hostile_job.py); ``big_page_bytes`` and
``bomb_bytes`` shrink the two large cases for quick runs.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import random
import struct
import sys
import time
import uuid
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from warcio.warcwriter import WARCWriter

BIG_PAGE_BYTES = 50_000_000
BOMB_BYTES = 1 << 30  # what the gzip bomb inflates to; it is about 1 MB compressed
NESTED_DIVS = 200_000
TINY_PS = 1_000_000
NESTED_TABLES = 3_000
HUGE_ATTRIBUTE_BYTES = 8_000_000
# The tokenizer's e-mail and URL patterns backtrack over a run of "a." (see docs/robustness.md).
REGEX_RUN = 20_000

PARAGRAPH = (
    "The night bus along the river route returns on Monday after a year without service, "
    "the transport board said in a statement on Friday afternoon."
)
ARTICLE = (
    "<html><head><title>Night buses return</title></head><body>"
    "<div class='nav'><a href='/'>Home</a> <a href='/news'>News</a></div>"
    "<div class='article'><h1>Night buses return to the river route</h1>"
    + "".join(f"<p>{PARAGRAPH} Part {i}.</p>" for i in range(4))
    + "</div></body></html>"
)
ZH_ARTICLE = (
    "<html><head>{meta}<title>河道清淤工程下月开工</title></head><body><div class='content'>"
    "<p>记者从市水务局获悉，城区三条主要河道的清淤工程将于下月开工，预计工期四个月，汛期到来之前完成主体施工。</p>"
    "<p>据介绍，这次清淤总长度约十二公里，施工期间将分段围堰作业，沿河步道部分路段会临时封闭，市民出行请留意现场提示。</p>"
    "<p>水务局有关负责人表示，清淤完成后，河道的行洪能力将明显提高，沿岸低洼小区的积水问题也有望得到缓解。</p>"
    "</div></body></html>"
)


@dataclass(frozen=True)
class HostileCase:
    """One hostile page: its body as stored and the HTTP headers it was served with."""

    name: str
    what: str
    body: bytes
    headers: tuple[tuple[str, str], ...] = (("Content-Type", "text/html"),)

    def header(self, name: str) -> str | None:
        return next((v for k, v in self.headers if k.lower() == name.lower()), None)


@dataclass(frozen=True)
class Corpus:
    directory: Path
    cases: tuple[HostileCase, ...]
    warc: Path
    truncated_warc: Path
    cut_member_warc: Path
    # Known to break iter_warc (docs/robustness.md, "Findings"): kept out of `warcs`.
    header_cut_warc: Path
    no_target_uri_warc: Path
    # The record types written to hostile.warc.gz, and the offset of each response record.
    record_types: dict[str, int] = field(default_factory=dict)
    offsets: dict[str, int] = field(default_factory=dict)

    @property
    def warcs(self) -> tuple[Path, Path, Path]:
        """The WARC files the job must read to the end or to a ``truncated`` row."""
        return (self.warc, self.truncated_warc, self.cut_member_warc)


def _repeat_to(unit: bytes, size: int) -> bytes:
    return (unit * (size // len(unit) + 1))[:size]


def gzip_bomb(inflated: int = BOMB_BYTES) -> bytes:
    """A valid gzip body of ``inflated`` zero bytes, about inflated / 1000 bytes long.

    Deflate output after a full flush does not refer back, so the compressed form of
    one MB of zeros can be repeated: built in milliseconds instead of seconds.
    """
    chunk = bytes(1 << 20)
    deflater = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    block = deflater.compress(chunk) + deflater.flush(zlib.Z_FULL_FLUSH)
    whole, rest = divmod(inflated, len(chunk))
    tail = deflater.compress(chunk[:rest]) + deflater.flush(zlib.Z_FINISH)
    crc = 0
    for _ in range(whole):
        crc = zlib.crc32(chunk, crc)
    crc = zlib.crc32(chunk[:rest], crc)
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"
    return header + block * whole + tail + struct.pack("<II", crc, inflated & 0xFFFFFFFF)


def hostile_cases(*, big_page_bytes: int = BIG_PAGE_BYTES, bomb_bytes: int = BOMB_BYTES) -> list[HostileCase]:
    """Every hostile page, in a fixed order (the same bytes on every call)."""
    rng = random.Random(20240115)
    html = ("Content-Type", "text/html")
    pdf = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n" + rng.randbytes(4000) + b"\n%%EOF\n"
    gbk = ZH_ARTICLE.format(meta="<meta charset='utf-8'>").encode("gbk")
    cases = [
        HostileCase("control-article", "an ordinary English article (the control)", ARTICLE.encode()),
        HostileCase("binary-as-html", "64 kB of random bytes served as text/html", rng.randbytes(65536)),
        HostileCase("pdf", "a small PDF served as text/html", pdf),
        HostileCase("pdf-typed", "the same PDF served as application/pdf", pdf, (("Content-Type", "application/pdf"),)),
        HostileCase("empty", "an empty body", b""),
        HostileCase(
            "big-page",
            f"a {big_page_bytes:,} byte page of paragraphs",
            _repeat_to(f"<p>{PARAGRAPH}</p>\n".encode(), big_page_bytes),
        ),
        HostileCase(
            "nested-divs",
            f"{NESTED_DIVS:,} nested <div>s around a paragraph",
            b"<html><body>" + b"<div>" * NESTED_DIVS + f"<p>{PARAGRAPH}</p>".encode() + b"</div>" * NESTED_DIVS,
        ),
        HostileCase(
            "nul-bytes",
            "an article with NUL bytes between its tags and letters",
            ARTICLE.encode().replace(b"><", b">\0<").replace(b"river", b"ri\0ver"),
        ),
        HostileCase(
            "wrong-charset",
            "GBK bytes declared utf-8 in <meta> and in the HTTP header",
            gbk,
            (("Content-Type", "text/html; charset=utf-8"),),
        ),
        HostileCase("missing-charset", "GBK bytes with no charset anywhere", ZH_ARTICLE.format(meta="").encode("gbk")),
        HostileCase(
            "gzip-body",
            "a gzip body with Content-Encoding: gzip",
            gzip.compress(ARTICLE.encode(), mtime=0),
            (html, ("Content-Encoding", "gzip")),
        ),
        HostileCase(
            "gzip-bomb",
            f"{bomb_bytes:,} zero bytes gzipped, with Content-Encoding: gzip",
            gzip_bomb(bomb_bytes),
            (html, ("Content-Encoding", "gzip")),
        ),
        HostileCase(
            "regex-backtracking",
            f"a paragraph of {REGEX_RUN:,} 'a.' with no space (the tokenizer's e-mail and URL patterns backtrack)",
            b"<html><body><div><p>" + b"a." * REGEX_RUN + b"</p></div></body></html>",
        ),
        HostileCase(
            "sentence-splitter",
            "a 1 MB paragraph of '!?' and '.' runs without spaces, then 50,000 one-word sentences",
            b"<html><body><div><p>" + b"!?." * 350_000 + b"</p><p>" + b"Word. " * 50_000 + b"</p></div></body></html>",
        ),
        HostileCase(
            "nested-tables",
            f"{NESTED_TABLES:,} nested tables, text in each cell",
            b"<html><body>" + b"<table><tr><td>cell text " * NESTED_TABLES + b"</td></tr></table>" * NESTED_TABLES,
        ),
        HostileCase(
            "huge-attribute",
            f"a {HUGE_ATTRIBUTE_BYTES:,} byte class attribute on the article's <div>",
            ARTICLE.replace("class='article'", "class='" + "a-" * (HUGE_ATTRIBUTE_BYTES // 2) + "'").encode(),
        ),
        HostileCase(
            "tiny-paragraphs",
            f"{TINY_PS:,} tiny <p>s",
            b"<html><body><div>" + b"<p>x</p>" * TINY_PS + b"</div></body></html>",
        ),
        HostileCase(
            "entity-bomb",
            "an XML billion-laughs DTD with an external entity (file:// and http://)",
            XML_ENTITY_BOMB,
            (("Content-Type", "application/xhtml+xml"),),
        ),
    ]
    return cases


XML_ENTITY_BOMB = b"""<?xml version="1.0"?>
<!DOCTYPE html [
 <!ENTITY ext SYSTEM "file:///etc/passwd">
 <!ENTITY net SYSTEM "http://127.0.0.1:9/webclean-xxe">
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<html><head><title>entities</title></head><body><div>
<p>Before the bomb. &lol9; After the bomb. The external file: &ext; The network: &net; The end of the page.</p>
</div></body></html>
"""


# --------------------------------------------------------------------------- writing


def make_corpus(
    directory: str | Path, *, big_page_bytes: int = BIG_PAGE_BYTES, bomb_bytes: int = BOMB_BYTES
) -> Corpus:
    """Write the loose pages and the three WARC files into ``directory``."""
    directory = Path(directory)
    pages = directory / "pages"
    pages.mkdir(parents=True, exist_ok=True)
    cases = hostile_cases(big_page_bytes=big_page_bytes, bomb_bytes=bomb_bytes)
    manifest = []
    for case in cases:
        (pages / f"{case.name}.body").write_bytes(case.body)
        manifest.append({"name": case.name, "file": f"{case.name}.body", "what": case.what, "headers": dict(case.headers)})
    (pages / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")

    data, members, record_types, offsets = _hostile_warc(cases)
    warc = directory / "hostile.warc.gz"
    warc.write_bytes(data)
    # Both cuts fall in the member of the nested-divs record, past its WARC header
    # (at half of its compressed bytes the header and much of the body are readable).
    start, end = next(m for m in members if m[0] == offsets["nested-divs"])
    truncated = directory / "truncated.warc.gz"
    truncated.write_bytes(data[: (start + end) // 2])
    cut_member = directory / "cut-member.warc.gz"
    cut_member.write_bytes(data[: (start + end) // 2] + data[end:])
    header_cut = directory / "header-cut.warc.gz"
    header_cut.write_bytes(data[:start] + _gzip_prefix(data[start:end], HEADER_CUT_BYTES))
    no_uri = directory / "no-target-uri.warc.gz"
    no_uri.write_bytes(_no_target_uri_warc())
    return Corpus(directory, tuple(cases), warc, truncated, cut_member, header_cut, no_uri, record_types, offsets)


# A cut this many bytes into a record's (uncompressed) WARC header: after WARC-Type
# and WARC-Record-ID, before WARC-Target-URI.
HEADER_CUT_BYTES = 60


def _gzip_prefix(member: bytes, inflated: int) -> bytes:
    """The shortest prefix of a gzip member that inflates to at least ``inflated`` bytes."""
    for size in range(1, len(member)):
        if len(zlib.decompressobj(31).decompress(member[:size])) >= inflated:
            return member[:size]
    return member


def _no_target_uri_warc() -> bytes:
    """A complete WARC whose second response record has no WARC-Target-URI header."""
    out = io.BytesIO()
    writer = WARCWriter(out, gzip=True, warc_version="1.1")
    payload = _payload(HostileCase("x", "", ARTICLE.encode()))
    for number in range(3):
        record = writer.create_warc_record(
            f"http://hostile.test/no-uri-{number}", "response", payload=io.BytesIO(payload), length=len(payload),
            warc_headers_dict=_ids(f"no-uri-{number}"),
        )  # fmt: skip
        if number == 1:
            record.rec_headers.remove_header("WARC-Target-URI")
        writer.write_record(record)
    return out.getvalue()


def _ids(key: str) -> dict[str, str]:
    """A fixed WARC-Record-ID and WARC-Date, so that the corpus is the same bytes on every run."""
    return {"WARC-Record-ID": f"<{uuid.uuid5(uuid.NAMESPACE_URL, 'hostile:' + key).urn}>", "WARC-Date": WARC_DATE}


WARC_DATE = "2024-01-15T00:00:00Z"


def _hostile_warc(cases: list[HostileCase]) -> tuple[bytes, list[tuple[int, int]], dict[str, int], dict[str, int]]:
    """The WARC bytes, the (start, end) of each gzip member, record counts by type, response offsets."""
    out = io.BytesIO()
    writer = WARCWriter(out, gzip=True, warc_version="1.1")
    members: list[tuple[int, int]] = []
    counts: dict[str, int] = {}
    offsets: dict[str, int] = {}

    def write(record, name: str | None = None) -> None:
        start = out.tell()
        writer.write_record(record)
        members.append((start, out.tell()))
        counts[record.rec_type] = counts.get(record.rec_type, 0) + 1
        if name is not None:
            offsets.setdefault(name, start)

    info = writer.create_warcinfo_record("hostile.warc.gz", {"software": "scripts/make_hostile_corpus.py"})
    info.rec_headers.replace_header("WARC-Record-ID", _ids("warcinfo")["WARC-Record-ID"])
    info.rec_headers.replace_header("WARC-Date", WARC_DATE)
    write(info)
    responses = {}
    for number, case in enumerate(cases):
        url = f"http://hostile.test/{case.name}"
        if number % 4 == 0:
            request = f"GET /{case.name} HTTP/1.1\r\nHost: hostile.test\r\n\r\n".encode()
            write(writer.create_warc_record(url, "request", payload=io.BytesIO(request), length=len(request),
                                            warc_headers_dict=_ids("request:" + case.name)))  # fmt: skip
        payload = _payload(case)
        record = writer.create_warc_record(url, "response", payload=io.BytesIO(payload), length=len(payload),
                                           warc_headers_dict=_ids(case.name))  # fmt: skip
        write(record, case.name)
        responses[case.name] = (url, record)
    # The same response record (same WARC-Record-ID, same bytes) written a second time.
    url, record = responses["control-article"]
    duplicate = writer.create_warc_record(
        url, "response", payload=io.BytesIO(_payload(cases[0])), length=len(_payload(cases[0])),
        warc_headers_dict={"WARC-Record-ID": record.rec_headers.get_header("WARC-Record-ID"),
                           "WARC-Date": record.rec_headers.get_header("WARC-Date")},
    )  # fmt: skip
    write(duplicate)
    for name in ("control-article", "nested-divs"):
        url, record = responses[name]
        digest = record.rec_headers.get_header("WARC-Payload-Digest")
        date = record.rec_headers.get_header("WARC-Date")
        revisit = writer.create_revisit_record(url, digest, url, date)
        revisit.rec_headers.replace_header("WARC-Record-ID", _ids("revisit:" + name)["WARC-Record-ID"])
        revisit.rec_headers.replace_header("WARC-Date", WARC_DATE)
        write(revisit)
    note = b"hostile corpus: every response record above must give one row"
    write(writer.create_warc_record("urn:hostile:note", "metadata", payload=io.BytesIO(note), length=len(note),
                                    warc_content_type="text/plain", warc_headers_dict=_ids("note")))  # fmt: skip
    resource = ARTICLE.encode()
    write(writer.create_warc_record("http://hostile.test/resource", "resource", payload=io.BytesIO(resource),
                                    length=len(resource), warc_content_type="text/html",
                                    warc_headers_dict=_ids("resource")))  # fmt: skip
    return out.getvalue(), members, counts, offsets


def _payload(case: HostileCase) -> bytes:
    head = "HTTP/1.1 200 OK\r\n" + "".join(f"{k}: {v}\r\n" for k, v in case.headers) + "\r\n"
    return head.encode("latin-1") + case.body


# --------------------------------------------------------------------------- the report


def report(corpus: Corpus, timeout_seconds: float | None = None) -> list[dict[str, object]]:
    """Each case through extract (body as stored) and through iter_warc then extract."""
    from webclean.config import Config
    from webclean.extract import extract
    from webclean.warc import WarcPage, iter_warc

    config = Config()
    if timeout_seconds is not None:
        config = config.with_overrides([f"limits.timeout_seconds={timeout_seconds}"])
    pages = {item.url: item for item in iter_warc(str(corpus.warc)) if isinstance(item, WarcPage)}
    rows = []
    for case in corpus.cases:
        started = time.perf_counter()
        direct = extract(case.body, config=config, http_charset=case.header("Content-Type"))
        direct_seconds = time.perf_counter() - started
        page = pages[f"http://hostile.test/{case.name}"]
        started = time.perf_counter()
        if page.status is not None:
            via_warc_status, via_warc_error = page.status, page.error
        else:
            via = extract(page.body, config=config, http_charset=page.charset)
            via_warc_status, via_warc_error = via.status, via.error
        rows.append(
            {
                "case": case.name,
                "what": case.what,
                "bytes": len(case.body),
                "status": direct.status,
                "reason": direct.error,
                "seconds": round(direct_seconds, 2),
                "warc_status": via_warc_status,
                "warc_reason": via_warc_error,
                "warc_seconds": round(time.perf_counter() - started, 2),
            }
        )
    return rows


def markdown(rows: list[dict[str, object]]) -> str:
    lines = [
        "| case | what | bytes stored | `extract` on the stored body | reason | s | via `iter_warc` | reason | s |",
        "|---|---|---:|---|---|---:|---|---|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['case']} | {r['what']} | {r['bytes']:,} | {r['status']} | {_cell(r['reason'])} | {r['seconds']} "
            f"| {r['warc_status']} | {_cell(r['warc_reason'])} | {r['warc_seconds']} |"
        )
    return "\n".join(lines)


def _cell(text: object) -> str:
    return "" if text is None else str(text).replace("|", "\\|")[:110]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory")
    parser.add_argument("--big-page-bytes", type=int, default=BIG_PAGE_BYTES)
    parser.add_argument("--bomb-bytes", type=int, default=BOMB_BYTES)
    parser.add_argument("--report", action="store_true", help="run every case and print the Markdown table")
    args = parser.parse_args(argv)
    corpus = make_corpus(args.directory, big_page_bytes=args.big_page_bytes, bomb_bytes=args.bomb_bytes)
    print(f"wrote {len(corpus.cases)} cases and {', '.join(p.name for p in corpus.warcs)} to {corpus.directory}")
    if args.report:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        print(markdown(report(corpus)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
