"""The language of a page: detected in its main text, or as its markup declares it.

A result's ``lang`` is the language that py3langid detects in the extracted text when
the text is long enough to tell, else the declared one (``<html lang>``), which stays
in ``lang_declared`` either way. py3langid ships its model inside its package: nothing
is downloaded, and the model loads once a process, on the first text detected.
benchmarks/language.py measures the accuracy on the dev sets (docs/quality.md,
"Language detection").
"""

from __future__ import annotations

import re

from lxml import etree

__all__ = ["MIN_CHARS", "PREFIX_CHARS", "declared_language", "detect_language", "page_language"]

# Detection reads at most this much of the text, so that its cost (about linear in the
# text) does not grow with the page; 400 characters are as accurate as 1,000.
PREFIX_CHARS = 400
# A shorter text keeps the declared language: on the dev sets' gold texts, py3langid was
# right on 93-100 % of the texts cut to 100 characters, and on 95-100 % at 200.
MIN_CHARS = 200

_LANG_RE = re.compile(r"^[a-zA-Z]{2,3}")


def declared_language(root: etree._Element) -> str | None:
    """The primary subtag of ``<html lang>`` (or ``xml:lang``), lower-cased; None when absent."""
    declared = _LANG_RE.match(root.get("lang") or root.get("xml:lang") or "")
    return declared.group(0).lower() if declared else None


def detect_language(text: str) -> str | None:
    """The ISO 639-1 code py3langid gives the start of ``text``; None for a text under MIN_CHARS."""
    sample = text[:PREFIX_CHARS]
    if len(sample.strip()) < MIN_CHARS:
        return None
    import py3langid  # on first use: it loads numpy and, on its first call, its model

    return str(py3langid.classify(sample)[0])


def page_language(text: str, declared: str | None) -> str | None:
    """``lang``: detected in the text when it is long enough, else the declared language."""
    return detect_language(text) or declared
