"""Screen a rule of method svm on the cross-validated outputs, without retraining.

    python benchmarks/screen.py --data ../shared/data/{cleaneval_zh,cwced_cleaneval,cwced_modern,readability}.jsonl.gz \\
        build/weak/trafilatura.jsonl.gz --seeds 0 1 2 3 [--rules baseline,...] [--jobs 2]

For each seed (``classifier.random_state``) it trains the 3 fold models of
``webclean evaluate --cross-validate 3`` (folds by page HTML), extracts every page with
the model of its own fold and keeps, for each page, its units, each unit's decision
value (the whole unit's row) and what method svm kept of it. A rule then rewrites what
is kept, and the pages are scored again; ``baseline`` rewrites nothing and reproduces
the cross-validation's figures. Rules that only change what happens after the
classifier can be judged so in minutes; a rule that changes the features or the
training must be measured with the cross-validation itself (docs/quality.md).

Prints, per rule, the mean over the seeds of each file's figure (token F1 for the
full-gold files, snippet F1 for a snippet file) and its difference to the baseline.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from webclean.config import Config  # noqa: E402
from webclean.datasets import Page, read_pages  # noqa: E402
from webclean.denoise import denoise  # noqa: E402
from webclean.evaluate import fold_of  # noqa: E402
from webclean.extract import KEEP_WHOLE, SMOOTHING, LocatedPage, _has_noscript, locate_page  # noqa: E402
from webclean.features import Unit, feature_matrix  # noqa: E402
from webclean.metrics import Scoreboard, score_page  # noqa: E402
from webclean.training import train  # noqa: E402

FOLDS = 3


@dataclass
class Outcome:
    """One page as method svm extracted it: the units, their decision values, what was kept."""

    page: Page
    units: list[Unit]
    decisions: np.ndarray
    kept: list[str | None]


Rule = Callable[[Outcome], list[str | None]]


def baseline(outcome: Outcome) -> list[str | None]:
    return outcome.kept


RULES: dict[str, Rule] = {"baseline": baseline}


def _outcome(page: Page, config: Config, model) -> Outcome:
    for noscript in (False, True):
        located = locate_page(page.html, config, model, noscript=noscript)
        if not isinstance(located, LocatedPage) or located.block is None:
            units, kept = [], []
        else:
            units = located.units
            kept = denoise(
                units, model.lexicon, model.svm, config.denoise.beta, model.feature_set, SMOOTHING["svm"],
                located.title, KEEP_WHOLE["svm"],
            )  # fmt: skip
        if any(kept) or noscript or not _has_noscript(page.html):
            break
    decisions = model.svm.decision_function(feature_matrix(units, model.lexicon, model.feature_set))
    return Outcome(page, units, decisions, kept)


def outcomes(paths: Sequence[str], seed: int) -> list[Outcome]:
    pages = list(read_pages(paths))
    config = Config(method="svm").with_overrides([f"classifier.folds={FOLDS}", f"classifier.random_state={seed}"])
    result = []
    for fold in range(FOLDS):
        model, _ = train((p for p in pages if fold_of(p, FOLDS) != fold), config)
        result.extend(_outcome(p, config, model) for p in pages if fold_of(p, FOLDS) == fold and p.gold_type != "weak")
    return result


def figures(results: list[Outcome], rule: Rule) -> dict[str, float]:
    boards: dict[str, Scoreboard] = {}
    for outcome in results:
        text = "\n".join(part for part in rule(outcome) if part)
        boards.setdefault(outcome.page.source, Scoreboard()).add(score_page(text, outcome.page))
    out = {}
    for source, board in sorted(boards.items()):
        summary = board.overall()
        out[source] = summary.snippet.f1 if summary.token_f1 is None else summary.token_f1
    return out


def _seed_figures(args: tuple[Sequence[str], int, Sequence[str]]) -> dict[str, dict[str, float]]:
    paths, seed, names = args
    results = outcomes(paths, seed)
    return {name: figures(results, RULES[name]) for name in names}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", nargs="+", required=True)
    parser.add_argument("--seeds", nargs="+", type=int, default=[0])
    parser.add_argument("--rules", default=",".join(RULES))
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    names = ["baseline", *(n for n in args.rules.split(",") if n and n != "baseline")]
    unknown = [n for n in names if n not in RULES]
    if unknown:
        parser.error(f"unknown rules {unknown}: known {sorted(RULES)}")
    tasks = [(args.data, seed, names) for seed in args.seeds]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        per_seed = list(pool.map(_seed_figures, tasks))
    sources = list(per_seed[0]["baseline"])
    print("| rule | " + " | ".join(sources) + " |")
    print("|---" * (len(sources) + 1) + "|")
    base = {s: statistics.mean(f["baseline"][s] for f in per_seed) for s in sources}
    for name in names:
        cells = []
        for s in sources:
            mean = statistics.mean(f[name][s] for f in per_seed)
            cells.append(f"{mean:.4f}" if name == "baseline" else f"{mean:.4f} ({mean - base[s]:+.4f})")
        print(f"| {name} | " + " | ".join(cells) + " |")
    if len(args.seeds) > 1:
        for seed, f in zip(args.seeds, per_seed):
            print(f"seed {seed}: " + ", ".join(f"{name} " + " / ".join(f"{f[name][s]:.4f}" for s in sources) for name in names))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
