"""webclean.training_input: the rows of `webclean train` and the training jobs checked against one schema."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from webclean.datasets import DataError, check_row
from webclean.training_input import check_file, judge_input, parse_line

GOOD = {"id": "1", "source": "s", "url": None, "lang": "en", "html": "<p>a page</p>", "text": "a page"}


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"{not json", "not JSON"),
        (b"[1, 2]", "not a JSON object"),
        (b'{"html": "\xff\xfe", "text": "x"}', "not UTF-8"),
        (json.dumps({"html": "<p>x</p>"}).encode(), "no text"),
        (json.dumps({"html": "<p>x</p>", "text": None}).encode(), "text is null"),
        (json.dumps({"html": "<p>x</p>", "text": 42}).encode(), "text is not a string"),
        (json.dumps({"text": "x"}).encode(), "no html"),
        (json.dumps({**GOOD, "with": [1]}).encode(), "with is not a list of strings"),
        (json.dumps({**GOOD, "peers": ["a"]}).encode(), "peers is not an object of strings"),
        # Stricter than pyarrow's conversion, which took these and left Page.from_json to fail:
        (json.dumps({**GOOD, "peers": [["trafilatura", "x"]]}).encode(), "peers is not an object of strings"),
        (json.dumps({**GOOD, "with": ["a", None]}).encode(), "with is not a list of strings"),
        (json.dumps({**GOOD, "id": True}).encode(), "id is not a string"),
    ],
)
def test_a_malformed_row_is_rejected_with_its_reason(line, reason):
    row, why = parse_line(line)
    assert row is None and why.startswith(reason)


def test_rows_that_fit_the_schema_pass():
    assert check_row(GOOD) is None
    assert check_row({**GOOD, "extra": {"anything": 1}, "with": ["a"], "gold_type": "snippets"}) is None
    # A page with peers needs no gold text: it trains on their agreement.
    assert check_row({"html": "<p>x</p>", "peers": {"trafilatura": "x"}}) is None
    assert parse_line(b"  \n") == (None, None)


def write(path: Path, lines: list[bytes]) -> Path:
    path.write_bytes(gzip.compress(b"\n".join(lines) + b"\n"))
    return path


def test_rejected_rows_are_counted_and_past_the_share_named_in_one_line(tmp_path):
    good = json.dumps(GOOD).encode()
    path = write(tmp_path / "pages.jsonl.gz", [good, b"[1]", good, json.dumps({"html": "x", "text": 42}).encode()])
    check = check_file(str(path))
    assert (check.rows, dict(check.rejected), check.first) == (4, {"not a JSON object": 1, "text is not a string": 1}, {"not a JSON object": 2, "text is not a string": 4})
    with pytest.raises(DataError) as raised:
        judge_input([check], 0.0)
    message = str(raised.value)
    assert "\n" not in message and message.startswith(f"{path}:2: not a JSON object; 2 of 4 rows rejected")
    report = judge_input([check], 0.5)
    assert report.to_dict() == {"input_rows": 4, "rejected_rows": {"not a JSON object": 1, "text is not a string": 1}}


def test_an_input_of_malformed_rows_only_names_the_first(tmp_path):
    path = write(tmp_path / "pages.jsonl.gz", [json.dumps({"text": "x"}).encode()])
    with pytest.raises(DataError, match=rf"^{path}:1: no html; 1 of 1 rows rejected"):
        judge_input([check_file(str(path))], 0.5)
    with pytest.raises(DataError, match="no page to train on"):
        judge_input([check_file(str(path))], 1.0)


@pytest.mark.parametrize("data", [b"", b"not gzip at all"], ids=["empty", "not-gzip"])
def test_an_empty_or_unreadable_input_is_one_line(tmp_path, data):
    path = tmp_path / "pages.jsonl.gz"
    path.write_bytes(data)
    with pytest.raises(DataError) as raised:
        judge_input([check_file(str(path))], 1.0)
    assert "\n" not in str(raised.value) and str(path) in str(raised.value)
