"""Pages with a gold main text, as gzip JSON Lines (the format of the dev data).

One JSON object a line: ``id``, ``source``, ``url``, ``lang``, ``html``, ``text`` and,
where present, ``gold_type`` (``full`` or ``snippets``) with ``with``/``without``
snippet lists, ``page_type`` and the site (``domain`` or ``site``). Plain ``.jsonl`` files are read too.

A page may also carry ``peers``, the texts other extractors made of it (extractor
name → text; ``scripts/peer_texts.py`` adds them). Training labels by their agreement
the units that the gold does not decide (weak labels, gold.PeerVotes); a page with
peers and no gold text is ``weak``: it trains, and has nothing to be scored against.

The Dragnet benchmark writes a page's readers' comments after its article, behind a
line of ``!@#$%^&*()  COMMENTS`` (typed by hand: a symbol missing or doubled, the word
misspelt): ``text`` is the article before that line, the main text, and ``comments``
what follows it, which no score counts as main content and training learns as noise.
"""

from __future__ import annotations

import functools
import gzip
import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import fastjsonschema


@dataclass(frozen=True)
class Page:
    id: str
    source: str
    url: str | None
    lang: str
    html: str
    text: str
    gold_type: str = "full"
    with_snippets: tuple[str, ...] = ()
    without_snippets: tuple[str, ...] = ()
    peers: tuple[tuple[str, str], ...] = ()  # (extractor, text) pairs
    page_type: str = ""  # the set's own page kind, where it gives one (WCXB: article, listing, ...)
    site: str = ""  # the site the set names for the page (WCXB: domain; GNE: site), if any
    comments: str = ""  # the readers' comments a gold in Dragnet's form writes after its article

    @property
    def has_full_gold(self) -> bool:
        return self.gold_type == "full"

    @classmethod
    def from_json(cls, row: dict, *, source: str = "") -> Page:
        peers = row.get("peers") or {}
        if not isinstance(peers, dict):
            raise ValueError(f"page {row.get('id')!r}: peers must be an object of extractor name to text")
        text, comments = split_comments(row.get("text") or "")
        return cls(
            id=str(row.get("id", "")),
            source=str(row.get("source") or source),
            url=row.get("url"),
            lang=str(row.get("lang") or ""),
            html=row.get("html") or "",
            text=text,
            gold_type=row.get("gold_type") or ("weak" if peers and not text else "full"),
            with_snippets=tuple(row.get("with") or ()),
            without_snippets=tuple(row.get("without") or ()),
            peers=tuple((str(name), str(peer or "")) for name, peer in peers.items()),
            page_type=str(row.get("page_type") or ""),
            site=str(row.get("domain") or row.get("site") or ""),
            comments=comments,
        )


# Dragnet's line between a page's article and its comments: its symbols, spaced or not,
# and a word in capitals ("COMMENTS"). Four different symbols at least, so that a
# section break of asterisks in an article ("* * * * *") is no such line.
_COMMENTS_LINE = re.compile(r"^[ \t]*((?:[!@#$%^&*()][ \t]*){5,})[A-Z]*[ \t]*$", re.MULTILINE)


def split_comments(text: str) -> tuple[str, str]:
    """A gold text split at Dragnet's comments line: (the article, the comments); a
    text without that line is all article."""
    for line in _COMMENTS_LINE.finditer(text):
        if len(set(line.group(1)) - set(" \t")) >= 4:
            return text[: line.start()].rstrip(), text[line.end() :].strip()
    return text, ""


class DataError(ValueError):
    """Pages that cannot be trained or scored on: a missing file, a line that is not a
    JSON object, a page without its gold text, too few labelled units."""


_STRING = {"type": ["string", "null"], "description": "a string"}
# The schema of a row, for training and evaluation alike (docs/output.md), in JSON
# Schema: other fields are allowed and ignored, a field but ``html`` and ``text`` may be
# null, and the items of a list or an object of strings may not. A page with peers may
# leave out its gold text: its labels come from the peers' agreement. Each field's
# ``description`` names its type in a rejection's reason.
PAGE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "html": {"type": "string", "description": "a string"},
        "text": {"description": "a string"},
        **dict.fromkeys(("id", "source", "url", "lang", "gold_type", "page_type", "domain", "site"), _STRING),
        "with": {"type": ["array", "null"], "items": {"type": "string"}, "description": "a list of strings"},
        "without": {"type": ["array", "null"], "items": {"type": "string"}, "description": "a list of strings"},
        "peers": {"type": ["object", "null"], "additionalProperties": {"type": "string"}, "description": "an object of strings"},
    },
    "required": ["html"],
    "if": {"properties": {"peers": {"type": "object", "minProperties": 1}}, "required": ["peers"]},
    "then": {"properties": {"text": {"type": ["string", "null"]}}},
    "else": {"properties": {"text": {"type": "string"}}, "required": ["text"]},
}


@functools.cache
def _validator() -> Callable[[Any], Any]:
    return fastjsonschema.compile(PAGE_SCHEMA)


def check_row(row: Any) -> str | None:
    """Why a parsed JSON line is no page with gold (``no text``, ``text is null``, ``text
    is not a string``, ...), or None when it fits PAGE_SCHEMA."""
    try:
        _validator()(row)
    except fastjsonschema.JsonSchemaValueException as exc:
        return _reason(exc, row)
    return None


def _reason(exc: fastjsonschema.JsonSchemaValueException, row: Any) -> str:
    """The reason of a rejection in the words of the schema's fields."""
    path = exc.path or ["data"]
    if len(path) == 1:
        if exc.rule == "required":
            return f"no {next(name for name in exc.rule_definition if name not in row)}"
        return "not a JSON object"
    name = str(path[1])
    if len(path) == 2 and exc.value is None:
        return f"{name} is null"
    return f"{name} is not {PAGE_SCHEMA['properties'][name]['description']}"


def read_pages(paths: Iterable[str | Path]) -> Iterator[Page]:
    """Yield the pages of each file in turn; a path may be a file or a directory.

    Every row must fit the schema of :func:`check_row`: a page needs its gold main text,
    ``text`` ("" where nothing is main content), or the texts of other extractors,
    ``peers``. A row that does not fit is a DataError naming it as ``file:line``.
    """
    for path in input_files(paths):
        source = set_name(path)
        for where, row in jsonl_rows(path):
            reason = check_row(row)
            if reason is not None:
                raise DataError(f"{where}: {reason}")
            yield Page.from_json(row, source=source)


def jsonl_rows(path: str | Path) -> Iterator[tuple[str, dict]]:
    """The JSON object of each line of a JSON Lines file (gzip-compressed when its name
    ends in ``.gz``), with where it stands (``file:line``); blank lines are skipped.
    A file that cannot be read, or a line that is not a JSON object, is a DataError."""
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                where = f"{path}:{number}"
                row = json_row(line, where)
                if row is not None:
                    yield where, row
    except (OSError, EOFError) as exc:  # also a .gz that is not gzip, or cut short
        raise DataError(f"{path}: {getattr(exc, 'strerror', None) or exc}") from exc
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 text: {exc.reason} at byte {exc.start}") from exc


def set_name(path: str | Path) -> str:
    """The set a file of pages holds, by its name: ``wcxb_dev`` for ``data/wcxb_dev.jsonl.gz``."""
    return Path(path).name.split(".")[0]


def json_row(line: str | bytes, where: str) -> dict | None:
    """The JSON object of one JSON Lines line (None for a blank line); ``where`` names the line in errors."""
    if not line.strip():
        return None
    try:
        row = json.loads(line)
    except ValueError as exc:  # not JSON, or not UTF-8
        raise DataError(f"{where}: not JSON: {exc}") from exc
    if not isinstance(row, dict):
        raise DataError(f"{where}: not a JSON object")
    return row


def input_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """The files of the arguments: a file as it is, a folder's JSON Lines files by name."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            yield from sorted(p for p in path.iterdir() if p.name.endswith((".jsonl", ".jsonl.gz")))
        else:
            yield path
