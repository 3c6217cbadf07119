"""The library must not load Spark: only the Spark glue's modules that run jobs import pyspark."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "webclean"
# The modules of webclean.spark that need a SparkSession; the others need only pyarrow.
SPARK_MODULES = {"session", "job", "extract_job", "train_job", "lexicon_job"}


def test_import_webclean_does_not_import_pyspark():
    code = (
        "import sys, webclean, webclean.warc\n"
        "webclean.extract, webclean.load_model\n"
        "assert 'pyspark' not in sys.modules, sorted(m for m in sys.modules if m.startswith('pyspark'))"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_the_glue_that_needs_only_pyarrow_does_not_import_pyspark():
    pytest.importorskip("pyarrow")
    pytest.importorskip("warcio")
    code = (
        "import sys, webclean.spark, webclean.spark.inputs, webclean.spark.readers, webclean.spark.rows\n"
        "assert 'pyspark' not in sys.modules, sorted(m for m in sys.modules if m.startswith('pyspark'))"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_only_the_spark_modules_name_pyspark():
    importers = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            names += [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            if any(name.split(".")[0] == "pyspark" for name in names):
                importers.add(path.relative_to(PACKAGE).with_suffix("").as_posix())
    assert importers == {f"spark/{name}" for name in SPARK_MODULES}


def test_extract_stays_the_function_after_its_module_is_imported():
    code = (
        "import importlib, webclean\n"
        "module = importlib.import_module('webclean.extract')\n"
        "import webclean.spark.extract_job\n"
        "assert webclean.extract is module.extract, webclean.extract"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
