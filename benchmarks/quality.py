"""Score webclean and its peers on the same pages with the same measures.

    python benchmarks/quality.py --data ../shared/data/*.jsonl.gz \\
        [--extractors webclean,trafilatura,readability,resiliparse,justext | peers,webclean-loso] \\
        [--limit N] [--jobs 2] [--out benchmarks/results/] [--plots DIR | --no-plots] \\
        [--per-page NAME] [--by-lang] [--seeds 0,1,2,3]

Every extractor gets the page's HTML as a ``str`` (and its URL where the peer takes
one); pages with a full gold text get token F1 and shingle F1, ``snippets`` pages get
snippet P/R/F1 (``webclean.metrics``). A peer that raises on a page scores an empty
output there and the failure is counted: a crash is the worst extraction, not a
page to leave out. Time is ``time.process_time`` around the extractor call alone
(CPU time, so a busy machine does not slow the numbers much), as pages per second.

The paper's two rates, on full-gold pages (``webclean.evaluate``):

- *located* (C2 / C1): the share of pages whose located block holds at least 95 % of
  the gold's tokens. Only webclean's methods svm and paper locate a block, so only
  their rows (``webclean``, ``webclean-loso``, ``webclean-sites``, ``webclean-paper``,
  ``webclean-paper-loso``) have it; the block does not depend on the model, so a
  held-out row has the same.
- *denoised accurately* (C3 / C1): the share of pages with token F1 >= ACCURATE_F1,
  for every extractor.

Held out: ``webclean-loso`` extracts each set with a model trained on the other sets
(leave one set out, the primary measure), ``webclean-sites`` each page with a model
trained on the sites of the other folds (webclean.evaluate.held_out_models),
``webclean-judge`` the judge split with a model trained on every other page. The pages
scored are those of ``--split``: by default the pages outside the judge split
(webclean/splits.py), which development may read; ``--split judge`` scores the judge
split alone, whose pages are reported and never read one by one; the
report adds token F1 per page type (WCXB's ``page_type``) and, for each webclean row,
the pages it scores below 0.5 where a peer reaches 0.8, and the other way round.

A held-out row's models depend on their seed (``classifier.random_state``: the SVM's
sample of lines, the trees' early stopping): retrained on a slightly different set of
lines, they move a set's F1 by 0.001 to 0.004, about as much as another seed does.
``--seeds 0,1,2,3`` runs each held-out row once per seed (rows ``webclean-loso@0``,
``webclean-loso@1`` …; one row may also be asked for as ``webclean-loso@2``) and adds a
table of each set's and page type's F1 per seed and over the seeds, beside the best
peer's.

Peers are optional (``pip install webclean[peers]``): an extractor whose package does
not import is skipped with a message. The library never imports them; only the
benchmark does (its adapters: benchmarks/extractors.py). ``--extractors peers`` stands
for all of them.

Output: one Markdown table per set on stdout and in ``<out>/quality.md``, every
per-page score and the per-set figures in ``<out>/quality.json``, and with matplotlib
installed (it is in the ``peers`` extra) a figure per set, ``quality-<set>.png``: mean
F1 per extractor beside the distribution of its per-page F1, and
``quality-overview.png`` with every set, next to quality.md or in ``--plots DIR``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

# Run as a script: the tree above holds benchmarks.* and, unless one is installed or on
# PYTHONPATH (which come first), webclean.
ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))

from benchmarks.extractors import BUILDERS, DEFAULT_EXTRACTORS, available, expand
from benchmarks.quality_plots import write_plots
from benchmarks.quality_report import report, worst_pages, write_outputs
from benchmarks.quality_runs import run_all


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", nargs="+", required=True, help="jsonl(.gz) files or directories")
    parser.add_argument(
        "--extractors", default=",".join(DEFAULT_EXTRACTORS), help="comma-separated; peers = all peers; known: " + ", ".join(BUILDERS)
    )
    parser.add_argument("--limit", type=int, help="at most N pages from each file")
    parser.add_argument(
        "--split", choices=("dev", "judge", "all"), default="dev",
        help="the pages scored (webclean/splits.py): outside the judge split (default), the judge split, or all",
    )  # fmt: skip
    parser.add_argument("--jobs", type=int, default=1, help="extractors run in parallel processes")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    parser.add_argument("--per-page", metavar="NAME", help="print the worst pages of this extractor")
    parser.add_argument("--worst", type=int, default=20, help="how many pages --per-page prints")
    parser.add_argument("--by-lang", action="store_true", help="add per-language tables")
    parser.add_argument("--plots", type=Path, metavar="DIR", help="where the PNG figures go (default: --out)")
    parser.add_argument("--no-plots", action="store_true", help="write no figures")
    parser.add_argument(
        "--seeds", type=lambda value: [int(v) for v in value.split(",")], default=[],
        help="comma-separated: each held-out row once per seed (webclean-loso@0 …), and a table over the seeds",
    )  # fmt: skip
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    names = available(expand((n.strip() for n in args.extractors.split(",") if n.strip()), args.seeds))
    if not names:
        print("no extractor available", file=sys.stderr)
        return 1
    if args.per_page and args.per_page not in names:
        print(f"--per-page {args.per_page}: not among the extractors run ({', '.join(names)})", file=sys.stderr)
        return 1
    results = run_all(names, args.data, args.limit, args.jobs, args.split)
    markdown = report(results, args.by_lang)
    print(markdown)
    if args.per_page:
        print(f"### worst pages of {args.per_page}\n\n" + worst_pages(results[args.per_page], args.worst))
    write_outputs(args.out, markdown, results, args)
    if not args.no_plots:
        for path in write_plots(args.plots or args.out, results):
            print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
