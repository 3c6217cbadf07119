"""The library must not load Spark: only webclean.spark may import pyspark."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_import_webclean_does_not_import_pyspark():
    code = (
        "import sys, webclean, webclean.warc\n"
        "webclean.extract, webclean.load_model\n"
        "assert 'pyspark' not in sys.modules, sorted(m for m in sys.modules if m.startswith('pyspark'))"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_extract_stays_the_function_after_its_module_is_imported():
    code = (
        "import importlib, webclean\n"
        "module = importlib.import_module('webclean.extract')\n"
        "import webclean.spark.extract_job\n"
        "assert webclean.extract is module.extract, webclean.extract"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
