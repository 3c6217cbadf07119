"""webclean.datasets: the one reader of JSON Lines files of pages."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest

from webclean.datasets import DataError, Page, jsonl_rows, read_pages, set_name, split_comments


def test_rows_of_a_plain_and_a_gzip_file(tmp_path: Path) -> None:
    lines = '{"id": "a", "text": "x", "html": "<p>x</p>"}\n\n{"id": "b", "text": "", "html": ""}\n'
    plain, packed = tmp_path / "set.jsonl", tmp_path / "set.jsonl.gz"
    plain.write_text(lines, encoding="utf-8")
    packed.write_bytes(gzip.compress(lines.encode("utf-8")))
    for path in (plain, packed):
        assert [(where.rsplit(":", 1)[1], row["id"]) for where, row in jsonl_rows(path)] == [("1", "a"), ("3", "b")]
    assert [(page.source, page.id) for page in read_pages([packed])] == [("set", "a"), ("set", "b")]
    assert set_name(packed) == "set"


@pytest.mark.parametrize(("line", "reason"), [("[1, 2]", "not a JSON object"), ("{oops", "not JSON")])
def test_a_bad_line_is_named_in_the_error(tmp_path: Path, line: str, reason: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"id": "a", "text": ""}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(DataError, match=f"bad.jsonl:2: {reason}"):
        list(jsonl_rows(path))


@pytest.mark.parametrize(
    ("row", "reason"),
    [
        ({"html": "<p>x</p>"}, "no text"),
        ({"html": "<p>x</p>", "text": None}, "text is null"),
        ({"html": "<p>x</p>", "text": 42}, "text is not a string"),
        ({"html": "<p>x</p>", "text": None, "peers": {}}, "text is null"),
        ({"text": "x"}, "no html"),
        ({"html": "<p>x</p>", "text": "x", "with": ["a", None]}, "with is not a list of strings"),
    ],
)
def test_a_page_without_a_usable_gold_is_named_with_its_field(tmp_path: Path, row: dict, reason: str) -> None:
    """Evaluation reads by the schema training checks: no row is scored against a gold it lacks."""
    path = tmp_path / "set.jsonl"
    path.write_text('{"id": "a", "text": "", "html": ""}\n' + json.dumps(row) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match=f"^{re.escape(str(path))}:2: {reason}$"):
        list(read_pages([path]))


def test_a_page_with_peers_needs_no_gold_text(tmp_path: Path) -> None:
    path = tmp_path / "set.jsonl"
    path.write_text(json.dumps({"id": "a", "html": "<p>x</p>", "text": None, "peers": {"trafilatura": "x"}}) + "\n", encoding="utf-8")
    (page,) = read_pages([path])
    assert (page.gold_type, page.text) == ("weak", "")


def test_a_missing_file_is_a_data_error(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="No such file"):
        list(jsonl_rows(tmp_path / "missing.jsonl.gz"))


@pytest.mark.parametrize(
    "mark", ["!@#$%^&*()  COMMENTS", "!@#$%^&*() COMMENTS", "!@ $%^&*()  COMMENTS", "@#$%^&*() COMMNENTS", "!@#$%^&*()"]
)
def test_dragnet_comments_are_no_main_text(mark: str) -> None:
    row = {"id": "a", "text": f"The article.\nIts last line.\n{mark}\nFirst!\nGreat post, thanks.", "html": ""}
    page = Page.from_json(row, source="dragnet")
    assert page.text == "The article.\nIts last line."
    assert page.comments == "First!\nGreat post, thanks."


@pytest.mark.parametrize("text", ["One part.\n* * * * *\nAnother part.", "Price: $5 (20% off!)\nMore.", "A & B\n#1"])
def test_a_text_without_dragnet_s_line_is_all_article(text: str) -> None:
    assert split_comments(text) == (text, "")
