"""The extract job on a real Spark standalone cluster (a master and a worker on 127.0.0.1).

Runs scripts/standalone-smoke, which starts and stops the cluster itself; about a minute.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pyspark = pytest.importorskip("pyspark")

pytestmark = pytest.mark.spark

REPO = Path(__file__).resolve().parents[2]
SBIN = Path(pyspark.__file__).parent / "sbin"


def test_extract_job_on_a_standalone_cluster():
    if not (SBIN / "spark-daemon.sh").is_file() and not (SBIN / "start-master.sh").is_file():
        pytest.skip(f"no Spark daemon scripts in {SBIN}: this pyspark cannot start a standalone cluster")
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "SMOKE_TIMEOUT": "300"}
    result = subprocess.run(
        [str(REPO / "scripts" / "standalone-smoke")], cwd=REPO, env=env, capture_output=True, text=True, timeout=360
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    assert "standalone-smoke: 49 rows, 49 response/resource records, 1 application(s)" in result.stdout
