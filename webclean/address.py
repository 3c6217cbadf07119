"""The address of a page read from an HTML file, which names none: the absolute link
of its ``<link rel="canonical">``, else the file's own URI.

The extract job (HTML dumps) and ``webclean extract`` both name a page so
(docs/output.md, column ``url``).
"""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path
from urllib.parse import urlparse

# The canonical link is looked for in the page's first bytes, where its head is.
CANONICAL_SCAN_BYTES = 64 << 10
_LINK_TAG = re.compile(rb"<link\b[^>]*>", re.IGNORECASE)
_ATTRIBUTE = re.compile(rb"""([^\s=/>]+)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)""")


def page_address(html: bytes, path: str | None) -> str | None:
    """The page's canonical link, else the URI of its file ``path``; None for a page
    with neither (read from standard input)."""
    return canonical_link(html) or (file_uri(path) if path is not None else None)


def file_uri(path: str) -> str:
    """A local path as a ``file://`` URI (``?`` and spaces quoted); a remote one as it is."""
    return path if "://" in path else Path(path).absolute().as_uri()


def canonical_link(html: bytes) -> str | None:
    """The absolute http(s) URL of the page's ``<link rel="canonical">``, if its head has one.

    Read from the bytes, before the page is decoded and parsed: the link is ASCII in
    every encoding a page declares in its head. A relative link is not taken: its
    base would be the file, not the site.
    """
    for tag in _LINK_TAG.finditer(html, 0, CANONICAL_SCAN_BYTES):
        attributes = {name.lower(): value.strip(b"\"'") for name, value in _ATTRIBUTE.findall(tag.group())}
        if b"canonical" not in attributes.get(b"rel", b"").lower().split():
            continue
        try:
            href = unescape(attributes.get(b"href", b"").decode("utf-8")).strip()
        except UnicodeDecodeError:
            return None
        parts = urlparse(href)
        return href if parts.scheme in ("http", "https") and parts.netloc else None
    return None
