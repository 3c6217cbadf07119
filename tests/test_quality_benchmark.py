"""benchmarks/quality.py: held-out rows run once per seed, and the table over the seeds."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from webclean.datasets import Page
from webclean.metrics import score_page

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))  # the benchmarks' modules, as benchmarks.*

from benchmarks.extractors import expand, split_seed  # noqa: E402
from benchmarks.quality_report import seeds_table  # noqa: E402
from benchmarks.quality_runs import PageRun  # noqa: E402


def test_seeds_give_each_held_out_row_a_row_per_seed():
    names = expand(["webclean-loso", "trafilatura", "webclean-sites"], seeds=[0, 3])
    assert names == ["webclean-loso@0", "webclean-loso@3", "trafilatura", "webclean-sites@0", "webclean-sites@3"]
    assert expand(["webclean-loso", "webclean"]) == ["webclean-loso", "webclean"]
    assert split_seed("webclean-loso@2") == ("webclean-loso", 2)
    assert split_seed("readability") == ("readability", None)
    for name in ("trafilatura@1", "webclean@1", "webclean-loso@x"):
        with pytest.raises(SystemExit, match="only a held-out row"):
            split_seed(name)


def _run(name: str, page: Page, text: str) -> PageRun:
    return PageRun(name, score_page(text, page), 0.01, len(text))


def test_the_seeds_table_gives_each_seed_their_mean_and_the_best_peer():
    words = "the council kept the library open on sundays after a petition".split()
    pages = [Page(id=f"p{i}", source="news", url=None, lang="en", html="", text=" ".join(words)) for i in range(2)]
    half = " ".join(words[: len(words) // 2])
    results = {
        "webclean-loso@0": [_run("webclean-loso@0", p, p.text) for p in pages],  # F1 1.0 on both
        "webclean-loso@1": [_run("webclean-loso@1", p, t) for p, t in zip(pages, (pages[0].text, ""))],  # 1.0, 0.0
        "trafilatura": [_run("trafilatura", p, half) for p in pages],
    }
    table = seeds_table(results)
    row = next(line for line in table.splitlines() if line.startswith("| news "))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    peer_f1 = results["trafilatura"][0].score.token.f1
    assert cells[:6] == ["news", "2", "1.0000", "0.5000", "0.7500", "0.5000"]
    assert cells[6] == f"trafilatura {peer_f1:.4f}"
    assert cells[7] == f"{0.75 - peer_f1:+.4f}"
    # One seed is no table.
    assert seeds_table({"webclean-loso@0": results["webclean-loso@0"], "trafilatura": results["trafilatura"]}) == ""
