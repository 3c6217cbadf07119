"""Pages with a gold main text, as gzip JSON Lines (the format of the dev data).

One JSON object a line: ``id``, ``source``, ``url``, ``lang``, ``html``, ``text`` and,
where present, ``gold_type`` (``full`` or ``snippets``) with ``with``/``without``
snippet lists, ``page_type`` and the site (``domain`` or ``site``). Plain ``.jsonl`` files are read too.

A page may also carry ``peers``, the texts other extractors made of it (extractor
name → text; ``scripts/peer_texts.py`` adds them). Training labels by their agreement
the units that the gold does not decide (weak labels, training.PeerVotes); a page with
peers and no gold text is ``weak``: it trains, and has nothing to be scored against.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator


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

    @property
    def has_full_gold(self) -> bool:
        return self.gold_type == "full"

    @classmethod
    def from_json(cls, row: dict, *, source: str = "") -> "Page":
        peers = row.get("peers") or {}
        if not isinstance(peers, dict):
            raise ValueError(f"page {row.get('id')!r}: peers must be an object of extractor name to text")
        text = row.get("text") or ""
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
        )


def read_pages(paths: Iterable[str | Path]) -> Iterator[Page]:
    """Yield the pages of each file in turn; a path may be a file or a directory."""
    for path in _expand(paths):
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise ValueError(f"{path}:{number}: not JSON: {exc}") from exc
                yield Page.from_json(row, source=path.name.split(".")[0])


def _expand(paths: Iterable[str | Path]) -> Iterator[Path]:
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            yield from sorted(p for p in path.iterdir() if p.name.endswith((".jsonl", ".jsonl.gz")))
        else:
            yield path
