"""The language of a page: detected in its main text, or as its markup declares it.

A result's ``lang`` is the language that CLD2 (Google's Compact Language Detector 2,
through pycld2) detects in the extracted text when the text is long enough to tell,
else the declared one (``<html lang>``), which stays in ``lang_declared`` either way.
CLD2's model is compiled into its extension: nothing is downloaded or loaded, and a
page's text is read in tens of microseconds. benchmarks/language.py measures the
accuracy on the dev sets (docs/quality.md, "Language detection").
"""

from __future__ import annotations

import re

import pycld2
from lxml import etree

from webclean.config import LanguageConfig

__all__ = ["declared_language", "detect_language", "page_language"]

# Detection reads at most ``prefix_chars`` of the text (config.LanguageConfig), so that
# its cost (about linear in the text) does not grow with the page; 400 characters are as
# accurate as 1,000. A text under ``min_chars`` keeps the declared language: on the dev
# sets' gold texts, the detector was right on 93-100 % of the texts cut to 100
# characters, and on 95-100 % at 200.
_DEFAULT = LanguageConfig()

_LANG_RE = re.compile(r"^[a-zA-Z]{2,3}")
# What CLD2 refuses as UTF-8 (it raises on the whole text): C0 and C1 controls,
# surrogates and noncharacters.
_UNREADABLE_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]")
# CLD2's codes where ISO 639-1 has another: Hebrew and Javanese.
_ISO_639_1 = {"iw": "he", "jw": "jv"}


def declared_language(root: etree._Element) -> str | None:
    """The primary subtag of ``<html lang>`` (or ``xml:lang``), lower-cased; None when absent."""
    declared = _LANG_RE.match(root.get("lang") or root.get("xml:lang") or "")
    return declared.group(0).lower() if declared else None


def detect_language(text: str, settings: LanguageConfig = _DEFAULT) -> str | None:
    """The language CLD2 finds in the first ``settings.prefix_chars`` of ``text``, as its
    primary subtag (an ISO 639-1 code where the language has one: "zh" for Chinese in
    either script); None for a text under ``min_chars``, or one whose language CLD2
    cannot tell."""
    sample = text[: settings.prefix_chars]
    if len(sample.strip()) < settings.min_chars:
        return None
    try:
        # isPlainText: the text is no HTML, whose tags CLD2 would skip (from a "<" on, the rest);
        # bestEffort: an answer for a short or mixed text too, where CLD2 would say "unknown".
        best = pycld2.detect(_UNREADABLE_RE.sub("", sample), isPlainText=True, bestEffort=True)[2][0][1]
    except pycld2.error:
        return None
    # "un" and "xxx" are no language, "xx-Latn" and the like a script alone, "zz…" CLD2's test languages.
    if best in ("un", "xxx") or best.startswith(("xx-", "zz")):
        return None
    primary = best.split("-")[0]
    return _ISO_639_1.get(primary, primary)


def page_language(text: str, declared: str | None, settings: LanguageConfig = _DEFAULT) -> str | None:
    """``lang``: detected in the text when it is long enough, else the declared language."""
    return detect_language(text, settings) or declared
