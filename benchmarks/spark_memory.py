"""The memory of the extract job's Python workers over one large WARC, and its pages per second.

    python benchmarks/spark_memory.py --data ../shared/data/*.jsonl.gz --size-mb 1000 --markdown run.md

1. Builds one WARC file of about ``--size-mb`` MB (gzip, one member per record, as
   warcio writes it) by cycling through the pages of the data files: response records
   with HTTP headers, each with its own WARC-Target-URI. The file goes to ``--work``
   with a note of the parameters it was built with, and is reused when they match.
2. Runs ``jobs/extract.py`` on it on ``local[N]`` as ``spark_throughput.py`` does,
   while a thread reads, every ``--interval`` seconds, the RSS (VmRSS of
   ``/proc/<pid>/status``) of the Spark JVM, the job's driver and every Python worker:
   the ``pyspark.daemon`` and the workers it forks (or ``pyspark.worker`` processes).

It prints, in Markdown: pages, wall time and pages per second; per process its RSS at
10 %, 50 % and 90 % of the run and its maximum; the largest totals; and a verdict per
Python worker, from the median RSS of the last third of its samples against the first
third's. The samples themselves go to a CSV file beside the WARC.

The job reads a WARC larger than ``input.task_bytes`` in byte ranges, a task each; this
sets it to the file's size, so that a WARC of Common Crawl's size is read from end to
end by one worker, which is what this measures.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from spark_throughput import page_url, run_job, write_page
from warcio.warcwriter import WARCWriter

from webclean.datasets import read_pages

MIB = 1024 * 1024
# Bump when the way the WARC is written changes, so that an old file is not reused.
WARC_FORMAT = 2
QUANTILES = (0.1, 0.5, 0.9)
PYTHON_ROLES = ("daemon", "worker")


# ---------------------------------------------------------------- the WARC


@dataclass(frozen=True)
class BuiltWarc:
    path: Path
    bytes: int
    records: int
    html_bytes: int
    passes: float
    seconds: float
    reused: bool


def build_warc(data: list[str], size_mb: int, work: Path) -> BuiltWarc:
    """One WARC of about ``size_mb`` MB, cycling through the pages; reused if already built alike."""
    path = work / f"pages-{size_mb}MB.warc.gz"
    note = path.with_name(path.name + ".json")
    params = _build_params(data, size_mb)
    if path.exists() and note.exists():
        built = json.loads(note.read_text())
        if built.get("params") == params and built.get("bytes") == path.stat().st_size:
            return BuiltWarc(path, built["bytes"], built["records"], built["html_bytes"], built["passes"], built["seconds"], True)
    work.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    partial = path.with_name(path.name + ".part")
    records, html_bytes, per_pass = _write_cycling(data, size_mb * 10**6, partial)
    partial.replace(path)
    seconds = time.monotonic() - started
    built = {
        "params": params,
        "bytes": path.stat().st_size,
        "records": records,
        "html_bytes": html_bytes,
        "passes": round(records / per_pass, 2),
        "seconds": round(seconds, 1),
    }
    note.write_text(json.dumps(built, indent=1) + "\n")
    return BuiltWarc(path, built["bytes"], records, html_bytes, built["passes"], built["seconds"], False)


def _build_params(data: list[str], size_mb: int) -> dict[str, object]:
    files = [Path(d).resolve() for d in data]
    return {
        "format": WARC_FORMAT,
        "size_mb": size_mb,
        "data": [[str(f), f.stat().st_size, int(f.stat().st_mtime)] for f in files],
    }


def _write_cycling(data: list[str], target: int, path: Path) -> tuple[int, int, int]:
    """Pass over the pages again and again until the file holds ``target`` bytes."""
    records = html_bytes = per_pass = 0
    with open(path, "wb") as handle:
        writer = WARCWriter(handle, gzip=True)
        while handle.tell() < target:
            before = records
            for page in read_pages(data):
                write_page(writer, page, _distinct(page_url(page, records), records))
                records += 1
                html_bytes += len(page.html.encode("utf-8"))
                if handle.tell() >= target:
                    break
            per_pass = per_pass or records - before
            if records == before:
                raise ValueError(f"no pages in {', '.join(data)}")
    return records, html_bytes, per_pass


def _distinct(url: str, number: int) -> str:
    """The URL with the record's number in its query: every pass repeats the pages."""
    # Some stored URLs hold spaces, which warcio would replace with a warning per record.
    parts = urlsplit(url.replace(" ", "%20"))
    query = f"{parts.query}&record={number}" if parts.query else f"record={number}"
    return urlunsplit(parts._replace(query=query))


# ---------------------------------------------------------------- sampling RSS


@dataclass(frozen=True)
class Process:
    pid: int
    parent: int
    start: int  # clock ticks after boot: with the pid, names the process even if the pid is reused
    role: str  # jvm, driver, daemon or worker


@dataclass
class Samples:
    """RSS in bytes of the job's processes, one dict a tick, and the tick's time from the start."""

    times: list[float] = field(default_factory=list)
    rss: list[dict[Process, int]] = field(default_factory=list)


class Sampler:
    """Reads the RSS of this process's Spark descendants every ``interval`` seconds, from a thread."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self.samples = Samples()
        self._roles: dict[tuple[int, int], str | None] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="rss-sampler", daemon=True)
        self._started = 0.0

    def __enter__(self) -> Sampler:
        self._started = time.monotonic()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        next_tick = time.monotonic()
        while not self._stop.is_set():
            now = time.monotonic()
            self.samples.times.append(now - self._started)
            self.samples.rss.append(self._tick())
            next_tick += self.interval
            self._stop.wait(max(0.0, next_tick - time.monotonic()))

    def _tick(self) -> dict[Process, int]:
        table = _process_table()
        found: dict[Process, int] = {}
        for pid in _descendants(os.getpid(), table):
            parent, start = table[pid]
            role = self._role(pid, start, table)
            rss = _rss(pid) if role else None
            if role and rss is not None:
                found[Process(pid, parent, start, role)] = rss
        return found

    def _role(self, pid: int, start: int, table: dict[int, tuple[int, int]]) -> str | None:
        key = (pid, start)
        if self._roles.get(key) is None:  # a launcher script may exec java later: ask again
            self._roles[key] = _role_of(_cmdline(pid), _cmdline(table[pid][0]))
        return self._roles[key]


def _process_table() -> dict[int, tuple[int, int]]:
    """pid -> (parent pid, start time) of every process."""
    table = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone since the directory was listed
        table[int(entry.name)] = (int(fields[1]), int(fields[19]))
    return table


def _descendants(root: int, table: dict[int, tuple[int, int]]) -> list[int]:
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in table.items():
        children.setdefault(parent, []).append(pid)
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return handle.read().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return ""


def _role_of(cmdline: str, parent_cmdline: str) -> str | None:
    if "org.apache.spark.deploy.SparkSubmit" in cmdline:
        return "jvm"
    if "pyspark.daemon" in cmdline:
        # The daemon's workers are forks of it and keep its command line.
        return "worker" if "pyspark.daemon" in parent_cmdline else "daemon"
    if "pyspark.worker" in cmdline:
        return "worker"
    if "jobs/extract.py" in cmdline and "SparkSubmit" not in cmdline:
        return "driver"
    return None


def _rss(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


# ---------------------------------------------------------------- reading the samples


@dataclass(frozen=True)
class Series:
    process: Process
    times: list[float]
    rss: list[int]

    def at(self, moment: float, slack: float) -> int | None:
        """The sample nearest to ``moment``, if the process was alive then."""
        if not self.times or moment < self.times[0] - slack or moment > self.times[-1] + slack:
            return None
        nearest = min(range(len(self.times)), key=lambda i: abs(self.times[i] - moment))
        return self.rss[nearest]

    def thirds(self) -> tuple[float, float] | None:
        """Median RSS of the first and of the last third of the samples; None if too few."""
        third = len(self.rss) // 3
        if third < 2:
            return None
        return statistics.median(self.rss[:third]), statistics.median(self.rss[-third:])


def series_by_process(samples: Samples) -> list[Series]:
    points: dict[Process, tuple[list[float], list[int]]] = {}
    for moment, tick in zip(samples.times, samples.rss):
        for process, rss in tick.items():
            times, values = points.setdefault(process, ([], []))
            times.append(moment)
            values.append(rss)
    order = {"jvm": 0, "driver": 1, "daemon": 2, "worker": 3}
    found = [Series(p, t, v) for p, (t, v) in points.items()]
    return sorted(found, key=lambda s: (order[s.process.role], s.times[0], s.process.pid))


def totals(samples: Samples, roles: tuple[str, ...]) -> list[int]:
    return [sum(rss for p, rss in tick.items() if p.role in roles) for tick in samples.rss]


def write_samples_csv(samples: Samples, path: Path) -> None:
    with open(path, "w", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(["seconds", "pid", "role", "rss_bytes"])
        for moment, tick in zip(samples.times, samples.rss):
            for process, rss in tick.items():
                out.writerow([f"{moment:.2f}", process.pid, process.role, rss])


# ---------------------------------------------------------------- the report


def _mib(value: float | None) -> str:
    return "—" if value is None else f"{value / MIB:,.0f}"


def growth_of(series: Series, tolerance: float) -> tuple[str, bool | None]:
    """The change from the first third's median to the last third's, and whether it is growth."""
    thirds = series.thirds()
    if thirds is None:
        return "too few samples", None
    first, last = thirds
    change = (last - first) / first if first else 0.0
    return f"{_mib(first)} → {_mib(last)} ({change:+.1%})", change > tolerance


def report(args: argparse.Namespace, warc: BuiltWarc, job: dict, samples: Samples, loads: tuple) -> str:
    run = samples.times[-1] if samples.times else 0.0
    slack = 2 * args.interval
    moments = [q * run for q in QUANTILES]
    pages = int(job["pages"])
    wall = float(job["wall_seconds"])
    built = f"reused (built in {warc.seconds:.0f} s)" if warc.reused else f"built in {warc.seconds:.0f} s"
    lines = [
        f"## The extract job on one {warc.bytes / 1e9:.2f} GB WARC, local[{args.cores}]",
        "",
        f"WARC: `{warc.path}`, {warc.bytes / 1e6:,.1f} MB gzipped (a member per record), {warc.records:,} response "
        f"records, {warc.html_bytes / 1e9:.2f} GB of HTML ({warc.passes:g} passes over the pages of "
        f"{', '.join(Path(d).name for d in args.data)}); {built}.",
        f"Machine: {os.cpu_count()} cores, Python {platform.python_version()}; load average "
        f"{loads[0][0]:.2f} / {loads[0][1]:.2f} / {loads[0][2]:.2f} at the start, "
        f"{loads[1][0]:.2f} / {loads[1][1]:.2f} / {loads[1][2]:.2f} at the end. "
        f"RSS sampled every {args.interval:g} s: {len(samples.times)} samples.",
        "",
        "| measure | value |",
        "|---|---|",
        f"| pages | {pages:,} |",
        f"| wall time, job (listing to summary) | {wall:.1f} s |",
        f"| wall time, spark-submit to exit | {float(job['wall_with_jvm']):.1f} s |",
        f"| pages/s (job wall time) | {pages / wall:.1f} |",
        f"| pages by status | {json.dumps(job['pages_by_status'])} |",
        f"| files with errors | {len(job['files_with_errors'])} |",
        "",
        f"### RSS by process (MiB), at 10 / 50 / 90 % of the run ({run:.0f} s from spark-submit)",
        "",
        "| process | pid | alive (s from start) | at 10 % | at 50 % | at 90 % | max | median, first third → last third |",
        "|---|---|---|---|---|---|---|---|",
    ]
    verdicts = []
    for series in series_by_process(samples):
        process = series.process
        change, grew = growth_of(series, args.tolerance)
        at = [_mib(series.at(m, slack)) for m in moments]
        alive = f"{series.times[0]:.0f}–{series.times[-1]:.0f}"
        name = f"worker of {process.parent}" if process.role == "worker" else process.role
        lines.append(
            f"| {name} | {process.pid} | {alive} | {' | '.join(at)} | {_mib(max(series.rss))} | {change} |"
        )
        if process.role in PYTHON_ROLES:
            verdicts.append((process, grew, change))
    for label, roles in (("Python workers (daemon included)", PYTHON_ROLES), ("Python workers + JVM", PYTHON_ROLES + ("jvm",))):
        summed = totals(samples, roles)
        at = [_mib(summed[min(range(len(summed)), key=lambda i: abs(samples.times[i] - m))]) for m in moments]
        lines.append(f"| **total, {label}** | | | {' | '.join(at)} | {_mib(max(summed, default=0))} | |")
    lines += [
        "",
        "RSS counts the pages a forked worker still shares with the daemon in both, so the totals overstate "
        "the memory used.",
        "",
        _verdict(verdicts, args.tolerance),
    ]
    return "\n".join(lines) + "\n"


def _verdict(verdicts: list[tuple[Process, bool | None, str]], tolerance: float) -> str:
    judged = [(p, grew, change) for p, grew, change in verdicts if grew is not None]
    if not judged:
        return "**Verdict: no Python worker lived long enough to judge.**"
    grown = [f"{p.role} {p.pid}: {change}" for p, grew, change in judged if grew]
    rule = f"median RSS of the last third of its samples over the first third's by more than {tolerance:.0%}"
    if grown:
        return f"**Verdict: RSS grew over the run** ({rule}): " + "; ".join(grown) + "."
    return f"**Verdict: RSS bounded**: no Python worker ({len(judged)} judged) has its {rule}."


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", nargs="+", required=True, help="gzip JSON Lines of pages")
    parser.add_argument("--size-mb", type=int, default=1000, help="size of the gzipped WARC (10^6 bytes)")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "webclean-spark-memory",
                        help="folder for the WARC, the samples and the job's output (removed after)")  # fmt: skip
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--interval", type=float, default=0.5, help="seconds between RSS samples")
    parser.add_argument("--tolerance", type=float, default=0.10, help="growth of the median RSS called growth")
    parser.add_argument("--markdown", type=Path, help="also write the Markdown here")
    args = parser.parse_args(argv)
    warc = build_warc(args.data, args.size_mb, args.work)
    print(f"WARC {'reused' if warc.reused else 'built'}: {warc.path} ({warc.bytes / 1e6:.1f} MB)", file=sys.stderr)
    loads = [os.getloadavg()]
    with tempfile.TemporaryDirectory(prefix="out-", dir=args.work) as scratch, Sampler(args.interval) as sampler:
        job = run_job([warc.path], args.cores, Path(scratch) / "out", settings=[f"input.task_bytes={warc.bytes}"])
    loads.append(os.getloadavg())
    samples_csv = warc.path.with_name(f"rss-{time.strftime('%Y%m%d-%H%M%S')}.csv")
    write_samples_csv(sampler.samples, samples_csv)
    text = report(args, warc, job, sampler.samples, tuple(loads)) + f"\nSamples: `{samples_csv}`.\n"
    print(text)
    if args.markdown:
        args.markdown.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
