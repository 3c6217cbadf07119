"""Where reading a damaged WARC or ARC file can go on: the next record after a damaged one.

Crawlers compress a WARC one gzip member a record, so one corrupt member damages one
record and the members after it are intact. :func:`next_record_start` scans forward from
the damaged record for the next gzip member whose data inflates to a record header (or,
in an uncompressed file, for the next line that starts a WARC record) and
:class:`RewindableStream` lets the reader go back to it: warcio reads ahead of the
record it reports, so the next member may already lie in bytes it has read. The same
scan finds where a byte range of a file read by a task of its own begins and ends
(webclean.warc_ranges).

warcio's own reader, when a member stops inflating half-way, prints zlib's message to
stderr and reads on as if the member had ended; :class:`StrictReader` raises instead, so
that the damage is reported as a row and not as silence.
"""

from __future__ import annotations

import re
import zlib
from typing import Any, BinaryIO

from warcio.bufferedreaders import DecompressingBufferedReader

GZIP_MAGIC = b"\x1f\x8b"
# A gzip member header: magic, deflate, and flags with the reserved bits clear (RFC 1952).
_MEMBER_HEADER = re.compile(rb"\x1f\x8b\x08[\x00-\x1f]")
# The first line of a WARC record, or of an ARC record (URL, IP address, 14-digit date).
_RECORD_HEADER = re.compile(rb"WARC/1\.\d\r?\n|\S+ \d{1,3}(?:\.\d{1,3}){3} \d{14} ")
# A WARC record's first line at the start of a line of an uncompressed file.
_WARC_LINE = re.compile(rb"(?:^|\n)(WARC/1\.\d\r?\n)")
# How far back the stream keeps its bytes: past warcio's read-ahead (16 KiB) many times over.
KEEP_BYTES = 4 << 20
SCAN_BLOCK = 1 << 20
# The inflated bytes that must show a record header, and the compressed bytes read to get them.
_PEEK_OUT = 64
_PEEK_IN = 1 << 16


class RewindableStream:
    """A forward-only binary stream that keeps the last :data:`KEEP_BYTES` it read, so
    that its reader can go back to any of them; ``tell`` is the position in the file.

    ``raw`` is read from byte ``start`` of its file; with a ``stop``, the stream ends
    there, whatever follows (a range of a file ends where the next range's first record
    starts: webclean.warc_ranges).
    """

    def __init__(self, raw: BinaryIO, start: int = 0, stop: int | None = None) -> None:
        self._raw = raw
        self._kept = bytearray()  # the last bytes read from raw, ending at _end
        self._end = start
        self._position = start
        self.stop = stop

    def tell(self) -> int:
        return self._position

    def read(self, size: int = -1) -> bytes:
        kept_from = self._end - len(self._kept)
        if self._position < self._end:
            start = self._position - kept_from
            part = bytes(self._kept[start : None if size < 0 else start + size])
        else:
            if self.stop is not None:
                size = self.stop - self._end if size < 0 else min(size, self.stop - self._end)
            part = self._raw.read() if size < 0 else self._raw.read(size)
            self._keep(part)
        self._position += len(part)
        return part

    def seek(self, position: int) -> None:
        """Go back to a position still kept, or forward to any position."""
        if position < self._end - len(self._kept):
            raise ValueError(f"byte {position} is no longer kept")
        self._position = min(position, self._end)
        while self._position < position and self.read(min(SCAN_BLOCK, position - self._position)):
            pass

    def oldest(self) -> int:
        """The first position :meth:`seek` can go back to."""
        return self._end - len(self._kept)

    def _keep(self, data: bytes) -> None:
        self._kept += data
        self._end += len(data)
        if len(self._kept) > 2 * KEEP_BYTES:
            del self._kept[: len(self._kept) - KEEP_BYTES]


def next_record_start(stream: RewindableStream, after: int) -> int | None:
    """The position of the first record after ``after``: a gzip member that inflates to a
    record header, or a line that starts a WARC record; None when none follows.

    Starts from the oldest byte kept when ``after`` is older than that: the record that
    broke was then read far past its start, and its damage lies near where it broke.
    A WARC line counts only at the start of a line: the byte before the first position
    is read too, when it is kept.
    """
    first = max(after + 1, stream.oldest())
    position = max(first - 1, stream.oldest())
    stream.seek(position)
    carry = b""  # the end of the last block, in case a header spans two blocks
    while block := stream.read(SCAN_BLOCK):
        data = carry + block
        base = position - len(carry)
        for start in _candidates(data):
            if base + start >= first and _starts_record(stream, base + start):
                return base + start
        stream.seek(base + len(data))
        carry = data[-16:]
        position = base + len(data)
    return None


def _candidates(data: bytes) -> list[int]:
    members = [m.start() for m in _MEMBER_HEADER.finditer(data)]
    lines = [m.start(1) for m in _WARC_LINE.finditer(data)]
    return sorted(members + lines)


def _starts_record(stream: RewindableStream, position: int) -> bool:
    """Whether the bytes at ``position`` are a record's header, plain or in a gzip member."""
    stream.seek(position)
    head = stream.read(_PEEK_IN)
    if head[:2] == GZIP_MAGIC:
        try:
            head = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, _PEEK_OUT)
        except zlib.error:
            return False
    return _RECORD_HEADER.match(head) is not None


class StrictReader(DecompressingBufferedReader):
    """warcio's reader of gzip members, which raises zlib.error where a member stops inflating.

    warcio's prints the error and reads on as if the member had ended, or, for bytes
    that fail from the member's start, as if they were not compressed. Only bytes that are
    not gzip at all are read so here: a plain WARC, or what follows the last member.
    """

    decompressor: Any  # zlib's, set by warcio's _init_decomp

    def _init_decomp(self, decomp_type: Any) -> None:
        super()._init_decomp(decomp_type)
        self._fed = False  # whether the current decompressor has been given bytes

    def _decompress(self, data: bytes) -> bytes:
        if self.decompressor is None or not data:
            return data
        fed, self._fed = self._fed, True
        try:
            return bytes(self.decompressor.decompress(data))
        except zlib.error:
            if fed or data[:2] == GZIP_MAGIC:
                raise
            self.decompressor = None
            return data
