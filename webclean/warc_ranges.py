"""A large WARC file read in byte ranges, each by a task of its own.

A range ``[start, stop)`` of a file holds the records from the first that starts at or
after ``start`` to the last before the first that starts at or after ``stop``, where the
next range begins. Both boundaries are found by the scan that resyncs reading past a
damaged record (:func:`webclean.warc_resync.next_record_start`): a gzip member that
inflates to a record header, or a line ``WARC/1.x`` of an uncompressed WARC. So two
neighbouring ranges agree on where one ends and the other begins without knowing of
each other, and every record, damaged or not, is read by exactly one range: a damaged
member that runs across ``stop`` is read by the range it starts in, which skips its
damage up to the next range's first record.

Only a file whose records can be found from any byte can be cut so: an uncompressed
WARC, or a WARC of one gzip member a record, as crawlers write them. An ARC file, and a
WARC compressed as one gzip stream, are read whole by their range at byte 0; their other
ranges hold nothing (:func:`splittable`).
"""

from __future__ import annotations

import math
import re
import zlib
from typing import BinaryIO, TypeAlias

from webclean.storage import open_input, open_input_at
from webclean.warc_resync import GZIP_MAGIC, SCAN_BLOCK, RewindableStream, next_record_start

# [start, stop) of a file; a stop of None runs to the file's end.
ByteRange: TypeAlias = tuple[int, int | None]

WARC_START = b"WARC/1."
# A file whose first gzip member does not end within this many bytes is read whole.
PROBE_BYTES = 16 << 20
# The header of the first record lies in this many inflated bytes, or the file is read whole.
HEADER_BYTES = 1 << 16
# What ends every WARC record after its Content-Length (WARC 1.1, section 4).
RECORD_END = b"\r\n\r\n"
_CONTENT_LENGTH = re.compile(rb"^content-length:[ \t]*(\d+)[ \t]*\r?$", re.IGNORECASE | re.MULTILINE)


def byte_ranges(size: int, task_bytes: int) -> list[ByteRange]:
    """A file of ``size`` bytes cut into ranges of at most ``task_bytes``, all of one size
    but the last, which runs to the end of the file."""
    count = max(1, math.ceil(size / task_bytes))
    step = math.ceil(size / count)
    return [(i * step, (i + 1) * step if i < count - 1 else None) for i in range(count)]


def range_bounds(path: str, start: int, stop: int | None) -> tuple[int | None, int | None]:
    """Where the range's first record starts (None: no record starts in it), and where the
    next range's first record starts (None: the range runs to the end of the file)."""
    until = None if stop is None else _first_record(path, stop, None)
    begin = 0 if start == 0 else _first_record(path, start, until)
    return begin, until


def _first_record(path: str, position: int, until: int | None) -> int | None:
    """The first record that starts at or after ``position`` and before ``until``.

    The scan reads the byte before ``position`` too, so that a WARC line found there
    starts a line."""
    with open_input_at(path, position - 1) as raw:
        return next_record_start(RewindableStream(raw, position - 1, until), position - 1)


def splittable(path: str) -> bool:
    """Whether every record of ``path`` can be found from any byte: an uncompressed WARC,
    or a gzip WARC whose first member holds its first record and nothing more (as each of
    a crawler's members does); not an ARC file, nor a WARC compressed as one stream."""
    with open_input(path) as stream:
        head = stream.read(len(WARC_START))
        if head[: len(GZIP_MAGIC)] != GZIP_MAGIC:
            return head == WARC_START
        return _first_member_is_one_record(stream, head)


def _first_member_is_one_record(stream: BinaryIO, data: bytes) -> bool:
    """Whether the gzip member at the start of the stream (``data``: its bytes read so far)
    inflates to one whole WARC record: its header, its Content-Length and RECORD_END."""
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    head = last = b""
    length: int | None = None  # the first record's, once its header is read
    inflated, read = 0, len(data)
    while not inflater.eof:
        if not data:
            data = stream.read(SCAN_BLOCK) if read < PROBE_BYTES else b""
            read += len(data)
            if not data:  # the member is cut short, or longer than a probe
                return False
        try:
            out = inflater.decompress(data, SCAN_BLOCK)
        except zlib.error:
            return False
        data = inflater.unconsumed_tail
        inflated += len(out)
        last = (last + out)[-len(RECORD_END) :]
        if length is None:
            head = (head + out)[:HEADER_BYTES]
            length = _record_length(head)
            if length is None and len(head) == HEADER_BYTES:
                return False
        if length is not None and inflated > length:  # a second record, or no WARC record at all
            return False
    return inflated == length and last == RECORD_END


def _record_length(head: bytes) -> int | None:
    """The length of the WARC record that ``head`` begins, RECORD_END included; -1 when
    it begins none; None while its header is not whole."""
    header_end = head.find(b"\r\n\r\n")
    if header_end < 0:
        return None
    header = head[: header_end + 4]
    length = _CONTENT_LENGTH.search(header)
    if not header.startswith(WARC_START) or length is None:
        return -1
    return len(header) + int(length.group(1)) + len(RECORD_END)
