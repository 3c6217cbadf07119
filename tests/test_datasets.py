"""webclean.datasets: the one reader of JSON Lines files of pages."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from webclean.datasets import DataError, Page, jsonl_rows, read_pages, set_name, split_comments


def test_rows_of_a_plain_and_a_gzip_file(tmp_path: Path) -> None:
    lines = '{"id": "a", "text": "x", "html": "<p>x</p>"}\n\n{"id": "b", "text": ""}\n'
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
