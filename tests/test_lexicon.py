from collections import Counter
from dataclasses import replace

import pytest

from webclean import lexicon as lexicon_module
from webclean.config import Config, LexiconConfig
from webclean.lexicon import (
    LineCounts,
    NoiseLexicon,
    TermCounts,
    build_lexicon,
    build_line_lexicon,
    line_keys,
)
from webclean.tokenize import EMAIL, NO_SENTENCE_END, PHONE, URL, ends_sentence, marks_of, special_marks, words


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


def test_stop_words_are_the_most_frequent_words_of_main_text():
    counts = TermCounts()
    for _ in range(5):
        counts.add(["the", "of", "的", "2024", "新闻", "share"], {}, is_noise=False)
    counts.add(["the", "的"], {}, is_noise=False)
    for _ in range(9):
        counts.add(["share", "of"], {}, is_noise=True)
    lexicon = build_lexicon(counts, LexiconConfig(stopwords=2))
    # "share" and "of" are more often noise; digits and CJK words of two characters
    # are never stop words; "the" and "的" are the two most frequent of the rest.
    assert lexicon.stopwords == {"the", "的"}
    assert build_lexicon(counts, LexiconConfig(stopwords=0)).stopwords == frozenset()


def test_indices_give_t_and_the_share_of_stop_words():
    lexicon = NoiseLexicon(words={"share": 2.0, "分享": 3.0}, marks={}, stopwords=frozenset({"the", "of", "的"}))
    text = "The end of the story, share 分享的故事"
    (t, density), empty = lexicon.indices([text, ""])
    assert t == lexicon.word_index(text) == 5.0
    # Words: the end of the story share + 分 享 的 故 事 = 11; stop words: the of the 的.
    assert density == 4 / 11
    assert empty == (0.0, 0.0)
    assert NoiseLexicon(words={}, marks={}).indices(["the end"]) == [(0.0, 0.0)]


def test_round_trip_through_dict():
    counts = _counts()
    counts.add(["的"], {}, is_noise=False)
    lexicon = build_lexicon(counts, LexiconConfig(min_count=1))
    assert lexicon.stopwords == {"的"}
    assert NoiseLexicon.from_dict(lexicon.to_dict()) == lexicon


def _known_lexicon():
    return NoiseLexicon(
        words={"版权": 2.0, "评论": 3.0, "share": 1.5, "iphone": 0.5, EMAIL: 4.0, URL: 1.0, PHONE: 1.0},
        marks={"|": 2.0, "©": 5.0, NO_SENTENCE_END: 1.0},
    )


def test_word_index_finds_lexicon_words_in_the_text():
    lexicon = _known_lexicon()
    # CJK words where they occur, Latin words as whole words (any case), pseudo-words once each.
    assert lexicon.word_index("版权所有 发表评论") == 2.0 + 3.0
    assert lexicon.word_index("Share this; SHARE that. Sharing is not a lexicon word.") == 3.0
    assert lexicon.word_index("写信给 ed@example.com 或访问 www.example.com") == 4.0 + 1.0
    # A Latin word runs up to a CJK ideograph, as jieba would cut it.
    assert lexicon.word_index("iPhone手机评论") == 0.5 + 3.0
    assert lexicon.word_index("全文共三段，与噪声无关。") == 0.0


def test_word_index_agrees_with_jieba_words_on_latin_text():
    lexicon = _known_lexicon()
    for text in ["Share it at https://example.org/a?b=1 now", "Call +1 555 123 4567 or mail a.b@c.org", "plain prose here."]:
        assert lexicon.word_index(text) == lexicon.noise_word_index(words(text))


def test_mark_indices_equal_the_papers_s():
    lexicon = _known_lexicon()
    texts = ["首页 | 新闻 | 关于 ©2024", "A sentence that ends.", "no end | here", ""]
    found = lexicon.mark_indices(map(marks_of, texts), map(ends_sentence, texts))
    assert found == [lexicon.special_punct_index(special_marks(text)) for text in texts]


def test_a_lexicon_used_on_chinese_text_still_pickles():
    # The Spark job broadcasts the model after the driver has used it.
    import pickle

    lexicon = NoiseLexicon(words={"责任编辑": 2.0, "编辑": 1.0, "share": 1.5}, marks={})
    before = lexicon.indices(["责任编辑：张三 share"])
    copy = pickle.loads(pickle.dumps(lexicon))
    assert copy == lexicon and copy.indices(["责任编辑：张三 share"]) == before
    assert before[0][0] == 2.0 + 1.5  # the longest word, once


def test_line_keys_are_the_whole_short_line_and_its_first_words():
    assert line_keys("责任编辑：王小明") == ["=责 任 编 辑 王 小 明", "1<责", "2<责 任", "3<责 任 编"]
    # Case, punctuation and numbers do not tell two lines apart.
    assert line_keys("Photo: John Smith / Reuters, 2024") == line_keys("photo  john smith reuters 1999")
    assert line_keys("Share") == ["=share"]
    assert line_keys("") == [] and line_keys("—") == []
    many = " ".join(["word"] * (LexiconConfig().line_key_tokens + 1))
    assert line_keys(many) == ["1<word", "2<word word", "3<word word word"]


def _line_counts(noise_sites: int) -> LineCounts:
    counts = LineCounts()
    for _ in range(noise_sites):
        counts.add_site(["Share this article", "Photo: Agency One"], ["A paragraph of the story with some words."])
    counts.add_site(["Only this site says so"] * 5, ["Photo booths are back in fashion this summer, says everyone"])
    return counts


def test_line_keys_enter_the_line_lexicon_when_noise_on_enough_sites():
    config = LexiconConfig(alpha=0.8, min_count=3, line_alpha=0.8, line_sites=3)
    lines = build_line_lexicon(_line_counts(3), config)
    assert lines["=share this article"] == 3.0  # n = 3, h = 0
    # "photo" opens three noise lines and one of content: p = 0.75 < 0.8
    assert "1<photo" not in lines
    assert "2<photo agency" in lines
    # The line lexicon's own alpha, not the words': at 0.7 "photo" enters, weighed n / (h + 1).
    assert build_line_lexicon(_line_counts(3), replace(config, line_alpha=0.7))["1<photo"] == 1.5
    # Five times noise, but on one site only: a template, not a habit.
    assert "=only this site says so" not in lines
    assert build_line_lexicon(_line_counts(2), config) == {}
    lexicon = build_lexicon(_counts(), config, _line_counts(3))
    assert lexicon.line_indices(["SHARE this article!", "A paragraph", "Photo: Agency Two"]) == [3.0, 0.0, 3.0]
    assert NoiseLexicon.from_dict(lexicon.to_dict()) == lexicon
    assert build_lexicon(_counts(), config).line_indices(["Share this article"]) == [0.0]


def test_the_line_lexicon_skips_only_lines_whose_first_token_opens_no_key():
    lexicon = NoiseLexicon(words={}, marks={}, lines={"=share this article": 3.0, "2<photo agency": 2.0, "1<责": 4.0})
    texts = ["Share this article", "PHOTO: Agency Two", "责任编辑：王某", "The council met on Monday.", "", "— " * 30 + "photo agency x"]
    # The same weights as cutting every line into its keys.
    by_keys = [max((lexicon.lines.get(key, 0.0) for key in line_keys(text)), default=0.0) for text in texts]
    assert lexicon.line_indices(texts) == by_keys == [3.0, 2.0, 4.0, 0.0, 0.0, 2.0]


def test_a_long_line_is_keyed_as_if_cut_whole():
    prose = "The council met on Monday to discuss the new bridge over the river, and voted to fund it. " * 4
    assert line_keys(prose) == ["1<the", "2<the council", "3<the council met"]
    # Over the characters cut first, but of few tokens: the whole line is a key.
    long_words = " ".join(["Pneumonoultramicroscopicsilicovolcanoconiosis"] * 5)
    assert len(long_words) > 200
    assert line_keys(long_words)[0] == "=" + " ".join(["pneumonoultramicroscopicsilicovolcanoconiosis"] * 5)
    # A line of exactly the most tokens a whole key holds, and one more.
    assert line_keys(" ".join(["word"] * 24))[0].startswith("=")
    assert not line_keys(" ".join(["word"] * 25))[0].startswith("=")


def test_a_lexicon_reads_lines_with_the_key_length_it_was_counted_with():
    # lexicon.line_key_tokens = 2: a line of three tokens is keyed by its first words only.
    config = Config().with_overrides(["lexicon.line_sites=3", "lexicon.line_key_tokens=2"]).lexicon
    counts = LineCounts(key_tokens=config.line_key_tokens)
    for _ in range(3):
        counts.add_site(["Share this article"], ["A paragraph of the story with some words."])
    lexicon = build_lexicon(_counts(), config, counts)
    assert lexicon.line_key_tokens == 2
    assert "2<share this" in lexicon.lines and "=share this article" not in lexicon.lines
    assert "=share this article" in build_lexicon(_counts(), LexiconConfig(line_sites=3), _line_counts(3)).lines
    # The lexicon keeps the value: a model reads lines as it was trained, whatever the caller's config says.
    restored = NoiseLexicon.from_dict(lexicon.to_dict())
    assert restored == lexicon and restored.line_indices(["SHARE this, article"]) == [3.0]
    # A lexicon saved before the setting existed was counted with the default.
    old = {key: value for key, value in lexicon.to_dict().items() if key != "line_key_tokens"}
    assert NoiseLexicon.from_dict(old).line_key_tokens == LexiconConfig().line_key_tokens == 24
    # Counts of other keys than the configuration's cannot make a lexicon.
    with pytest.raises(ValueError, match="line_key_tokens"):
        build_line_lexicon(counts, LexiconConfig())


@pytest.mark.parametrize("keyed, head", [(1, 1), (12, 5), (100_000, 100_000)])
def test_the_bounds_of_the_work_on_a_line_do_not_change_its_keys(monkeypatch, keyed, head):
    # _KEYED_CHARS and _HEAD_CHARS bound the work on long lines: no setting, since the
    # keys and the weights are the same whatever their values.
    lexicon = NoiseLexicon(words={}, marks={}, lines={"=share this article": 3.0, "2<photo agency": 2.0, "1<责": 4.0})
    prose = "The council met on Monday to discuss the new bridge over the river. " * 5
    texts = ["Share this article", "PHOTO: Agency Two", "责任编辑：王某", prose, " ".join(["Pneumonoultramicroscopic"] * 12), "— " * 30 + "photo agency"]
    keys, weights = [line_keys(text) for text in texts], lexicon.line_indices(texts)
    monkeypatch.setattr(lexicon_module, "_KEYED_CHARS", keyed)
    monkeypatch.setattr(lexicon_module, "_HEAD_CHARS", head)
    assert [line_keys(text) for text in texts] == keys
    assert lexicon.line_indices(texts) == weights
