"""Pages with a gold main text, as gzip JSON Lines (the format of the dev data).

One JSON object a line: ``id``, ``source``, ``url``, ``lang``, ``html``, ``text`` and,
where present, ``gold_type`` (``full`` or ``snippets``) with ``with``/``without``
snippet lists. Plain ``.jsonl`` files are read too.
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

    @property
    def has_full_gold(self) -> bool:
        return self.gold_type == "full"

    @classmethod
    def from_json(cls, row: dict, *, source: str = "") -> "Page":
        return cls(
            id=str(row.get("id", "")),
            source=str(row.get("source") or source),
            url=row.get("url"),
            lang=str(row.get("lang") or ""),
            html=row.get("html") or "",
            text=row.get("text") or "",
            gold_type=row.get("gold_type") or "full",
            with_snippets=tuple(row.get("with") or ()),
            without_snippets=tuple(row.get("without") or ()),
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
