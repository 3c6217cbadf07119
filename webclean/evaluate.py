"""Scores of the library on pages with a gold text, with the paper's two rates.

- token F1 and shingle F1: as defined in the dev data's README (metrics.py);
  snippet F1 on pages whose gold is a list of snippets.
- *located* (the paper's C2 / C1): the share of full-gold pages whose located block
  holds at least LOCATED_RECALL of the gold's tokens (token recall of the block's
  whole text against the gold).
- *denoised accurately* (the paper's C3 / C1): the share of full-gold pages whose
  extracted text has a token F1 of at least ACCURATE_F1.
"""

from __future__ import annotations

import multiprocessing
import statistics
import time
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lxml import etree

from webclean.config import Config
from webclean.datasets import Page
from webclean.extract import extract, locate
from webclean.metrics import PageScore, Scoreboard, Summary, score_page, token_prf
from webclean.model import Model
from webclean.parse import ParseError, parse_html
from webclean.registry import method
from webclean.splits import SCORE_ONLY, SITE_FOLDED, TWINS, fold_of, judge_flags, page_key, select, site_of

if TYPE_CHECKING:
    from webclean.training import LabelledPage

LOCATED_RECALL = 0.95
ACCURATE_F1 = 0.9


@dataclass(frozen=True)
class PageResult:
    score: PageScore
    located: bool | None  # None where the gold is not the full text
    accurate: bool | None
    seconds: float


@dataclass
class Evaluation:
    results: list[PageResult] = field(default_factory=list)

    def board(self, results: Iterable[PageResult] | None = None) -> Scoreboard:
        board = Scoreboard()
        for result in self.results if results is None else results:
            board.add(result.score)
        return board

    def groups(self, by: str = "set") -> dict[str, list[PageResult]]:
        """The results per set (``by="set"``), language (``"lang"``) or page type
        (``"page_type"``, for the sets that name one), and ``all``."""
        key = {"set": lambda s: s.source, "lang": lambda s: s.lang, "page_type": lambda s: s.page_type}[by]
        groups: dict[str, list[PageResult]] = {}
        for result in self.results:
            name = key(result.score)
            if name:
                groups.setdefault(name, []).append(result)
        groups = dict(sorted(groups.items()))
        groups["all"] = list(self.results)
        return groups

    def summary(self, by: str = "set") -> dict[str, dict[str, float | int | None]]:
        return {name: _figures(self.board(results).overall(), results) for name, results in self.groups(by).items()}

    def table(self) -> str:
        """Markdown tables of the figures per set, then per language and per page type
        where there is more than one."""
        columns = ("pages", "token_f1", "shingle_f1", "snippet_f1", "located", "accurate", "pages_per_second")
        head = " | pages | token F1 | shingle F1 | snippet F1 | located | denoised accurately | pages/s |"
        tables = []
        for by in ("set", "lang", "page_type"):
            summary = self.summary(by)
            if by != "set" and len(summary) <= 2:
                continue  # one group and "all": the same figures again
            lines = ["| " + by.replace("_", " ") + head, "|" + "---|" * 8]
            for name, figures in summary.items():
                lines.append("| " + " | ".join([name, *(_fmt(figures[c]) for c in columns)]) + " |")
            tables.append("\n".join(lines))
        return "\n\n".join(tables)


def evaluate(pages: Iterable[Page], config: Config, model: Model | None = None) -> Evaluation:
    """Extract and score each page that has a gold; pages with weak labels only (peers'
    texts, no gold: datasets.Page) train, and are not scored."""
    evaluation = Evaluation()
    for page in pages:
        if page.gold_type == "weak":
            continue
        start = time.process_time()
        extraction = extract(page.html, page.url, config=config, model=model)
        seconds = time.process_time() - start
        score = score_page(extraction.text, page)
        located = accurate = None
        if page.has_full_gold:
            located = block_recall(page, config) >= LOCATED_RECALL
            accurate = score.token is not None and score.token.f1 >= ACCURATE_F1
        evaluation.results.append(PageResult(score, located, accurate, seconds))
    return evaluation


def block_recall(page: Page, config: Config) -> float:
    """Token recall of the located block's whole text against the gold."""
    try:
        root = parse_html(page.html, max_depth=config.limits.max_depth, settings=config.parse)
    except (ParseError, etree.LxmlError):
        return 0.0
    block = locate(root, config)
    if block is None:
        return 0.0
    return token_prf(" ".join(block.element.itertext()), page.text).recall


def _figures(summary: Summary, results: list[PageResult]) -> dict[str, float | int | None]:
    seconds = sum(r.seconds for r in results)
    return figures(summary, [r.located for r in results], [r.accurate for r in results], seconds, len(results))


def figures(
    summary: Summary, located: Iterable[bool | None], accurate: Iterable[bool | None], seconds: float, pages: int
) -> dict[str, float | int | None]:
    """The figures of a group of ``pages`` scored into ``summary``, as the tables print
    them; ``located`` and ``accurate`` are None for pages without a full gold."""
    return {
        "pages": summary.pages,
        "token_f1": summary.token_f1,
        "shingle_f1": summary.shingle.f1 if summary.shingle else None,
        "snippet_f1": summary.snippet.f1 if summary.snippet else None,
        "located": share(located),
        "accurate": share(accurate),
        "pages_per_second": pages / seconds if seconds else None,
    }


def share(flags: Iterable[bool | None]) -> float | None:
    """The share of True among the flags that are not None; None when all are."""
    known = [flag for flag in flags if flag is not None]
    return statistics.fmean(known) if known else None


def _fmt(value: float | int | None) -> str:
    if value is None:
        return "-"
    if isinstance(value, int):
        return str(value)
    return f"{value:.0f}" if value > 10 else f"{value:.3f}"


def leave_one_set_out(pages: Iterable[Page], config: Config, *, split: str = "dev", jobs: int = 1) -> Evaluation:
    """For each set, train on every other set and score the one left out; a set of
    SITE_FOLDED is left out one site at a time, trained on its other sites too.

    The primary measure of generalisation: no page, site or set of the scored pages
    was trained on (nor their twin, TWINS), so a rule that fits the dev sites cannot
    pass as skill. Sets in SCORE_ONLY are scored and never trained on, the judge split
    never trains (splits.py); ``split`` says which pages are scored (splits.select);
    ``jobs``: how many processes train the held-out models side by side.
    """
    return _held_out_evaluation(pages, config, split, by="set", jobs=jobs)


def cross_validate(
    pages: Iterable[Page], config: Config, folds: int, *, by: str = "site", split: str = "dev", jobs: int = 1
) -> Evaluation:
    """Train on all folds but one and score the one left out, for each fold.

    ``by="site"`` groups pages by site (site_of) before they are split, so that no
    site is on both sides; ``by="page"`` by page only, which lets a rule that fits one
    site score on that site's other pages. Either way the same page annotated twice
    (cleaneval_zh and cwced_cleaneval) never sits on both sides.
    """
    return _held_out_evaluation(pages, config, split, by=by, folds=folds, jobs=jobs)


def judge(pages: Iterable[Page], config: Config) -> Evaluation:
    """The judge split (splits.py): its pages scored by one model trained on every
    page outside it."""
    return _held_out_evaluation(pages, config, "judge", by="judge")


def _held_out_evaluation(pages: Iterable[Page], config: Config, split: str, *, by: str, folds: int = 5, jobs: int = 1) -> Evaluation:
    pages = list(pages)
    judged = judge_flags(pages)  # site_of parses pages without an address: once for both uses
    scored = {id(page) for page in select(pages, split, judged)}
    # A group with no page to score (tt_zh_dev's judged site under split "dev", a set
    # without judged pages under "judge") trains no model.
    groups = [
        (held, train_on)
        for all_held, train_on in held_out_groups(pages, by=by, folds=folds, judged=judged)
        if (held := [i for i in all_held if id(pages[i]) in scored])
    ]
    trainer = _Trainer(pages, config)
    evaluation = Evaluation()
    if jobs <= 1 or len(groups) < 2:
        for group in groups:
            evaluation.results.extend(trainer.score(*group))
        return evaluation
    # Each process gets the pages and their labels once (labelled here, once), then
    # the groups one by one; a process of its own (forkserver or spawn), as a fork
    # of a process whose OpenMP threads have run (the boosted trees') may hang.
    trainer.label(sorted({i for _, train_on in groups for i in train_on}))
    start = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    with ProcessPoolExecutor(
        min(jobs, len(groups)), mp_context=multiprocessing.get_context(start), initializer=_take, initargs=(trainer,)
    ) as pool:
        for results in pool.map(_score_group, groups):
            evaluation.results.extend(results)
    return evaluation


_TRAINER: _Trainer | None = None  # a worker process's pages and labels (_held_out_evaluation)


def _take(trainer: _Trainer) -> None:
    global _TRAINER
    _TRAINER = trainer


def _score_group(group: tuple[list[int], list[int]]) -> list[PageResult]:
    assert _TRAINER is not None
    return _TRAINER.score(*group)


def held_out_models(
    pages: Iterable[Page], config: Config, *, by: str = "set", folds: int = 5, judged: Sequence[bool] | None = None
) -> Iterator[tuple[list[Page], Model]]:
    """Each group of held-out pages with the model trained on the pages outside it;
    the pages of the judge split (splits.judge_flags) never train.

    ``by="set"``: a group per set (leave one set out; the twin of the set left out is
    not trained on either), a group per site for a set of SITE_FOLDED; ``"site"``:
    ``folds`` groups of whole sites (site_of); ``"page"``: ``folds`` groups of pages;
    ``"judge"``: the judge split alone. Each page is labelled once for all models.
    ``judged``: the pages' splits.judge_flags, where the caller has them.
    """
    pages = list(pages)
    trainer = _Trainer(pages, config)
    for held, train_on in held_out_groups(pages, by=by, folds=folds, judged=judged):
        yield [pages[i] for i in held], trainer.model(train_on)


def held_out_groups(
    pages: Sequence[Page], *, by: str = "set", folds: int = 5, judged: Sequence[bool] | None = None
) -> list[tuple[list[int], list[int]]]:
    """The groups of :func:`held_out_models`: for each, the indices of its held-out pages
    and of the pages its model trains on."""
    if by not in ("set", "site", "page", "judge"):
        raise ValueError(f"held-out groups by {by!r}: set, site, page or judge")
    judged = judge_flags(pages) if judged is None else judged
    if by == "set":
        groups = [f"{page.source}:{site_of(page)}" if page.source in SITE_FOLDED else page.source for page in pages]
    elif by == "judge":
        groups = ["judge" if flag else "" for flag in judged]
    else:
        keys = [site_of(page) if by == "site" else page_key(page) for page in pages]
        groups = [str(fold_of(key, folds)) for key in keys]
    found = []
    for group in sorted(set(groups) - {""}):
        held = [i for i, g in enumerate(groups) if g == group]
        left_out = {TWINS.get(pages[i].source) for i in held} if by == "set" else set()
        found.append((held, [i for i, g in enumerate(groups) if g != group and not judged[i] and pages[i].source not in left_out]))
    return found


class _Trainer:
    """Models trained on subsets of one list of pages, each page labelled once."""

    def __init__(self, pages: list[Page], config: Config) -> None:
        self.pages, self.config = pages, config
        self._labelled: dict[int, LabelledPage] = {}

    def model(self, indices: list[int]) -> Model:
        from webclean.training import train, train_labelled

        indices = [i for i in indices if self.pages[i].source not in SCORE_ONLY]
        if method(self.config.method).classifier is None:  # a method of its own steps trains as it says
            return train((self.pages[i] for i in indices), self.config)[0]
        self.label(indices)
        return train_labelled((self._labelled[i] for i in indices), self.config)[0]

    def score(self, held: list[int], train_on: list[int]) -> list[PageResult]:
        """The results of the pages ``held`` by the model trained on ``train_on``."""
        return evaluate([self.pages[i] for i in held], self.config, self.model(train_on)).results

    def label(self, indices: Iterable[int]) -> None:
        """Label the pages of ``indices`` that a model may train on, where not yet done."""
        from webclean.training import label_page

        if method(self.config.method).classifier is None:
            return
        for i in indices:
            if i not in self._labelled and self.pages[i].source not in SCORE_ONLY:
                self._labelled[i] = label_page(self.pages[i], self.config)
