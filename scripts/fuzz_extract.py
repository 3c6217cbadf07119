#!/usr/bin/env python3
"""Fuzz ``webclean.extract`` with atheris (libFuzzer) for a bounded time.

    pip install atheris
    python scripts/fuzz_extract.py --seconds 180 [--corpus DIR] [--artifacts DIR] [-- LIBFUZZER_FLAGS]

Any bytes must give an :class:`Extraction` whose status is a ``Status``, not
``error``, with text exactly when the status is ``ok``; an exception or a broken
invariant stops the run and libFuzzer writes the input to ``--artifacts``
(``crash-<sha1>``). Inputs slower than ``--slow`` seconds are saved there too, as
``slow-<sha1>``, and listed at the end: they are what the per-page time limit is for.

The first byte chooses how the rest is handed over: as bytes or as text, with or
without an HTTP charset, by method ``svm`` or ``paper``. ``--corpus`` seeds the run
(default: the golden pages of tests/golden); libFuzzer grows the corpus in ``--work``
(default: tests/fuzz-corpus, kept in the repository so that a run starts where the
last one stopped). A finding goes into tests/test_fuzz_regressions.py once fixed.
"""

from __future__ import annotations

import argparse
import atexit
import hashlib
import sys
import time
from pathlib import Path

import atheris

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

with atheris.instrument_imports(include=["webclean"]):
    from webclean.config import Config
    from webclean.extract import extract
    from webclean.model import default_model
    from webclean.result import Extraction, Status

CHARSETS = (None, "utf-8", "gbk", "text/html; charset=shift_jis", "utf-16", "iso-8859-1", "x-unknown")
CONFIGS = {method: Config(method=method).with_overrides(["limits.timeout_seconds=2"]) for method in ("svm", "paper")}
SLOW: list[tuple[float, str, str]] = []
ARTIFACTS = Path("fuzz-artifacts")
SLOW_SECONDS = 1.0


def check(data: bytes) -> Extraction:
    """One fuzz input through extract, its invariants asserted."""
    if not data:
        return extract(b"")
    mode, body = data[0], data[1:]
    config = CONFIGS["paper" if mode & 1 else "svm"]
    charset = CHARSETS[(mode >> 1) % len(CHARSETS)]
    page: bytes | str = body.decode("utf-8", "surrogateescape") if mode & 0x80 else body
    result = extract(page, config=config, http_charset=charset)
    assert isinstance(result, Extraction), type(result)
    assert result.status in set(Status), result.status
    assert result.status != Status.ERROR, result.error
    assert (result.status == Status.OK) == bool(result.text), (result.status, result.text[:80])
    assert result.status == Status.OK or result.error, "a failed page needs a reason"
    return result


def test_one_input(data: bytes) -> None:
    started = time.perf_counter()
    result = check(data)
    seconds = time.perf_counter() - started
    if seconds > SLOW_SECONDS:
        name = "slow-" + hashlib.sha1(data).hexdigest()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / name).write_bytes(data)
        SLOW.append((seconds, name, result.status))


def main() -> None:
    global ARTIFACTS, SLOW_SECONDS
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=180, help="total fuzzing time")
    parser.add_argument("--corpus", default=str(REPO / "tests" / "golden"), help="seed folder (searched for source.html)")
    parser.add_argument("--work", default=str(REPO / "tests" / "fuzz-corpus"), help="folder libFuzzer grows its corpus in")
    parser.add_argument("--artifacts", default="fuzz-artifacts")
    parser.add_argument("--slow", type=float, default=1.0, help="save inputs slower than this many seconds")
    args, libfuzzer = parser.parse_known_args()
    ARTIFACTS, SLOW_SECONDS = Path(args.artifacts), args.slow
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    for seed in Path(args.corpus).rglob("source.html"):
        data = seed.read_bytes()[:20000]
        (work / f"seed-{seed.parent.name}").write_bytes(b"\x00" + data)
    for method in CONFIGS:  # the models and jieba's dictionary load once, outside the fuzz loop
        extract("<div><p>河道清淤工程下月开工。</p></div>", config=CONFIGS[method], model=default_model(method))
    flags = [
        sys.argv[0],
        f"-max_total_time={args.seconds}",
        f"-artifact_prefix={ARTIFACTS}/",
        "-max_len=65536",
        "-rss_limit_mb=4096",
        # webclean's own limit (2 s) interrupts a slow page; libFuzzer's -timeout would
        # share the same SIGALRM timer, and webclean.limits cancels it.
        "-timeout=0",
        *[flag for flag in libfuzzer if flag != "--"],
        str(work),
    ]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    atexit.register(report_slow)  # libFuzzer ends the process itself when the time is up
    atheris.Setup(flags, test_one_input)
    atheris.Fuzz()


def report_slow() -> None:
    for seconds, name, status in sorted(SLOW, reverse=True)[:20]:
        print(f"slow input {name}: {seconds:.2f} s, status {status}", file=sys.stderr)


if __name__ == "__main__":
    main()
