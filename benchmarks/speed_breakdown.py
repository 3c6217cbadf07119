"""webclean alone, looked into: its time stage by stage, its memory a page, and a profile.

Sections 3 to 5 of benchmarks/speed.py, each measure with its Markdown table:
``webclean.extract`` timed by the library's own stage timer (and, alternating, without
it), the tracemalloc peak of each call and the memory libxml2 holds for each parsed
tree, and cProfile over one pass.
"""

from __future__ import annotations

import cProfile
import ctypes
import gc
import io
import pstats
import statistics
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from benchmarks.speed_pages import BenchPage

# --- webclean stage by stage -------------------------------------------------

# The recipe's stages (webclean/extract.py), in its order, as the tables name them.
STAGES = {
    "decode": "decode",
    "parse": "parse",
    "title": "title+lang",
    "segment": "segment",
    "locate": "locate",
    "page_type": "page type",
    "features": "features",
    "classify": "classify",
    "denoise": "denoise (rest)",
    "metadata": "metadata",
    "confidence": "confidence",
    "method": "method",
    "language": "detect language",
}


@dataclass
class StageReport:
    per_pass: list[dict[str, float]]  # seconds per stage, summed over the pages, per pass
    timed_per_pass: list[float]  # webclean.extract(bytes, timer=...) on the pages, per pass
    extract_per_pass: list[float]  # webclean.extract(bytes) on the same pages, alternating
    pages: int


def stage_breakdown(pages: Sequence[BenchPage], reps: int) -> StageReport:
    """webclean.extract on each page with the library's stage timer, and without it."""
    from webclean.extract import extract
    from webclean.timing import StageTimer

    timer = StageTimer()
    per_pass, timed_per_pass, extract_per_pass = [], [], []
    for number in range(reps):
        timer.reset()
        timed_total = extract_total = 0.0
        for i, page in enumerate(pages):
            first_extract = (i + number) % 2 == 0
            data = page.data
            if first_extract:
                extract_total += _cpu(partial(extract, data))
            timed_total += _cpu(partial(extract, data, timer=timer))
            if not first_extract:
                extract_total += _cpu(partial(extract, data))
        per_pass.append(dict(timer.seconds))
        timed_per_pass.append(timed_total)
        extract_per_pass.append(extract_total)
    return StageReport(per_pass, timed_per_pass, extract_per_pass, len(pages))


def _cpu(function: Callable[[], object]) -> float:
    start = time.process_time()
    function()
    return time.process_time() - start


# --- memory ------------------------------------------------------------------


@dataclass(frozen=True)
class MemoryReport:
    peaks: list[tuple[int, str, int]]  # tracemalloc peak of webclean.extract, page id, page bytes
    trees: list[int]  # bytes libxml2 holds for the parsed tree of each page


def _malloc_in_use() -> Callable[[], int] | None:
    """glibc's count of malloc'd bytes in use, or None elsewhere.

    libxml2 allocates the tree with malloc, which tracemalloc does not see; CPython's
    small objects live in mmap'd arenas that this does not see, so the difference
    around a parse is mostly the tree.
    """

    class MallInfo2(ctypes.Structure):
        _fields_ = [
            (name, ctypes.c_size_t) for name in "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split()
        ]

    try:
        mallinfo2 = ctypes.CDLL(None).mallinfo2
    except (AttributeError, OSError):
        return None
    mallinfo2.restype = MallInfo2

    def in_use() -> int:
        info = mallinfo2()
        return info.uordblks + info.hblkhd

    return in_use


def memory(pages: Sequence[BenchPage]) -> MemoryReport:
    from webclean.decode import decode_html
    from webclean.extract import extract
    from webclean.parse import parse_html

    peaks = []
    tracemalloc.start()
    try:
        for page in pages:
            gc.collect()
            tracemalloc.reset_peak()
            base = tracemalloc.get_traced_memory()[0]
            result = extract(page.data)
            peaks.append((tracemalloc.get_traced_memory()[1] - base, page.id, len(page.data)))
            del result
    finally:
        tracemalloc.stop()
    trees = []
    in_use = _malloc_in_use()
    if in_use is not None:
        for page in pages:
            text = decode_html(page.data).text
            gc.collect()
            before = in_use()
            root = parse_html(text)
            trees.append(in_use() - before)
            del root
    return MemoryReport(peaks, trees)


# --- profile -----------------------------------------------------------------


def profile(pages: Sequence[BenchPage], top: int) -> str:
    """cProfile over one webclean-bytes pass: the ``top`` functions by own time."""
    from webclean.extract import extract

    profiler = cProfile.Profile()
    profiler.enable()
    for page in pages:
        extract(page.data)
    profiler.disable()
    stats = pstats.Stats(profiler, stream=io.StringIO())
    total = stats.total_tt  # type: ignore[attr-defined]
    rows = sorted(stats.stats.items(), key=lambda item: item[1][2], reverse=True)[:top]  # type: ignore[attr-defined]
    lines = [
        f"cProfile, one pass of webclean.extract(bytes) over {len(pages)} pages: {total:.2f} s profiled "
        "(cProfile inflates Python-level calls, not C work)",
        "",
        "| # | function | calls | own s | own % | cumulative s |",
        "|---|---|---|---|---|---|",
    ]
    for rank, ((filename, line, name), (_, calls, own, cumulative, _)) in enumerate(rows, 1):
        lines.append(f"| {rank} | `{_where(filename, line, name)}` | {calls} | {own:.3f} | {100 * own / total:.1f} | {cumulative:.3f} |")
    return "\n".join(lines)


def _where(filename: str, line: int, name: str) -> str:
    if filename == "~":  # a built-in
        return name
    path = Path(filename)
    parts = path.parts
    if "webclean" in parts:
        short = "/".join(parts[parts.index("webclean") :])
    elif "site-packages" in parts:
        short = "/".join(parts[parts.index("site-packages") + 1 :])
    else:
        short = path.name
    return f"{short}:{line}({name})"


# --- tables ------------------------------------------------------------------


def stage_table(report: StageReport) -> str:
    n = report.pages
    names = [name for name in STAGES if any(name in p for p in report.per_pass)]
    totals = {name: statistics.median(p.get(name, 0.0) for p in report.per_pass) for name in names}
    total = statistics.median(sum(p.values()) for p in report.per_pass)
    timed = statistics.median(report.timed_per_pass)
    extract = statistics.median(report.extract_per_pass)
    lines = ["| stage | ms/page | share |", "|---|---|---|"]
    for name in names:
        lines.append(f"| {STAGES[name]} | {1000 * totals[name] / n:.2f} | {100 * totals[name] / total:.1f} % |")
    lines.append(f"| **total** (sum of stages) | **{1000 * total / n:.2f}** | 100 % |")
    lines.append(f"| webclean.extract(bytes) with the timer | {1000 * timed / n:.2f} | |")
    lines.append(f"| webclean.extract(bytes) without it, same pages, alternating | {1000 * extract / n:.2f} | |")
    notes = [
        "",
        f"Median of {len(report.per_pass)} passes over {n} pages, timed by the library's own stage timer "
        "(`extract(..., timer=StageTimer())`, webclean/timing.py). "
        "segment is `page_lines` (drop_hidden and segment: the page's lines); "
        "locate is `locate_units` on those lines (Step 1's locate_region, and line_units); "
        "metadata is `page_metadata` (date and source); "
        "features is the feature set's rows (features.FEATURE_SETS) "
        "and classify `SVMParams.predict` (and `decision_function`, for the tail's lines) "
        "inside `denoise`, whose other work (sentence splitting, the noise-filter loop, the passes) is denoise (rest).",
    ]
    return "\n".join(lines + notes)


def memory_table(mem: MemoryReport | None, rss: Sequence[tuple[str, float]]) -> str:
    maxrss = "Process ru_maxrss: " + "; ".join(f"{label} {value:.0f} MiB" for label, value in rss) + "."
    if mem is None:
        return maxrss
    mib, peaks, trees = 2**20, mem.peaks, mem.trees
    values = sorted(peak for peak, _, _ in peaks)
    worst = max(peaks)
    per_byte = statistics.median(peak / size for peak, _, size in peaks if size)
    lines = [
        "| measure | median | p90 | max |",
        "|---|---|---|---|",
        f"| tracemalloc peak per page (MiB) | {statistics.median(values) / mib:.2f} | {_quantile(values, 0.9) / mib:.2f} "
        f"| {worst[0] / mib:.2f} ({worst[1]}, {worst[2] / mib:.2f} MiB of HTML) |",
        f"| tracemalloc peak ÷ page bytes | {per_byte:.1f} | | |",
    ]
    if trees:
        ordered = sorted(trees)
        lines.append(
            f"| libxml2 tree held after parse_html (MiB) | {statistics.median(ordered) / mib:.2f} "
            f"| {_quantile(ordered, 0.9) / mib:.2f} | {ordered[-1] / mib:.2f} |"
        )
    return "\n".join([*lines, "", maxrss])


def _quantile(ordered: Sequence[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
