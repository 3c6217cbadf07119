"""The value every extraction returns, whatever happened to the page."""

from __future__ import annotations

import sys
from dataclasses import dataclass

if sys.version_info >= (3, 11):
    from enum import StrEnum
else:  # pragma: no cover - exercised only on Python 3.10
    from enum import Enum

    class StrEnum(str, Enum):
        """Python 3.11's enum.StrEnum: a member is its value, in str() too."""

        def __str__(self) -> str:
            return str.__str__(self)


class Status(StrEnum):
    """Why a page has the text it has. Every input gets exactly one.

    A member is its string (``Status.OK == "ok"``), as it is written to the output;
    ``set(Status)`` holds them all.
    """

    OK = "ok"
    EMPTY = "empty"  # parsed, but no main text was found
    NOT_HTML = "not_html"  # binary, PDF, image or plain non-markup bytes
    DECODE_ERROR = "decode_error"
    TOO_LARGE = "too_large"  # over limits.max_bytes
    PARSE_ERROR = "parse_error"
    TIMEOUT = "timeout"  # over limits.timeout_seconds
    ERROR = "error"  # an unexpected failure, with its reason in ``error``
    TRUNCATED = "truncated"  # a crawl file that could not be read to the end (one row per file)
    DAMAGED = "damaged"  # a record of a crawl file that could not be read, skipped to the next one
    # An extraction whose confidence is under the job's --min-confidence: its text is kept.
    LOW_CONFIDENCE = "low_confidence"


@dataclass(frozen=True)
class Extraction:
    """The main text of one page and what happened on the way.

    ``text`` holds paragraphs separated by newlines, in document order.
    ``block_path`` is the XPath-like path of the located content block (Step 1).
    """

    text: str
    title: str
    status: Status
    error: str | None = None
    block_path: str | None = None
    encoding: str | None = None
    lang: str | None = None  # detected in the text when it is long enough, else lang_declared
    method: str = "paper"
    published: str | None = None  # ISO 8601, where the page gives a time of publication
    source: str | None = None  # the publisher or news agency the page names
    lang_declared: str | None = None  # the page's <html lang>
    # The kind of page (config.PAGE_TYPES: article, listing, forum, ...) and the page type
    # model's probability of it; None where the method or the model has no page type model.
    page_type: str | None = None
    page_type_probability: float | None = None
    # The token F1 the model expects the extraction to reach on the page, in [0, 1]; None
    # where the method or the model has no confidence model.
    confidence: float | None = None

    @property
    def ok(self) -> bool:
        return self.status == Status.OK

    @classmethod
    def failed(cls, status: Status, error: str, *, method: str = "paper", encoding: str | None = None) -> Extraction:
        return cls(text="", title="", status=status, error=error, method=method, encoding=encoding)

    def to_dict(self) -> dict[str, object]:
        return {
            "text": self.text,
            "title": self.title,
            "status": self.status,
            "error": self.error,
            "block_path": self.block_path,
            "encoding": self.encoding,
            "lang": self.lang,
            "lang_declared": self.lang_declared,
            "method": self.method,
            "published": self.published,
            "source": self.source,
            "page_type": self.page_type,
            "page_type_probability": self.page_type_probability,
            "confidence": self.confidence,
        }
