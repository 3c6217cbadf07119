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

import hashlib
import statistics
import time
from dataclasses import dataclass, field
from typing import Iterable

from lxml import etree

from webclean.config import Config
from webclean.datasets import Page
from webclean.extract import extract, locate
from webclean.metrics import PageScore, Scoreboard, Summary, score_page, token_prf
from webclean.model import Model
from webclean.parse import ParseError, parse_html

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

    def groups(self) -> dict[str, list[PageResult]]:
        groups: dict[str, list[PageResult]] = {}
        for result in self.results:
            groups.setdefault(result.score.source, []).append(result)
        groups["all"] = list(self.results)
        return groups

    def summary(self) -> dict[str, dict[str, float | int | None]]:
        return {name: _figures(self.board(results).overall(), results) for name, results in self.groups().items()}

    def table(self) -> str:
        columns = ("pages", "token_f1", "shingle_f1", "snippet_f1", "located", "accurate", "pages_per_second")
        lines = [
            "| set | pages | token F1 | shingle F1 | snippet F1 | located | denoised accurately | pages/s |",
            "|" + "---|" * 8,
        ]
        for name, figures in self.summary().items():
            lines.append("| " + " | ".join([name, *(_fmt(figures[c]) for c in columns)]) + " |")
        return "\n".join(lines)


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
        root = parse_html(page.html, max_depth=config.limits.max_depth)
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


def cross_validate(pages: Iterable[Page], config: Config, folds: int) -> Evaluation:
    """Train on all folds but one and score the one left out, for each fold.

    Pages are grouped by their HTML before they are split, so that the same page
    annotated twice (cleaneval_zh and cwced_cleaneval) never sits on both sides.
    """
    from webclean.training import train

    pages = list(pages)
    page_folds = [fold_of(page, folds) for page in pages]
    evaluation = Evaluation()
    for fold in range(folds):
        held_out = [p for p, f in zip(pages, page_folds) if f == fold]
        if not held_out:
            continue
        model, _ = train((p for p, f in zip(pages, page_folds) if f != fold), config)
        evaluation.results.extend(evaluate(held_out, config, model).results)
    return evaluation


def fold_of(page: Page, folds: int) -> int:
    digest = hashlib.sha256(page.html.encode("utf-8", "replace")).digest()
    return int.from_bytes(digest[:8], "big") % folds
