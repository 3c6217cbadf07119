"""The figures of benchmarks/quality.py: a PNG per set and one of every set.

Per set, mean F1 per extractor beside the distribution of its per-page F1; the
overview, every set side by side. matplotlib (in the ``peers`` extra) is imported in
these functions only: without it the tables and the JSON are written all the same.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from benchmarks.quality_runs import PageRun
from webclean.metrics import Summary

if TYPE_CHECKING:  # only for annotations: matplotlib is optional
    from matplotlib.figure import Figure


def page_f1(runs: Sequence[PageRun], source: str) -> list[float]:
    """Per-page F1 of one set: token F1, or the page's own snippet F1 on snippet pages."""
    return [r.score.main_f1 for r in runs if r.score.source == source]


def mean_f1(runs: Sequence[PageRun], source: str) -> dict[str, float]:
    """The set's headline figures as the tables report them, by measure."""
    summary = Summary.of(r.score for r in runs if r.score.source == source)
    figures = {"token F1": summary.token_f1, "shingle F1": summary.shingle and summary.shingle.f1}
    figures["snippet F1"] = summary.snippet and summary.snippet.f1
    return {measure: value for measure, value in figures.items() if value is not None}


def set_figure(source: str, results: dict[str, list[PageRun]]) -> Figure:
    """Mean F1 per extractor (bars) beside the distribution of its per-page F1 (boxes)."""
    from matplotlib.figure import Figure

    names = [name for name, runs in results.items() if page_f1(runs, source)]
    fig = Figure(figsize=(max(8.0, 1.1 * len(names) + 5), 4.2), layout="constrained")
    bars, boxes = fig.subplots(1, 2, width_ratios=(1, 1.3))
    measures = [m for m in ("token F1", "shingle F1", "snippet F1") if any(m in mean_f1(results[n], source) for n in names)]
    width = 0.8 / max(1, len(measures))
    for k, measure in enumerate(measures):
        values = [mean_f1(results[n], source).get(measure, 0.0) for n in names]
        xs = [i + (k - (len(measures) - 1) / 2) * width for i in range(len(names))]
        drawn = bars.bar(xs, values, width, label=measure)
        bars.bar_label(drawn, fmt="%.3f", fontsize=6, rotation=90, padding=2)
    bars.set_xticks(range(len(names)), names, rotation=40, ha="right", fontsize=8)
    bars.set_ylim(0, 1.12)
    bars.set_ylabel("F1 (mean over pages; snippet F1: micro)")
    bars.set_title(f"{source}: F1")
    bars.legend(fontsize=7, loc="lower right")
    data = [page_f1(results[n], source) for n in names]
    boxes.boxplot(data, showmeans=True, meanprops={"markersize": 4}, flierprops={"markersize": 2})
    boxes.set_xticks(range(1, len(names) + 1), names, rotation=40, ha="right", fontsize=8)
    boxes.set_ylim(-0.03, 1.03)
    kind = "snippet F1" if "snippet F1" in measures and "token F1" not in measures else "token F1"
    boxes.set_ylabel(f"per-page {kind}")
    boxes.set_title(f"{source}: per-page {kind}, {len(data[0]) if data else 0} pages (▲ mean)")
    return fig


def overview_figure(results: dict[str, list[PageRun]]) -> Figure:
    """Every set side by side: token F1, or snippet F1 on the snippet set, per extractor."""
    from matplotlib.figure import Figure

    sources = sorted({r.score.source for runs in results.values() for r in runs})
    names = list(results)
    fig = Figure(figsize=(max(7.0, 0.25 * len(sources) * len(names) + 4.5), 4.2), layout="constrained")
    ax = fig.subplots()
    width = 0.8 / max(1, len(names))
    for k, name in enumerate(names):
        values = []
        for source in sources:
            figures = mean_f1(results[name], source)
            values.append(figures.get("token F1", figures.get("snippet F1", 0.0)))
        xs = [i + (k - (len(names) - 1) / 2) * width for i in range(len(sources))]
        ax.bar(xs, values, width, label=name)
    labels = [s + (" (snippet F1)" if _is_snippet_set(results, s) else "") for s in sources]
    ax.set_xticks(range(len(sources)), labels, fontsize=8)
    ax.set_ylim(0, 1.0)
    ax.set_ylabel("mean token F1 / snippet F1")
    ax.grid(axis="y", alpha=0.3)
    fig.legend(fontsize=7, loc="outside right upper")
    ax.set_title("F1 per set and extractor")
    return fig


def _is_snippet_set(results: dict[str, list[PageRun]], source: str) -> bool:
    return any(r.score.snippet is not None for runs in results.values() for r in runs if r.score.source == source)


def write_plots(directory: Path, results: dict[str, list[PageRun]]) -> list[Path]:
    """One PNG per set and an overview; nothing, with a message, without matplotlib."""
    if importlib.util.find_spec("matplotlib") is None:
        print("plots skipped: matplotlib is not installed (pip install 'webclean[peers]')", file=sys.stderr)
        return []
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    sources = sorted({r.score.source for runs in results.values() for r in runs})
    figures = [(f"quality-{source}.png", set_figure(source, results)) for source in sources]
    figures.append(("quality-overview.png", overview_figure(results)))
    for filename, figure in figures:
        figure.savefig(directory / filename, dpi=110)
        written.append(directory / filename)
    return written
