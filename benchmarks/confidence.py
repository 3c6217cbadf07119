"""How well ``confidence`` tells good extractions from bad ones, on sets it never saw.

    python benchmarks/confidence.py \\
        --data ../shared/data/{wcxb_dev,tt_zh_dev,dragnet,gne_zh_dev,cwced_modern,cwced_cleaneval,cleaneval_zh,readability}.jsonl.gz \\
        build/weak/trafilatura.jsonl.gz [--split dev] [--out build/confidence.json] [--rows build/confidence-rows.npz]

First the held-out extractions: every page of the split is extracted by a model trained
without its set (leave one set out, as benchmarks/quality.py's ``webclean-loso``:
each site of ``tt_zh_dev`` left out alone; the judge split never trains), and scored
against its gold (token F1; a page whose gold is snippets has none and is left out).
Each extraction's row of confidence.SIGNAL_NAMES is kept (``--rows`` saves them, and
reads them back on the next run).
Then, for each set, a confidence model fitted on the rows of the other sets (as
training fits it on held-out extractions) predicts the set's pages. Prints for each
set of 100 pages or more and for all pages: the Spearman correlation of confidence
with F1; the area under the ROC curve for telling pages under F1 0.5 from the rest;
the mean F1 of the 80 % of pages of highest confidence against the mean of all; and
the mean F1 per decile of confidence (calibration). ``--out`` writes every page's set,
confidence and F1 as JSON (notebooks/evaluation.ipynb plots the calibration from it).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from scipy.stats import spearmanr
from sklearn.metrics import roc_auc_score

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from webclean.confidence import fit_confidence  # noqa: E402
from webclean.config import Config  # noqa: E402
from webclean.datasets import read_pages  # noqa: E402
from webclean.evaluate import held_out_models  # noqa: E402
from webclean.splits import TWINS, select  # noqa: E402
from webclean.training import confidence_row  # noqa: E402

MIN_PAGES = 100  # a set of fewer pages is reported with the pooled figures only
POOR = 0.5  # the F1 under which an extraction counts as poor (the ROC curve's positives)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", nargs="+", required=True, help="dev sets, gzip JSON Lines")
    parser.add_argument("--split", choices=("dev", "judge"), default="dev", help="the pages scored (webclean/splits.py)")
    parser.add_argument("--out", type=Path, help="write each page's set, confidence and F1 as JSON")
    parser.add_argument("--rows", type=Path, help="the held-out extractions' rows (NumPy archive): read if it exists, else written")
    return parser.parse_args(argv)


def held_out_rows(paths: Sequence[str], split: str, config: Config) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Each scored page's set, its held-out extraction's row of signals, and its F1."""
    pages = list(read_pages(paths))
    scored = {id(page) for page in select(pages, split)}
    sets, rows, scores = [], [], []
    for held, model in held_out_models(pages, config, by="set"):
        for page in held:
            if id(page) not in scored:
                continue
            found = confidence_row(page, model, config)
            if found is not None:
                sets.append(page.source)
                rows.append(found[0])
                scores.append(found[1])
        print(f"extracted {len(rows)} pages", file=sys.stderr, flush=True)
    return sets, np.asarray(rows), np.asarray(scores)


def predicted(sets: Sequence[str], rows: np.ndarray, scores: np.ndarray, config: Config) -> np.ndarray:
    """Each page's confidence by a model fitted on the pages of the other sets (and not
    of the set's twin)."""
    names = np.asarray(sets)
    confidence = np.zeros(len(sets))
    for name in sorted(set(sets)):
        held = names == name
        train = ~held & (names != TWINS.get(name, ""))
        model = fit_confidence(rows[train], scores[train], config.confidence, config.classifier.random_state, names[train])
        if model is None:
            raise SystemExit(f"too few pages outside {name} to fit a confidence model")
        confidence[held] = [model.predict(row) for row in rows[held]]
    return confidence


def figures(confidence: np.ndarray, f1: np.ndarray) -> dict[str, float | None]:
    """Spearman, ROC AUC for F1 < POOR, and the mean F1 of the top 80 % against all."""
    top = np.argsort(-confidence, kind="stable")[: max(1, int(round(0.8 * len(f1))))]
    poor = f1 < POOR
    return {
        "pages": len(f1),
        "spearman": float(spearmanr(confidence, f1).statistic) if len(f1) > 2 else None,
        "auc": float(roc_auc_score(poor, -confidence)) if 0 < poor.sum() < len(f1) else None,
        "poor": int(poor.sum()),
        "mean_f1": float(f1.mean()),
        "top80_f1": float(f1[top].mean()),
    }


def calibration(confidence: np.ndarray, f1: np.ndarray, bins: int = 10) -> list[tuple[float, float, int]]:
    """Mean confidence, mean F1 and pages of each decile of confidence."""
    order = np.argsort(confidence, kind="stable")
    return [(float(confidence[part].mean()), float(f1[part].mean()), len(part)) for part in np.array_split(order, bins) if len(part)]


def _fmt(value: float | int | None) -> str:
    return "—" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    config = Config()
    if args.rows and args.rows.exists():
        saved = np.load(args.rows, allow_pickle=False)
        sets, rows, f1 = saved["sets"].tolist(), saved["rows"], saved["f1"]
    else:
        sets, rows, f1 = held_out_rows(args.data, args.split, config)
        if args.rows:
            np.savez_compressed(args.rows, sets=np.asarray(sets), rows=rows, f1=f1)
    confidence = predicted(sets, rows, f1, config)
    names = np.asarray(sets)
    print(f"\n## confidence on held-out extractions ({args.split} split, leave one set out)\n")
    print("| set | pages | Spearman | ROC AUC, F1 < 0.5 | poor pages | mean F1 | top 80 % F1 | gain |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    groups = [(name, names == name) for name in sorted(set(sets)) if (names == name).sum() >= MIN_PAGES]
    for name, mask in [*groups, ("all", np.ones(len(sets), dtype=bool))]:
        row = figures(confidence[mask], f1[mask])
        gain = row["top80_f1"] - row["mean_f1"]  # type: ignore[operator]
        cells = [row[key] for key in ("pages", "spearman", "auc", "poor", "mean_f1", "top80_f1")]
        print(f"| {name} | " + " | ".join(_fmt(cell) for cell in cells) + f" | {gain:+.3f} |")
    print("\n### calibration, all pages: mean F1 per decile of confidence\n")
    print("| decile | mean confidence | mean F1 | pages |\n| ---: | ---: | ---: | ---: |")
    for k, (mean_confidence, mean_f1, count) in enumerate(calibration(confidence, f1), 1):
        print(f"| {k} | {mean_confidence:.3f} | {mean_f1:.3f} | {count} |")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        pages = [{"set": s, "confidence": round(float(c), 4), "f1": round(float(f), 4)} for s, c, f in zip(sets, confidence, f1)]
        args.out.write_text(json.dumps({"split": args.split, "pages": pages}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
