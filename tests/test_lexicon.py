from collections import Counter

from webclean.config import LexiconConfig
from webclean.lexicon import NoiseLexicon, TermCounts, build_lexicon
from webclean.tokenize import EMAIL, NO_SENTENCE_END, PHONE, URL


def _counts():
    counts = TermCounts()
    for _ in range(9):
        counts.add(["版权所有", "新闻"], {"|": 2}, is_noise=True)
    counts.add(["版权所有"], {}, is_noise=False)
    for _ in range(20):
        counts.add(["新闻", "经济"], {"，": 3}, is_noise=False)
    return counts


def test_words_enter_when_p_reaches_alpha():
    lexicon = build_lexicon(_counts(), LexiconConfig(alpha=0.8, min_count=3))
    # 版权所有: n = 9, h = 1, p = 0.9 >= 0.8; weight n / (h + 1) = 4.5
    assert lexicon.words["版权所有"] == 4.5
    # 新闻: n = 9, h = 20, p = 0.31
    assert "新闻" not in lexicon.words
    assert "经济" not in lexicon.words
    assert lexicon.marks["|"] == 18.0
    assert "，" not in lexicon.marks


def test_alpha_one_keeps_only_pure_noise():
    lexicon = build_lexicon(_counts(), LexiconConfig(alpha=1.0, min_count=3))
    assert "版权所有" not in lexicon.words


def test_pseudo_words_and_missing_end_are_always_in():
    lexicon = build_lexicon(TermCounts(), LexiconConfig())
    assert {EMAIL, URL, PHONE} <= set(lexicon.words)
    assert NO_SENTENCE_END in lexicon.marks


def test_indices_sum_weight_times_frequency():
    lexicon = NoiseLexicon(words={"a": 2.0, "b": 0.5}, marks={"|": 3.0})
    assert lexicon.noise_word_index(["a", "a", "b", "c"]) == 4.5
    assert lexicon.special_punct_index(Counter({"|": 2, ",": 5})) == 6.0


def test_counts_merge_like_a_word_count():
    left, right = TermCounts(), TermCounts()
    left.add(["x"], {"|": 1}, is_noise=True)
    right.add(["x", "y"], {"|": 1}, is_noise=True)
    merged = left.merge(right)
    assert merged.noise_words == Counter({"x": 2, "y": 1})
    assert merged.noise_marks["|"] == 2


def test_round_trip_through_dict():
    lexicon = build_lexicon(_counts(), LexiconConfig(min_count=1))
    assert NoiseLexicon.from_dict(lexicon.to_dict()) == lexicon
