"""How well the page type model tells the seven page types apart, on sites it never saw.

    python benchmarks/page_type.py \\
        --data ../shared/data/{wcxb_dev,tt_zh_dev,gne_zh_dev,cwced_modern,cwced_cleaneval,readability}.jsonl.gz \\
        build/weak/trafilatura.jsonl.gz [--folds 4] [--jobs 2]

Every page is read as ``webclean train`` reads it (training.label_page). On the pages
outside the judge split (webclean/splits.py), folds of whole sites: each fold's pages
are typed by a page type model trained on the other folds, as the default model is
trained (a page that names no type counts as ``[page_type] unlabelled``). Then the
judge split: its pages typed by a model trained on every other page. Prints, for the
pages that name their type, accuracy and macro-F1 with each type's precision, recall
and F1 and the confusion table; and for each set without types, the share of its pages
typed ``unlabelled``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

import numpy as np
from sklearn.metrics import confusion_matrix, precision_recall_fscore_support

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from webclean.config import PAGE_TYPES, Config  # noqa: E402
from webclean.datasets import Page, read_pages  # noqa: E402
from webclean.page_type import train_page_types  # noqa: E402
from webclean.splits import fold_of, judge_flags, site_of  # noqa: E402
from webclean.training import LabelledPage, label_page  # noqa: E402


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", nargs="+", required=True, help="dev sets, gzip JSON Lines")
    parser.add_argument("--folds", type=int, default=4, help="folds of whole sites outside the judge split")
    parser.add_argument("--jobs", type=int, default=1, help="processes that read the pages")
    return parser.parse_args(argv)


def typed(pages: Sequence[Page], labelled: Sequence[LabelledPage], train: Sequence[int], test: Sequence[int], config: Config) -> list[str]:
    """The type of each page of ``test`` by a page type model trained on ``train``."""
    model = train_page_types(
        [labelled[i].page_type for i in train],
        [labelled[i].type_signals for i in train],
        [labelled[i].type_words for i in train],
        [site_of(pages[i]) for i in train],
        config,
    )
    if model is None:
        raise SystemExit("the training pages give no page type model: they name fewer than three types")
    return [model.predict(np.asarray(labelled[i].type_signals), labelled[i].type_words)[0] for i in test]


def report(title: str, pages: Sequence[Page], test: Sequence[int], found: Sequence[str], unlabelled: str) -> None:
    named = [(pages[i].page_type, kind) for i, kind in zip(test, found) if pages[i].page_type]
    print(f"\n## {title}: {len(test)} pages, {len(named)} that name their type\n")
    if named:
        truth, guess = zip(*named)
        precision, recall, f1, support = precision_recall_fscore_support(truth, guess, labels=list(PAGE_TYPES), zero_division=0)
        accuracy = sum(t == g for t, g in named) / len(named)
        print(f"accuracy {accuracy:.3f} · macro-F1 {f1[support > 0].mean():.3f}\n")
        print("| type | pages | precision | recall | F1 |\n| --- | ---: | ---: | ---: | ---: |")
        for kind, p, r, f, n in zip(PAGE_TYPES, precision, recall, f1, support):
            print(f"| {kind} | {n} | {p:.3f} | {r:.3f} | {f:.3f} |")
        print("\nconfusion (rows: the page's type; columns: the type found)\n")
        print("| | " + " | ".join(PAGE_TYPES) + " |")
        print("|---" * (len(PAGE_TYPES) + 1) + "|")
        for kind, row in zip(PAGE_TYPES, confusion_matrix(truth, guess, labels=list(PAGE_TYPES))):
            print(f"| {kind} | " + " | ".join(str(n) for n in row) + " |")
    unnamed: dict[str, list[bool]] = {}
    for i, kind in zip(test, found):
        if not pages[i].page_type:
            unnamed.setdefault(pages[i].source, []).append(kind == unlabelled)
    for source, hits in sorted(unnamed.items()):
        print(f"\n{source}: {sum(hits) / len(hits):.3f} of {len(hits)} pages typed {unlabelled}")


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    config = Config()
    pages = list(read_pages(args.data))
    with ProcessPoolExecutor(args.jobs) as pool:
        labelled = list(pool.map(partial(label_page, config=config), pages, chunksize=16))
    judged = judge_flags(pages)
    dev = [i for i, flag in enumerate(judged) if not flag]
    judge = [i for i, flag in enumerate(judged) if flag]
    fold = {i: fold_of(site_of(pages[i]), args.folds) for i in dev}
    test, found = [], []
    for k in range(args.folds):
        held = [i for i in dev if fold[i] == k]
        if held:
            found += typed(pages, labelled, [i for i in dev if fold[i] != k], held, config)
            test += held
    unlabelled = config.page_type.unlabelled
    report(f"Folds of whole sites ({args.folds}), outside the judge split", pages, test, found, unlabelled)
    if judge:
        found = typed(pages, labelled, dev, judge, config)
        report("The judge split, by a model of every other page", pages, judge, found, unlabelled)


if __name__ == "__main__":
    main()
