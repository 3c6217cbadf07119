"""webclean.metrics: hand-computed scores, CJK tokens, edge cases, snippet matching."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from webclean.datasets import Page
from webclean.metrics import (
    PRF,
    Scoreboard,
    ShingleCounts,
    SnippetCounts,
    is_cjk,
    score_page,
    shingle_counts,
    shingle_pr,
    shingle_prf,
    shingle_tokens,
    shingles,
    snippet_counts,
    snippet_prf,
    sum_snippets,
    token_prf,
    tokens,
)

approx = pytest.approx


# --- tokens ------------------------------------------------------------------


def test_tokens_lowercase_nfkc_and_cjk_characters() -> None:
    text = "Hello, World! 你好世界 ＡＢＣ１２ café"
    assert tokens(text) == ["hello", "world", "你", "好", "世", "界", "abc12", "café"]


def test_tokens_split_cjk_from_adjacent_latin() -> None:
    assert tokens("abc中文def 2024年") == ["abc", "中", "文", "def", "2024", "年"]


def test_tokens_kana_and_hangul_one_per_character_punctuation_dropped() -> None:
    assert tokens("カタカナ・ひらがな") == ["カ", "タ", "カ", "ナ", "ひ", "ら", "が", "な"]
    assert tokens("한국어 text") == ["한", "국", "어", "text"]
    # half-width katakana becomes full-width under NFKC
    assert tokens("ｶﾀ") == ["カ", "タ"]


def test_tokens_extension_ideographs_and_iteration_mark() -> None:
    assert tokens("\u3400\U00020000人々") == ["\u3400", "\U00020000", "人", "々"]
    assert is_cjk("中") and is_cjk("\u3400") and is_cjk("가")
    assert not is_cjk("a") and not is_cjk("。")


def test_tokens_punctuation_only_is_empty() -> None:
    assert tokens(" ，。！?—- ") == []


# --- token F1 ----------------------------------------------------------------


def test_token_prf_counts_multisets() -> None:
    # output {a:2, b:1, c:1}, gold {a:1, b:2, d:1}: common a + b = 2 of 4 and 4
    assert token_prf("a a b c", "a b b d") == PRF(0.5, 0.5, 0.5)


def test_token_prf_partial_recall() -> None:
    score = token_prf("The cat sat", "the cat sat on the mat")
    assert score.precision == 1.0
    assert score.recall == approx(3 / 6)
    assert score.f1 == approx(2 / 3)


def test_token_prf_ignores_case_width_and_punctuation() -> None:
    assert token_prf("ＨＥＬＬＯ, world!", "hello world").f1 == 1.0


def test_token_prf_chinese_characters() -> None:
    score = token_prf("新闻正文", "正文内容")  # common: 正 文 = 2 of 4 and 4
    assert score == PRF(0.5, 0.5, 0.5)


def test_token_prf_edge_cases() -> None:
    assert token_prf("", "") == PRF(1.0, 1.0, 1.0)
    assert token_prf("...", "!!") == PRF(1.0, 1.0, 1.0)
    assert token_prf("", "gold") == PRF(0.0, 0.0, 0.0)
    assert token_prf("output", "") == PRF(0.0, 0.0, 0.0)
    assert token_prf("x", "y") == PRF(0.0, 0.0, 0.0)


@given(st.text(max_size=60), st.text(max_size=60))
def test_token_prf_in_range_and_perfect_on_itself(output: str, gold: str) -> None:
    score = token_prf(output, gold)
    assert 0.0 <= score.precision <= 1.0 and 0.0 <= score.recall <= 1.0 and 0.0 <= score.f1 <= 1.0
    assert token_prf(gold, gold).f1 == 1.0


# --- shingles ----------------------------------------------------------------


def test_shingle_tokens_keep_case_and_split_cjk() -> None:
    assert shingle_tokens("Ｈi, There 中文") == ["Ｈi", "There", "中", "文"]


def test_shingles_of_four_tokens() -> None:
    assert shingles("a b c d e") == {"a b c d": 1, "b c d e": 1}
    assert shingles("中文分词很难") == {"中 文 分 词": 1, "文 分 词 很": 1, "分 词 很 难": 1}


def test_short_text_is_one_shingle_and_empty_text_none() -> None:
    assert shingles("a, b") == {"a b": 1}
    assert shingles("") == {}
    assert shingles("!! --") == {}


def test_shingle_counts_by_hand() -> None:
    # output: abcd bcde cdef; gold: abcd bcdx -> tp 1, fp 2, fn 1
    counts = shingle_counts("a b c d e f", "a b c d x")
    assert counts == ShingleCounts(tp=1, fp=2, fn=1)
    assert shingle_pr("a b c d e f", "a b c d x") == (approx(1 / 3), approx(1 / 2))


def test_shingles_are_a_multiset() -> None:
    # output: abcd x2, bcda, cdab, dabc; gold: abcd -> tp 1, fp 4
    assert shingle_counts("a b c d a b c d", "a b c d") == ShingleCounts(tp=1, fp=4, fn=0)


def test_shingles_keep_case() -> None:
    assert shingle_pr("A b c d", "a b c d") == (0.0, 0.0)


def test_shingle_edge_cases() -> None:
    assert shingle_pr("", "") == (1.0, 1.0)
    assert shingle_pr("", "a b c d") == (0.0, 0.0)
    assert shingle_pr("a b c d", "") == (0.0, 0.0)
    assert not shingle_counts("", "a b c d").has_output
    assert not shingle_counts("a b c d", "").has_gold


def test_shingle_prf_averages_then_takes_f1() -> None:
    pages = [
        shingle_counts("a b c d e f", "a b c d x"),  # P 1/3, R 1/2
        shingle_counts("", ""),  # in neither mean
        shingle_counts("", "a b c d"),  # R 0, not in the precision mean
        shingle_counts("a b c d", "a b c d"),  # P 1, R 1
    ]
    score = shingle_prf(pages)
    assert score.precision == approx((1 / 3 + 1) / 2)
    assert score.recall == approx((1 / 2 + 0 + 1) / 3)
    assert score.f1 == approx(4 / 7)


def test_shingle_prf_of_nothing_is_zero() -> None:
    assert shingle_prf([]) == PRF(0.0, 0.0, 0.0)


# --- snippets ----------------------------------------------------------------


def test_snippet_counts_normalise_whitespace() -> None:
    output = "Hello   world.\nThis is\tthe text."
    counts = snippet_counts(output, ["world. This is", "missing"], ["the  text", "advert"])
    assert counts == SnippetCounts(tp=1, fn=1, fp=1)


def test_snippet_counts_nfkc_and_no_break_space() -> None:
    assert snippet_counts("Ｆｕｌｌ width", ["Full width"], []) == (1, 0, 0)
    assert snippet_counts("a\u00a0b", ["a b"], []) == (1, 0, 0)


def test_snippet_matching_is_case_sensitive_and_exact() -> None:
    assert snippet_counts("Hello world", ["hello world", "Hello worlds"], ["Hello"]) == (0, 2, 1)


def test_empty_snippets_are_skipped() -> None:
    assert snippet_counts("text", ["", "  "], ["\n"]) == (0, 0, 0)


def test_snippet_prf_per_page() -> None:
    assert snippet_prf(SnippetCounts(tp=3, fn=1, fp=1)) == PRF(0.75, 0.75, approx(0.75))
    assert snippet_prf(SnippetCounts(tp=2, fn=0, fp=0)) == PRF(1.0, 1.0, 1.0)
    assert snippet_prf(SnippetCounts(tp=0, fn=3, fp=0)) == PRF(0.0, 0.0, 0.0)


def test_snippet_corpus_score_is_micro() -> None:
    total = sum_snippets([SnippetCounts(1, 0, 0), SnippetCounts(0, 2, 0)])
    assert total == SnippetCounts(tp=1, fn=2, fp=0)
    score = snippet_prf(total)
    # a macro average would give recall (1 + 0) / 2 = 0.5
    assert (score.precision, score.recall, score.f1) == (1.0, approx(1 / 3), approx(0.5))


# --- pages and the scoreboard ------------------------------------------------


def _page(id: str, source: str, lang: str, text: str, **snippets: tuple[str, ...]) -> Page:
    gold_type = "snippets" if snippets else "full"
    return Page(id=id, source=source, url=None, lang=lang, html="", text=text, gold_type=gold_type, **snippets)


def test_score_page_uses_the_measures_the_gold_allows() -> None:
    full = score_page("a b c d", _page("1", "s", "en", "a b c d"))
    assert full.token == PRF(1.0, 1.0, 1.0) and full.shingle == (1, 0, 0) and full.snippet is None
    snip = _page("2", "t", "de", "keep", with_snippets=("keep",), without_snippets=("drop",))
    scored = score_page("keep and drop", snip)
    assert scored.token is None and scored.shingle is None
    assert scored.snippet == (1, 0, 1)
    assert scored.main_f1 == approx(2 * 0.5 * 1 / 1.5)


def test_scoreboard_groups_by_source_and_language() -> None:
    board = Scoreboard()
    board.add(score_page("a b c d", _page("1", "news", "en", "a b c d")))
    board.add(score_page("a b", _page("2", "news", "zh", "a b c d")))  # token F1 2/3
    board.add(score_page("x", _page("3", "snip", "en", "x", with_snippets=("x", "y"), without_snippets=("z",))))

    news = board.by_source()["news"]
    assert news.pages == 2
    assert news.token_f1 == approx((1 + 2 / 3) / 2)
    # shingles: page 1 P 1 R 1; page 2 output "a b" -> P 0 R 0
    assert news.shingle == PRF(0.5, 0.5, 0.5)
    assert news.snippet is None

    snip = board.by_source()["snip"]
    assert snip.token_f1 is None and snip.shingle is None
    assert snip.snippet == PRF(1.0, 0.5, approx(2 / 3))

    by_lang = board.by_lang()
    assert sorted(by_lang) == ["en", "zh"]
    assert by_lang["en"].pages == 2 and by_lang["en"].token_f1 == 1.0
    assert board.overall().pages == 3
