"""webclean.cli: the ``webclean`` command, in-process through main() and once as a process."""

from __future__ import annotations

import gzip
import io
import json
import random
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest

from webclean.cli import EXIT_NO_TEXT, main
from webclean.config import Config
from webclean.extract import extract

PARAGRAPHS = [
    "The night bus along the river route returns on Monday after a year without service, the transport board said on Friday.",
    "Buses will leave the central station every twenty minutes between midnight and five in the morning.",
    "Shift workers at the hospital had asked for the route to come back since it was cut last spring.",
]
PAGE = (
    "<html><head><meta charset='utf-8'><title>Night buses return</title></head><body>"
    "<div class='nav'><a href='/'>Home</a> <a href='/news'>News</a> <a href='/contact'>Contact</a></div>"
    "<div class='article'>" + "".join(f"<p>{p}</p>" for p in PARAGRAPHS) + "</div>"
    "<div class='footer'><a href='/about'>About us</a> | <a href='/privacy'>Privacy</a></div></body></html>"
)
SMALL_TRAINING = ["--set", "classifier.folds=2", "--set", "classifier.c_grid=[1.0]", "--set", "classifier.gamma_grid=[0.1, 1.0]"]


@pytest.fixture(autouse=True)
def _in_a_scratch_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def page_file(tmp_path: Path) -> Path:
    path = tmp_path / "page.html"
    path.write_bytes(PAGE.encode("utf-8"))
    return path


def expected_text() -> str:
    return extract(PAGE.encode("utf-8")).text


def _pages_jsonl(path: Path, count: int) -> Path:
    """Pages with a gold text: prose paragraphs in an article, link lists and a footer around and inside it."""
    words = "the council said a new bridge over the river would open next spring after two years of work on both banks".split()
    rng = random.Random(0)
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        for n in range(count):
            paragraphs = [
                " ".join(rng.choice(words) for _ in range(rng.randint(15, 30))).capitalize() + "." for _ in range(5)
            ]
            html = (
                f"<html><head><title>Page {n}</title></head><body><div class='nav'><a href='/'>Home</a> <a href='/a'>Sport</a></div>"
                "<div class='main'>" + "".join(f"<p>{p}</p>" for p in paragraphs)
                + f"<p>More: <a href='/x{n}'>Weather today</a> <a href='/y{n}'>Market prices</a></p>"
                + f"<p>Copyright © 2024 Gazette {n}</p><p>Contact: desk{n}@gazette.example</p></div></body></html>"
            )
            row = {"id": str(n), "source": "generated", "url": None, "lang": "en", "html": html, "text": "\n".join(paragraphs)}
            handle.write(json.dumps(row) + "\n")
    return path


def test_extract_prints_the_text(page_file, capsys):
    assert main(["extract", str(page_file)]) == 0
    out, err = capsys.readouterr()
    assert out == expected_text() + "\n"
    assert PARAGRAPHS[0] in out
    assert err == ""


def test_extract_json_prints_one_object_a_page(page_file, tmp_path, capsys):
    pdf = tmp_path / "file.pdf"
    pdf.write_bytes(b"%PDF-1.4\n1 0 obj << >> endobj\n")
    assert main(["extract", "--json", str(page_file), str(pdf)]) == EXIT_NO_TEXT  # the PDF gave none
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert first["source_file"] == str(page_file) and first["url"] == page_file.as_uri()
    assert first["status"] == "ok"
    assert first["text"] == expected_text()
    assert first["title"] == "Night buses return"
    assert first["method"] == "svm"
    assert second["status"] == "not_html"
    assert second["text"] == ""


def test_extract_reports_a_failed_page_on_stderr(tmp_path, capsys):
    pdf = tmp_path / "file.pdf"
    pdf.write_bytes(b"%PDF-1.4\n1 0 obj << >> endobj\n")
    assert main(["extract", str(pdf)]) == EXIT_NO_TEXT
    out, err = capsys.readouterr()
    assert out == ""
    assert "not_html" in err and "file.pdf" in err


def test_extract_dash_reads_stdin(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(PAGE.encode("utf-8"))))
    assert main(["extract", "-"]) == 0
    assert capsys.readouterr().out == expected_text() + "\n"


def test_extract_with_method_paper(page_file, capsys):
    assert main(["extract", "--method", "paper", "--json", str(page_file)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["method"] == "paper"
    assert result["text"] == extract(PAGE.encode("utf-8"), config=Config(method="paper")).text


def test_a_config_file_in_the_working_directory_is_not_read(tmp_path, page_file, capsys):
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "webclean.toml").write_text('method = "paper"\n', encoding="utf-8")
    assert main(["extract", "--json", str(page_file)]) == 0
    assert json.loads(capsys.readouterr().out)["method"] == Config().method
    assert main(["extract", "--json", "--config", "conf/webclean.toml", str(page_file)]) == 0
    assert json.loads(capsys.readouterr().out)["method"] == "paper"


def test_train_then_evaluate_and_extract_with_the_model(tmp_path, page_file, capsys):
    data = _pages_jsonl(tmp_path / "pages.jsonl.gz", 6)
    model_dir = tmp_path / "model"
    assert main(["train", "--input", str(data), "--output", str(model_dir), *SMALL_TRAINING]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["output"] == str(model_dir)
    assert report["pages"] == 6
    assert report["content_units"] > 0 and report["noise_units"] > 0
    assert (model_dir / "model.json").is_file() and (model_dir / "arrays.npz").is_file()

    summary_file = tmp_path / "summary.json"
    assert main(["evaluate", "--input", str(data), "--model", str(model_dir), "--json", str(summary_file)]) == 0
    table = capsys.readouterr().out
    assert table.startswith("| set | pages | token F1 |")
    assert "| generated | 6 |" in table
    summary = json.loads(summary_file.read_text(encoding="utf-8"))
    assert set(summary) == {"set", "lang", "page_type"}
    assert summary["set"]["all"]["pages"] == summary["lang"]["en"]["pages"] == 6
    assert 0.0 <= summary["set"]["all"]["token_f1"] <= 1.0

    assert main(["extract", "--model", str(model_dir), str(page_file)]) == 0
    assert capsys.readouterr().out.strip()


def test_evaluate_leaves_one_set_out(tmp_path, capsys):
    first = _pages_jsonl(tmp_path / "first.jsonl.gz", 4)
    second = _pages_jsonl(tmp_path / "second.jsonl.gz", 4)
    for path, name in ((first, "first"), (second, "second")):
        rows = [json.loads(line) for line in gzip.open(path, "rt", encoding="utf-8")]
        with gzip.open(path, "wt", encoding="utf-8") as handle:
            handle.writelines(json.dumps({**row, "source": name}) + "\n" for row in rows)
    assert main(["evaluate", "--input", str(first), str(second), "--leave-one-set-out", *SMALL_TRAINING]) == 0
    table = capsys.readouterr().out
    assert "| first | 4 |" in table and "| second | 4 |" in table and "| all | 8 |" in table
    # Two processes train the two held-out models: the same figures (but the speed's).
    assert main(["evaluate", "--input", str(first), str(second), "--leave-one-set-out", "--jobs", "2", *SMALL_TRAINING]) == 0
    figures = [line.rsplit("|", 2)[0] for line in capsys.readouterr().out.splitlines()]
    assert figures == [line.rsplit("|", 2)[0] for line in table.splitlines()]
    with pytest.raises(SystemExit):
        main(["evaluate", "--input", str(first), "--leave-one-set-out", "--cross-validate", "3"])
    for jobs in ("0", "two"):
        with pytest.raises(SystemExit):
            main(["evaluate", "--input", str(first), "--leave-one-set-out", "--jobs", jobs])
        assert "a number of processes, 1 or more" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ("limits.no_such_key=1", "unknown configuration key 'limits.no_such_key'"),
        ("limits.max_bytes=0", "limits.max_bytes = 0 is out of range"),
        ("denoise.beta=forty", "denoise.beta must be a"),
        ("method", "an override reads section.key=value"),
    ],
)
def test_bad_set_is_a_clear_error(page_file, capsys, override, message):
    assert main(["extract", str(page_file), "--set", override]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("webclean: ")
    assert message in err
    assert "Traceback" not in err


def test_model_of_the_other_method_is_a_clear_error(page_file, capsys):
    from webclean.model import MODELS_DIR

    assert main(["extract", "--method", "paper", "--model", str(MODELS_DIR / "svm"), str(page_file)]) == 2
    assert "--method paper" in capsys.readouterr().err


def test_missing_model_directory_is_a_clear_error(page_file, tmp_path, capsys):
    assert main(["extract", "--model", str(tmp_path / "nowhere"), str(page_file)]) == 2
    assert "is missing" in capsys.readouterr().err


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "webclean.cli", *args], cwd=cwd, capture_output=True, text=True, encoding="utf-8"
    )


def test_as_a_process(page_file, tmp_path):
    done = _run("extract", str(page_file), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == expected_text() + "\n"

    bad = _run("extract", str(page_file), "--set", "limits.no_such_key=1", cwd=tmp_path)
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert "unknown configuration key" in bad.stderr


def test_missing_input_file_is_a_clear_error(tmp_path, capsys):
    page = tmp_path / "page.html"
    page.write_text("<html><body><p>正文在这里，有很多字，应该被保留下来。</p></body></html>", encoding="utf-8")
    # The missing file is reported and the next page is still extracted.
    assert main(["extract", str(tmp_path / "missing.html"), str(page)]) == 1
    captured = capsys.readouterr()
    assert "missing.html" in captured.err
    assert "No such file" in captured.err


def _one_line_error(capsys) -> str:
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("webclean: ") and "Traceback" not in err
    return err


def test_missing_config_file_is_a_one_line_error(page_file, capsys):
    assert main(["extract", "--config", "missing.toml", str(page_file)]) == 2
    assert _one_line_error(capsys) == "webclean: missing.toml: No such file or directory\n"


def test_train_on_a_missing_input_is_a_one_line_error(tmp_path, capsys):
    assert main(["train", "--input", "missing.jsonl.gz", "--output", str(tmp_path / "model")]) == 2
    assert _one_line_error(capsys) == "webclean: missing.jsonl.gz: cannot be read: No such file or directory\n"
    assert not (tmp_path / "model").exists()


@pytest.mark.parametrize(
    ("row", "reason"),
    [
        ({"id": "1", "html": PAGE}, "no text"),
        ({"id": "1", "html": PAGE, "text": None}, "text is null"),  # was read as a page of noise alone
        ({"id": "1", "text": "a gold text"}, "no html"),  # was read as an empty page
        ({"id": "1", "html": PAGE, "text": 42}, "text is not a string"),
        ({"id": "1", "html": PAGE, "text": "x", "with": [1]}, "with is not a list of strings"),
    ],
    ids=["no-text", "null-text", "no-html", "text-42", "with-ints"],
)
def test_train_rejects_a_malformed_row_in_one_line_naming_file_and_line(tmp_path, capsys, row, reason):
    """As jobs/train.py does (webclean.training_input, docs/output.md): exit 2, one line, no model."""
    data = _pages_jsonl(tmp_path / "pages.jsonl.gz", 3)
    with gzip.open(data, "at", encoding="utf-8") as handle:
        handle.write(json.dumps(row) + "\n")
    assert main(["train", "--input", str(data), "--output", str(tmp_path / "model"), *SMALL_TRAINING]) == 2
    assert _one_line_error(capsys) == (
        f"webclean: {data}:4: {reason}; 1 of 4 rows rejected ({reason}: 1), over --max-rejected-share 0.0\n"
    )
    assert not (tmp_path / "model").exists()


def test_train_leaves_out_malformed_rows_within_the_share_and_counts_them(tmp_path, capsys):
    good = _pages_jsonl(tmp_path / "good.jsonl.gz", 6)
    mixed = tmp_path / "mixed.jsonl.gz"
    rows = gzip.decompress(good.read_bytes()).decode().splitlines()
    bad = [json.dumps({"id": "x", "html": PAGE, "text": None}), "[1, 2]"]
    mixed.write_bytes(gzip.compress(("\n".join(rows[:3] + bad + rows[3:]) + "\n").encode()))
    command = ["train", "--input", str(mixed), "--output", str(tmp_path / "mixed"), *SMALL_TRAINING]
    assert main([*command, "--max-rejected-share", "0.2"]) == 2  # 2 of 8 rows: over 0.2
    assert _one_line_error(capsys).startswith(f"webclean: {mixed}:4: text is null; 2 of 8 rows rejected")
    assert main([*command, "--max-rejected-share", "0.25"]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert (report["pages"], report["input_rows"]) == (6, 8)
    assert report["rejected_rows"] == {"text is null": 1, "not a JSON object": 1}
    assert "2 of 8 rows rejected" in captured.err
    # The rows left out are those counted: the model is the one of the good rows alone.
    assert main(["train", "--input", str(good), "--output", str(tmp_path / "good"), *SMALL_TRAINING]) == 0
    assert (tmp_path / "mixed" / "arrays.npz").read_bytes() == (tmp_path / "good" / "arrays.npz").read_bytes()


def test_evaluate_on_a_file_that_is_not_json_lines_is_a_one_line_error(tmp_path, capsys):
    data = tmp_path / "pages.jsonl.gz"
    data.write_bytes(b"not gzip at all")
    assert main(["evaluate", "--input", str(data)]) == 2
    assert _one_line_error(capsys).startswith(f"webclean: {data}: ")


@pytest.mark.parametrize("flag", [[], ["--judge"]])
def test_evaluate_names_a_page_without_its_gold_text_in_one_line(tmp_path, capsys, flag):
    """Read by the schema training checks: a null gold is not scored as a page without main text."""
    data = _pages_jsonl(tmp_path / "pages.jsonl.gz", 3)
    with gzip.open(data, "at", encoding="utf-8") as handle:
        handle.write(json.dumps({"id": "1", "html": PAGE, "text": None}) + "\n")
    assert main(["evaluate", "--input", str(data), *flag]) == 2
    assert _one_line_error(capsys) == f"webclean: {data}:4: text is null\n"


def test_random_bytes_and_an_empty_file_are_said_to_be_what_they_are(tmp_path, capsys):
    noise, empty = tmp_path / "noise.bin", tmp_path / "empty.html"
    noise.write_bytes(random.Random(1).randbytes(2000))
    empty.write_bytes(b"")
    assert main(["extract", str(noise), str(empty)]) == EXIT_NO_TEXT
    assert capsys.readouterr().err.splitlines() == [
        f"webclean: {noise}: not_html: binary data",
        f"webclean: {empty}: empty: empty body",
    ]


def test_json_names_what_the_parquet_output_names_and_says_the_same(page_file, capsys):
    pytest.importorskip("pyarrow")
    pytest.importorskip("warcio")
    from webclean.model import default_model
    from webclean.spark.readers import InputRecord
    from webclean.spark.rows import OUTPUT_SCHEMA, page_row

    assert main(["extract", "--json", "--url", "https://news.example/night-buses", str(page_file)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["url"] == "https://news.example/night-buses"
    assert printed["source_file"] == str(page_file) and printed["source"] is None  # the file; the publisher
    assert printed["bytes_in"] == page_file.stat().st_size and printed["chars_out"] == len(printed["text"])
    # One schema: every key is a Parquet column, with the value the job writes for the same page.
    assert set(printed) <= set(OUTPUT_SCHEMA.names)
    data = page_file.read_bytes()
    record = InputRecord(str(page_file), "html", 0, printed["url"], data, len(data))
    model = default_model("svm")
    written = page_row(record, extract(data, printed["url"], model=model), model.version)
    assert {key: written[key] for key in printed} == printed


def test_json_names_a_file_and_its_url_as_the_job_does(tmp_path, monkeypatch, capsys):
    """A relative path, a name with a query string, a canonical link: the job's reader of
    HTML dumps gives the same source_file and url; standard input has no file URI."""
    pytest.importorskip("pyarrow")
    pytest.importorskip("warcio")
    from webclean.spark.inputs import list_inputs
    from webclean.spark.readers import read_input

    site = tmp_path / "site"
    site.mkdir()
    canonical = PAGE.replace("<head>", '<head><link rel="canonical" href="https://news.example/night-buses">')
    (site / "story.html").write_text(canonical, encoding="utf-8")
    (site / "index.php?id=3").write_text(PAGE, encoding="utf-8")
    names = ["site/story.html", "site/index.php?id=3"]
    assert main(["extract", "--json", *names]) == 0
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    for name, row in zip(names, printed):
        (file,) = list_inputs([str(tmp_path / name)], "html")
        record = next(read_input(file, Config().limits.max_bytes))
        assert (row["source_file"], row["url"]) == (record.source_file, record.url)
    assert [row["url"] for row in printed] == ["https://news.example/night-buses", (site / "index.php?id=3").as_uri()]
    assert printed[1]["source_file"] == str(site / "index.php?id=3")

    for page, url in ((canonical, "https://news.example/night-buses"), (PAGE, None)):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(page.encode("utf-8"))))
        assert main(["extract", "--json", "-"]) == 0
        row = json.loads(capsys.readouterr().out)
        assert (row["source_file"], row["url"]) == ("-", url)


def test_a_file_over_the_cap_is_refused_after_reading_one_byte_past_it(tmp_path, capsys):
    big = tmp_path / "big.html"
    big.write_bytes(b"<p>" + b"x" * 30_000_000)
    tracemalloc.start()
    try:
        code = main(["extract", "--json", "--set", "limits.max_bytes=100000", str(big)])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert code == EXIT_NO_TEXT
    row = json.loads(capsys.readouterr().out)
    assert (row["status"], row["bytes_in"], row["error"]) == ("too_large", 30_000_003, "file over limits.max_bytes = 100000")
    assert peak < 10_000_000  # not the 30 MB file


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_an_endless_input_is_too_large_not_a_traceback(capsys):
    assert main(["extract", "--set", "limits.max_bytes=100000", "/dev/zero"]) == EXIT_NO_TEXT
    assert capsys.readouterr().err == "webclean: /dev/zero: too_large: file over limits.max_bytes = 100000\n"


def test_explain_applies_the_byte_cap(page_file, capsys):
    assert main(["extract", "--explain", "--json", "--set", "limits.max_bytes=100", str(page_file)]) == EXIT_NO_TEXT
    explained = json.loads(capsys.readouterr().out)
    assert explained["status"] == "too_large" and explained["units"] == []


def test_explain_applies_the_time_limit(page_file, monkeypatch, capsys):
    import webclean.explain

    classify = webclean.explain.classify_page

    def slow_classify(*args, **kwargs):
        for _ in range(100):  # 5 s at most, far over the limit below
            time.sleep(0.05)
        return classify(*args, **kwargs)

    monkeypatch.setattr(webclean.explain, "classify_page", slow_classify)
    assert main(["extract", "--explain", "--json", "--set", "limits.timeout_seconds=0.2", str(page_file)]) == EXIT_NO_TEXT
    assert json.loads(capsys.readouterr().out)["status"] == "timeout"


def test_a_page_with_text_exits_0_and_one_without_exits_3(page_file, tmp_path, capsys):
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    assert main(["extract", str(page_file)]) == 0
    assert main(["extract", "--explain", str(page_file)]) == 0
    assert main(["extract", str(page_file), str(empty)]) == EXIT_NO_TEXT
    assert main(["extract", "--explain", str(empty)]) == EXIT_NO_TEXT


@pytest.fixture
def confident(monkeypatch):
    """The extractor as a model with a confidence model runs it: each page's text with ``confidence``."""
    import dataclasses
    import importlib

    module = importlib.import_module("webclean.extract")
    extract_text = module.extract
    confidence = [0.41]

    def with_confidence(*args, **kwargs):
        return dataclasses.replace(extract_text(*args, **kwargs), confidence=confidence[0])

    monkeypatch.setattr(module, "extract", with_confidence)
    return confidence


def test_json_prints_the_packaged_models_confidence_and_null_without_a_confidence_model(page_file, capsys):
    assert main(["extract", "--json", str(page_file)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert isinstance(printed["confidence"], float) and 0.0 <= printed["confidence"] <= 1.0
    assert main(["extract", "--json", "--method", "paper", str(page_file)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert "confidence" in printed and printed["confidence"] is None


def test_json_prints_the_confidence_and_min_confidence_marks_the_page_but_exits_0(page_file, confident, capsys):
    assert main(["extract", "--json", str(page_file)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert (printed["status"], printed["confidence"], printed["error"]) == ("ok", 0.41, None)

    assert main(["extract", "--json", "--min-confidence", "0.5", str(page_file)]) == 0
    marked = json.loads(capsys.readouterr().out)
    assert (marked["status"], marked["error"]) == ("low_confidence", "confidence 0.41 is under --min-confidence 0.5")
    assert {k: v for k, v in marked.items() if k not in ("status", "error")} == {
        k: v for k, v in printed.items() if k not in ("status", "error")
    }
    # Without --json the text is printed, and the status with its reason goes to stderr.
    assert main(["extract", "--min-confidence", "0.5", str(page_file)]) == 0
    out, err = capsys.readouterr()
    assert out == expected_text() + "\n"
    assert err == f"webclean: {page_file}: low_confidence: confidence 0.41 is under --min-confidence 0.5\n"
    # At the bound the page is ok.
    assert main(["extract", "--min-confidence", "0.41", str(page_file)]) == 0
    assert capsys.readouterr().err == ""


def test_min_confidence_leaves_a_page_without_text_as_it_is(tmp_path, confident, capsys):
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    assert main(["extract", "--json", "--min-confidence", "0.9", str(empty)]) == EXIT_NO_TEXT
    assert json.loads(capsys.readouterr().out)["status"] == "empty"


@pytest.mark.parametrize("value", ["1.5", "-0.1", "nan", "high"])
def test_a_bad_min_confidence_is_a_usage_error(page_file, value, capsys):
    with pytest.raises(SystemExit) as exit:
        main(["extract", "--min-confidence", value, str(page_file)])
    assert exit.value.code == 2
    assert "argument --min-confidence: a confidence" in capsys.readouterr().err.splitlines()[-1]
