"""The jobs' scripts and glue before any SparkSession: help, one-line errors, the
summary's documented contract, the package shipped to executors, the lexicon's changes.

No SparkSession and no JVM: not marked ``spark``, so ``make test-fast`` runs them.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

pytest.importorskip("pyspark")

from webclean.spark.extract_job import ExtractJob, RunSummary  # noqa: E402
from webclean.spark.inputs import InputError  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "samples" / "sample.warc.gz"
RUN_DATE = "2024-01-15"


def load_job(name: str) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(f"{name}_job", REPO / "jobs" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------- the extract job


def test_the_summary_contract_lists_every_field_of_the_summary():
    doc = (REPO / "docs" / "output.md").read_text(encoding="utf-8")
    contract = doc.split("## The run's summary", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^\| `(\w+)` \|", contract, flags=re.MULTILINE)
    assert sorted(listed) == sorted(f.name for f in dataclasses.fields(RunSummary))


def test_job_help_gives_the_input_schema_of_each_format():
    result = subprocess.run([sys.executable, "jobs/extract.py", "--help"], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    for words in (".arc.gz", "WARC-Target-URI", "rel=canonical", "{\"url\": ..., \"html\": \"...\"}", "html column", "files_skipped", "--min-confidence X"):
        assert words in result.stdout


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--set", "nope.key=1"], "unknown configuration key 'nope.key'"),
        (["--config", "missing.toml"], "missing.toml: No such file or directory"),
    ],
)
def test_job_script_reports_a_bad_argument_in_one_line(arguments, message):
    command = [sys.executable, "jobs/extract.py", "--input", str(SAMPLE), "--output", "out", *arguments]
    result = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.strip() == f"extract: error: {message}"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("1.5", "a confidence lies in [0, 1], not 1.5"),
        ("-0.2", "a confidence lies in [0, 1], not -0.2"),
        ("nan", "a confidence lies in [0, 1], not nan"),
        ("high", "a confidence is a number in [0, 1], not 'high'"),
    ],
)
def test_a_bad_min_confidence_is_refused_before_the_job(tmp_path, value, message):
    command = [sys.executable, "jobs/extract.py", "--input", str(SAMPLE), "--output", str(tmp_path / "out"), "--min-confidence", value]
    result = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == f"extract.py: error: argument --min-confidence: {message}"
    assert not (tmp_path / "out").exists()


def test_bad_job_arguments_fail_at_start():
    with pytest.raises(InputError):
        ExtractJob(inputs=("x",), output="o", run_date=RUN_DATE, input_format="csv")
    with pytest.raises(InputError, match="minimum confidence"):
        ExtractJob(inputs=("x",), output="o", run_date=RUN_DATE, min_confidence=1.5)
    with pytest.raises(ValueError):
        ExtractJob(inputs=("x",), output="o", run_date="15/01/2024")


def test_the_package_zip_shipped_from_a_checkout_holds_every_module_and_is_removed_at_exit(monkeypatch):
    import atexit
    import zipfile

    import webclean
    from webclean.spark import session

    shipped: list[str] = []
    context = types.SimpleNamespace(listFiles=[], addPyFile=shipped.append)
    at_exit: list[tuple] = []
    monkeypatch.setattr(atexit, "register", lambda function, *args, **kwargs: at_exit.append((function, args, kwargs)))
    session._ship_package(types.SimpleNamespace(sparkContext=context))
    assert len(shipped) == 1
    package = Path(webclean.__file__).resolve().parent
    modules = {f"webclean/{p.relative_to(package).as_posix()}" for p in package.rglob("*.py")}
    # The subpackages too: the executors import webclean.spark.rows and webclean.methods.
    assert {"webclean/extract.py", "webclean/spark/__init__.py", "webclean/spark/rows.py"} <= modules
    assert set(zipfile.ZipFile(shipped[0]).namelist()) == modules
    for function, args, kwargs in at_exit:
        function(*args, **kwargs)
    assert not Path(shipped[0]).parent.exists()


# ---------------------------------------------------------------- the training and lexicon jobs


def test_train_job_reports_a_missing_input_in_one_line(tmp_path):
    command = [sys.executable, "jobs/train.py", "--input", str(tmp_path / "none.jsonl.gz"), "--output", str(tmp_path / "m")]
    result = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.startswith("train: error: ") and "no such file" in result.stderr
    assert not (tmp_path / "m").exists()


def test_lexicon_changes_name_the_stop_words_added_and_removed():
    from webclean.lexicon import NoiseLexicon
    from webclean.spark.lexicon_job import compare_lexicons

    old = NoiseLexicon(words={}, marks={}, stopwords=frozenset({"the", "of", "的"}))
    new = NoiseLexicon(words={}, marks={}, stopwords=frozenset({"the", "und", "der", "了"}))
    changes = compare_lexicons(old, new, "v1", refit=False)
    assert (changes.stopwords_added, changes.stopwords_removed) == (["der", "und", "了"], ["of", "的"])
    assert "stop words added:   der, und, 了" in changes.to_text()
    assert "stop words removed: of, 的" in changes.to_text()


def test_lexicon_job_warns_when_the_lexicon_loses_more_than_half_its_words():
    from webclean.lexicon import NoiseLexicon
    from webclean.spark.lexicon_job import compare_lexicons

    job = load_job("lexicon")
    old = NoiseLexicon(words={f"w{i}": 1.0 for i in range(4115)}, marks={})
    for kept, warned in ((26, True), (2057, True), (2058, False)):
        new = NoiseLexicon(words={f"w{i}": 1.0 for i in range(kept)}, marks={})
        warning = job.shrink_warning(compare_lexicons(old, new, "v1", refit=False))
        assert (warning == f"the lexicon shrinks from 4115 to {kept} words") if warned else warning is None
