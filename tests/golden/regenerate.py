"""Rewrite the expected output of every golden page from the library as it is now.

    python tests/golden/regenerate.py             every page
    python tests/golden/regenerate.py SLUG ...    only these pages

Each page is a directory ``tests/golden/<slug>/`` with ``source.html`` (the page's
bytes, as a crawler would get them: decoding is part of what is tested),
``expected.txt`` (method "svm", the default) and ``expected-paper.txt`` (method
"paper"), both made with the packaged models and the default configuration, and
``checks.json``, written by hand (see tests/test_golden.py). An expected file holds
``Extraction.text`` followed by one newline, or nothing when the text is empty.

After a change to the library, run this and read ``git diff tests/golden``: every
changed line is a change in what webclean extracts, to be accepted or fixed. The
hand-written checks, not this script, say what a correct extraction must do.
"""

from __future__ import annotations

import sys
from pathlib import Path

from webclean.config import Config
from webclean.extract import extract
from webclean.result import Extraction

GOLDEN_DIR = Path(__file__).resolve().parent
EXPECTED = {"svm": "expected.txt", "paper": "expected-paper.txt"}


def pages() -> list[Path]:
    """The page directories, sorted by slug."""
    return sorted(path.parent for path in GOLDEN_DIR.glob("*/source.html"))


def extraction(page: Path, method: str) -> Extraction:
    """The page's extraction with the packaged model and default configuration of ``method``."""
    return extract((page / "source.html").read_bytes(), config=Config(method=method))


def render(page: Path, method: str) -> str:
    """What ``expected*.txt`` holds for the page: the text and a final newline."""
    text = extraction(page, method).text
    return text + "\n" if text else ""


def main(slugs: list[str]) -> int:
    chosen = pages()
    if slugs:
        known = {page.name: page for page in chosen}
        unknown = sorted(set(slugs) - set(known))
        if unknown:
            print(f"regenerate: no golden page {', '.join(unknown)} in {GOLDEN_DIR}", file=sys.stderr)
            return 2
        chosen = [known[slug] for slug in slugs]
    for page in chosen:
        for method, name in EXPECTED.items():
            path = page / name
            new = render(page, method)
            old = path.read_text(encoding="utf-8") if path.exists() else None
            path.write_text(new, encoding="utf-8", newline="\n")
            print(f"{'unchanged' if new == old else 'written  '} {path.relative_to(GOLDEN_DIR)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
