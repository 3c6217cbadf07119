"""The settings of the test suite's local SparkSessions: two cores, few partitions, quiet logs.

Imported by conftest.py and by test_faults.py, which also runs as a script in a child
process (its own directory is then first on the path).
"""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def local_settings(master: str = "local[2]") -> dict[str, str]:
    return {
        "spark.master": master,
        "spark.default.parallelism": "2",
        "spark.sql.shuffle.partitions": "2",
        "spark.driver.memory": "1g",
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.sql.session.timeZone": "UTC",
        "spark.python.worker.reuse": "true",
        "spark.driver.extraJavaOptions": f"-Dlog4j2.configurationFile=file:{REPO / 'conf' / 'log4j2.properties'}",
    }
