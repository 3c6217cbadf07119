"""One local SparkSession for every Spark test: two cores, few partitions, quiet logs."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

pytest.importorskip("pyspark")

from pyspark.sql import SparkSession  # noqa: E402

from webclean.spark import build_session  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def spark() -> Iterator[SparkSession]:
    session = build_session(
        "webclean-tests",
        {
            "spark.master": "local[2]",
            "spark.default.parallelism": "2",
            "spark.sql.shuffle.partitions": "2",
            "spark.driver.memory": "1g",
            "spark.ui.enabled": "false",
            "spark.ui.showConsoleProgress": "false",
            "spark.sql.session.timeZone": "UTC",
            "spark.python.worker.reuse": "true",
            "spark.driver.extraJavaOptions": f"-Dlog4j2.configurationFile=file:{REPO / 'conf' / 'log4j2.properties'}",
        },
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
