"""How fast webclean is, next to its peers and to a bare lxml parse: figures, not a test.

    python benchmarks/speed.py --data ../shared/data/cwced_modern.jsonl.gz \\
        ../shared/data/readability.jsonl.gz:60 [--limit 100] [--reps 5] \\
        [--extractors webclean-bytes,webclean-str,webclean-python,trafilatura,resiliparse,readability,lxml] \\
        [--markdown benchmarks/results/speed.md] [--profile 15]

A data file may end in ``:N`` to take its first N pages instead of ``--limit``.
Pages are always the first ones of each file, so two runs time the same pages.

webclean-bytes and webclean-str run the core webclean loaded (webclean/core.py: the
compiled one where it is built, the Python path with ``WEBCLEAN_PURE=1``), and so do
the stage breakdown, the memory and the profile; webclean-python runs webclean-bytes
on the Python path in the same passes, for the ratio of the two cores. The report
names the core.

What is measured, in this order:

1. one warm-up pass of every extractor over every page (webclean's model load and
   jieba's dictionary, trafilatura's and readability's first-call set-up), untimed;
2. ``--reps`` timed passes, interleaved: page by page, each extractor runs on the
   page in an order that rotates from page to page and from pass to pass, so a burst
   of load on this shared machine, or a warm cache, favours none of them. Time is
   ``time.process_time`` (CPU time of the process) around the call alone; each pass
   gives pages per CPU-second, and the tables show the median pass;
3. webclean stage by stage: ``webclean.extract`` with the library's stage timer
   (``webclean.timing.StageTimer``); alternating with ``webclean.extract`` without it
   on the same page, to show what the timing costs;
4. memory: the tracemalloc peak of each ``webclean.extract`` call, the memory
   libxml2 holds for each parsed tree (tracemalloc cannot see it), and the
   process's ru_maxrss;
5. with ``--profile N``: cProfile over one webclean pass, top N by own time.

CPU time is less disturbed by other processes than wall time, not immune to them
(a shared core's caches, SMT siblings): the load average at start and end is part
of the report, and so is wall time ÷ CPU time of the timed calls.

numpy's BLAS is limited to one thread (``--blas-threads 1``, the default). With more,
OpenBLAS runs webclean's small SVM products on helper threads that gain no wall
time, and keep spinning after the call: process time then charges that spinning to
webclean and to whichever extractor runs next. One thread is also how a page-parallel
job (one worker process per core) should run. ``--blas-threads 0`` leaves numpy's
default, to see what that costs.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import ctypes
import gc
import importlib.util
import io
import os
import platform
import pstats
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

# Run as a script: use webclean as installed or on PYTHONPATH, else the tree above.
ROOT = Path(__file__).resolve().parents[1]
if importlib.util.find_spec("webclean") is None:
    sys.path.insert(0, str(ROOT))

from quality import quiet  # the sibling script: the same silencing of the peers' logging

from webclean.datasets import read_pages  # noqa: E402

DEFAULT_LIMIT = 100


@dataclass(frozen=True)
class BenchPage:
    id: str
    source: str
    html: str  # as the data file has it: what the str-taking extractors get
    data: bytes  # its UTF-8 bytes: what webclean-bytes gets, as from a crawl


# --- extractors --------------------------------------------------------------
# Each builder imports its package and returns a function of one page; the result
# is not used. An ImportError skips the extractor.

Run = Callable[[BenchPage], object]


# webclean.extract, the function: imported from its module, because once anything has
# imported the module webclean.extract, the package attribute of that name may be the
# module rather than the function.


def _webclean_bytes() -> Run:
    from webclean.extract import extract

    return lambda page: extract(page.data)


def _webclean_str() -> Run:
    from webclean.extract import extract

    return lambda page: extract(page.html)


def _webclean_python() -> Run:
    """webclean-bytes on its Python path, whichever core the others run: the two cores
    interleaved in one run (core.compiled is read at each call)."""
    from webclean import core
    from webclean.extract import extract

    def run(page: BenchPage) -> object:
        compiled, core.compiled = core.compiled, None
        try:
            return extract(page.data)
        finally:
            core.compiled = compiled

    return run


def _trafilatura() -> Run:
    import trafilatura

    return lambda page: trafilatura.extract(page.html)


def _resiliparse() -> Run:
    from resiliparse.extract.html2text import extract_plain_text

    return lambda page: extract_plain_text(page.html, main_content=True)


def _readability() -> Run:
    from readability import Document

    # summary() is readability's article as HTML; turning it into text is not timed.
    return lambda page: Document(page.html).summary()


def _lxml() -> Run:
    import lxml.html

    return lambda page: lxml.html.fromstring(page.html)


BUILDERS: dict[str, Callable[[], Run]] = {
    "webclean-bytes": _webclean_bytes,
    "webclean-str": _webclean_str,
    "webclean-python": _webclean_python,
    "trafilatura": _trafilatura,
    "resiliparse": _resiliparse,
    "readability": _readability,
    "lxml": _lxml,
}


def build(names: Sequence[str]) -> dict[str, Run]:
    runs = {}
    for name in names:
        if name not in BUILDERS:
            raise SystemExit(f"unknown extractor {name!r}; known: {', '.join(BUILDERS)}")
        try:
            runs[name] = BUILDERS[name]()
        except ImportError as exc:
            print(f"skipping {name}: {exc}", file=sys.stderr)
    return runs




# --- pages -------------------------------------------------------------------


def load_pages(specs: Sequence[str], limit: int) -> list[BenchPage]:
    """The first pages of each file: ``path`` takes ``limit`` of them, ``path:N`` N."""
    pages: list[BenchPage] = []
    for spec in specs:
        path, count = _split_spec(spec, limit)
        for _, page in zip(range(count), read_pages([path])):
            # "replace": a lone surrogate from the JSON cannot be in a response body.
            data = page.html.encode("utf-8", "replace")
            pages.append(BenchPage(page.id, page.source, page.html, data))
    return pages


def _split_spec(spec: str, limit: int) -> tuple[str, int]:
    path, _, count = spec.rpartition(":")
    if path and count.isdigit():
        return path, int(count)
    return spec, limit


# --- the machine -------------------------------------------------------------


def machine() -> dict[str, str]:
    import lxml
    import numpy
    from lxml import etree

    cpu = "unknown"
    with contextlib.suppress(OSError), open("/proc/cpuinfo", encoding="utf-8") as handle:
        cpu = next((line.split(":", 1)[1].strip() for line in handle if line.startswith("model name")), cpu)
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {
        "CPU": cpu,
        "cores": f"{os.cpu_count()} ({usable} usable by this process)",
        "memory": _memory_total(),
        "OS": f"{platform.system()} {platform.release()}",
        "Python": f"{platform.python_implementation()} {platform.python_version()}",
        "webclean": _webclean_version(),
        "webclean core": _webclean_core(),
        "lxml": f"{lxml.__version__} (libxml2 {'.'.join(map(str, etree.LIBXML_VERSION))})",
        "numpy": numpy.__version__,
        "BLAS": _blas_threads(),
        "peers": ", ".join(_versions(("trafilatura", "resiliparse", "readability-lxml", "jieba"))),
    }


def _webclean_version() -> str:
    """The package version and, for a checkout, its commit (``-dirty``: edited since)."""
    import webclean

    where = Path(webclean.__file__).resolve().parents[1]
    try:
        described = subprocess.run(
            ["git", "-C", str(where), "describe", "--always", "--dirty"], capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        described = "not a git checkout"
    return f"{webclean.__version__} ({described})"


def _webclean_core() -> str:
    """Which core webclean-bytes and webclean-str run (webclean-python: the Python path)."""
    from webclean import core

    if core.compiled is not None:
        return "compiled (webclean/_core.pyx)"
    chosen = os.environ.get(core.PURE_VARIABLE, "") not in ("", "0")
    return f"python ({core.PURE_VARIABLE}={os.environ[core.PURE_VARIABLE]})" if chosen else "python (the extension is not built)"


def _blas_threads() -> str:
    """numpy's BLAS may run a product on several threads, and process time adds them up."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return "unknown (no threadpoolctl); OPENBLAS_NUM_THREADS=" + os.environ.get("OPENBLAS_NUM_THREADS", "unset")
    pools = [
        f"{pool['internal_api']} {pool.get('architecture', '')} kernels, threads {pool['num_threads']}"
        for pool in threadpool_info()
        if pool.get("user_api") == "blas"
    ]
    coretype = os.environ.get("OPENBLAS_CORETYPE")
    return ", ".join(pools + ([f"OPENBLAS_CORETYPE={coretype}"] if coretype else [])) or "none loaded"


def _memory_total() -> str:
    with contextlib.suppress(OSError, ValueError), open("/proc/meminfo", encoding="utf-8") as handle:
        kib = int(handle.readline().split()[1])
        return f"{kib / 2**20:.1f} GiB"
    return "unknown"


def _versions(packages: Sequence[str]) -> Iterator[str]:
    from importlib.metadata import PackageNotFoundError, version

    for package in packages:
        with contextlib.suppress(PackageNotFoundError):
            yield f"{package} {version(package)}"


def load_average() -> str:
    return " / ".join(f"{x:.2f}" for x in os.getloadavg()) + " (1 / 5 / 15 min)"


def maxrss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


# --- interleaved timing ------------------------------------------------------


@dataclass
class Pass:
    """One timed pass: CPU and wall seconds per extractor, and per extractor and set."""

    cpu: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    wall: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    by_source: dict[tuple[str, str], float] = field(default_factory=lambda: defaultdict(float))


def call(run: Run, page: BenchPage) -> tuple[float, float, bool]:
    """CPU seconds, wall seconds, and whether the call raised."""
    wall, start = time.perf_counter(), time.process_time()
    failed = False
    try:
        run(page)
    # A peer's bug on one page is a figure to count, whatever its type; its time counts too.
    except Exception:  # noqa: BLE001
        failed = True
    return time.process_time() - start, time.perf_counter() - wall, failed


def warm_up(runs: dict[str, Run], pages: Sequence[BenchPage]) -> Counter[str]:
    errors: Counter[str] = Counter()
    for page in pages:
        for name, run in runs.items():
            errors[name] += call(run, page)[2]
    return errors


def timed_pass(runs: dict[str, Run], pages: Sequence[BenchPage], number: int) -> Pass:
    names = list(runs)
    result = Pass()
    for i, page in enumerate(pages):
        shift = (i + number) % len(names)
        for name in names[shift:] + names[:shift]:
            cpu, wall, _ = call(runs[name], page)
            result.cpu[name] += cpu
            result.wall[name] += wall
            result.by_source[name, page.source] += cpu
    return result


# --- webclean stage by stage -------------------------------------------------

# The recipe's stages (webclean/extract.py), in its order, as the tables name them.
STAGES = {
    "decode": "decode",
    "parse": "parse",
    "title": "title+lang",
    "segment": "segment",
    "locate": "locate",
    "features": "features",
    "classify": "classify",
    "denoise": "denoise (rest)",
    "metadata": "metadata",
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
            (name, ctypes.c_size_t)
            for name in "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split()
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


# --- report ------------------------------------------------------------------


def _median_range(values: Sequence[float], fmt: str = "{:.1f}") -> tuple[str, str]:
    return fmt.format(statistics.median(values)), f"{fmt.format(min(values))}–{fmt.format(max(values))}"


def speed_table(passes: Sequence[Pass], pages: Sequence[BenchPage], names: Sequence[str], warm_errors: Counter[str]) -> str:
    n, megabytes = len(pages), sum(len(p.data) for p in pages) / 1e6
    lines = [
        "| extractor | pages/CPU-s (median) | range over passes | ms/page | MB/CPU-s | wall ÷ CPU | raised |",
        "|---|---|---|---|---|---|---|",
    ]
    for name in names:
        speeds = [n / p.cpu[name] for p in passes]
        median, spread = _median_range(speeds)
        seconds = statistics.median(p.cpu[name] for p in passes)
        wall = sum(p.wall[name] for p in passes) / sum(p.cpu[name] for p in passes)
        raised = f"{warm_errors[name]}/{n}"
        lines.append(f"| {name} | {median} | {spread} | {1000 * seconds / n:.1f} | {megabytes / seconds:.2f} | {wall:.2f} | {raised} |")
    return "\n".join(lines)


def ratios(passes: Sequence[Pass], names: Sequence[str]) -> str:
    """Ratios per pass (the same moments of the machine), then their median."""
    lines = ["| ratio | median | range over passes |", "|---|---|---|"]
    if not any(n in names for n in ("webclean-bytes", "webclean-str")):
        return "No webclean extractor was run."
    for webclean in (n for n in ("webclean-bytes", "webclean-str") if n in names):
        if "trafilatura" in names:
            values = [p.cpu["trafilatura"] / p.cpu[webclean] for p in passes]
            lines.append(f"| {webclean} pages/s ÷ trafilatura pages/s | {' | '.join(_median_range(values, '{:.2f}'))} |")
        if "lxml" in names:
            values = [p.cpu[webclean] / p.cpu["lxml"] for p in passes]
            lines.append(f"| {webclean} CPU time ÷ bare lxml parse | {' | '.join(_median_range(values, '{:.2f}'))} |")
        if "webclean-python" in names:
            values = [p.cpu["webclean-python"] / p.cpu[webclean] for p in passes]
            lines.append(f"| {webclean} pages/s ÷ webclean-python pages/s | {' | '.join(_median_range(values, '{:.2f}'))} |")
    return "\n".join(lines)


def source_table(passes: Sequence[Pass], pages: Sequence[BenchPage], names: Sequence[str]) -> str:
    counts = Counter(p.source for p in pages)
    lines = ["| set | pages | " + " | ".join(names) + " |", "|---|---|" + "---|" * len(names)]
    for source, count in counts.items():
        cells = [f"{statistics.median(count / p.by_source[name, source] for p in passes):.1f}" for name in names]
        lines.append(f"| {source} | {count} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


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


def machine_table(info: dict[str, str]) -> str:
    return "\n".join(["| | |", "|---|---|", *(f"| {key} | {value} |" for key, value in info.items())])


# --- main --------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", nargs="+", required=True, metavar="FILE[:N]", help="jsonl(.gz) files; FILE:N takes its first N pages")
    parser.add_argument("--limit", type=int, default=DEFAULT_LIMIT, help=f"first N pages of each file (default {DEFAULT_LIMIT})")
    parser.add_argument("--reps", type=int, default=5, help="timed passes (default 5)")
    parser.add_argument("--extractors", default=",".join(BUILDERS), help="comma-separated; known: " + ", ".join(BUILDERS))
    parser.add_argument("--blas-threads", type=int, default=1, help="numpy BLAS threads (default 1; 0: numpy's default)")
    parser.add_argument("--stage-reps", type=int, help="passes of the stage breakdown (default: --reps; 0 skips it)")
    parser.add_argument("--no-memory", action="store_true", help="skip the memory measurements")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="add cProfile's top N webclean functions by own time")
    parser.add_argument("--markdown", type=Path, metavar="OUT.md", help="also write the report here")
    args = parser.parse_args(argv)
    if args.reps < 1 or args.limit < 1:
        parser.error("--reps and --limit must be at least 1")
    return args


def limit_blas(threads: int) -> None:
    """Cap numpy's BLAS threads (module docstring); 0 leaves the default."""
    if threads <= 0:
        return
    if "numpy" not in sys.modules:  # read once, when the BLAS library loads
        for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            os.environ[variable] = str(threads)
        return
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        raise SystemExit("numpy is already loaded: --blas-threads needs threadpoolctl") from None
    threadpool_limits(threads, user_api="blas")


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    limit_blas(args.blas_threads)
    load_start = load_average()
    info = machine()
    pages = load_pages(args.data, args.limit)
    if not pages:
        print("no pages", file=sys.stderr)
        return 1
    rss = [("after loading pages", maxrss_mib())]
    with quiet():
        runs = build([n.strip() for n in args.extractors.split(",") if n.strip()])
        if not runs:
            print("no extractor available", file=sys.stderr)
            return 1
        progress(f"{len(pages)} pages; warm-up of {', '.join(runs)}")
        warm_errors = warm_up(runs, pages)
        rss.append(("after warm-up", maxrss_mib()))
        passes = []
        for number in range(args.reps):
            progress(f"timed pass {number + 1}/{args.reps}")
            passes.append(timed_pass(runs, pages, number))
        stage_reps = args.reps if args.stage_reps is None else args.stage_reps
        stages: StageReport | None = None
        if stage_reps > 0:
            progress("webclean stage by stage")
            stages = stage_breakdown(pages, stage_reps)
        mem = None
        if not args.no_memory:
            progress("memory")
            mem = memory(pages)
        rss.append(("at the end", maxrss_mib()))
        profiled = profile(pages, args.profile) if args.profile else None
    info["load average at start"] = load_start
    info["load average at end"] = load_average()
    command = "python benchmarks/speed.py " + " ".join(sys.argv[1:] if argv is None else argv)
    text = report(command, pages, list(runs), passes, warm_errors, stages, mem, rss, profiled, info)
    print(text)
    if args.markdown:
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text(text, encoding="utf-8")
    return 0


def report(
    command: str,
    pages: Sequence[BenchPage],
    names: Sequence[str],
    passes: Sequence[Pass],
    warm_errors: Counter[str],
    stages: StageReport | None,
    mem: MemoryReport | None,
    rss: Sequence[tuple[str, float]],
    profiled: str | None,
    info: dict[str, str],
) -> str:
    sources = Counter(p.source for p in pages)
    size = sum(len(p.data) for p in pages)
    described = ", ".join(f"{source} {count}" for source, count in sources.items())
    parts = [
        "# webclean speed",
        f"{len(pages)} pages ({described}; {size / 1e6:.1f} MB of UTF-8, median "
        f"{statistics.median(len(p.data) for p in pages) / 1024:.0f} KiB), {len(passes)} timed passes after one warm-up, "
        "extractors interleaved page by page in rotating order. Time is process CPU time. "
        f"webclean's core: {info['webclean core']}.",
        *([] if "threads 1" in info.get("BLAS", "") else [_BLAS_WARNING]),
        "## Pages per CPU-second\n\n" + speed_table(passes, pages, names, warm_errors),
        "`raised`: calls that raised an exception in the warm-up pass (their time still counts). "
        "readability is `Document(html).summary()` (HTML out, no text conversion); lxml is `lxml.html.fromstring(html)` on the str; "
        "webclean-python is webclean-bytes on the Python path.",
        "## Ratios\n\n" + ratios(passes, names),
        "## Pages per CPU-second by set (median pass)\n\n" + source_table(passes, pages, names),
    ]
    if stages is not None:
        parts.append("## webclean by stage (bytes input)\n\n" + stage_table(stages))
    parts.append("## Memory (webclean.extract, bytes input)\n\n" + memory_table(mem, rss))
    if profiled:
        parts.append("## Profile\n\n" + profiled)
    parts.append("## Machine\n\n" + machine_table(info))
    parts.append(f"Command: `{command}`")
    return "\n\n".join(parts) + "\n"


_BLAS_WARNING = (
    "**numpy's BLAS runs on more than one thread here**: its helper threads spin after "
    "webclean's SVM products, and process time charges that to webclean and to the extractor "
    "that runs next. Compare with `--blas-threads 1`."
)


def progress(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
