"""The training and lexicon jobs on Spark give what the single-machine training gives.

Small synthetic news pages of two papers: the same prose, but each paper's own name,
address and links in the noise, so that a lexicon rebuilt on the other paper's pages
shows words added and removed.
"""

from __future__ import annotations

import functools
import gzip
import importlib.util
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

pyspark = pytest.importorskip("pyspark")

import webclean  # noqa: E402
from webclean.config import Config  # noqa: E402
from webclean.datasets import read_pages  # noqa: E402
from webclean.extract import decider, extract  # noqa: E402
from webclean.features import feature_matrix  # noqa: E402
from webclean.lexicon import build_lexicon, build_line_lexicon  # noqa: E402
from webclean.model import Model, save_model  # noqa: E402
from webclean.result import Status  # noqa: E402
from webclean.spark.extract_job import ExtractJob, partition_path, run_extract  # noqa: E402
from webclean.spark.inputs import list_inputs  # noqa: E402
from webclean.spark.lexicon_job import LEXICON_CHANGES_FILE  # noqa: E402
from webclean.spark.train_job import labelled_pages, line_counts, term_counts, train_on_spark  # noqa: E402
from webclean.training import count_lines, count_terms, label_page, train  # noqa: E402

pytestmark = pytest.mark.spark

REPO = Path(__file__).resolve().parents[2]
# Small and fast: two folds, a 2 x 2 grid, and a sample smaller than the labelled units
# so that drawing the same sample on the driver is really tested.
SMALL = [
    "classifier.folds=2",
    "classifier.c_grid=[1.0, 10.0]",
    "classifier.gamma_grid=[0.1, 1.0]",
    "classifier.samples_per_class=40",
]

_PROSE = (
    "the council said that a new bridge over the river would open next spring after two years of work "
    "while residents on both banks have waited for a safer crossing since the old one was closed in winter "
    "engineers found that the piers had moved a few centimetres and the budget grew by a third as steel prices "
    "rose during the summer months but the mayor insisted that the project remained good value for the town"
).split()
PAPERS = {
    "a": ("Quokka Bugle", "bugle.example", "weather sport league results festival tickets"),
    "b": ("Zephyr Kazoo", "kazoo.example", "harbour market jobs fair parking election"),
}


def _sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(_PROSE) for _ in range(rng.randint(12, 20))).capitalize() + "."


def synthetic_page(paper: str, seed: int) -> dict[str, str]:
    """One page as a JSON Lines row of the dev data: its gold text is the article's paragraphs."""
    name, domain, sections = PAPERS[paper]
    rng = random.Random(f"{paper}{seed}")
    paragraphs = [" ".join(_sentence(rng) for _ in range(rng.randint(2, 4))) for _ in range(rng.randint(4, 6))]
    nav = "".join(f"<li><a href='/{w}'>{w.title()}</a></li>" for w in sections.split())
    related = "Related: " + ", ".join(f"<a href='/n/{i}'>{w.title()} news</a>" for i, w in enumerate(sections.split()[:3]))
    footer = [f"Copyright © 20{10 + seed % 15} {name}", f"Email: desk{seed}@{domain}", f"Tel: 010-5555-{1000 + seed}"]
    html = (
        f"<html><head><title>{name}: bridge news {seed}</title></head><body>"
        f"<div class='header'><ul>{nav}</ul></div><div class='main'>"
        + "".join(f"<p>{p}</p>" for p in paragraphs)
        + f"<p>{related}</p>"
        + "".join(f"<p>{line}</p>" for line in footer)
        + f"</div><div class='footer'><a href='/about'>About the {name}</a></div></body></html>"
    )
    text = "\n".join(paragraphs)
    kind = ("article", "listing", "forum")[seed % 3]  # labels for the page type model, whatever the page shows
    return {
        "id": f"{paper}{seed}", "source": paper, "url": f"https://{domain}/{kind}/{seed}", "lang": "en", "html": html, "text": text,
        "page_type": kind,
    }  # fmt: skip


def write_pages(path: Path, paper: str, count: int) -> Path:
    with gzip.open(path, "wt", encoding="utf-8") as out:
        for seed in range(count):
            out.write(json.dumps(synthetic_page(paper, seed)) + "\n")
    return path


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("pages")
    return {"a": write_pages(folder / "a.jsonl.gz", "a", 8), "b": write_pages(folder / "b.jsonl.gz", "b", 6)}


def small_config(method: str = "svm") -> Config:
    return Config(method=method).with_overrides(SMALL)


@pytest.fixture(scope="module")
def model_a(tmp_path_factory, pages) -> Path:
    """A model of paper a, trained on one machine."""
    model, _ = train(read_pages([pages["a"]]), small_config(), sources=["a.jsonl.gz"])
    return save_model(model, tmp_path_factory.mktemp("models") / "a")


@functools.cache
def load_job(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"{name}_job", REPO / "jobs" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def predictions(model: Model, paths: list[Path]) -> np.ndarray:
    """The decisions of every unit of the pages, each page's given its type probabilities."""
    decided = []
    for page in read_pages(paths):
        labelled = label_page(page, model.config)
        types = None
        if model.page_types is not None:
            types = model.page_types.page_probabilities(np.asarray(labelled.type_signals), labelled.type_words)
        X = feature_matrix([u.unit for u in labelled.units], model.lexicon, model.feature_set)
        decided.append(decider(model, types).decision_function(X) > 0)
    return np.concatenate(decided)


# ---------------------------------------------------------------- training


def test_the_distributed_word_count_equals_the_driver_count(spark, pages):
    # Fewer stop words than these pages' words of main text, so that pruning shows.
    config = small_config().with_overrides(["lexicon.stopwords=10"])
    labelled = labelled_pages(spark, list_inputs([str(pages["a"]), str(pages["b"])], "jsonl"), config)
    units = [u for page in read_pages([pages["a"], pages["b"]]) for u in label_page(page, config).units]
    expected = count_terms(units)
    assert term_counts(labelled, prune=False) == expected
    # Pruning keeps only the terms seen in noise and the candidate stop words, and the
    # lexicon does not change.
    pruned = term_counts(labelled, stopwords=config.lexicon.stopwords)
    assert len(pruned.content_words) < len(expected.content_words)
    assert build_lexicon(pruned, config.lexicon) == build_lexicon(expected, config.lexicon)
    # The line lexicon's counts: the keys seen in noise, each with its sites, as on one machine.
    lines = count_lines(label_page(page, config) for page in read_pages([pages["a"], pages["b"]]))
    distributed = line_counts(labelled, config.lexicon.line_key_tokens)
    assert distributed.noise == lines.noise and distributed.noise_sites == lines.noise_sites
    assert all(distributed.content[key] == lines.content[key] for key in lines.noise)
    one_site = config.with_overrides(["lexicon.line_sites=1"]).lexicon
    assert build_line_lexicon(distributed, one_site) == build_line_lexicon(lines, one_site) != {}


@pytest.mark.parametrize("method", ["svm", "paper"])
def test_spark_training_gives_the_single_machine_model(spark, pages, method):
    config = small_config(method).with_overrides(
        ["classifier.second_trees=5", "classifier.second_folds=2", "page_type.features=true", "confidence.min_pages=5", "confidence.trees=20"]
    )
    paths = [pages["b"], pages["a"]]
    sources = [p.name for p in paths]
    expected, expected_report = train(read_pages(paths), config, sources=sources)
    model, report = train_on_spark(spark, list_inputs([str(p) for p in paths], "jsonl"), config, sources)

    assert model.lexicon == expected.lexicon
    assert report == expected_report
    assert 0 < report.training_samples < report.content_units + report.noise_units
    assert report.cv_accuracy == expected_report.cv_accuracy > 0.5
    assert model.metadata == expected.metadata
    for name, array in expected.svm.arrays().items():
        np.testing.assert_array_equal(model.svm.arrays()[name], array, err_msg=name)
    assert (model.second is None) == (expected.second is None) == (method == "paper")
    if expected.second is not None:
        for name, array in expected.second.arrays().items():
            np.testing.assert_array_equal(model.second.arrays()[name], array, err_msg=f"second stage: {name}")
    assert (model.page_types is None) == (expected.page_types is None) == (method == "paper")
    if expected.page_types is not None:
        scalars, arrays = expected.page_types.to_data()
        assert model.page_types.to_data()[0] == scalars
        for name, array in arrays.items():
            np.testing.assert_array_equal(model.page_types.to_data()[1][name], array, err_msg=f"page types: {name}")
    assert (model.confidence is None) == (expected.confidence is None) == (method == "paper")
    if expected.confidence is not None:
        assert report.confidence_pages == len(list(read_pages(paths))) > 0
        found = model.confidence.to_data("confidence_")[1]
        wanted = expected.confidence.to_data("confidence_")[1]
        assert found.keys() == wanted.keys() and "confidence_calibration_x" in wanted
        for name, array in wanted.items():  # the trees and their calibration
            np.testing.assert_array_equal(found[name], array, err_msg=f"confidence: {name}")
    assert np.array_equal(predictions(model, paths), predictions(expected, paths))


def test_train_job_through_spark_submit_gives_a_model_extract_takes(spark, tmp_path, pages):
    out = tmp_path / "model"
    spark_submit = Path(pyspark.__file__).parent / "bin" / "spark-submit"
    command = [
        str(spark_submit), "--master", "local[2]", "--conf", "spark.ui.enabled=false",
        "jobs/train.py", "--input", str(pages["a"]), str(pages["b"]), "--output", str(out), "--method", "svm",
        *(arg for setting in SMALL for arg in ("--set", setting)),
    ]  # fmt: skip
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "SPARK_CONF_DIR": str(REPO / "conf")}
    env.pop("PYTHONPATH", None)  # the script must find webclean by itself
    result = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]

    # spark-submit merges the driver's stderr (the log) into its stdout: the report is the JSON at the end.
    lines = result.stdout.splitlines()
    printed = json.loads("\n".join(lines[lines.index("{") :]))
    model = webclean.load_model(out)
    assert model.metadata["trained_on"] == ["a.jsonl.gz", "b.jsonl.gz"]
    assert model.metadata["report"] == {k: v for k, v in printed.items() if k not in ("output", "seconds", "input_rows", "rejected_rows")}
    assert (printed["input_rows"], printed["rejected_rows"]) == (14, {})
    assert model.metadata["report"]["lexicon_words"] == len(model.lexicon.words) > 3
    assert model.config == small_config("svm")

    page = synthetic_page("b", 99)
    result = extract(page["html"], config=model.config, model=model)
    assert result.status == Status.OK and page["text"].split("\n")[0][:40] in result.text
    # jobs/extract.py --model takes the folder.
    job = ExtractJob(
        inputs=(str(pages["b"]),), output=str(tmp_path / "clean"), run_date="2024-01-15",
        config=model.config, model_path=str(out),
    )  # fmt: skip
    summary = run_extract(spark, job)
    assert summary.pages_by_status == {Status.OK: 6}
    assert summary.model_version == model.version
    assert spark.read.parquet(partition_path(job.output, job.run_date)).count() == 6


# ---------------------------------------------------------------- the lexicon job


def run_lexicon_job(spark, pages: Path, model_dir: Path, output: Path, *extra: str):
    """The job's run on these few pages: its minimum of pages lowered to 1 unless ``extra`` sets it."""
    job = load_job("lexicon")
    minimum = [] if {"--min-pages", "--force"} & set(extra) else ["--min-pages", "1"]
    args = job.parse_args(["--input", str(pages), "--model", str(model_dir), "--output", str(output), *minimum, *extra])
    changes = job.run(spark, args, webclean.load_model(model_dir), list_inputs(args.input, "jsonl"))
    return changes, webclean.load_model(output)


def test_lexicon_job_reports_added_and_removed_words_and_keeps_the_classifier(spark, tmp_path, pages, model_a):
    old = webclean.load_model(model_a)
    changes, new = run_lexicon_job(spark, pages["b"], model_a, tmp_path / "new")

    assert {"zephyr", "kazoo"} <= set(changes.words_added) and not {"zephyr", "kazoo"} & set(old.lexicon.words)
    assert {"quokka", "bugle"} <= set(changes.words_removed) and not {"quokka", "bugle"} & set(new.lexicon.words)
    assert changes.words_added == {w: new.lexicon.words[w] for w in changes.words_added}
    weights = [top["weight"] for top in changes.top_words]
    assert weights == sorted(weights, reverse=True) and len(weights) == min(20, len(new.lexicon.words))
    written = json.loads((tmp_path / "new" / LEXICON_CHANGES_FILE).read_text(encoding="utf-8"))
    assert written == json.loads(json.dumps(changes.to_dict()))
    assert "words added:   " in changes.to_text() and "kazoo" in changes.to_text()
    # The stop words are rebuilt with the lexicon, and their changes reported.
    assert changes.stopwords_added == sorted(new.lexicon.stopwords - old.lexicon.stopwords)
    assert changes.stopwords_removed == sorted(old.lexicon.stopwords - new.lexicon.stopwords)

    units = [u for page in read_pages([pages["b"]]) for u in label_page(page, old.config).units]
    assert new.lexicon == build_lexicon(count_terms(units), old.config.lexicon)
    for name, array in old.svm.arrays().items():
        np.testing.assert_array_equal(new.svm.arrays()[name], array, err_msg=name)
    assert new.config == old.config and new.feature_set == old.feature_set
    assert new.metadata["derived_from"] == old.version
    assert (new.metadata["trained_on"], new.metadata["lexicon_from"]) == (["a.jsonl.gz"], ["b.jsonl.gz"])
    assert new.metadata["report"]["cv_accuracy"] == old.metadata["report"]["cv_accuracy"]
    assert new.metadata["report"]["lexicon_words"] == len(new.lexicon.words)


def test_lexicon_job_refit_fits_the_classifier_again(spark, tmp_path, pages, model_a):
    old = webclean.load_model(model_a)
    changes, new = run_lexicon_job(spark, pages["b"], model_a, tmp_path / "refit", "--refit")
    assert changes.refit
    assert not np.array_equal(new.svm.support_vectors, old.svm.support_vectors)
    # A refit is training on the new pages with the model's config.
    expected, _ = train(read_pages([pages["b"]]), old.config)
    assert new.lexicon == expected.lexicon
    np.testing.assert_array_equal(new.svm.support_vectors, expected.svm.support_vectors)
    assert new.metadata["trained_on"] == new.metadata["lexicon_from"] == ["b.jsonl.gz"]


def test_lexicon_job_refuses_a_lexicon_from_fewer_pages_than_its_minimum(spark, tmp_path, pages, model_a):
    job = load_job("lexicon")
    assert job.parse_args(["--input", "x", "--model", "m", "--output", "o"]).min_pages == job.MIN_PAGES == 200
    with pytest.raises(job.LexiconRefused, match=r"^6 pages with a located block give a lexicon of \d+ words"):
        run_lexicon_job(spark, pages["b"], model_a, tmp_path / "refused", "--min-pages", "7")
    assert not (tmp_path / "refused").exists()
    changes, new = run_lexicon_job(spark, pages["b"], model_a, tmp_path / "forced", "--force")
    assert len(new.lexicon.words) == changes.words_after


# ---------------------------------------------------------------- malformed input


def test_malformed_rows_are_counted_and_past_the_share_stop_the_job_in_one_line(spark, tmp_path, pages):
    from webclean.datasets import DataError
    from webclean.spark.train_job import check_training_input

    bad = tmp_path / "bad.jsonl.gz"
    rows = [json.dumps(synthetic_page("a", n)) for n in range(3)] + ['{"html": "<p>x</p>", "text": null}', "[1]"]
    bad.write_bytes(gzip.compress("\n".join(rows).encode() + b"\n"))
    files = list_inputs([str(pages["a"]), str(bad)], "jsonl")
    with pytest.raises(DataError, match=rf"^{bad}:4: text is null; 2 of 13 rows rejected"):
        check_training_input(spark, files)
    report = check_training_input(spark, files, 0.2)
    assert report.rejected == {"text is null": 1, "not a JSON object": 1} and report.rows == 13
    # The rows left out are those counted: the model is the one of the good rows alone.
    good = tmp_path / "good.jsonl.gz"
    good.write_bytes(gzip.compress("\n".join(rows[:3]).encode() + b"\n"))
    model, _ = train_on_spark(spark, files, small_config())
    expected, _ = train_on_spark(spark, list_inputs([str(pages["a"]), str(good)], "jsonl"), small_config())
    assert model.lexicon == expected.lexicon


def test_train_job_exits_2_with_one_line_on_a_malformed_row(tmp_path, pages):
    bad = tmp_path / "bad.jsonl.gz"
    bad.write_bytes(gzip.compress(json.dumps({"html": "<p>x</p>", "text": 42}).encode() + b"\n"))
    command = [sys.executable, "jobs/train.py", "--input", str(pages["a"]), str(bad), "--output", str(tmp_path / "m")]
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "SPARK_CONF_DIR": str(REPO / "conf")}
    result = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 2, result.stderr[-3000:]
    said = [line for line in result.stderr.splitlines() if line.startswith("train: ")]
    assert said == [f"train: error: {bad}:1: text is not a string; 1 of 9 rows rejected (text is not a string: 1), over --max-rejected-share 0.0"]
    assert "Traceback" not in result.stderr and not (tmp_path / "m").exists()


def test_lexicon_job_refuses_an_input_without_a_page_even_with_force(spark, tmp_path, model_a):
    from webclean.datasets import DataError

    empty = tmp_path / "empty.jsonl.gz"
    empty.write_bytes(b"")
    with pytest.raises(DataError, match="no page to train on"):
        run_lexicon_job(spark, empty, model_a, tmp_path / "from-nothing", "--force")
    blank = tmp_path / "blank.jsonl.gz"  # rows that fit the schema, but no page has a block of text
    blank.write_bytes(gzip.compress(b'{"html": "<html><body></body></html>", "text": ""}\n'))
    job = load_job("lexicon")
    with pytest.raises(job.LexiconRefused, match="no page with a located block"):
        run_lexicon_job(spark, blank, model_a, tmp_path / "from-blank", "--force")
    assert not (tmp_path / "from-nothing").exists() and not (tmp_path / "from-blank").exists()
