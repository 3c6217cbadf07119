"""One local SparkSession for every Spark test: two cores, few partitions, quiet logs."""

from __future__ import annotations

from typing import Iterator

import pytest

pytest.importorskip("pyspark")

from pyspark.sql import SparkSession  # noqa: E402

from webclean.spark import build_session  # noqa: E402

from session_settings import local_settings  # noqa: E402


@pytest.fixture(scope="session")
def spark() -> Iterator[SparkSession]:
    session = build_session("webclean-tests", local_settings())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
