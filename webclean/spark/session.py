"""The SparkSession of every job, its logging, and the shipping of webclean to executors."""

from __future__ import annotations

import atexit
import logging
import os
import shutil
import sys
import tempfile
import zipfile
from collections.abc import Mapping
from pathlib import Path

from pyspark.sql import SparkSession

import webclean


def configure_logging() -> None:
    """What every job logs: warnings from everything, progress from webclean."""
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("webclean").setLevel(logging.INFO)


def build_session(app_name: str = "webclean", conf: Mapping[str, str] | None = None) -> SparkSession:
    """A SparkSession from spark-submit's configuration plus ``conf``; ships webclean if needed."""
    conf = dict(conf or {})
    launched_here = "PYSPARK_GATEWAY_PORT" not in os.environ  # not under spark-submit
    if launched_here and conf.get("spark.master", "local").startswith("local"):
        # A script, a notebook or the tests: local workers must run this interpreter,
        # the one with webclean's dependencies, not whichever python3 is on PATH.
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = SparkSession.builder.appName(app_name)
    for key, value in conf.items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    _ship_package(spark)
    return spark


def _ship_package(spark: SparkSession) -> None:
    """Send this webclean to the executors unless it is installed as a package.

    A job run from a checkout imports webclean from the source tree, which executors
    do not have; a zip of the package on the Python path of every task fixes that and
    guarantees the executors run the driver's code. Only the code goes: the model
    reaches the executors as a broadcast, and files inside a zip cannot be opened by path.
    """
    package = Path(webclean.__file__).resolve().parent
    sc = spark.sparkContext
    installed = any(part in ("site-packages", "dist-packages") for part in package.parts)
    if installed or any(f.endswith("/webclean.zip") for f in sc.listFiles):
        return
    scratch = tempfile.mkdtemp(prefix="webclean-pyfiles-")
    # Spark serves the file from here while the application runs: removed at exit.
    atexit.register(shutil.rmtree, scratch, ignore_errors=True)
    archive = Path(scratch) / "webclean.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as out:
        for path in sorted(package.rglob("*.py")):
            out.write(path, Path("webclean") / path.relative_to(package))
    sc.addPyFile(str(archive))
