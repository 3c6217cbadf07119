import unicodedata

from hypothesis import example, given, settings
from hypothesis import strategies as st

from webclean import tokenize
from webclean.tokenize import (
    EMAIL,
    NO_SENTENCE_END,
    PHONE,
    URL,
    ends_sentence,
    marks_of,
    sentence_ends,
    special_marks,
    split_pseudo_words,
    split_sentences,
    words,
)


def test_chinese_is_segmented_into_words():
    tokens = words("我们在北京大学学习")
    assert "北京大学" in tokens or ("北京" in tokens and "大学" in tokens)
    assert all(len(t) <= 4 for t in tokens)


def test_english_words_are_lower_cased_runs():
    assert words("Hello, World! It's 2024.") == ["hello", "world", "it", "s", "2024"]


def test_pseudo_words_chinese_and_international():
    assert words("联系我们: service@example.com.cn") == ["联系", "我们", EMAIL]
    assert URL in words("详见 http://news.sina.com.cn/a/b.html 和")
    assert URL in words("visit www.example.org today")
    assert PHONE in words("电话：010-12345678")
    assert PHONE in words("手机 13812345678 咨询")
    assert PHONE in words("Call +44 20 7946 0958 now")
    assert PHONE in words("Call (212) 555-1234 now")


def test_years_and_prices_are_not_phones():
    assert PHONE not in words("2018年9月 发表，售价 3999 元")


def test_special_marks_count_punctuation_and_missing_end():
    marks = special_marks("首页 | 新闻 > 国内")
    assert marks["|"] == 1 and marks[">"] == 1
    assert marks[NO_SENTENCE_END] == 1
    assert NO_SENTENCE_END not in special_marks("这是一个句子。")


def test_ends_sentence_looks_through_closing_quotes():
    assert ends_sentence('他说："好。"')
    assert ends_sentence("He left.")
    assert not ends_sentence("更多新闻")


def test_split_sentences_keeps_every_character():
    text = "第一句。第二句！Third one. Fourth? 最后一句没有句号"
    pieces = split_sentences(text)
    assert "".join(pieces) == text
    assert pieces[0] == "第一句。" and pieces[1] == "第二句！"
    assert pieces[-1].strip() == "最后一句没有句号"
    assert len(pieces) == 5


def test_dots_inside_numbers_do_not_split():
    assert split_sentences("It costs 3.5 dollars. Then") == ["It costs 3.5 dollars.", " Then"]


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=40) | st.lists(st.sampled_from(["Ａ", "，", "\u3000", "\u0301", "①", "…", "中", "a", "ﬁ"]), max_size=12).map("".join))
@settings(max_examples=500, deadline=None)
def test_nfkc_is_unicodedatas(text):
    assert tokenize.nfkc(text) == unicodedata.normalize("NFKC", text)


def _marks_by_definition(text):
    return [ch for ch in text if not (ch.isalnum() or ch.isspace()) and unicodedata.category(ch)[0] in "PS"]


@given(st.text(max_size=200))
@settings(max_examples=300, deadline=None)
def test_marks_of_are_the_punctuation_and_symbol_characters(text):
    assert marks_of(text) == _marks_by_definition(text)


def test_marks_of_covers_every_category():
    # Every character of the first two planes: the regular expression's classes and
    # str.isalnum / str.isspace agree on what may be a mark.
    text = "".join(map(chr, range(0x20000)))
    text = text.replace("\ud800", "")  # lone surrogates stay: they are category Cs, not marks
    assert marks_of(text) == _marks_by_definition(text)


_PSEUDO_PARTS = ["a", "B", "1", "2", "+", "00", "@", ".", ":", "/", "-", " ", "中文", "www.", "WWW.", "http://", "ftp://", ".com", ".CN",
                 ".org", "x@y", "555 123 4567", "+86 10 1234 5678", "13912345678", "010-12345678", "（010）12345678",
                 "，", "＠", "ｗｗｗ．", "．ｃｏｍ", "１２３", "＋", "…", "①", "\u3000", "\u0301", "ﬁ"]


@given(st.lists(st.sampled_from(_PSEUDO_PARTS), max_size=12).map("".join))
@example("call +1 22 33 now")  # the shortest phone: five digits
@example("in 2009, +5 or 00 7: call 0049 30 1234 56")  # "+" and "00" with and without a phone
@example("mail x@y.org or see a.example.COM/x")
@example("2008年12月, 1000 or 2000 12 or 20001 23 45")  # years and "00" that open no phone, and one that does
@example("+1 (22) 33 44, 001-22-33 and +1 22-3")
@settings(max_examples=500, deadline=None)
def test_pseudo_words_are_what_the_whole_pattern_finds(text):
    # split_pseudo_words leaves out the parts of the pattern a text cannot match:
    # it must cut exactly where the whole pattern does.
    normalised = unicodedata.normalize("NFKC", text)
    matches = list(tokenize._PSEUDO_RE.finditer(normalised))
    starts = [0, *(m.end() for m in matches)]
    ends = [*(m.start() for m in matches), len(normalised)]
    names = {"email": EMAIL, "url": URL, "phone": PHONE}
    assert split_pseudo_words(text) == (
        [normalised[a:b] for a, b in zip(starts, ends)],
        [names[m.lastgroup] for m in matches],
    )


@given(st.text(alphabet=st.sampled_from(list("ab 好\n\t\u3000。．.！!？?…；\"'”’」』）)]】》")), max_size=20))
@example("他说：“好。” 然后？走了… ")
@example("It costs 3.5 dollars. Then")
def test_sentence_ends_counts_the_pieces_that_end_a_sentence(text):
    assert sentence_ends(text) == sum(1 for piece in split_sentences(text) if ends_sentence(piece))
