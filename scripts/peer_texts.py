"""Add other extractors' texts to pages, for weak labels in training.

    python scripts/peer_texts.py --input pages.jsonl.gz crawl.warc.gz ... --output weak.jsonl.gz \\
        [--extractors trafilatura,readability,resiliparse,justext] [--jobs 2] [--limit N] [--batch 200]

Each page gets a ``peers`` object, extractor name → the text it extracted (an empty
text where it failed or found nothing). ``webclean train --input weak.jsonl.gz`` (and
the Spark training job) then labels the units that a page's gold does not decide by
the agreement of those texts (``[weak]`` in conf/webclean.toml, gold.PeerVotes):
pages with a snippet gold get labels for their other units, pages without any gold
(from a WARC, or JSON Lines without ``text``) train on the peers' agreement alone.

Input: JSON Lines of pages (the dev data's format; every field is kept) or WARC
files, whose HTML responses are decoded as the extract job decodes them. The peers
are the benchmark's adapters (benchmarks/extractors.py), installed with the ``peers``
extra; the library never imports them. Pages are read, extracted and written a batch
at a time, so a night's crawl does not have to fit in memory.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import nullcontext
from itertools import islice
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.extractors import BUILDERS, PEERS, available, quiet  # noqa: E402
from webclean.datasets import Page, jsonl_rows, set_name  # noqa: E402
from webclean.decode import decode_html  # noqa: E402
from webclean.warc import WarcPage, iter_warc  # noqa: E402

DEFAULT_PEERS = ("trafilatura", "readability", "resiliparse", "justext")
_HTML_TYPES = ("text/html", "application/xhtml+xml")


def read_rows(paths: Sequence[str], limit: int | None) -> Iterator[dict]:
    """The pages of every input as JSON rows, at most ``limit`` from each file."""
    for path in paths:
        source = set_name(path)
        reader = _warc_rows(path, source) if ".warc" in Path(path).name else _json_rows(path, source)
        yield from islice(reader, limit)


def batches(rows: Iterable[dict], size: int) -> Iterator[list[dict]]:
    rows = iter(rows)
    while batch := list(islice(rows, size)):
        yield batch


def _json_rows(path: str, source: str) -> Iterator[dict]:
    for _, row in jsonl_rows(path):
        row.setdefault("source", source)
        yield row


def _warc_rows(path: str, source: str) -> Iterator[dict]:
    for item in iter_warc(path):
        if not isinstance(item, WarcPage):
            if item.error:
                print(f"{path}: {item.error}", file=sys.stderr)
            continue
        if item.status is None and item.body and (item.content_type or "text/html") in _HTML_TYPES:
            html = decode_html(item.body, item.charset).text
            page_id = item.warc_record_id or f"{source}:{item.offset}"
            yield {"id": page_id, "source": source, "url": item.url, "lang": "", "html": html}


def peer_texts(name: str, rows: Sequence[dict]) -> list[str]:
    """One extractor's text of every page; runs in a worker process of its own."""
    texts = []
    with quiet():
        extract = BUILDERS[name]()
        for row in rows:
            try:
                texts.append(extract(Page.from_json(row)) or "")
            # A peer's bug on one page leaves that page's text empty, as a failure.
            except Exception:  # noqa: BLE001
                texts.append("")
    return texts


def with_peers(rows: list[dict], names: Sequence[str], pool: Executor | None) -> list[dict]:
    """The rows with their ``peers``: each extractor in a worker of its own when pooled."""
    if pool is None:
        texts = {name: peer_texts(name, rows) for name in names}
    else:
        futures = {name: pool.submit(peer_texts, name, rows) for name in names}
        texts = {name: future.result() for name, future in futures.items()}
    for i, row in enumerate(rows):
        row["peers"] = {name: texts[name][i] for name in names}
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--input", nargs="+", required=True, help="JSON Lines of pages, or WARC files")
    parser.add_argument("--output", required=True, help="JSON Lines (.gz to compress) of the pages with peers")
    parser.add_argument("--extractors", default=",".join(DEFAULT_PEERS), help=f"of: {', '.join(PEERS)}")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=int, default=None, help="at most this many pages of each input")
    parser.add_argument("--batch", type=int, default=200, help="pages read and extracted at a time")
    args = parser.parse_args(argv)

    wanted = [name.strip() for name in args.extractors.split(",") if name.strip()]
    unknown = [name for name in wanted if name not in PEERS]
    if unknown:
        parser.error(f"not a peer: {', '.join(unknown)}")
    names = available(wanted)
    if len(names) < len(wanted):
        print(f"peer_texts: {len(wanted) - len(names)} extractor(s) not installed, see above", file=sys.stderr)
    if not names:
        return 2
    if args.batch < 1:
        parser.error("--batch must be at least 1")
    opener = gzip.open if args.output.endswith(".gz") else open
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    pages = 0
    pooled = ProcessPoolExecutor(max_workers=args.jobs) if args.jobs > 1 else nullcontext(None)
    with pooled as pool, opener(args.output, "wt", encoding="utf-8") as handle:
        for batch in batches(read_rows(args.input, args.limit), args.batch):
            for row in with_peers(batch, names, pool):
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
            pages += len(batch)
    print(f"peer_texts: {pages} pages, peers {', '.join(names)} -> {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
