"""How fast webclean is, next to its peers and to a bare lxml parse: figures, not a test.

    python benchmarks/speed.py --data ../shared/data/cwced_modern.jsonl.gz \\
        ../shared/data/readability.jsonl.gz:60 [--limit 100] [--reps 5] \\
        [--extractors webclean-bytes,webclean-str,webclean-python,webclean-untyped,trafilatura,resiliparse,readability,lxml] \\
        [--markdown benchmarks/results/speed.md] [--profile 15]

A data file may end in ``:N`` to take its first N pages instead of ``--limit``.
Pages are always the first ones of each file, so two runs time the same pages.

webclean-bytes and webclean-str run the core webclean loaded (webclean/core.py: the
compiled one where it is built, the Python path with ``WEBCLEAN_PURE=1``), and so do
the stage breakdown, the memory and the profile; webclean-python runs webclean-bytes
on the Python path in the same passes, for the ratio of the two cores;
webclean-untyped runs webclean-bytes without the model's page type and confidence, for
what the two cost. The report names the core.

What is measured, in this order:

1. one warm-up pass of every extractor over every page (webclean's model load and
   jieba's dictionary, trafilatura's and readability's first-call set-up), untimed;
2. ``--reps`` timed passes, interleaved: page by page, each extractor runs on the
   page in an order that changes from page to page and from pass to pass, so that a
   burst of load on this shared machine favours none of them; the orders are the rows
   of a balanced Latin square (:func:`orders`), so that each extractor also runs right
   after each other one as often, whose leftovers in the processor's caches (after a
   peer that builds a large tree, the next extractor's model is cold) cost what comes
   next. A plain rotation runs one extractor after the same neighbour three pages in
   four: webclean after a bare parse that follows trafilatura was 13 % slower than
   webclean listed before it, the same code. Time is
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
import os
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

# Run as a script: the tree above holds benchmarks.* and, unless one is installed or on
# PYTHONPATH (which come first), webclean.
ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))

from benchmarks.extractors import quiet  # the same silencing of the peers' logging as quality.py's
from benchmarks.machine import load_average, machine, machine_table, maxrss_mib
from benchmarks.speed_breakdown import MemoryReport, StageReport, memory, memory_table, profile, stage_breakdown, stage_table
from benchmarks.speed_pages import BenchPage, load_pages

DEFAULT_LIMIT = 100


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


def _webclean_untyped() -> Run:
    """webclean-bytes with the packaged model less its page type and confidence models: the
    pages per CPU-second that the two fields cost, in the same run. Without a page type,
    extraction reads a forum or a story from the page itself (docs/method.md), as a
    model without one does."""
    from dataclasses import replace

    from webclean.extract import extract
    from webclean.model import default_model

    model = replace(default_model(), page_types=None, confidence=None)
    return lambda page: extract(page.data, model=model)


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
    "webclean-untyped": _webclean_untyped,
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


def orders(n: int) -> list[list[int]]:
    """The rows of a balanced Latin square of ``n`` extractors (Williams's design): n
    orders of range(n), 2n where n is odd, in which each extractor comes first, last and
    right after each other one equally often."""
    base, low, high = [0], 1, n - 1
    while len(base) < n:
        base.append(low)
        low += 1
        if len(base) < n:
            base.append(high)
            high -= 1
    rows = [[(k + shift) % n for k in base] for shift in range(n)]
    return rows + [row[::-1] for row in rows] if n % 2 else rows


def timed_pass(runs: dict[str, Run], pages: Sequence[BenchPage], number: int) -> Pass:
    names = list(runs)
    square = orders(len(names))
    result = Pass()
    for i, page in enumerate(pages):
        for name in (names[k] for k in square[(i + number) % len(square)]):
            cpu, wall, _ = call(runs[name], page)
            result.cpu[name] += cpu
            result.wall[name] += wall
            result.by_source[name, page.source] += cpu
    return result


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
        if "webclean-untyped" in names:
            values = [p.cpu["webclean-untyped"] / p.cpu[webclean] for p in passes]
            lines.append(f"| {webclean} pages/s ÷ webclean-untyped pages/s | {' | '.join(_median_range(values, '{:.3f}'))} |")
    return "\n".join(lines)


def source_table(passes: Sequence[Pass], pages: Sequence[BenchPage], names: Sequence[str]) -> str:
    counts = Counter(p.source for p in pages)
    lines = ["| set | pages | " + " | ".join(names) + " |", "|---|---|" + "---|" * len(names)]
    for source, count in counts.items():
        cells = [f"{statistics.median(count / p.by_source[name, source] for p in passes):.1f}" for name in names]
        lines.append(f"| {source} | {count} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


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
        "extractors interleaved page by page in the orders of a balanced Latin square. Time is process CPU time. "
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
