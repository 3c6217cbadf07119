import math

import numpy as np
import pytest
from lxml import html

from webclean.config import Config
from webclean.extract import locate_units
from webclean.features import FEATURE_SETS, FEATURE_WIDTHS, block_units, feature_matrix
from webclean.lexicon import NoiseLexicon
from webclean.line_features import _TEXT_COLUMN_NAMES, _UNIT_COLUMN_NAMES, RICH_FEATURE_NAMES, SVM_FEATURE_NAMES
from webclean.tokenize import NO_SENTENCE_END
from webclean.units import Unit, units_from_columns

BLOCK = """<div>
  <h1>标题不在样本里</h1>
  <p>第一段正文，<a href="/a">链接</a>在句中。</p>
  <a href="/more">更多新闻</a>
  <table><tr><td>单元格文字<a href="/t">表内链接</a>尾巴</td></tr></table>
  <p>   </p>
  <p>最后一段。</p>
</div>"""


def _units():
    return block_units(html.fragment_fromstring(BLOCK))


def test_units_are_p_a_td_in_document_order():
    # A cell comes before the units nested in it; its own text is one unit per run
    # between them, so no unit joins text across a nested one.
    units = _units()
    assert [u.tag for u in units] == ["p", "a", "td", "td", "a", "p"]
    assert units[0].text == "第一段正文，链接在句中。"
    assert [units[2].text, units[3].text] == ["单元格文字", "尾巴"]


def test_positions_count_samples_only():
    positions = [u.position for u in _units()]
    assert positions == [0.25, 0.5, 0.0, 0.0, 0.75, 1.0]


def test_link_ratio_per_unit():
    units = _units()
    assert units[0].link_ratio == 2 / 12
    assert units[1].link_ratio == 1.0
    assert units[5].link_ratio == 0.0


def test_feature_matrix_is_t_s_l_p_r():
    lexicon = NoiseLexicon(words={"更": 2.0, "新闻": 1.0}, marks={NO_SENTENCE_END: 5.0, "，": 0.5})
    units = _units()
    X = feature_matrix(units, lexicon)
    assert X.shape == (6, 5)
    more = X[1]
    assert more[0] == 3.0  # 更 + 新闻 (jieba: 更 / 多 / 新闻)
    assert more[1] == 5.0  # no sentence end
    assert more[2] == 4.0
    assert tuple(more[3:]) == (0.5, 1.0)
    first = X[0]
    assert first[1] == 0.5  # one "，", and it ends with 。


def test_context_features_place_lines_around_the_prose():
    prose = "A sentence of the article that goes on for a while. " * 3
    page = html.document_fromstring(
        "<html><body><div><h1>Title</h1>"
        f"<p>{prose}</p><p>{prose}</p>"
        "<div><div><p>A comment, nested deeper.</p></div></div></div></body></html>"
    )
    _, units = locate_units(page, Config(method="svm"))
    assert [u.span for u in units] == [-1, 0, 0, 1]
    assert [u.depth_offset for u in units] == [0, 0, 0, 2]
    lexicon = NoiseLexicon(words={}, marks={})
    X = feature_matrix(units, lexicon, "rich")
    assert X.shape == (4, len(RICH_FEATURE_NAMES))
    ends = RICH_FEATURE_NAMES.index("sentence_ends")
    assert X[1, ends] > X[0, ends] == 0.0


def test_the_svm_reads_the_stopword_density_and_the_line_lexicon_last():
    from webclean.config import Config
    from webclean.extract import locate_units
    from webclean.features import SVM_WIDTHS
    from webclean.line_features import SVM_FEATURE_NAMES

    prose = "It was the end of a long day for the team and of the season. " * 3
    page = html.document_fromstring(
        f"<html><body><div><h1>Weekly Results Table</h1><p>{prose}</p><p>Advertisement</p><p>{prose}</p></div></body></html>"
    )
    _, units = locate_units(page, Config(method="svm"))
    lexicon = NoiseLexicon(
        words={"results": 1.0}, marks={}, stopwords=frozenset({"the", "of", "a", "and", "it", "was", "for"}), lines={"=advertisement": 5.0}
    )
    X = feature_matrix(units, lexicon, "rich")[:, : SVM_WIDTHS["rich"]]
    assert SVM_FEATURE_NAMES[-4:] == ("before_block", "after_block", "stopword_density", "log_line_noise")
    # The headline holds no stop word; the prose is more than half stop words.
    assert X[0, -2] == 0.0 and X[1, -2] > 0.5
    # The line the lexicon learned as noise weighs its key; the others none.
    assert [unit.text for unit in units][2] == "Advertisement"
    assert list(X[:, -1]) == [0.0, 0.0, math.log1p(5.0), 0.0]


def test_rich_features_are_the_svms_and_the_text_and_ancestors():
    from webclean.features import SVM_WIDTHS
    from webclean.segment import ANCESTOR_GROUPS

    lexicon = NoiseLexicon(words={}, marks={})
    units = [
        Unit(tag="line", text="Release Date:", length=12, link_ratio=0.0, position=0.1),
        Unit(tag="line", text="SIGN UP AT www.example.org…", length=24, link_ratio=0.0, position=0.5, groups=0b101),
        Unit(tag="line", text="Home | News", length=9, link_ratio=0.0, position=0.9),
    ]
    X = feature_matrix(units, lexicon, "rich")
    assert X.shape == (3, len(RICH_FEATURE_NAMES))
    # The SVM reads its columns, at the front.
    assert SVM_WIDTHS["rich"] == len(SVM_FEATURE_NAMES) and RICH_FEATURE_NAMES[: len(SVM_FEATURE_NAMES)] == SVM_FEATURE_NAMES
    column = {name: X[:, k] for k, name in enumerate(RICH_FEATURE_NAMES)}
    assert list(column["ends_colon"]) == [1.0, 0.0, 0.0]
    assert list(column["has_address"]) == [0.0, 1.0, 0.0]
    assert list(column["ends_ellipsis"]) == [0.0, 1.0, 0.0]
    assert list(column["has_bar"]) == [0.0, 0.0, 1.0]
    assert column["upper_share"][1] == 8 / 21 and column["upper_share"][0] == 2 / 11
    names = [name for name, _ in ANCESTOR_GROUPS]
    assert [column[f"in_{name}"][1] for name in names] == [1.0, 0.0, 1.0] + [0.0] * (len(names) - 3)


def test_the_rich_rows_compute_every_column_once():
    assert len(set(RICH_FEATURE_NAMES)) == len(RICH_FEATURE_NAMES), "a column named twice is computed into one and the other left unset"
    assert sorted(_TEXT_COLUMN_NAMES + _UNIT_COLUMN_NAMES) == sorted(RICH_FEATURE_NAMES)


def test_the_trees_read_the_line_lexicon_and_what_the_page_says_of_a_line():
    lexicon = NoiseLexicon(words={}, marks={}, lines={"=share this story": 9.0, "1<photo": 3.0})
    units = [
        Unit(tag="line", text="Share this story", length=14, link_ratio=1.0, position=0.1, furniture=True, related=1),
        Unit(tag="line", text="Photo: an agency", length=13, link_ratio=0.0, position=0.5, related=2, copy=3, post=-1),
        Unit(tag="line", text="x = 1", length=3, link_ratio=0.0, position=0.9, code="x = 1", past_core=True, post=1),
    ]
    X = feature_matrix(units, lexicon, "rich")
    column = {name: list(X[:, k]) for k, name in enumerate(RICH_FEATURE_NAMES)}
    assert column["log_line_noise"] == [math.log1p(9.0), math.log1p(3.0), 0.0]
    assert column["furniture"] == [1.0, 0.0, 0.0]
    assert column["names_related_box"] == [1.0, 0.0, 0.0] and column["in_related_box"] == [0.0, 1.0, 0.0]
    assert column["is_copy"] == [0.0, 1.0, 0.0] and column["is_code"] == [0.0, 0.0, 1.0]
    assert column["past_core"] == [0.0, 0.0, 1.0]
    assert column["post_text"] == [0.0, 0.0, 1.0] and column["post_rest"] == [0.0, 1.0, 0.0]


@pytest.mark.parametrize("feature_set", ["paper", "rich"])
def test_a_feature_set_makes_the_rows_of_the_texts_given(feature_set):
    lexicon = NoiseLexicon(words={"更": 2.0, "新闻": 1.0}, marks={NO_SENTENCE_END: 5.0, "，": 0.5}, stopwords=frozenset({"在"}))
    units = [u._replace(groups=k, kind=kind) for k, (u, kind) in enumerate(zip(_units(), ["heading", "link", "p", "text", "cell", "list"]))]
    sentences = [u.text[: len(u.text) // 2 + 1] for u in units]
    rows = FEATURE_SETS[feature_set]
    X = rows(units, sentences, lexicon)
    assert X.shape == (len(units), FEATURE_WIDTHS[feature_set]) and X.dtype == np.float64 and X.flags.c_contiguous
    # A row depends on its unit and text alone, and is the row of a unit of that text.
    for k in range(len(units)):
        assert np.array_equal(rows(units[k : k + 1], sentences[k : k + 1], lexicon), X[k : k + 1])
    assert np.array_equal(feature_matrix([u._replace(text=s) for u, s in zip(units, sentences)], lexicon, feature_set), X)
    assert rows([], [], lexicon).shape == (0, FEATURE_WIDTHS[feature_set])


def test_units_from_columns_names_every_field_of_a_unit():
    columns = {name: [default] for name, default in Unit._field_defaults.items()}
    columns.update(tag=["line"], text=["a line"], length=[5], link_ratio=[0.5], position=[1.0], depth=[3])
    (unit,) = units_from_columns(**columns)
    assert unit == Unit(tag="line", text="a line", length=5, link_ratio=0.5, position=1.0, depth=3)
    del columns["depth"]
    with pytest.raises(TypeError, match="depth"):
        units_from_columns(**columns)
    with pytest.raises(TypeError, match="depht"):
        units_from_columns(**columns, depht=[3])
