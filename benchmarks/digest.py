"""A digest of what webclean extracts from every page of some sets: compare two
versions of the code, when a change must leave every extraction as it was.

    python benchmarks/digest.py --data ../shared/data/*.jsonl.gz [--out digest.json]
    python benchmarks/digest.py --data ... --against digest.json

Each page's extraction (text, status, title, block path, language, metadata) with the
packaged model and the default configuration is hashed; with ``--against`` the pages
whose hash differs from the saved digest are listed and the exit status is 1.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from webclean.datasets import read_pages  # noqa: E402
from webclean.extract import extract  # noqa: E402


def page_digest(html: str, url: str | None) -> str:
    e = extract(html, url)
    fields = [e.text, str(e.status), e.title, e.block_path, e.lang, e.published, e.source, e.error]
    return hashlib.sha256(json.dumps(fields, default=str).encode("utf-8")).hexdigest()[:16]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", nargs="+", required=True)
    parser.add_argument("--out", help="write the digest here (JSON: page id -> hash)")
    parser.add_argument("--against", help="a digest written before: list the pages that differ")
    args = parser.parse_args(argv)
    digest = {f"{page.source}/{page.id}": page_digest(page.html, page.url) for page in read_pages(args.data)}
    if args.out:
        Path(args.out).write_text(json.dumps(digest, indent=0, sort_keys=True))
    print(f"{len(digest)} pages")
    if not args.against:
        return 0
    before = json.loads(Path(args.against).read_text())
    differ = sorted(k for k in before.keys() | digest.keys() if before.get(k) != digest.get(k))
    for key in differ:
        print(f"differs: {key}")
    print(f"{len(differ)} of {len(before.keys() | digest.keys())} pages differ")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
