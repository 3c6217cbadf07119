"""scripts/submit and make extract, against a venv whose spark-submit is a stand-in:
the job's exit code reaches the caller of the script, and make names it."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

FAKE_SPARK_SUBMIT = """#!{python}
# Stands for spark-submit: records what it was given, and exits as the job would.
import json, os, pathlib, sys

seen = {{"args": sys.argv[1:], "env": {{k: os.environ.get(k) for k in ("PYSPARK_PYTHON", "SPARK_CONF_DIR")}}}}
pathlib.Path(os.environ["FAKE_SEEN"]).write_text(json.dumps(seen))
sys.exit(int(os.environ["FAKE_EXIT"]))
"""


@pytest.fixture
def venv(tmp_path: Path) -> Path:
    """A venv of which only bin/spark-submit runs."""
    bin_dir = tmp_path / "venv" / "bin"
    bin_dir.mkdir(parents=True)
    fake = bin_dir / "spark-submit"
    fake.write_text(FAKE_SPARK_SUBMIT.format(python=sys.executable), encoding="utf-8")
    fake.chmod(0o755)
    return bin_dir.parent


def environment(tmp_path: Path, exit_code: int, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYSPARK_PYTHON", "SPARK_CONF_DIR", "WEBCLEAN_VENV")}
    return {**env, "FAKE_SEEN": str(tmp_path / "seen.json"), "FAKE_EXIT": str(exit_code), **extra}


@pytest.mark.parametrize("exit_code", [0, 1, 2, 3])
def test_submit_exits_with_the_jobs_code_and_passes_its_arguments(tmp_path, venv, exit_code):
    env = environment(tmp_path, exit_code, WEBCLEAN_VENV=str(venv))
    arguments = ["jobs/extract.py", "--input", "crawl/*.warc.gz", "a b.warc", "--output", "out"]
    done = subprocess.run(["scripts/submit", *arguments], cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == exit_code, done.stderr
    seen = json.loads((tmp_path / "seen.json").read_text(encoding="utf-8"))
    assert seen["args"] == arguments
    assert seen["env"] == {"PYSPARK_PYTHON": str(venv / "bin" / "python"), "SPARK_CONF_DIR": str(REPO / "conf")}


def test_submit_without_a_venv_says_so(tmp_path):
    env = environment(tmp_path, 0, WEBCLEAN_VENV=str(tmp_path / "none"))
    done = subprocess.run(["scripts/submit", "jobs/extract.py"], cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == f"scripts/submit: no spark-submit in {tmp_path / 'none'}/bin: run make install (or set WEBCLEAN_VENV)\n"


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_make_extract_exits_2_and_names_the_jobs_code(tmp_path, venv):
    """GNU make exits 2 for any failed command: the job's own code is in its last line."""
    command = [
        "make", "--no-print-directory", "-o", "install", "-o", "check-java", "extract", f"VENV={venv}",
        "INPUT=crawl/a.warc.gz", "OUTPUT=out", "RUN_DATE=2026-11-30", "ARGS=--fail-on-file-errors",
    ]  # fmt: skip
    done = subprocess.run(command, cwd=REPO, env=environment(tmp_path, 3), capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert re.search(r"extract\] Error 3$", done.stderr, re.M), done.stderr
    # The command make prints is the one that exits with the job's code.
    assert done.stdout.startswith(f"WEBCLEAN_VENV={venv} scripts/submit jobs/extract.py --input crawl/a.warc.gz")
    seen = json.loads((tmp_path / "seen.json").read_text(encoding="utf-8"))
    assert seen["args"] == [
        "jobs/extract.py", "--input", "crawl/a.warc.gz", "--output", "out", "--run-date", "2026-11-30", "--fail-on-file-errors",
    ]  # fmt: skip


# Stands for spark-submit running a Python driver as PythonRunner does: the driver's
# stderr merged into spark-submit's stdout.
FAKE_PYTHON_RUNNER = """#!{python}
import subprocess, sys

driver = '''
import sys
from webclean.spark.job import route_stderr
route_stderr()
print("the report")
print("extract: failed: 1 input file could not be read to the end", file=sys.stderr)
raise RuntimeError("a crash")
'''
sys.exit(subprocess.run([sys.executable, "-c", driver], stderr=subprocess.STDOUT).returncode)
"""


def test_the_drivers_errors_and_traceback_reach_stderr_and_its_report_stdout(tmp_path, venv):
    pytest.importorskip("pyspark")
    fake = venv / "bin" / "spark-submit"
    fake.write_text(FAKE_PYTHON_RUNNER.format(python=sys.executable), encoding="utf-8")
    env = environment(tmp_path, 0, WEBCLEAN_VENV=str(venv))
    done = subprocess.run(["scripts/submit", "jobs/extract.py"], cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stdout == "the report\n"
    assert done.stderr.startswith("extract: failed: 1 input file could not be read to the end\nTraceback")
    assert done.stderr.rstrip().endswith("RuntimeError: a crash")
