"""The quality gate: scores on the team's dev data must not fall below pinned floors.

For each method and each file of ``../shared/data`` (beside the repository), the
packaged model's token F1, shingle F1, snippet F1 and the paper's two rates (block
located, page denoised accurately; see webclean.evaluate) are compared with the floors
in ``tests/quality_floors.toml``. Where the data is absent, as on a user's machine,
the gate is skipped and says why; the files the repository carries itself
(``benchmarks/data``: hand-written forum threads) are gated everywhere. A set with
``every = N`` is gated on its every Nth page, a fixed sample that keeps CI short.
Select or leave out with ``-m quality``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from webclean.config import Config
from webclean.datasets import read_pages
from webclean.evaluate import evaluate

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

pytestmark = pytest.mark.quality

REPO = Path(__file__).resolve().parents[1]
DATA_DIR = REPO.parent / "shared" / "data"
# Pages the repository carries itself (hand-written forum threads): gated everywhere.
BUNDLED_DIR = REPO / "benchmarks" / "data"
FLOORS_FILE = Path(__file__).with_name("quality_floors.toml")
FLOORS = tomllib.loads(FLOORS_FILE.read_text(encoding="utf-8"))
METRICS = ("token_f1", "shingle_f1", "snippet_f1", "located", "accurate")
METHODS = ("svm", "paper")


def _data_file(name: str) -> Path:
    bundled = BUNDLED_DIR / f"{name}.jsonl.gz"
    return bundled if bundled.is_file() else DATA_DIR / f"{name}.jsonl.gz"


def _cases() -> list:
    return [
        pytest.param(method, name, id=f"{method}-{name}")
        for method in METHODS
        for name in sorted(FLOORS[method])
    ]


def test_floors_file_is_well_formed():
    assert set(FLOORS) == set(METHODS)
    for method in METHODS:
        assert set(FLOORS[method]) == set(FLOORS["svm"]), "both methods are gated on the same files"
        for name, floors in FLOORS[method].items():
            assert isinstance(floors.get("pages"), int), f"{method}.{name}: pages"
            assert isinstance(floors.get("every", 1), int) and floors.get("every", 1) >= 1, f"{method}.{name}: every"
            gated = set(floors) - {"pages", "every"}
            assert gated and gated <= set(METRICS), f"{method}.{name}: unknown keys {gated - set(METRICS)}"
            assert all(0.0 <= floors[m] <= 1.0 for m in gated)


def test_every_data_file_is_gated():
    if not DATA_DIR.is_dir():
        pytest.skip(f"no dev data at {DATA_DIR} (it sits beside the repository on the team's machines)")
    present = {path.name.removesuffix(".jsonl.gz") for path in [*DATA_DIR.glob("*.jsonl.gz"), *BUNDLED_DIR.glob("*.jsonl.gz")]}
    assert present <= set(FLOORS["svm"]), f"data files without floors: {sorted(present - set(FLOORS['svm']))}"


@pytest.mark.parametrize(("method", "name"), _cases())
def test_scores_stay_above_the_floors(method, name):
    path = _data_file(name)
    if not path.is_file():
        pytest.skip(f"no dev data file {path} (it sits beside the repository on the team's machines)")
    floors = dict(FLOORS[method][name])
    pages = list(read_pages([path]))
    # The floors were measured on these pages: another number of pages means other data.
    assert len(pages) == floors.pop("pages"), f"{path.name} has {len(pages)} pages, the floors were set on another count"
    # The large sets are gated on a fixed sample, every Nth page, to keep CI short.
    pages = pages[:: floors.pop("every", 1)]
    figures = evaluate(pages, Config(method=method)).summary()["all"]
    below = {
        metric: f"{figures[metric]:.4f} < {floor}" if figures[metric] is not None else f"not measured (floor {floor})"
        for metric, floor in floors.items()
        if figures[metric] is None or figures[metric] < floor
    }
    assert not below, f"{method} on {name} fell below its floors: {below}"
