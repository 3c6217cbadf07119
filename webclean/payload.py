"""An HTTP payload as a browser would see it: the chunked transfer coding and the content
codings (gzip, deflate) undone, under a byte cap, so that a zip bomb or a 2 GB video
costs at most ``max_bytes`` of memory.
"""

from __future__ import annotations

import re
import zlib
from typing import NamedTuple

from webclean.result import Status

_CHUNK_SIZE = re.compile(rb"[0-9A-Fa-f]+")


class Payload(NamedTuple):
    """A decoded body, or the status that says why there is none; ``length`` is as stored."""

    body: bytes
    length: int
    status: str | None = None
    error: str | None = None


def decode_payload(
    raw: bytes, *, transfer_encoding: str | None, content_encoding: str | None, max_bytes: int
) -> Payload:
    """Undo the chunked transfer coding, then the content codings, the last applied first."""
    body = dechunk(raw) if _tokens(transfer_encoding)[-1:] == ["chunked"] else raw
    for coding in reversed(_tokens(content_encoding)):
        try:
            body = _decompress(body, coding, max_bytes)
        except zlib.error as exc:
            return Payload(b"", len(raw), Status.DECODE_ERROR, f"Content-Encoding {coding}: {exc}")
        except _Unsupported:
            return Payload(b"", len(raw), Status.DECODE_ERROR, f"unsupported Content-Encoding {coding}")
        except _TooLarge:
            return Payload(b"", len(raw), Status.TOO_LARGE, f"{coding} body inflates over limits.max_bytes = {max_bytes}")
    return Payload(body, len(raw))


def dechunk(raw: bytes) -> bytes:
    """Join the chunks of a chunked body; a body that does not parse as chunks is kept as it is.

    Some crawlers remove the chunking but keep the header, so a first line that is no
    chunk size means the body was already plain. A body cut inside a chunk keeps the
    part that arrived, as a browser would show it.
    """
    parts: list[bytes] = []
    position = 0
    while position < len(raw):
        line_end = raw.find(b"\r\n", position)
        size_text = raw[position:line_end].split(b";", 1)[0].strip() if line_end >= 0 else b""
        if not _CHUNK_SIZE.fullmatch(size_text):
            return b"".join(parts) if parts else raw
        size = int(size_text, 16)
        if size == 0:
            break
        start = line_end + 2
        parts.append(raw[start : start + size])
        position = start + size + 2
    return b"".join(parts)


class _TooLarge(Exception):
    pass


class _Unsupported(Exception):
    pass


def _decompress(body: bytes, coding: str, max_bytes: int) -> bytes:
    if coding in ("identity", "none"):
        return body
    if coding in ("gzip", "x-gzip"):
        # Crawlers that store the decoded body often keep the header: no gzip magic, no gzip.
        return _inflate(body, 16 + zlib.MAX_WBITS, max_bytes) if body[:2] == b"\x1f\x8b" else body
    if coding == "deflate":
        # "deflate" should be zlib-wrapped, but many servers send raw deflate data.
        try:
            return _inflate(body, zlib.MAX_WBITS, max_bytes)
        except zlib.error:
            return _inflate(body, -zlib.MAX_WBITS, max_bytes)
    raise _Unsupported(coding)


def _inflate(body: bytes, wbits: int, max_bytes: int) -> bytes:
    """Inflate at most max_bytes; a stream cut short keeps what it decoded, as browsers do."""
    inflater = zlib.decompressobj(wbits)
    out = inflater.decompress(body, max_bytes + 1)
    if len(out) > max_bytes:
        raise _TooLarge
    return out


def _tokens(header: str | None) -> list[str]:
    return [t.strip().lower() for t in (header or "").split(",") if t.strip()]
