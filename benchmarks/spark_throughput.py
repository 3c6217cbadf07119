"""The extract job's pages per second against the same extraction in a plain loop.

    python benchmarks/spark_throughput.py --data ../shared/data/*.jsonl.gz --pages 800 8000 --runs 2

For each ``--pages`` size:

1. Writes that many pages of the data files, cycling through them when there are
   fewer, into ``--files`` WARC files (response records with HTTP headers, as a
   crawler writes them) in a scratch directory.
2. Runs, ``--runs`` times and alternating (loop then job, then job then loop, ...):
   - the plain loop: ``webclean.warc.iter_warc`` then ``webclean.extract`` on N
     processes, one WARC file at a time each, as the job's tasks do, one BLAS thread;
   - ``jobs/extract.py`` with ``spark-submit --master local[N]`` and the project's
     ``conf/``, with Spark's event log on, while a thread reads the CPU time of every
     process of the job from ``/proc`` (Linux): the JVM, the Python driver, the
     Python workers.

Both sides are split into start-up and steady state:

- loop: start-up is the process pool's start, imports and a warm-up page per process;
  steady state is the extraction of the files by the warm pool.
- job: start-up is spark-submit to the first task of the extraction stage (JVM,
  session, listing, model, planning); steady state is that stage, first task's start
  to last task's end (the Python workers' start included: Spark reports it per task);
  the rest is the write's commit, the summary and the exit.

It prints a table per run and the overheads by the medians of the runs: the job's own
pages/s (listing to summary) against the loop's steady state, steady state against
steady state, and end to end; and CPU-seconds per page.
"""

from __future__ import annotations

import argparse
import io
import itertools
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from webclean.datasets import Page, read_pages

ROOT = Path(__file__).resolve().parent.parent
WARC_DATE = datetime(2026, 1, 1, tzinfo=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
CPU_INTERVAL = 0.5
CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


# ---------------------------------------------------------------- the input


def write_warcs(data: list[str], pages: int, files: int, directory: Path) -> list[Path]:
    """Spread ``pages`` pages of the data over ``files`` WARC files, cycling through the data."""
    paths = [directory / f"part-{i:02d}.warc.gz" for i in range(files)]
    handles = [open(p, "wb") for p in paths]
    writers = [WARCWriter(h, gzip=True) for h in handles]
    for number, page in enumerate(itertools.islice(_cycle(data), pages)):
        write_page(writers[number % files], page, page_url(page, number))
    for handle in handles:
        handle.close()
    return paths


def _cycle(data: list[str]) -> Iterator[Page]:
    while True:
        empty = True
        for page in read_pages(data):
            empty = False
            yield page
        if empty:
            raise ValueError(f"no pages in {', '.join(data)}")


def page_url(page: Page, number: int) -> str:
    """The page's own URL, or a made-up one for pages stored without one."""
    return page.url if page.url and page.url.startswith("http") else f"http://bench.invalid/{page.source}/{number}"


def write_page(writer: WARCWriter, page: Page, url: str) -> None:
    """One page as a response record with HTTP headers, as a crawler writes it."""
    body = page.html.encode("utf-8")
    headers = StatusAndHeaders(
        "200 OK", [("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(body)))], protocol="HTTP/1.1"
    )
    record = writer.create_warc_record(
        url, "response", payload=io.BytesIO(body), http_headers=headers, warc_headers_dict={"WARC-Date": WARC_DATE}
    )
    writer.write_record(record)


# ---------------------------------------------------------------- the job


class ProcessTreeCpu:
    """CPU seconds (user + system) of a process and its descendants by role, from /proc.

    Read every CPU_INTERVAL seconds: a process's last reading before it exits stands,
    so up to an interval of its CPU time is missed, and processes that live less than
    an interval are not seen (spark-submit's shell wrappers). Linux only: elsewhere
    ``available`` is False and the totals are empty.
    """

    def __init__(self, root: int) -> None:
        self.available = Path("/proc/self/stat").exists()
        self._root = root
        self._tree: dict[int, str] = {}  # pid -> role
        self._cpu: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> ProcessTreeCpu:
        if self.available:
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self.available:
            self._thread.join()

    def totals(self) -> dict[str, float]:
        out: Counter[str] = Counter()
        for pid, seconds in self._cpu.items():
            out[self._tree[pid]] += seconds
        return dict(out)

    def _run(self) -> None:
        seen: set[int] = set()
        while True:
            self._read(seen)
            if self._stop.wait(CPU_INTERVAL):
                self._read(seen)
                return

    def _read(self, seen: set[int]) -> None:
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) in seen:
                continue
            pid = int(entry)
            seen.add(pid)
            stat = _stat(pid)
            if stat and (pid == self._root or stat[0] in self._tree):
                self._tree[pid] = "other"
        for pid in self._tree:
            stat = _stat(pid)
            if stat:
                self._cpu[pid] = stat[1]
                # Read again each time: spark-submit's shell script becomes the JVM by exec
                # (and a process that exited has no command line left: its role stands).
                self._tree[pid] = _role(pid) or self._tree[pid]


def _stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU seconds) of a live process."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def _role(pid: int) -> str | None:
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return None
    if not command:
        return None
    if os.path.basename(command.split(" ")[0]).startswith("java"):
        return "jvm"
    if "pyspark.daemon" in command or "pyspark.worker" in command:
        return "python workers"
    if "jobs/extract.py" in command:
        return "driver"
    return "other"


def run_job(
    paths: list[Path], cores: int, out: Path, events: Path | None = None, settings: Sequence[str] = ()
) -> dict[str, Any]:
    """spark-submit jobs/extract.py with ``--set`` of each of ``settings``; the job's summary
    plus wall time, CPU by process and phases."""
    spark_submit = Path(sys.executable).parent / "spark-submit"
    event_conf: list[str] = []
    if events is not None:
        events.mkdir(parents=True, exist_ok=True)
        event_conf = [
            "--conf", "spark.eventLog.enabled=true",
            "--conf", f"spark.eventLog.dir={events.resolve().as_uri()}",
            "--conf", "spark.eventLog.compress=false",
        ]  # fmt: skip
    command = [
        str(spark_submit),
        "--master", f"local[{cores}]",
        "--properties-file", str(ROOT / "conf/spark-defaults.conf"),
        "--driver-java-options", f"-Dlog4j.configurationFile={ROOT / 'conf/log4j2.properties'}",
        *event_conf,
        str(ROOT / "jobs/extract.py"),
        "--input", *map(str, paths),
        "--output", str(out),
        "--run-date", "2026-01-01",
        *(argument for setting in settings for argument in ("--set", setting)),
    ]  # fmt: skip
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable}
    before = _children_cpu()
    started_at = time.time()
    start = time.monotonic()
    process = subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL)
    with ProcessTreeCpu(process.pid) as cpu:
        if process.wait() != 0:
            raise subprocess.CalledProcessError(process.returncode, command)
    wall = time.monotonic() - start
    summary = json.loads(next(out.glob("_summary/*/summary.json")).read_text())
    result = {"wall_with_jvm": wall, "cpu_by_process": cpu.totals(), "cpu_reaped": _children_cpu() - before, **summary}
    if events is not None:
        result["phases"] = job_phases(events, started_at, started_at + wall)
    return result


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def job_phases(events: Path, started: float, ended: float) -> dict[str, float]:
    """Seconds of each phase of the run, from the event log (epoch seconds in, durations out).

    The extraction stage is the one that writes the output rows (the mapInArrow runs in
    the write's tasks).
    """
    app_start = None
    tasks: dict[int, list[dict[str, Any]]] = {}
    writing: set[int] = set()
    for path in sorted(events.rglob("events_*")):
        for line in path.read_text().splitlines():
            event = json.loads(line)
            kind = event["Event"]
            if kind == "SparkListenerApplicationStart":
                app_start = event["Timestamp"] / 1e3
            elif kind == "SparkListenerTaskEnd":
                tasks.setdefault(event["Stage ID"], []).append(event)
                if event.get("Task Metrics", {}).get("Output Metrics", {}).get("Records Written"):
                    writing.add(event["Stage ID"])
    if app_start is None or not writing:
        raise ValueError(f"{events}: no application start or no stage that wrote rows in the event log")
    stage = [t for s in writing for t in tasks[s]]
    first = min(t["Task Info"]["Launch Time"] for t in stage) / 1e3
    last = max(t["Task Info"]["Finish Time"] for t in stage) / 1e3
    worker_start = [_accumulable(t, "time to start Python workers") / 1e3 for t in stage]
    return {
        "jvm_to_context": app_start - started,
        "context_to_first_task": first - app_start,
        "startup": first - started,
        "stage": last - first,
        "after_stage": ended - last,
        "tasks": len(stage),
        "task_seconds": [round((t["Task Info"]["Finish Time"] - t["Task Info"]["Launch Time"]) / 1e3, 1) for t in stage],
        "worker_start_mean": statistics.fmean(worker_start) if worker_start else 0.0,
    }


def _accumulable(task: dict[str, Any], name: str) -> float:
    for item in task["Task Info"].get("Accumulables", []):
        if item.get("Name") == name:
            return float(item.get("Update") or 0)
    return 0.0


# ---------------------------------------------------------------- the loop


def extract_file(path: str) -> tuple[Counter[str], float]:
    """One WARC file through the library, as one task of the job does it: statuses, CPU seconds."""
    import webclean
    from webclean.warc import WarcPage, iter_warc

    start = time.process_time()
    statuses: Counter[str] = Counter()
    for item in iter_warc(path):
        if isinstance(item, WarcPage):
            if item.status is None:
                statuses[webclean.extract(item.body, item.url, http_charset=item.charset).status] += 1
            else:
                statuses[item.status] += 1
    return statuses, time.process_time() - start


def _warm_up() -> None:
    from threadpoolctl import threadpool_limits

    import webclean

    # One BLAS thread, as the job's workers have (conf/spark-defaults.conf) and as
    # the command line sets: a second one doubles the CPU time per page (docs/speed.md).
    threadpool_limits(limits=1, user_api="blas")

    webclean.extract(b"<html><body><div><p>warm up, warm up, warm up.</p></div></body></html>")


def run_loop(paths: list[Path], cores: int) -> dict[str, Any]:
    before = _children_cpu()
    start = time.monotonic()
    with ProcessPoolExecutor(max_workers=cores, initializer=_warm_up) as pool:
        list(pool.map(_warm_up_task, range(cores)))  # model loaded and warmed before the clock
        steady = time.monotonic()
        results = list(pool.map(extract_file, map(str, paths)))
        wall = time.monotonic() - steady
    end_to_end = time.monotonic() - start
    statuses = sum((s for s, _ in results), Counter())
    pages = sum(statuses.values())
    return {
        "pages": pages,
        "pages_by_status": dict(sorted(statuses.items())),
        "wall_seconds": wall,
        "pages_per_second": pages / wall,
        "startup": steady - start,
        "end_to_end": end_to_end,
        "cpu_seconds": sum(c for _, c in results),
        "cpu_all": _children_cpu() - before,
    }


def _warm_up_task(_: int) -> None:
    time.sleep(0.2)


# ---------------------------------------------------------------- the report


def loop_row(run: int, pages: int, loop: dict[str, Any], load: float) -> str:
    return (
        f"| {pages} | {run} | loop | {load:.2f} | {loop['end_to_end']:.1f} | {loop['startup']:.1f} | "
        f"{loop['wall_seconds']:.1f} | {loop['pages_per_second']:.1f} | — | "
        f"{1e3 * loop['cpu_seconds'] / pages:.1f} | {1e3 * loop['cpu_all'] / pages:.1f} | — |"
    )


def job_row(run: int, pages: int, job: dict[str, Any], load: float) -> str:
    phases, cpu = job["phases"], job["cpu_by_process"]
    total = sum(cpu.values()) if cpu else job["cpu_reaped"]
    workers = f"{1e3 * cpu['python workers'] / pages:.1f}" if "python workers" in cpu else "—"
    return (
        f"| {pages} | {run} | job | {load:.2f} | {job['wall_with_jvm']:.1f} | {phases['startup']:.1f} | "
        f"{phases['stage']:.1f} | {pages / phases['stage']:.1f} | {job['pages_per_second']:.1f} | "
        f"{workers} | {1e3 * total / pages:.1f} | "
        f"{phases['after_stage']:.1f} |"
    )


def overheads(pages: int, loops: list[dict[str, Any]], jobs: list[dict[str, Any]]) -> list[str]:
    """Overheads by the medians of the runs: job time ÷ loop time − 1."""

    def median(values: Iterator[float]) -> float:
        return statistics.median(list(values))

    loop_rate = median(r["pages_per_second"] for r in loops)
    lines = [
        f"| {pages} | the job's pages/s (listing to summary) vs the loop's steady state | "
        f"{median(j['pages_per_second'] for j in jobs):.1f} vs {loop_rate:.1f} | "
        f"{loop_rate / median(j['pages_per_second'] for j in jobs) - 1:+.1%} |",
        f"| {pages} | steady state: extraction stage vs warm pool | "
        f"{median(pages / j['phases']['stage'] for j in jobs):.1f} vs {loop_rate:.1f} pages/s | "
        f"{loop_rate / median(pages / j['phases']['stage'] for j in jobs) - 1:+.1%} |",
        f"| {pages} | end to end: spark-submit to exit vs pool start to shutdown | "
        f"{median(j['wall_with_jvm'] for j in jobs):.1f} vs {median(r['end_to_end'] for r in loops):.1f} s | "
        f"{median(j['wall_with_jvm'] for j in jobs) / median(r['end_to_end'] for r in loops) - 1:+.1%} |",
    ]
    if all("python workers" in j["cpu_by_process"] for j in jobs):
        loop_cpu = median(r["cpu_seconds"] for r in loops)
        workers = median(j["cpu_by_process"]["python workers"] for j in jobs)
        total = median(sum(j["cpu_by_process"].values()) for j in jobs)
        lines += [
            f"| {pages} | CPU: job's Python workers vs loop's extraction | "
            f"{1e3 * workers / pages:.1f} vs {1e3 * loop_cpu / pages:.1f} ms/page | {workers / loop_cpu - 1:+.1%} |",
            f"| {pages} | CPU: whole job (JVM, driver, workers) vs whole loop | "
            f"{1e3 * total / pages:.1f} vs {1e3 * median(r['cpu_all'] for r in loops) / pages:.1f} ms/page | "
            f"{total / median(r['cpu_all'] for r in loops) - 1:+.1%} |",
        ]
    return lines


def cpu_split(pages: int, jobs: list[dict[str, Any]]) -> list[str]:
    roles = sorted({role for j in jobs for role in j["cpu_by_process"]})
    lines = []
    for run, job in enumerate(jobs, 1):
        cpu, phases = job["cpu_by_process"], job["phases"]
        split = ", ".join(f"{role} {cpu.get(role, 0.0):.1f}" for role in roles)
        lines.append(
            f"| {pages} | {run} | {split} | {phases['jvm_to_context']:.1f} + {phases['context_to_first_task']:.1f} | "
            f"{phases['tasks']}: {', '.join(map(str, phases['task_seconds']))} | {phases['worker_start_mean']:.2f} |"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", nargs="+", required=True, help="gzip JSON Lines of pages")
    parser.add_argument("--pages", type=int, nargs="+", default=[800], help="sizes to compare, cycling through the data")
    parser.add_argument("--files", type=int, default=8, help="WARC files to spread the pages over")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--runs", type=int, default=1, help="runs of each side per size, alternating")
    args = parser.parse_args(argv)
    rows, overhead_rows, split_rows, checks = [], [], [], []
    for pages in args.pages:
        with tempfile.TemporaryDirectory(prefix="webclean-bench-") as scratch:
            directory = Path(scratch)
            paths = write_warcs(args.data, pages, args.files, directory)
            size = sum(p.stat().st_size for p in paths)
            print(f"{pages} pages in {args.files} WARC files, {size / 1e6:.1f} MB gzipped", file=sys.stderr)
            loops, jobs = [], []
            for run in range(1, args.runs + 1):
                order = ("loop", "job") if run % 2 else ("job", "loop")
                for side in order:
                    load = os.getloadavg()[0]
                    print(f"  run {run}, {side}, load average {load:.2f}", file=sys.stderr)
                    if side == "loop":
                        loops.append(run_loop(paths, args.cores))
                        rows.append(loop_row(run, pages, loops[-1], load))
                    else:
                        out, events = directory / f"out-{run}", directory / f"events-{run}"
                        jobs.append(run_job(paths, args.cores, out, events))
                        rows.append(job_row(run, pages, jobs[-1], load))
                        shutil.rmtree(out)
            overhead_rows += overheads(pages, loops, jobs)
            split_rows += cpu_split(pages, jobs)
            same = all(j["pages_by_status"] == loops[0]["pages_by_status"] for j in jobs)
            checks.append(f"{pages} pages: job's statuses {'equal' if same else 'DIFFER from'} the loop's: "
                          f"{json.dumps(jobs[0]['pages_by_status'])}")  # fmt: skip
    print(f"## local[{args.cores}] against a loop on {args.cores} processes ({os.cpu_count()} cores)\n")
    print("| pages | run | side | load (1 min) | wall end to end (s) | start-up (s) | steady wall (s) | steady pages/s "
          "| job's own pages/s | CPU ms/page, extraction | CPU ms/page, all processes | job after stage (s) |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    print("\n| pages | comparison (medians of the runs) | job vs loop | overhead |\n|---|---|---|---|")
    print("\n".join(overhead_rows))
    print("\n| pages | run | job CPU-s by process | start-up: JVM to context + context to first task (s) "
          "| extraction tasks: seconds each | Python worker start per task (s) |\n|---|---|---|---|---|---|")  # fmt: skip
    print("\n".join(split_rows))
    print("\n" + "\n".join(checks))
    return 0


if __name__ == "__main__":
    sys.exit(main())
