"""The extract job's pages per second against the same extraction in a plain loop.

    python benchmarks/spark_throughput.py --data ../shared/data/*.jsonl.gz --pages 800

1. Writes the pages of the data files into ``--files`` WARC files (response records
   with HTTP headers, as a crawler writes them) in a scratch directory.
2. Runs ``jobs/extract.py`` on them with ``spark-submit --master local[N]`` and reads
   the summary the job wrote.
3. Runs the same extraction (``webclean.warc.iter_warc`` then ``webclean.extract``)
   in a plain loop on N processes, one WARC file at a time each, as the job's tasks do.

It prints the wall time and pages per second of both, and the job's overhead over the
loop. The JVM's start-up is reported apart: it is paid once a run, not per page.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from webclean.datasets import Page, read_pages

ROOT = Path(__file__).resolve().parent.parent
WARC_DATE = datetime(2026, 1, 1, tzinfo=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def write_warcs(data: list[str], pages: int, files: int, directory: Path) -> list[Path]:
    """Spread the first ``pages`` pages of the data over ``files`` WARC files."""
    paths = [directory / f"part-{i:02d}.warc.gz" for i in range(files)]
    handles = [open(p, "wb") for p in paths]
    writers = [WARCWriter(h, gzip=True) for h in handles]
    for number, page in enumerate(read_pages(data)):
        if number >= pages:
            break
        write_page(writers[number % files], page, page_url(page, number))
    for handle in handles:
        handle.close()
    return paths


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


def run_job(paths: list[Path], cores: int, out: Path) -> dict[str, object]:
    spark_submit = Path(sys.executable).parent / "spark-submit"
    command = [
        str(spark_submit),
        "--master", f"local[{cores}]",
        "--properties-file", str(ROOT / "conf/spark-defaults.conf"),
        "--driver-java-options", f"-Dlog4j.configurationFile={ROOT / 'conf/log4j2.properties'}",
        str(ROOT / "jobs/extract.py"),
        "--input", *map(str, paths),
        "--output", str(out),
        "--run-date", "2026-01-01",
    ]  # fmt: skip
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable}
    start = time.monotonic()
    subprocess.run(command, check=True, env=env, cwd=ROOT, stdout=subprocess.DEVNULL)
    wall = time.monotonic() - start
    summary = json.loads(next(out.glob("_summary/*/summary.json")).read_text())
    return {"wall_with_jvm": wall, **summary}


def extract_file(path: str) -> tuple[int, float]:
    """One WARC file through the library, as one task of the job does it."""
    import webclean
    from webclean.warc import WarcPage, iter_warc

    start = time.process_time()
    pages = 0
    for item in iter_warc(path):
        if isinstance(item, WarcPage):
            if item.status is None:
                webclean.extract(item.body, item.url, http_charset=item.charset)
            pages += 1
    return pages, time.process_time() - start


def _warm_up() -> None:
    import webclean
    from threadpoolctl import threadpool_limits

    # One BLAS thread, as the job's workers have (conf/spark-defaults.conf) and as
    # the command line sets: a second one doubles the CPU time per page (docs/speed.md).
    threadpool_limits(limits=1, user_api="blas")

    webclean.extract(b"<html><body><div><p>warm up, warm up, warm up.</p></div></body></html>")


def run_loop(paths: list[Path], cores: int) -> dict[str, float]:
    with ProcessPoolExecutor(max_workers=cores, initializer=_warm_up) as pool:
        list(pool.map(_warm_up_task, range(cores)))  # model and jieba loaded before the clock
        start = time.monotonic()
        results = list(pool.map(extract_file, map(str, paths)))
        wall = time.monotonic() - start
    pages = sum(p for p, _ in results)
    return {"pages": pages, "wall_seconds": wall, "pages_per_second": pages / wall, "cpu_seconds": sum(c for _, c in results)}


def _warm_up_task(_: int) -> None:
    time.sleep(0.2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", nargs="+", required=True, help="gzip JSON Lines of pages")
    parser.add_argument("--pages", type=int, default=800)
    parser.add_argument("--files", type=int, default=8, help="WARC files to spread the pages over")
    parser.add_argument("--cores", type=int, default=2)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="webclean-bench-") as scratch:
        directory = Path(scratch)
        paths = write_warcs(args.data, args.pages, args.files, directory)
        size = sum(p.stat().st_size for p in paths)
        loop = run_loop(paths, args.cores)
        job = run_job(paths, args.cores, directory / "out")
    job_rate = float(job["pages"]) / float(job["wall_seconds"])
    print(f"input: {job['pages']} pages in {args.files} WARC files, {size / 1e6:.1f} MB gzipped; {args.cores} cores")
    print(f"plain loop, {args.cores} processes: {loop['wall_seconds']:.1f} s, {loop['pages_per_second']:.1f} pages/s")
    print(f"extract job, local[{args.cores}]:    {job['wall_seconds']:.1f} s, {job_rate:.1f} pages/s "
          f"({job['wall_with_jvm']:.1f} s with JVM start-up and planning)")  # fmt: skip
    print(f"job overhead over the loop: {loop['pages_per_second'] / job_rate - 1:+.1%}")
    print("job summary:", json.dumps({k: job[k] for k in ("pages_by_status", "records_by_type", "files_with_errors")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
