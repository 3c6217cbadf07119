"""benchmarks/speed.py: the order the extractors take turns in on each page."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))  # the benchmarks' modules, as benchmarks.*

from benchmarks.speed import orders, timed_pass  # noqa: E402
from benchmarks.speed_pages import BenchPage  # noqa: E402


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 7])
def test_each_extractor_runs_first_and_right_after_each_other_equally_often(n):
    rows = orders(n)
    assert all(sorted(row) == list(range(n)) for row in rows)
    firsts = Counter(row[0] for row in rows)
    assert set(firsts) == set(range(n)) and len(set(firsts.values())) == 1
    pairs = Counter((row[k], row[k + 1]) for row in rows for k in range(n - 1))
    assert len(pairs) == n * (n - 1) and len(set(pairs.values())) <= 1


def test_a_pass_follows_the_square_page_by_page():
    seen: list[str] = []
    runs = {name: (lambda page, name=name: seen.append(name)) for name in ("a", "b", "c", "d")}
    pages = [BenchPage(id=str(k), source="s", html="<p>x</p>", data=b"<p>x</p>") for k in range(8)]
    timed_pass(runs, pages, number=0)
    # 8 pages of 4 calls: within the pages, each ordered pair twice
    within = Counter(pair for k in range(0, len(seen), 4) for pair in zip(seen[k : k + 4], seen[k + 1 : k + 4]))
    assert len(seen) == 32 and len(within) == 12 and set(within.values()) == {2}
