"""How often ``lang`` names a dev page's known language, set by set.

    python benchmarks/language.py --data ../shared/data/*.jsonl.gz [--limit N] [--jobs 2]

Each page (its HTML, as the dev data holds it) goes through ``webclean.extract`` with
the default configuration; its ``lang`` (detected in the extracted text when that is
long enough, else the declared one) and its ``lang_declared`` (``<html lang>``) are
compared with the page's ``lang`` field. A page without a language counts as wrong.
Columns:

- ``lang``: the share of pages whose ``lang`` is the known language;
- ``detected``: the share whose ``lang`` was detected (text of at least
  ``language.min_chars`` characters), and the accuracy on those;
- ``declared``: the share of pages that declare a language, and the accuracy of
  ``lang_declared`` over all pages (what ``lang`` was before detection);
- ``on the gold``: the detector alone on the first ``language.prefix_chars`` of the gold
  text, where it has ``min_chars``: the detector alone, without the extraction's errors.

Prints a Markdown table (docs/quality.md, "Language detection").
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

# Run as a script: use webclean as installed or on PYTHONPATH, else the tree above.
ROOT = Path(__file__).resolve().parents[1]
if importlib.util.find_spec("webclean") is None:
    sys.path.insert(0, str(ROOT))

from webclean.datasets import Page, read_pages  # noqa: E402
from webclean.extract import extract  # noqa: E402
from webclean.language import detect_language  # noqa: E402


@dataclass(frozen=True)
class Outcome:
    """One page: its known language and what webclean said."""

    known: str
    lang: str | None
    declared: str | None
    detected: bool
    on_gold: str | None  # the detector on the gold text; None when it is too short


def outcome(page: Page) -> Outcome:
    result = extract(page.html, page.url)
    detected = detect_language(result.text)
    return Outcome(
        known=page.lang.lower(),
        lang=result.lang,
        declared=result.lang_declared,
        detected=detected is not None,
        on_gold=detect_language(page.text),
    )


def row(name: str, outcomes: Sequence[Outcome]) -> str:
    n = len(outcomes)
    right = sum(o.lang == o.known for o in outcomes)
    detected = [o for o in outcomes if o.detected]
    detected_right = sum(o.lang == o.known for o in detected)
    declaring = sum(o.declared is not None for o in outcomes)
    declared_right = sum(o.declared == o.known for o in outcomes)
    gold = [o for o in outcomes if o.on_gold is not None]
    gold_right = sum(o.on_gold == o.known for o in gold)
    return (
        f"| {name} | {n} | {_share(right, n)} | {_share(len(detected), n)}, {_share(detected_right, len(detected))} | "
        f"{_share(declaring, n)}, {_share(declared_right, n)} | {_share(gold_right, len(gold))} of {len(gold)} |"
    )


def _share(part: int, whole: int) -> str:
    return f"{part / whole:.3f}" if whole else "–"


def pages_of(path: Path, limit: int | None) -> list[Page]:
    pages = []
    for page in read_pages([path]):
        if page.lang:
            pages.append(page)
        if limit and len(pages) >= limit:
            break
    return pages


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", nargs="+", type=Path, required=True, metavar="FILE", help="gzip JSON Lines of dev pages")
    parser.add_argument("--limit", type=int, help="at most this many pages a set")
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    args = parser.parse_args(list(argv) if argv is not None else None)

    print("| set | pages | `lang` right | detected, right of those | declared, `lang_declared` right | the detector on the gold |")
    print("|---|---:|---:|---:|---:|---:|")
    everything: list[Outcome] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for path in args.data:
            outcomes = list(pool.map(outcome, pages_of(path, args.limit), chunksize=8))
            everything += outcomes
            print(row(path.name.split(".")[0], outcomes), flush=True)
    print(row("all", everything))
    return 0


if __name__ == "__main__":
    sys.exit(main())
