"""Bytes in, text out: tell HTML from other payloads, choose the encoding, decode.

Encoding order (the WHATWG sniffing algorithm that browsers use, with one change):

1. a byte-order mark (UTF-8, UTF-16LE, UTF-16BE). Browsers let a BOM override every
   declaration, and it is a property of the bytes, not a claim about them;
2. the charset of the HTTP ``Content-Type`` header;
3. ``<meta charset>`` / ``<meta http-equiv=Content-Type content="...charset=...">``
   in the first :data:`PRESCAN_BYTES` bytes, then an ``<?xml ... encoding=...?>``;
4. valid UTF-8;
5. statistical detection (charset-normalizer) on a sample, then a last resort.

The change: bytes that are valid UTF-8 and not pure ASCII decode as UTF-8 whatever
2 or 3 declare. Many crawled Chinese pages say gb2312 but are stored as UTF-8, while
real GBK or windows-1252 text of any length is practically never valid UTF-8.
(UTF-16 and ISO-2022-JP declarations are exempt: their text can look like UTF-8.)

Labels map to the WHATWG encodings that browsers support, and only to those, through
the Encoding Standard's table of labels (the ``webencodings`` package), and through
Python's codec names for the few labels that pages write and browsers do not know
(``cp936``, ``euc_kr``): ``gb2312``/``gbk``/``x-gbk``/``gb_2312-80``... decode as GB18030
(a superset), ``iso-8859-1``/``latin1``/``ascii`` as windows-1252, ``big5`` as
Big5-HKSCS, ``shift_jis`` as windows-31J. Unknown and unsafe labels (``utf-7``,
``base64``, ``unicode_escape``) and the Standard's "replacement" ones (``iso-2022-kr``,
``hz-gb-2312``) are ignored, and the next step decides.

Decoding never raises: bytes no candidate decodes cleanly become U+FFFD. NUL
characters are removed from the text (libxml2 mangles them).
"""

from __future__ import annotations

import codecs
import re

import charset_normalizer
import webencodings

from webclean import core

__all__ = [
    "Decoded", "KIND_REASONS", "decode_html", "header_charset", "normalize_charset", "sniff", "PRESCAN_BYTES", "SNIFF_BYTES",
]  # fmt: skip

# WHATWG prescans 1024 bytes; real pages often put long <script>/<style> blocks
# before their <meta>, and a regex over 8 KB costs next to nothing.
PRESCAN_BYTES = 8192
SNIFF_BYTES = 4096
# Detection sees this much, from the first non-ASCII byte on: a page's head is
# ASCII markup and says nothing about the encoding, and detection is slow (~0.3 s/MB).
_DETECT_BYTES = 65536
# A declared charset that leaves at most this share of U+FFFD is kept (a page cut off
# mid-character, a stray byte); above it the declaration is taken to be wrong.
_MAX_REPLACED_SHARE = 0.005
# Pages whose non-ASCII bytes are paired at least this often may be double-byte
# text (dev data: GBK pages >= 0.97; 90 % of windows-1252 pages <= 0.08).
_MIN_PAIRED_SHARE = 0.8
# Among lossy candidates, one worse than this is not worth keeping over windows-1252.
_MAX_LOSSY_SHARE = 0.1
# Control bytes (not TAB/LF/FF/CR/ESC) above this share of the head mean binary.
_MAX_CONTROL_SHARE = 0.1


class Decoded:
    """A decoded page.

    ``encoding`` is the WHATWG name of the encoding used (``utf-8``, ``gb18030``,
    ``windows-1252``, ...). ``source`` says what decided it: ``bom``, ``header``,
    ``meta`` (also an XML declaration), ``utf-8`` (valid UTF-8, also when a
    declaration said otherwise), ``detected``, ``fallback`` or ``empty``.
    ``confident`` is False when the encoding was guessed or bytes were replaced.
    ``utf8``: the page's own bytes where they are valid UTF-8 without a byte-order mark,
    which the parser reads as they are (parse.parse_html) instead of the text encoded
    again; None otherwise. Their ``text`` is decoded from them when first asked for:
    the extraction reads the bytes alone.
    """

    __slots__ = ("_text", "encoding", "confident", "source", "utf8")

    def __init__(self, text: str | None, encoding: str, confident: bool, source: str, utf8: bytes | None = None) -> None:
        if text is None and utf8 is None:
            raise ValueError("a Decoded holds its text, or the UTF-8 bytes it is decoded from")
        self._text, self.encoding, self.confident, self.source, self.utf8 = text, encoding, confident, source, utf8

    @property
    def text(self) -> str:
        if self._text is None:
            assert self.utf8 is not None
            self._text = _utf8_text(self.utf8)
        return self._text

    def _key(self) -> tuple[str, str, bool, str]:
        return self.text, self.encoding, self.confident, self.source

    def __eq__(self, other: object) -> bool:
        return self._key() == other._key() if isinstance(other, Decoded) else NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Decoded(text={self.text[:40]!r}…, encoding={self.encoding!r}, confident={self.confident}, source={self.source!r})"


# The WHATWG encodings decoded here -> the Python codec that implements each. The
# Standard's others are refused: "replacement" (the labels of ISO-2022-KR, ISO-2022-CN
# and HZ, which a browser does not decode) and x-user-defined.
_PY_CODEC: dict[str, str] = {
    "utf-8": "utf-8",
    "utf-16le": "utf-16-le",
    "utf-16be": "utf-16-be",
    "gb18030": "gb18030",
    "big5": "big5hkscs",
    "shift_jis": "cp932",
    "euc-jp": "euc_jp",
    "iso-2022-jp": "iso2022_jp",
    "euc-kr": "cp949",
    "windows-874": "cp874",
    "ibm866": "cp866",
    "koi8-r": "koi8_r",
    "koi8-u": "koi8_u",
    "macintosh": "mac_roman",
    "x-mac-cyrillic": "mac_cyrillic",
    **{f"windows-{n}": f"cp{n}" for n in range(1250, 1259)},
    **{f"iso-8859-{n}": f"iso8859_{n}" for n in (2, 3, 4, 5, 6, 7, 8, 10, 13, 14, 15, 16)},
}
# WHATWG encodings decoded as another: GBK as GB18030, its superset (the Standard's
# GBK decoder is GB18030's); ISO-8859-8-I as ISO-8859-8, the same characters.
_DECODED_AS = {"gbk": "gb18030", "iso-8859-8-i": "iso-8859-8"}
_UTF16 = frozenset({"utf-16le", "utf-16be"})

# Labels outside the Standard that older browsers knew (Internet Explorer, Mozilla).
_OLD_BROWSER_LABELS = {"windows-936": "gb18030", "x-euc-cn": "gb18030"}
# Labels that browsers do not know but Python does, as some pages write them (cp936,
# euc_kr, shift_jis_2004 ...): Python codec -> WHATWG encoding. A codec not reachable
# from here is refused (utf-7, base64, unicode_escape ...).
_WHATWG_OF_CODEC_ALIASES: dict[str, str] = {
    "utf-8-sig": "utf-8",
    "utf-16": "utf-16le",  # WHATWG: the bare label means little-endian
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "big5": "big5",
    "cp950": "big5",
    "shift_jis": "shift_jis",
    "shift_jis_2004": "shift_jis",
    "shift_jisx0213": "shift_jis",
    "euc_jis_2004": "euc-jp",
    "euc_jisx0213": "euc-jp",
    "euc_kr": "euc-kr",
    # Browsers decode these as windows-1252; so must we, or the curly quotes and
    # dashes in 0x80-0x9F turn into C1 control characters.
    "ascii": "windows-1252",
    "latin_1": "windows-1252",
    "iso8859_9": "windows-1254",
    "iso8859_11": "windows-874",
    "tis_620": "windows-874",
    **{py: name for name, py in _PY_CODEC.items()},
}


def _by_canonical_codec(table: dict[str, str]) -> dict[str, str]:
    """Key by codecs.lookup(...).name, which is what any alias resolves to."""
    return {codecs.lookup(py).name: name for py, name in table.items()}


_WHATWG_OF_CODEC = _by_canonical_codec(_WHATWG_OF_CODEC_ALIASES)

_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16le"),
    (codecs.BOM_UTF16_BE, "utf-16be"),
)

_CHARSET_LABEL = rb"[\"']?\s*([A-Za-z0-9_.:+-]{1,40})"
# One pattern for both <meta charset=x> and <meta http-equiv content="...; charset=x">.
_META_CHARSET = re.compile(rb"<meta\s[^>]*?charset\s*=\s*" + _CHARSET_LABEL, re.I)
_XML_ENCODING = re.compile(rb"\A\s*<\?xml\s[^>]*?encoding\s*=\s*" + _CHARSET_LABEL, re.I)
_HEADER_CHARSET = re.compile(r"charset\s*=\s*[\"']?\s*([^\"';,\s]+)", re.I)
_NON_ASCII = re.compile(rb"[\x80-\xff]")
_NON_ASCII_RUN = re.compile(rb"[\x80-\xff]{2,}")
_MULTI_BYTE = frozenset({"gb18030", "big5", "shift_jis", "euc-jp", "euc-kr"})


def normalize_charset(label: str | None) -> str | None:
    """Map a charset label to the WHATWG encoding decoded for it; None if unknown or unsafe.

    The label is looked up in the Encoding Standard's table (webencodings), then, for
    the names browsers do not know, among Python's codecs.
    """
    if not label:
        return None
    key = label.strip().strip("\"'").strip().lower()
    if not key or len(key) > 40:
        return None
    encoding = webencodings.lookup(key)
    if encoding is not None:
        name = _DECODED_AS.get(encoding.name, encoding.name)
        return name if name in _PY_CODEC else None
    if key in _OLD_BROWSER_LABELS:
        return _OLD_BROWSER_LABELS[key]
    try:
        codec = codecs.lookup(key).name
    except (LookupError, ValueError):  # ValueError: an embedded NUL
        return None
    return _WHATWG_OF_CODEC.get(codec)


def decode_html(data: bytes, http_charset: str | None = None) -> Decoded:
    """Decode a page's bytes; see the module docstring for the order. Never raises.

    ``http_charset`` is the charset from the HTTP header, or the whole
    ``Content-Type`` value (``text/html; charset=gb2312``).
    """
    if not data:
        return Decoded("", "utf-8", True, "empty")
    bom = _bom(data)
    if bom is not None:
        name, size = bom
        return _decode_lossy(data[size:], name, "bom")
    utf8, text = _is_utf8(data)
    declared = _declarations(data, http_charset)
    for source, name in declared:
        if name in _UTF16:
            found = _decode_utf16_declared(data, name, source)
        elif utf8 and (name == "utf-8" or not data.isascii()):
            # Valid UTF-8 beats a declared legacy charset (module docstring).
            return Decoded(text, "utf-8", True, source if name == "utf-8" else "utf-8", data)
        else:
            found = _decode_declared(data, name, source)
        if found is not None:
            return found
    if utf8:
        return Decoded(text, "utf-8", True, "utf-8", data)
    return _guess(data, [name for _, name in declared])


def _result(text: str, name: str, confident: bool, source: str) -> Decoded:
    if "\x00" in text:
        text = text.replace("\x00", "")
    return Decoded(text, name, confident, source)


def _is_utf8(data: bytes) -> tuple[bool, str | None]:
    """Whether the bytes are UTF-8 (_strict), and their text (_utf8_text) where it was
    made to tell: the compiled core tells a valid page without making it."""
    if core.compiled is not None and core.compiled.valid_utf8(data):
        return True, None
    text = _strict(data, "utf-8")
    return text is not None, None if text is None else _without_nul(data, text)


def _utf8_text(data: bytes) -> str:
    """The text of bytes that _is_utf8 takes for UTF-8."""
    text = _strict(data, "utf-8")
    if text is None:
        raise ValueError("the bytes are no UTF-8")
    return _without_nul(data, text)


def _without_nul(data: bytes, text: str) -> str:
    # A NUL is the same byte in both, and found in the bytes many times faster than in a
    # text of wide characters.
    return text.replace("\x00", "") if b"\x00" in data else text


def _bom(data: bytes) -> tuple[str, int] | None:
    for mark, name in _BOMS:
        if data.startswith(mark):
            return name, len(mark)
    return None


def _declarations(data: bytes, http_charset: str | None) -> list[tuple[str, str]]:
    """Known declared encodings in priority order, each with where it came from."""
    found: list[tuple[str, str]] = []
    header = normalize_charset(_header_label(http_charset))
    if header is not None:
        found.append(("header", header))
    head = data[:PRESCAN_BYTES]
    for pattern in (_META_CHARSET, _XML_ENCODING):
        match = pattern.search(head)
        name = normalize_charset(match.group(1).decode("ascii")) if match else None
        if name is not None:
            # A <meta> that ASCII-compatible bytes could be read from cannot be
            # UTF-16; WHATWG reads such a declaration as UTF-8.
            found.append(("meta", "utf-8" if name in _UTF16 else name))
    return found


def header_charset(content_type: str | None) -> str | None:
    """The charset parameter of a ``Content-Type`` value, as written; None without one."""
    match = _HEADER_CHARSET.search(content_type or "")
    return match.group(1) if match else None


def _header_label(value: str | None) -> str | None:
    """Accept either a bare charset or a whole Content-Type value."""
    if not value:
        return None
    if "=" in value or ";" in value:
        return header_charset(value)
    return None if "/" in value else value  # "text/html" alone names no charset


def _strict(data: bytes, codec: str) -> str | None:
    """Decode without loss, forgiving a character cut off at the very end (truncated
    crawl records); None if the bytes are not in this encoding."""
    try:
        return data.decode(codec)
    except UnicodeDecodeError as err:
        if err.end < len(data) or len(data) - err.start > 4:
            return None
        try:
            return data[: err.start].decode(codec)
        except UnicodeDecodeError:
            return None


def _decode_declared(data: bytes, name: str, source: str) -> Decoded | None:
    """Decode with a declared encoding; None when it is evidently wrong."""
    codec = _PY_CODEC[name]
    text = _strict(data, codec)
    if text is not None:
        return _result(text, name, True, source)
    text = data.decode(codec, "replace")
    if text.count("\ufffd") <= _MAX_REPLACED_SHARE * len(text):
        return _result(text, name, False, source)
    return None


def _decode_utf16_declared(data: bytes, name: str, source: str) -> Decoded | None:
    # ASCII markup in UTF-16 is half NUL bytes; without any, the header is wrong.
    if b"\x00" not in data[:SNIFF_BYTES]:
        return None
    return _decode_declared(data, name, source)


def _decode_lossy(data: bytes, name: str, source: str) -> Decoded:
    text = _strict(data, _PY_CODEC[name])
    if text is not None:
        return _result(text, name, True, source)
    return _result(data.decode(_PY_CODEC[name], "replace"), name, False, source)


def _guess(data: bytes, declared: list[str]) -> Decoded:
    """No clean decoding: try detection, then the declarations and UTF-8 with loss,
    and keep the candidate that loses least; windows-1252 when all lose a lot."""
    detected = _detect(data)
    candidates = ([("detected", detected)] if detected else []) + [("fallback", n) for n in (*declared, "utf-8")]
    best: tuple[float, str, str, str] | None = None
    for source, name in candidates:
        text = data.decode(_PY_CODEC[name], "replace")
        share = text.count("\ufffd") / max(len(text), 1)
        if share <= _MAX_REPLACED_SHARE:
            return _result(text, name, False, source)
        if best is None or share < best[0]:
            best = (share, text, name, source)
    if best is not None and best[0] <= _MAX_LOSSY_SHARE:
        return _result(best[1], best[2], False, best[3])
    return _result(data.decode("cp1252", "replace"), "windows-1252", False, "fallback")


def _detect(data: bytes) -> str | None:
    """charset-normalizer on a sample; None if it finds nothing we support."""
    sample = _detection_sample(data)
    name = _best_supported(charset_normalizer.from_bytes(sample))
    if name in _MULTI_BYTE or _paired_share(sample) < _MIN_PAIRED_SHARE:
        return name
    # Bytes that come in pairs, yet a single-byte answer: charset-normalizer drops
    # the right multi-byte encoding when its chunks happen to cut characters in
    # half (2 of 128 undeclared GBK dev pages came out as ISO-8859-5). Retry with
    # other chunk boundaries and trust a multi-byte answer.
    for retry, chunk_size in ((data[:_DETECT_BYTES], 512), (sample, 1024)):
        other = _best_supported(charset_normalizer.from_bytes(retry, chunk_size=chunk_size))
        if other in _MULTI_BYTE:
            return other
    return name


def _best_supported(results: charset_normalizer.CharsetMatches) -> str | None:
    best = results.best()
    if best is None:
        return None
    # cp1250/cp1252/cp1257 often tie on Western text; browsers default to 1252.
    for match in results:
        if match.chaos <= best.chaos and "cp1252" in (match.encoding, *match.could_be_from_charset):
            return "windows-1252"
    for match in results:
        name = normalize_charset(match.encoding)
        if name is not None and name not in _UTF16:
            return name
    return None


def _paired_share(sample: bytes) -> float:
    """Share of non-ASCII bytes next to another: near 1 for CJK (and Cyrillic,
    Greek), near 0 for accented Latin."""
    high = len(_NON_ASCII.findall(sample))
    return sum(map(len, _NON_ASCII_RUN.findall(sample))) / max(high, 1)


def _detection_sample(data: bytes) -> bytes:
    first = _NON_ASCII.search(data)
    start = first.start() if first else 0
    sample = data[start : start + _DETECT_BYTES]
    if len(sample) < _DETECT_BYTES:
        return sample
    # End after '\n' or '<': no multi-byte encoding uses them as trail bytes, so the
    # last character is never cut in half (which would disqualify the right answer).
    cut = max(sample.rfind(b"\n"), sample.rfind(b"<"))
    return sample[: cut + 1] if cut > _DETECT_BYTES // 2 else sample


# --- sniff -------------------------------------------------------------------------

_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "image"),
    (b"\xff\xd8\xff", "image"),
    (b"GIF87a", "image"),
    (b"GIF89a", "image"),
    (b"II*\x00", "image"),
    (b"MM\x00*", "image"),
    (b"\x00\x00\x01\x00", "image"),  # .ico
    (b"PK\x03\x04", "archive"),  # zip, also docx/xlsx/epub/jar
    (b"PK\x05\x06", "archive"),
    (b"\x1f\x8b", "archive"),  # gzip: a body that was never decompressed
    (b"BZh", "archive"),
    (b"\xfd7zXZ\x00", "archive"),
    (b"7z\xbc\xaf\x27\x1c", "archive"),
    (b"Rar!\x1a\x07", "archive"),
    (b"\x28\xb5\x2f\xfd", "archive"),  # zstd
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "binary"),  # old MS Office
    (b"\x7fELF", "binary"),
    (b"OggS", "binary"),
    (b"fLaC", "binary"),
    (b"ID3", "binary"),
    (b"\x1a\x45\xdf\xa3", "binary"),  # webm/mkv
    (b"wOFF", "binary"),
    (b"wOF2", "binary"),
)
# Bytes that never occur in text: C0 controls except TAB, LF, FF, CR and ESC (ESC
# starts ISO-2022-JP shifts), plus DEL.
_CONTROL_BYTES = bytes([*range(0x00, 0x09), 0x0B, *range(0x0E, 0x1B), *range(0x1C, 0x20), 0x7F])
_NOT_CONTROL = bytes(b for b in range(256) if b not in _CONTROL_BYTES)
# A tag-like "<x", "</x", "<!--", "<!doctype" or "<?xml": in bytes, and in UTF-16 text.
_TAG_LIKE_TEXT = re.compile(r"<(?:[a-z][a-z0-9:-]*[\s/>]|/[a-z]|!--|!doctype|\?xml)", re.I)
_TAG_LIKE = re.compile(_TAG_LIKE_TEXT.pattern.encode("ascii"), re.I)


def sniff(data: bytes) -> str:
    """Say what a payload is from its first :data:`SNIFF_BYTES` bytes.

    Returns ``"html"``, or why it is not: ``"empty"`` (nothing but whitespace),
    ``"pdf"``, ``"image"``, ``"archive"`` (zip, gzip, ...: also a body still
    content-encoded), ``"binary"`` (other magic numbers, or over 10 % control bytes)
    or ``"text"`` (no tag-like ``<x``, ``</x``, ``<!--``, ``<!doctype`` or ``<?xml``
    in the head, and readable as text; bytes that are not are ``"binary"``). Any
    markup-like head counts as HTML, XML feeds and SVG included: the parser copes
    with them and extraction then finds what it finds. Pages whose
    first tag comes after 4 KB of plain text count as text.
    """
    head = data[:SNIFF_BYTES]
    if not head.strip():  # rare: look past leading whitespace, at the cost of a copy
        data = data.lstrip()
        if not data:
            return "empty"
        head = data[:SNIFF_BYTES]
    if b"%PDF-" in head[:1024]:  # PDF allows junk before the header
        return "pdf"
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP":
        return "image"
    for magic, kind in _MAGIC:
        if head.startswith(magic):
            return kind
    bom = _bom(head)
    if bom is not None and bom[0] in _UTF16:
        text = head[bom[1] :].decode(_PY_CODEC[bom[0]], "replace")
        return "html" if _TAG_LIKE_TEXT.search(text) else "text"
    if len(head.translate(None, _NOT_CONTROL)) > _MAX_CONTROL_SHARE * len(head):
        return "binary"
    return "html" if _TAG_LIKE.search(head) else _plain_kind(head)


def _plain_kind(head: bytes) -> str:
    """Bytes without markup: ``"text"`` when they read as text in some encoding,
    ``"binary"`` when they do not (random bytes, a format whose magic number is not
    listed). Text has no control bytes; non-UTF-8 bytes go to charset-normalizer,
    which finds no encoding for bytes that are not text (rare bodies: the cost is small)."""
    if head.translate(None, _NOT_CONTROL):
        return "binary"
    if head.isascii() or _strict(head, "utf-8") is not None:
        return "text"
    return "text" if charset_normalizer.from_bytes(head).best() is not None else "binary"


# What each kind of :func:`sniff` is, for the reason of a page that is not HTML.
KIND_REASONS = {
    "empty": "empty body",
    "text": "plain text without markup",
    "pdf": "a PDF document",
    "image": "an image",
    "archive": "compressed or archived data (zip, gzip, ...)",
    "binary": "binary data",
}
