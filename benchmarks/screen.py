"""Judge the passes of method svm after the classifier, leave one set out, without retraining.

    python benchmarks/screen.py \\
        --data ../shared/data/{cleaneval_zh,cwced_cleaneval,cwced_modern,readability,wcxb_dev,dragnet,gne_zh_dev}.jsonl.gz \\
        build/weak/trafilatura.jsonl.gz --seeds 0 1 [--variants baseline,...] [--jobs 2] [--types] \\
        [--set classifier.second_trees=150 ...]

For each seed (``classifier.random_state``) it trains the models of
``webclean evaluate --leave-one-set-out`` (each set scored by a model that never saw
it), locates every scored page once as ``webclean.extract`` does
(``extract.classify_page``) and keeps its units. A variant then
decides the units again, with one pass of method svm's ``passes`` (webclean/registry.py) left out
(``without:<pass>``), without keeping whole a long unit the noise filter drops
(``without:keep_whole``), without the second stage (``without:second``, and
``without:second+items``, without the pass items too), or without a thread's post decisions: all of them
(``without:posts``), the posts' texts kept as such (``without:post_texts``) or the
rest of their records dropped as such (``without:post_panels``); ``baseline`` is the method as it is, and reproduces the
leave-one-set-out figures. A change to Step 1, the features or the training must be
measured with the leave-one-set-out run itself (docs/quality.md, "How it is
measured").

``--set`` trains the held-out models with other settings, and decides with them: a
model with a second stage (``classifier.second_trees`` above 0) is judged against its
own first stage by ``without:second``.

Prints, per variant, the mean over the seeds of each set's figure (token F1 for the
full-gold sets, snippet F1 for a snippet set), its difference to the baseline, and the
figure of each seed; with ``--types``, each page type of a set that names them as well
(``wcxb_dev:listing``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from lxml import etree

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from webclean.config import Config  # noqa: E402
from webclean.datasets import Page, read_pages  # noqa: E402
from webclean.denoise import denoise  # noqa: E402
from webclean.evaluate import held_out_models  # noqa: E402
from webclean.extract import classify_page, decider, is_forum_page, page_passes  # noqa: E402
from webclean.metrics import Scoreboard, score_page  # noqa: E402
from webclean.model import Model  # noqa: E402
from webclean.registry import classifier_spec  # noqa: E402
from webclean.result import Extraction  # noqa: E402
from webclean.splits import select  # noqa: E402
from webclean.units import Unit  # noqa: E402

METHOD = "svm"
SPEC = classifier_spec(METHOD)


@dataclass
class Outcome:
    """One scored page as Step 1 and 2 of method svm left it, with the model that scores it."""

    page: Page
    units: list[Unit]
    model: Model
    block: etree._Element | None = None  # the located block's element
    story: bool = True  # whether the page says it is one story (metadata.is_story), for the pass items
    type_probabilities: np.ndarray | None = None  # the page's type probabilities (extract.ClassifiedPage)
    forum: bool = False  # whether the page is a forum's, as extract() decides it


@dataclass(frozen=True)
class Variant:
    """How the units are decided: the passes, whether a long unit is kept
    whole, whether the posts of a thread keep their own decisions."""

    passes: tuple[str, ...] = SPEC.passes
    whole: bool = SPEC.keep_whole
    posts: str = "both"  # the post decisions taken: "both", "keep" (texts only), "drop" (panels only), "none"
    threshold: float = 0.0  # the decision value above which a line is content (denoise.threshold)
    second: bool = True  # whether the model's second stage decides (second_stage.py)


def variants() -> dict[str, Variant]:
    found = {"baseline": Variant()}
    for name in SPEC.passes:
        found[f"without:{name}"] = Variant(passes=tuple(p for p in SPEC.passes if p != name))
    found["without:keep_whole"] = Variant(whole=False)
    found["without:second"] = Variant(second=False)
    found["without:second+items"] = Variant(passes=tuple(p for p in SPEC.passes if p != "items"), second=False)
    found["without:posts"] = Variant(posts="none")
    found["without:post_texts"] = Variant(posts="drop")
    found["without:post_panels"] = Variant(posts="keep")
    found["without:all"] = Variant(passes=(), whole=False, posts="none")
    return found


VARIANTS = variants()


def variant(name: str) -> Variant:
    """A variant of VARIANTS, or ``only:<pass>+<pass>…``: the passes named alone, in
    the spec's order (``only:`` runs none), either with ``@<threshold>`` after it (the
    decision value above which a line is content); KeyError for another name."""
    name, at, threshold = name.partition("@")
    if at:
        return replace(variant(name), threshold=float(threshold))
    kind, colon, names = name.partition(":")
    if colon and kind == "only":
        named = set(filter(None, names.split("+")))
        if named <= set(SPEC.passes):
            return Variant(passes=tuple(p for p in SPEC.passes if p in named))
    return VARIANTS[name]


def kept_text(outcome: Outcome, variant: Variant, config: Config) -> str:
    units = outcome.units
    if variant.posts != "both":
        taken = {"keep": 1, "drop": -1, "none": None}[variant.posts]
        units = [unit if unit.post == taken else unit._replace(post=0) for unit in units]
    model = outcome.model
    passes = page_passes(variant.passes, config, outcome.forum, outcome.block)  # a forum's page runs its own passes
    settings = replace(config.denoise, threshold=variant.threshold)
    decisions = denoise(
        units, model.lexicon, decider(model, outcome.type_probabilities), settings, model.feature_set, passes, variant.whole,
        items_settings=config.items, lines_settings=config.lines, story=lambda: outcome.story,
        second=model.second if variant.second else None,
    )  # fmt: skip
    return "\n".join(decision.text for decision in decisions if decision.text)


def _outcome(page: Page, config: Config, model: Model) -> Outcome:
    """The page's units as extract() locates and keeps them (the library's recipe, its
    reading without scripts included)."""
    classified = classify_page(page.html, config, model, url=page.url)
    if isinstance(classified, Extraction):
        return Outcome(page, [], model)
    located = classified.located
    block = None if located.block is None else located.block.element
    types = classified.type_probabilities
    return Outcome(page, located.units, model, block, located.story(), types, is_forum_page(page.url, types))


def outcomes(paths: Sequence[str], seed: int, overrides: Sequence[str] = ()) -> list[Outcome]:
    """The scored pages as the held-out models of ``seed`` leave them, those models
    trained with the settings ``overrides`` (``classifier.second_trees=150``)."""
    config = Config(method=METHOD).with_overrides([*overrides, f"classifier.random_state={seed}"])
    result = []
    pages = list(read_pages(paths))
    dev = {id(page) for page in select(pages, "dev")}  # the judge split is never screened
    for held_out, model in held_out_models(pages, config, by="set"):
        result.extend(_outcome(page, config, model) for page in held_out if page.gold_type != "weak" and id(page) in dev)
    return result


def figures(results: list[Outcome], variant: Variant, config: Config, types: bool = False) -> dict[str, float]:
    """Each set's figure; with ``types``, each page type's of a set that names them too
    (``wcxb_dev:listing``)."""
    boards: dict[str, Scoreboard] = {}
    for outcome in results:
        page = outcome.page
        score = score_page(kept_text(outcome, variant, config), page)
        boards.setdefault(page.source, Scoreboard()).add(score)
        if types and page.page_type:
            boards.setdefault(f"{page.source}:{page.page_type}", Scoreboard()).add(score)
    out = {}
    for source, board in sorted(boards.items()):
        summary = board.overall()
        out[source] = summary.snippet.f1 if summary.token_f1 is None else summary.token_f1
    return out


def _seed_figures(args: tuple[Sequence[str], int, Sequence[str], bool, Sequence[str]]) -> dict[str, dict[str, float]]:
    paths, seed, names, types, overrides = args
    results = outcomes(paths, seed, overrides)
    config = Config(method=METHOD).with_overrides(overrides)
    return {name: figures(results, variant(name), config, types) for name in names}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", nargs="+", required=True)
    parser.add_argument("--seeds", nargs="+", type=int, default=[0])
    parser.add_argument(
        "--variants", default=",".join(VARIANTS), help=f"comma-separated, among {', '.join(VARIANTS)}, or only:<pass>+<pass>…"
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--types", action="store_true", help="a column for each page type of a set that names them")
    parser.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE",
        help="a setting of the held-out models' training and of the decisions, as webclean's --set",
    )  # fmt: skip
    args = parser.parse_args(argv)
    names = ["baseline", *(n for n in args.variants.split(",") if n and n != "baseline")]
    unknown = [n for n in names if not _known(n)]
    if unknown:
        parser.error(f"unknown variants {unknown}: known {sorted(VARIANTS)}")
    tasks = [(args.data, seed, names, args.types, args.set) for seed in args.seeds]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        per_seed = list(pool.map(_seed_figures, tasks))
    print(table(per_seed, names, args.seeds))
    return 0


def _known(name: str) -> bool:
    try:
        variant(name)
    except KeyError:
        return False
    return True


def table(per_seed: list[dict[str, dict[str, float]]], names: Sequence[str], seeds: Sequence[int]) -> str:
    sources = list(per_seed[0]["baseline"])
    lines = ["| variant | " + " | ".join(sources) + " |", "|---" * (len(sources) + 1) + "|"]
    base = {s: statistics.mean(f["baseline"][s] for f in per_seed) for s in sources}
    for name in names:
        cells = []
        for s in sources:
            mean = statistics.mean(f[name][s] for f in per_seed)
            each = " / ".join(f"{f[name][s]:.4f}" for f in per_seed)
            cells.append(f"{mean:.4f}" if name == "baseline" else f"{mean - base[s]:+.4f}")
            if len(seeds) > 1:
                cells[-1] += f" ({each})"
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
