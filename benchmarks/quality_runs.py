"""Extractors run over the benchmark's pages, each page scored: the rows of benchmarks/quality.py.

One extractor a worker process (``run_all``): every page of the split through it, its
CPU time (``time.process_time`` around the call alone) and its scores
(``webclean.metrics``), and for the rows whose method locates a block, that block's
token recall against the gold (the paper's C2 / C1).
"""

from __future__ import annotations

import multiprocessing
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace

from benchmarks.extractors import LOCATING, Extract, build, quiet, split_seed
from webclean.datasets import Page, read_pages
from webclean.metrics import PageScore, score_page

# The paper's "denoised accurately" (C3 / C1): token F1 of at least this much. The value
# of webclean.evaluate.ACCURATE_F1, not imported: that module loads the whole library,
# and a peer's row must not depend on a library half-way through a change.
ACCURATE_F1 = 0.9


@dataclass(frozen=True)
class PageRun:
    """One extractor on one page: its scores, its CPU time, and why it failed if it did."""

    extractor: str
    score: PageScore
    seconds: float
    chars: int
    error: str | None = None
    # Token recall of the located block against the gold, and whether it reaches
    # webclean.evaluate.LOCATED_RECALL; None for rows without a block and snippet pages.
    block_recall: float | None = None
    located: bool | None = None

    @property
    def accurate(self) -> bool | None:
        """The paper's "denoised accurately": token F1 >= ACCURATE_F1 (None without a full gold)."""
        return None if self.score.token is None else self.score.token.f1 >= ACCURATE_F1


def run_page(name: str, extract: Extract, page: Page) -> PageRun:
    start = time.process_time()
    try:
        text = extract(page) or ""
        error = None
    # A peer's bug on one page is a result to count, whatever its type.
    except Exception as exc:  # noqa: BLE001
        text, error = "", f"{type(exc).__name__}: {exc}"[:300]
    seconds = time.process_time() - start
    return PageRun(name, score_page(text, page), seconds, len(text), error)


def run_extractor(name: str, paths: Sequence[str], limit: int | None, split: str = "dev") -> list[PageRun]:
    """The pages of ``split`` through one extractor; runs in a worker process of its own."""
    from webclean.splits import select

    pages = load_pages(paths, limit)
    return run_pages(name, pages, select(pages, split))


def run_pages(name: str, pages: Sequence[Page], scored: Sequence[Page] | None = None) -> list[PageRun]:
    """Pages already loaded through one extractor: ``scored`` (default: all of them)
    extracted and scored; a held-out row trains on ``pages`` outside the judge split."""
    scored = pages if scored is None else scored
    with quiet():
        extract = build(name, pages)
        runs = [run_page(name, extract, page) for page in scored]
        base, _ = split_seed(name)
        if base in LOCATING:
            runs = with_located(runs, scored, LOCATING[base])
    return runs


def with_located(runs: Sequence[PageRun], pages: Sequence[Page], method: str) -> list[PageRun]:
    """The runs with the recall of the block that ``method`` locates (not timed)."""
    import webclean
    from webclean.evaluate import LOCATED_RECALL, block_recall

    config = webclean.Config(method=method)
    out = []
    for run, page in zip(runs, pages):
        if page.has_full_gold:
            recall = block_recall(page, config)
            run = replace(run, block_recall=recall, located=recall >= LOCATED_RECALL)
        out.append(run)
    return out


def load_pages(paths: Sequence[str], limit: int | None) -> list[Page]:
    """The pages of every file, at most ``limit`` from each, so every set is in a short run."""
    pages: list[Page] = []
    for path in paths:
        pages.extend(page for _, page in zip(range(limit or sys.maxsize), read_pages([path])))
    return pages


def run_all(names: Sequence[str], paths: Sequence[str], limit: int | None, jobs: int, split: str = "dev") -> dict[str, list[PageRun]]:
    if jobs <= 1:
        return {name: run_extractor(name, paths, limit, split) for name in names}
    # Fresh interpreters, not forks: a caller with threads (a notebook's kernel) would
    # leave a forked worker waiting forever on a lock another thread held at the fork.
    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = {name: pool.submit(run_extractor, name, paths, limit, split) for name in names}
        return {name: future.result() for name, future in futures.items()}
