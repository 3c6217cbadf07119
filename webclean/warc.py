"""Stream the pages of a WARC or ARC file as values, and say where a broken file stopped.

``iter_warc`` yields one :class:`WarcPage` per ``response`` or ``resource`` record,
one :class:`WarcDamage` per stretch of bytes that could not be read as records (a
corrupt gzip member, a garbled header) and was skipped up to the next record, and,
last, one :class:`WarcEnd` with the records counted by type and, for a file that could
not be read to its end (cut short, empty, not a WARC), the byte offset and the reason.
It never raises for a bad file: the errors are values. A record cut short by the end of
the file still gives its page, with the payload that arrived.

A gzip file is read member by member, so that offsets are those of the stored file.
When its members do not hold whole records (the whole file compressed as one member,
or members cut inside records), warcio stops after the first member; the file is then
read again as one stream of decompressed bytes, as ``zcat`` gives them, from the first
record not yet read, and the offsets of the records after it are in the decompressed bytes.

``iter_warc_range`` yields the same for the records that start in a byte range of the
file, so that tasks of their own read the ranges of one large file (webclean.warc_ranges).

The HTTP payload is decoded (webclean.payload) under a byte cap, so that the extractor
sees the bytes a browser would see and a zip bomb or a 2 GB video costs at most
``max_bytes`` of memory.

warcio reads the records, not FastWARC: FastWARC parses about 2.3x faster, but
reading is about 1 % of the time a page takes to extract, and FastWARC 2.0 panics on
streams that cannot seek (those pyarrow opens on S3 and HDFS) and, when it decodes
payloads itself, stops the whole file at the first body with broken gzip data.
"""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Generator, Iterator, Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, BinaryIO, TypeAlias

from warcio.archiveiterator import ArchiveIterator
from warcio.exceptions import ArchiveLoadFailed
from warcio.recordloader import ArcWarcRecord, ArcWarcRecordLoader
from warcio.statusandheaders import StatusAndHeaders, StatusAndHeadersParserException
from warcio.utils import BUFF_SIZE

from webclean.config import LimitsConfig
from webclean.decode import header_charset
from webclean.payload import Payload, decode_payload
from webclean.result import Status
from webclean.storage import open_input, open_input_at
from webclean.warc_ranges import range_bounds, splittable
from webclean.warc_resync import RewindableStream, StrictReader, next_record_start

PAGE_RECORD_TYPES = ("response", "resource")
DEFAULT_MAX_BYTES = LimitsConfig().max_bytes
READ_BLOCK = 1 << 20
GZIP_WBITS = 16 + zlib.MAX_WBITS
# How warcio says that a gzip member holds more than one record.
_NON_CHUNKED = "non-chunked gzip"

# What a damaged file raises while warcio reads it: bad gzip data, a cut header,
# a Content-Length that is not a number, an I/O error of the file system.
# AttributeError: warcio's reader raises it where a malformed record leaves one of its
# values None (a response without WARC-Target-URI did, before _RecordLoader); one bad
# record must not fail the task.
READ_ERRORS = (
    ArchiveLoadFailed, StatusAndHeadersParserException, EOFError, OSError, ValueError, zlib.error, AttributeError,
)  # fmt: skip


@dataclass(frozen=True)
class WarcPage:
    """One response or resource record, its payload decoded.

    ``status`` is None when ``body`` holds the payload; otherwise it is
    ``too_large`` or ``decode_error`` with the reason in ``error``, and ``body`` is empty.
    ``length`` counts the payload bytes as stored, before any decoding. ``offset`` is
    the record's byte offset in the file as stored, or in the decompressed bytes for a
    record after the first of a gzip file whose members do not hold whole records.
    """

    url: str | None
    warc_record_id: str | None
    warc_date: datetime | None
    record_type: str
    offset: int
    content_type: str | None
    charset: str | None
    body: bytes
    length: int
    status: str | None = None
    error: str | None = None


@dataclass(frozen=True)
class WarcEnd:
    """The last value of every file: what was counted and, if reading broke, where.

    ``offset`` is the byte offset (in the file as stored, compressed or not) of the
    record that could not be read whole; None when the file was read to its end.
    """

    source: str
    counts: Mapping[str, int] = field(default_factory=dict)
    offset: int | None = None
    error: str | None = None

    @property
    def complete(self) -> bool:
        return self.error is None


@dataclass(frozen=True)
class WarcDamage:
    """Bytes that could not be read as records, skipped: from ``offset`` (where the
    damaged record starts) to ``resumed``, where the next record starts and reading went
    on. ``url`` and ``warc_record_id`` are the damaged record's when its header was read."""

    source: str
    offset: int
    resumed: int
    error: str
    url: str | None = None
    warc_record_id: str | None = None


WarcItem: TypeAlias = WarcPage | WarcDamage | WarcEnd


class _RecordLoader(ArcWarcRecordLoader):
    """warcio's record loader, which reads a record without WARC-Target-URI as it reads
    one whose address is http: (a response's block as an HTTP message, as crawlers write
    it) where warcio's own fails on the missing address and the rest of the file is lost.
    warcio's messages on stderr and in its log all become values here (WarcDamage, WarcEnd)
    or go: this loader, _Archive and StrictReader write none."""

    def load_http_headers(self, rec_type: str, uri: str | None, stream: Any, length: int | None) -> Any:
        return super().load_http_headers(rec_type, "http:" if uri is None else uri, stream, length)

    def _ensure_target_uri_format(self, rec_headers: StatusAndHeaders) -> str | None:
        """warcio's own repair of a WARC-Target-URI (Wget's <...>, spaces encoded), without the
        warning it logs for every such record: a crawl of them filled the log with
        "Replacing spaces in invalid WARC-Target-URI", and the encoded URI is the page's url."""
        uri = rec_headers.get_header("WARC-Target-URI")
        if uri is not None and uri.startswith("<") and uri.endswith(">"):
            uri = uri[1:-1]
            rec_headers.replace_header("WARC-Target-URI", uri)
        if uri is not None and " " in uri:
            uri = uri.replace(" ", "%20")
            rec_headers.replace_header("WARC-Target-URI", uri)
        return uri


class _Archive(ArchiveIterator):
    """warcio's ArchiveIterator, with _RecordLoader and StrictReader, and silent where
    warcio writes to stderr that a record is not followed by a blank line (its
    Content-Length is wrong): the bytes after it then fail as the next record, a value here."""

    def __init__(self, stream: Any) -> None:
        super().__init__(stream)
        self.loader = _RecordLoader(verify_http=False, arc2warc=False)  # ArchiveIterator's own settings
        self.reader = self._strict = StrictReader(self.fh, block_size=BUFF_SIZE)

    @property
    def bytes_read(self) -> int:
        """The bytes read as records (decompressed), after the iterator closed its reader too."""
        return int(self._strict.num_read)

    def _consume_blanklines(self) -> tuple[bytes | None, int]:
        """warcio's own, without its warning: skip the blank lines after a record, and its
        first line after it whatever it holds (a Content-Length a few bytes short); return
        the next line and the bytes skipped."""
        empty_size = 0
        first_line = True
        while line := self.reader.readline():
            if line.rstrip() and not first_line:
                return line, empty_size
            empty_size += len(line)
            first_line = False
        return None, empty_size


def iter_warc(source: str | BinaryIO, *, max_bytes: int = DEFAULT_MAX_BYTES) -> Iterator[WarcItem]:
    """Yield the pages of a WARC or ARC (plain or gzip) and the damage skipped, then one :class:`WarcEnd`.

    ``source`` is a local path, a ``file://`` URI, any URI that ``pyarrow.fs`` opens
    (``s3://``, ``s3a://``, ``hdfs://``), or an open binary stream (read again from its
    start, if it can seek, when its gzip members do not hold whole records).
    """
    name = source if isinstance(source, str) else str(getattr(source, "name", "<stream>"))
    counts: Counter[str] = Counter()
    try:
        opened = open_input(source) if isinstance(source, str) else nullcontext(source)
    except OSError as exc:
        yield WarcEnd(name, {}, offset=0, error=f"cannot open: {exc}")
        return
    try:
        with opened as stream:
            end = yield from _iter_resyncing(RewindableStream(stream), name, max_bytes, counts)
    except _SplitMembers as split:
        end = yield from _iter_inflated(source, name, max_bytes, counts, split)
    if end.complete and not counts:
        end = WarcEnd(name, {}, offset=0, error="truncated: the file holds no record: it is empty")
    yield end


def iter_warc_range(path: str, start: int, stop: int | None, *, max_bytes: int = DEFAULT_MAX_BYTES) -> Iterator[WarcItem]:
    """What :func:`iter_warc` yields of the records of ``path`` that start in the byte range
    ``[start, stop)`` (``stop`` None: to the end of the file; webclean.warc_ranges), then a
    :class:`WarcEnd` that counts those records. A file that cannot be read in ranges is read
    whole by its range at byte 0; its other ranges give their end alone."""
    if start == 0 and stop is None:
        yield from iter_warc(path, max_bytes=max_bytes)
        return
    try:
        # A file that cannot be cut: the range at byte 0 holds all of it, the others none.
        begin, until = range_bounds(path, start, stop) if splittable(path) else (0 if start == 0 else None, None)
    except OSError as exc:
        yield WarcEnd(path, {}, offset=start, error=f"cannot open: {exc}")
        return
    if begin is None:  # no record starts in the range
        yield WarcEnd(path, {})
    elif begin == 0 and until is None:
        yield from iter_warc(path, max_bytes=max_bytes)
    else:
        yield from _iter_range(path, begin, until, max_bytes)


def _iter_range(path: str, begin: int, until: int | None, max_bytes: int) -> Iterator[WarcItem]:
    """The items of the records from byte ``begin``, where a record starts, to byte ``until``,
    where the next range's first record starts (None: to the end of the file)."""
    try:
        opened = open_input_at(path, begin)
    except OSError as exc:
        yield WarcEnd(path, {}, offset=begin, error=f"cannot open: {exc}")
        return
    counts: Counter[str] = Counter()
    try:
        with opened as stream:
            end = yield from _iter_resyncing(RewindableStream(stream, begin, until), path, max_bytes, counts)
    except _SplitMembers as split:  # iter_warc reads such a file again from its start: a range cannot
        error = f"{split.error}; gzip members that do not hold one record each, which a range of the file cannot read"
        error += " (a larger input.task_bytes reads the file whole)"
        end = WarcEnd(path, dict(counts), offset=split.offset, error=error)
    yield end


def _iter_resyncing(
    stream: RewindableStream, name: str, max_bytes: int, counts: Counter[str]
) -> Generator[WarcPage | WarcDamage, None, WarcEnd]:
    """The records of ``stream``; past a damaged one, from the next record that follows it."""
    while True:
        try:
            return (yield from _iter_records(_Archive(stream), name, max_bytes, counts))
        except _Damaged as damage:
            resumed = next_record_start(stream, damage.offset)
            if resumed is None:  # in a range of the file, the next range's first record follows
                resumed = stream.stop
            if resumed is None:
                return WarcEnd(name, dict(counts), offset=damage.offset, error=damage.final_error(counts))
            error = f"damaged: {damage.error}; bytes {damage.offset} to {resumed} skipped, to the next record"
            yield WarcDamage(name, damage.offset, resumed, error, damage.url, damage.record_id)
            stream.seek(resumed)


class _Damaged(Exception):
    """A record that could not be read: bad gzip data, a garbled or cut header; reading
    may go on after it. ``cut``: what the damage looks like when no record follows it."""

    def __init__(self, offset: int, error: str, *, cut: bool = False, record: ArcWarcRecord | None = None) -> None:
        super().__init__(error)
        self.offset = offset
        self.error = error
        self.cut = cut
        headers = record.rec_headers if record is not None else None
        self.url = headers.get_header("WARC-Target-URI") if headers is not None else None
        self.record_id = headers.get_header("WARC-Record-ID") if headers is not None else None

    def final_error(self, counts: Counter[str]) -> str:
        """The reason when no record follows: the file ends in the damage, or is no WARC at all."""
        if self.offset == 0 and not counts:
            return f"not a WARC or ARC file: {self.error}"
        return f"truncated: {self.error}" if self.cut else self.error


class _SplitMembers(Exception):
    """The gzip members of a file do not hold whole records; reading them one by one stopped here."""

    def __init__(self, offset: int, error: str) -> None:
        super().__init__(error)
        self.offset = offset
        self.error = error


def _iter_inflated(
    source: str | BinaryIO, name: str, max_bytes: int, counts: Counter[str], split: _SplitMembers
) -> Generator[WarcPage, None, WarcEnd]:
    """The records after the ``counts`` already read, from the file read again as one gzip stream."""
    stopped = WarcEnd(name, dict(counts), offset=split.offset, error=split.error)
    if isinstance(source, str):
        try:
            opened: AbstractContextManager[BinaryIO] = open_input(source)
        except OSError:
            return stopped
    elif source.seekable():
        source.seek(0)
        opened = nullcontext(source)
    else:
        return stopped
    with opened as stream:
        inflated = _Inflated(stream)
        records = _Archive(inflated)
        try:
            end = yield from _iter_records(records, name, max_bytes, counts, skip=sum(counts.values()))
        except _SplitMembers:  # gzip inside gzip: not a WARC this reader knows
            return stopped
        except _Damaged as damage:  # offsets in decompressed bytes: no going back to resync
            return WarcEnd(name, dict(counts), offset=damage.offset, error=damage.final_error(counts))
    if end.complete and inflated.cut:
        offset = records.offset
        return WarcEnd(name, dict(counts), offset=offset, error=f"truncated: the gzip data ends inside a member, at byte {offset}")
    return end


class _Inflated:
    """The bytes of a gzip stream decompressed across member boundaries, as ``zcat`` gives them.

    A stream cut inside a member ends with what was decompressed, and sets ``cut``;
    bytes that are not gzip data raise zlib.error.
    """

    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw
        self._inflater = zlib.decompressobj(GZIP_WBITS)
        self._piece = b""  # the last decompressed bytes, read up to _position
        self._position = 0
        self.cut = False

    def read(self, size: int = -1) -> bytes:
        parts = []
        while size != 0:
            if self._position == len(self._piece):
                self._piece, self._position = self._inflate(), 0
                if not self._piece:
                    break
            end = len(self._piece) if size < 0 else self._position + size
            part = self._piece[self._position : end]
            self._position += len(part)
            size = size if size < 0 else size - len(part)
            parts.append(part)
        return b"".join(parts)

    def _inflate(self) -> bytes:
        """The next decompressed bytes; empty at the end of the stream."""
        while True:
            data = self._inflater.unconsumed_tail
            if not data and self._inflater.eof:  # the next member starts in the last one's unused data
                data = self._inflater.unused_data or self._raw.read(READ_BLOCK)
                if data:
                    self._inflater = zlib.decompressobj(GZIP_WBITS)
            elif not data:
                data = self._raw.read(READ_BLOCK)
                self.cut = not data
            if not data:
                return b""
            out = self._inflater.decompress(data, READ_BLOCK)
            if out:
                return out


def _iter_records(
    records: _Archive, name: str, max_bytes: int, counts: Counter[str], skip: int = 0
) -> Generator[WarcPage, None, WarcEnd]:
    """Yield the pages of ``records`` after the first ``skip`` records, counted in ``counts``; return the end.

    Raises _SplitMembers where a gzip member turns out not to hold whole records, and
    _Damaged where a record cannot be read.
    """
    member: Any = None  # the gzip decompressor of the last record read whole; None for a plain file
    last = 0  # and that record's offset
    while True:
        record = None
        try:
            record = next(records, None)
            if record is None:
                break
            offset = records.offset  # get_record_offset() would read the record to its end
            if not _header_whole(record):
                raise _Damaged(offset, f"the header of the record at byte {offset} is incomplete", cut=True)
            if record.format == "arc" and not counts and not skip and not _arc_file_header(record):
                raise _Damaged(offset, "its first record is not an ARC file header (filedesc://)")
            wanted = skip == 0 and record.rec_type in PAGE_RECORD_TYPES
            page = _page(record, offset, max_bytes) if wanted else None
            missing = _drain(record)
        except READ_ERRORS as exc:
            error = f"{type(exc).__name__}: {_first_line(exc)}"
            if _NON_CHUNKED in str(exc):
                raise _SplitMembers(last, error) from exc
            raise _Damaged(records.offset, _read_error(exc, records.offset), record=record) from exc
        cut = _cut_error(missing, offset) if missing else None
        if cut and _member_ended_first(records):
            raise _SplitMembers(offset, cut)
        member, last = records.reader.decompressor, offset
        if skip:
            skip -= 1
            continue
        counts[record.rec_type] += 1
        if page is not None:
            yield page
        if cut:
            return WarcEnd(name, dict(counts), offset=offset, error=cut)
    return _quiet_end(records, name, counts, member, last)


def _quiet_end(records: _Archive, name: str, counts: Counter[str], member: Any, last: int) -> WarcEnd:
    """The end of a file warcio read without an error; it says nothing of two ways a file is cut.

    A header cut short after its WARC-Type leaves bytes unparsed; a gzip member cut right
    after a record leaves its decompressor short of the member's end.
    """
    member_cut = member is not None and not member.eof
    if not counts and not records.bytes_read:  # nothing at all, or a gzip member of nothing
        return WarcEnd(name, {})
    if records.fh.tell() > records.offset:
        error = f"truncated: record header at byte {records.offset} is incomplete"
        if member_cut:  # the header is in the member of the record before it
            raise _SplitMembers(last, error)
        return WarcEnd(name, dict(counts), offset=records.offset, error=error)
    if member_cut:
        return WarcEnd(name, dict(counts), offset=last, error=f"truncated: the file ends inside the gzip member at byte {last}")
    return WarcEnd(name, dict(counts))


def _cut_error(missing: int, offset: int) -> str:
    return f"truncated: the file ends {missing} bytes before the end of the record at byte {offset} (its Content-Length)"


def _read_error(exc: BaseException, offset: int) -> str:
    if isinstance(exc, zlib.error):
        return f"corrupt gzip data in the record at byte {offset} ({_first_line(exc)})"
    return f"the record at byte {offset} cannot be read ({type(exc).__name__}: {_first_line(exc)})"


def _arc_file_header(record: ArcWarcRecord) -> bool:
    """An ARC file starts with its file header, whose URL is filedesc://: a text file whose
    first line happens to have five words does not."""
    return (record.rec_headers.get_header("uri") or "").startswith("filedesc://")


def _header_whole(record: ArcWarcRecord) -> bool:
    """False for a header cut short: warcio parses it as a record of no type, or of no Content-Length.

    A length that is not a number is read as 0, as warcio reads it (ARC files have them).
    """
    if record.format == "arc":
        return bool(record.rec_type)
    return bool(record.rec_type) and bool((record.rec_headers.get_header("Content-Length") or "").strip())


def _member_ended_first(records: ArchiveIterator) -> bool:
    """True when the gzip member that held a record's start ended before the record, and more follow."""
    inflater = records.reader.decompressor
    return inflater is not None and inflater.eof and bool(inflater.unused_data)


def _page(record: ArcWarcRecord, offset: int, max_bytes: int) -> WarcPage:
    headers = record.rec_headers
    http = record.http_headers
    content_type = (http or headers).get_header("Content-Type")
    payload = _read_payload(record, http, max_bytes)
    if record.format == "arc":  # ARC headers: uri, ip-address, archive-date, content-type, length
        # warcio keeps an ARC URL's spaces but encodes those of a WARC-Target-URI: encode both.
        url = (headers.get_header("uri") or "").replace(" ", "%20") or None
        date = parse_arc_date(headers.get_header("archive-date"))
    else:
        url, date = headers.get_header("WARC-Target-URI"), parse_warc_date(headers.get_header("WARC-Date"))
    return WarcPage(
        url=url,
        warc_record_id=headers.get_header("WARC-Record-ID"),
        warc_date=date,
        record_type=record.rec_type,
        offset=offset,
        content_type=_mime_type(content_type),
        charset=_charset(content_type),
        body=payload.body,
        length=payload.length,
        status=payload.status,
        error=payload.error,
    )


def _read_payload(record: ArcWarcRecord, http: StatusAndHeaders | None, max_bytes: int) -> Payload:
    # Read one byte over the cap: that byte tells a payload of exactly max_bytes from a larger one.
    raw = record.raw_stream.read(max_bytes + 1)
    if len(raw) > max_bytes:
        length = len(raw) + _discard(record)
        return Payload(b"", length, Status.TOO_LARGE, f"payload over limits.max_bytes = {max_bytes}")
    if http is None:
        return Payload(raw, len(raw))
    return decode_payload(
        raw,
        transfer_encoding=http.get_header("Transfer-Encoding"),
        content_encoding=http.get_header("Content-Encoding"),
        max_bytes=max_bytes,
    )


def _drain(record: ArcWarcRecord) -> int:
    """Read the rest of the record; the bytes of its Content-Length missing where the file ended."""
    _discard(record)
    return int(getattr(record.raw_stream, "limit", 0))


def _discard(record: ArcWarcRecord) -> int:
    skipped = 0
    while block := record.raw_stream.read(READ_BLOCK):
        skipped += len(block)
    return skipped


def parse_warc_date(value: str | None) -> datetime | None:
    """WARC-Date is ISO 8601 in UTC (WARC 1.1 allows fractions of a second)."""
    if not value:
        return None
    try:
        return datetime.fromisoformat(value.strip())
    except ValueError:
        return None


def parse_arc_date(value: str | None) -> datetime | None:
    """An ARC record's archive-date: 14 digits, YYYYMMDDhhmmss in UTC."""
    try:
        return datetime.strptime((value or "").strip(), "%Y%m%d%H%M%S").replace(tzinfo=timezone.utc)
    except ValueError:
        return None


def _mime_type(content_type: str | None) -> str | None:
    if not content_type:
        return None
    return content_type.split(";", 1)[0].strip().lower() or None


def _charset(content_type: str | None) -> str | None:
    label = header_charset(content_type)
    return label.lower() if label else None


def _first_line(exc: BaseException) -> str:
    """The reason in one printable line: warcio quotes the undecodable bytes it found."""
    text = str(exc).strip()
    line = text.splitlines()[0] if text else "no detail"
    return "".join(c if c.isascii() and c.isprintable() else ascii(c)[1:-1] for c in line)[:160]
