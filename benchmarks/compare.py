"""How much CPU webclean takes a page against another version of itself: figures, not a test.

    python benchmarks/compare.py --ref 649c1c3 --data ../shared/data/cwced_modern.jsonl.gz:20 \\
        ../shared/data/cleaneval_zh.jsonl.gz:51 ../shared/data/readability.jsonl.gz:60 \\
        ../shared/data/trafilatura.jsonl.gz:100 [--pairs 10]

The machine's speed moves from run to run by more than a change costs, so the two
versions run side by side: two worker processes, each importing webclean from its own
tree (the working tree of this script, and a git worktree of ``--ref`` made for the run,
its compiled core built there, or ``--ref-path``, whose core must be built), warm up on
the pages, then take turns extracting all of them from bytes, in alternating order, one
BLAS thread each. A pass's time is its process's CPU time. Printed: each side's passes
and the median over pairs of this tree's time divided by the other's (under 1: this tree
is faster), with its range.

With ``--instructions``, the instructions a pass instead, counted by valgrind's
callgrind (deterministic, whatever else the machine runs, but blind to the cache): a run
of two passes less a run of one, so that imports, loading and warm-up cancel; the four
runs take a few minutes each.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

# Run as a script: the tree above holds benchmarks.* and, unless one is installed or on
# PYTHONPATH (which come first), webclean.
ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))

from benchmarks.speed_pages import load_pages

# Run in a process with PYTHONPATH at a tree: the pages are files named 0, 1, … in the
# directory given; the process says which webclean it imported, then extracts.
_PAGES = """
import sys, time
from pathlib import Path
from webclean import extract
import webclean
from webclean.config import Config
folder = Path(sys.argv[1])
pages = [path.read_bytes() for path in sorted(folder.iterdir(), key=lambda p: int(p.name))]
import webclean.core
print(webclean.__file__, getattr(webclean.core.compiled, "__file__", "python"), flush=True)
# No time limit: under valgrind a page takes fifty times as long, and a page cut short
# by the limit would be less work than the page.
config = Config().with_overrides(["limits.timeout_seconds=0"])
"""
# A worker warms up on the pages; every line on stdin asks for one pass, answered with
# its CPU seconds.
_WORKER = _PAGES + """
for page in pages:
    extract(page, config=config)
for _ in sys.stdin:
    start = time.process_time()
    for page in pages:
        extract(page, config=config)
    print(time.process_time() - start, flush=True)
"""
# Under callgrind (--instructions): the passes asked for over the pages.
_COUNTER = _PAGES + """
for _ in range(int(sys.argv[2])):
    for page in pages:
        extract(page, config=config)
"""
_ONE_THREAD = {name: "1" for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}
_COLLECTED_RE = re.compile(r"Collected : (\d+)")


class Worker:
    """A process extracting the pages with the webclean of ``tree``."""

    def __init__(self, tree: Path, pages: Path) -> None:
        env = {**os.environ, **_ONE_THREAD, "PYTHONPATH": str(tree)}
        self.process = subprocess.Popen(
            [sys.executable, "-c", _WORKER, str(pages)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=tree,  # "-c" puts the working directory first on sys.path
        )
        self.module = self._answer()
        if not _imported_from(tree, self.module):
            self.close()
            raise RuntimeError(f"the worker for {tree} imported webclean (and its compiled core) from {self.module}")

    def run(self) -> float:
        """One pass over the pages: its CPU seconds."""
        assert self.process.stdin is not None
        self.process.stdin.write("go\n")
        self.process.stdin.flush()
        return float(self._answer())

    def _answer(self) -> str:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the worker stopped (exit status {self.process.wait()})")
        return line.strip()

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


def _imported_from(tree: Path, modules: str) -> bool:
    """Whether the webclean a process imported and its compiled core (their ``__file__``,
    or "python" for no compiled core) are ``tree``'s. An editable install of the package
    answers for ``webclean._core`` where a tree has none built: that core is not the tree's."""
    found = modules.split()
    if len(found) != 2:
        return False
    package, core = found
    return Path(package).resolve().is_relative_to(tree.resolve()) and (
        core == "python" or Path(core).resolve().is_relative_to(tree.resolve())
    )


def build_core(tree: Path) -> None:
    """Build ``tree``'s compiled core and put it in the tree, as ``pip install -e .`` does
    for this one: a checkout of another revision has none, and would run another tree's.
    pip builds the tree's wheel (its own build requirements, in isolation); its extension
    is taken out of it."""
    with tempfile.TemporaryDirectory(prefix="webclean-wheel-") as folder:
        done = subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", folder, str(tree)],
            capture_output=True, text=True,
        )  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(f"building the compiled core of {tree} failed: {done.stderr[-500:]}")
        (wheel,) = Path(folder).glob("webclean-*.whl")
        with zipfile.ZipFile(wheel) as archive:
            for name in archive.namelist():
                if name.startswith("webclean/_core.") and name.endswith((".so", ".pyd")):
                    (tree / name).write_bytes(archive.read(name))


@contextlib.contextmanager
def worktree(ref: str) -> Iterator[Path]:
    """A detached git worktree of ``ref``, its compiled core built, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="webclean-ref-") as parent:
        path = Path(parent) / "tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), ref], check=True, capture_output=True)
        try:
            build_core(path)
            yield path
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path)], check=False, capture_output=True)


def compare(tree: Path, ref_tree: Path, pages: Path, pairs: int) -> tuple[list[float], list[float]]:
    """Each side's CPU seconds a pass, pass for pass, the order alternating."""
    mine, theirs = Worker(tree, pages), Worker(ref_tree, pages)
    try:
        times: tuple[list[float], list[float]] = ([], [])
        for i in range(pairs):
            first, second = (0, 1) if i % 2 == 0 else (1, 0)
            for side in (first, second):
                times[side].append((mine, theirs)[side].run())
        return times
    finally:
        mine.close()
        theirs.close()


def instructions(tree: Path, pages: Path, passes: int) -> int:
    """The instructions callgrind counts in a process that imports the webclean of
    ``tree`` and extracts the pages ``passes`` times."""
    with tempfile.TemporaryDirectory(prefix="webclean-callgrind-") as folder:
        done = subprocess.run(
            [
                "valgrind", "--tool=callgrind", f"--callgrind-out-file={folder}/out",
                sys.executable, "-c", _COUNTER, str(pages), str(passes),
            ],
            capture_output=True, text=True, env={**os.environ, **_ONE_THREAD, "PYTHONPATH": str(tree)}, cwd=tree,
        )  # fmt: skip
    module = done.stdout.strip()
    if done.returncode != 0 or not _imported_from(tree, module):
        raise RuntimeError(f"the count for {tree} failed (webclean from {module!r}): {done.stderr[-500:]}")
    found = _COLLECTED_RE.search(done.stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no count for {tree}: {done.stderr[-500:]}")
    return int(found.group(1))


def instructions_a_pass(trees: Sequence[Path], pages: Path) -> list[int]:
    """Each tree's instructions for one pass: a run of two passes less a run of one,
    the four runs two at a time."""
    runs = [(tree, passes) for tree in trees for passes in (1, 2)]
    with ThreadPoolExecutor(2) as pool:
        counts = list(pool.map(lambda run: instructions(run[0], pages, run[1]), runs))
    return [two - one for one, two in zip(counts[0::2], counts[1::2])]


def report(label: str, ref: str, count: int, mine: Sequence[float], theirs: Sequence[float]) -> str:
    ratios = [a / b for a, b in zip(mine, theirs)]
    return "\n".join(
        [
            f"{count} pages, {len(ratios)} pairs of passes (process CPU seconds a pass)",
            f"{label}: " + " ".join(f"{t:.3f}" for t in mine),
            f"{ref}: " + " ".join(f"{t:.3f}" for t in theirs),
            f"CPU a page, {label} ÷ {ref}: median {statistics.median(ratios):.3f} "
            f"(pairs {min(ratios):.3f}-{max(ratios):.3f}); pages per CPU-second {1 / statistics.median(ratios):.3f}×",
        ]
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", nargs="+", required=True, metavar="FILE[:N]", help="jsonl(.gz) files; FILE:N takes its first N pages")
    parser.add_argument("--limit", type=int, default=100, help="first N pages of each file (default 100)")
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--ref", help="a git revision of this repository to compare with")
    target.add_argument("--ref-path", type=Path, help="a checkout to compare with (its webclean/ is imported)")
    parser.add_argument("--pairs", type=int, default=10, help="pairs of passes (default 10)")
    parser.add_argument("--instructions", action="store_true", help="count instructions a pass with valgrind instead")
    args = parser.parse_args(argv)
    if args.instructions and shutil.which("valgrind") is None:
        parser.error("--instructions needs valgrind on PATH")
    pages = load_pages(args.data, args.limit)
    with tempfile.TemporaryDirectory(prefix="webclean-pages-") as folder:
        for i, page in enumerate(pages):
            (Path(folder) / str(i)).write_bytes(page.data)
        with contextlib.ExitStack() as stack:
            ref_tree = args.ref_path if args.ref_path else stack.enter_context(worktree(args.ref))
            if args.instructions:
                counts = instructions_a_pass([ROOT, ref_tree], Path(folder))
            else:
                mine, theirs = compare(ROOT, ref_tree, Path(folder), args.pairs)
    ref = args.ref or str(args.ref_path)
    if args.instructions:
        mine_count, their_count = counts
        print(f"{len(pages)} pages, instructions a pass (callgrind): this tree {mine_count:,}, {ref} {their_count:,}")
        print(f"instructions, this tree ÷ {ref}: {mine_count / their_count:.3f}")
    else:
        print(report("this tree", ref, len(pages), mine, theirs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
