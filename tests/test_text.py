"""webclean.text: the tag sets, lengths and patterns that every step shares."""

from __future__ import annotations

import re

from hypothesis import example, given
from hypothesis import strategies as st

from webclean.text import (
    BLOCK_LEVEL,
    CJK_RE,
    LATIN_WORD_RE,
    LINE_BREAKS,
    LINE_ENDING_TAGS,
    SENTENCE_END_MARK_RE,
    WORD_RE,
    code_text,
    normalise_space,
    text_length,
)


def test_text_length_ignores_white_space():
    assert text_length(" a b\n c ") == 3
    assert text_length("中 文") == 2


@given(st.text())
@example("a\u3000b\xa0c\u2028d\x1f e")
def test_text_length_counts_what_split_keeps(text):
    assert text_length(text) == sum(map(len, text.split()))


@given(st.text())
@example(" a\u3000b\xa0\n c\x1f ")
def test_normalise_space_is_what_the_regex_makes(text):
    assert normalise_space(text) == re.sub(r"\s+", " ", text).strip()


def test_code_text_keeps_the_lines_and_their_indents_within():
    pre = "\n\n    def f(x):  \n\n        return x\t\n    \n"
    assert code_text(pre) == "def f(x):\n\n    return x"
    assert code_text("a = 1") == "a = 1"
    assert code_text("if x:\r\n    y()\r    z()") == "if x:\n    y()\n    z()"
    assert code_text(" \n \n") == ""


@given(st.text())
def test_code_text_holds_the_same_words(text):
    assert code_text(text).split() == text.split()


def test_a_line_ends_at_every_block_and_break():
    assert LINE_ENDING_TAGS == BLOCK_LEVEL | LINE_BREAKS
    assert {"div", "p", "li", "td", "h1", "br", "hr"} <= LINE_ENDING_TAGS
    assert not {"a", "span", "b", "em"} & LINE_ENDING_TAGS


def test_words_and_ideographs():
    text = "北京 Olympics_2008 ok。"
    assert CJK_RE.findall(text) == ["北", "京"]
    assert WORD_RE.findall(text) == ["北京", "Olympics", "2008", "ok"]
    assert LATIN_WORD_RE.findall(text) == ["Olympics", "2008", "ok"]


def test_sentence_end_marks():
    assert len(SENTENCE_END_MARK_RE.findall("一。二！Three. Four?x e.g.x end.")) == 5
