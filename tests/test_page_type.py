"""The page type model: its signals, its lexicon, its trees and how a model carries it."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from webclean.config import PAGE_TYPES, Config
from webclean.datasets import Page
from webclean.extract import extract, page_lines
from webclean.line_features import RICH_FEATURE_NAMES
from webclean.model import load_model, save_model
from webclean.page_type import SIGNAL_NAMES, PageTypeModel, TypeLexicon, fit_page_types, page_signals, train_page_types, type_words
from webclean.parse import parse_html
from webclean.training import label_page, page_type_stage, train

CONFIG = Config()

ARTICLE = (
    "<html><head><title>Bridge opens</title><meta property='og:type' content='article'></head><body>"
    "<article><h1>Bridge opens</h1>"
    + "".join(f"<p>{'The new bridge over the river opened today after two years of work. ' * 3}{i}</p>" for i in range(5))
    + "</article></body></html>"
)
PRODUCT = (
    '<html><head><title>Kettle</title><script type=\'application/ld+json\'>{"@type": "Product", "name": "Kettle"}'
    "</script></head><body><h1>Steel kettle</h1><p>Price: $49.99</p><form><input name='qty'><button>Add to cart</button></form>"
    "</body></html>"
)
LISTING = (
    "<html><head><title>All stories</title></head><body><ul>"
    + "".join(f"<li class='story'><a href='/s/{i}'>Story number {i} of the day</a><span>May {i}</span></li>" for i in range(12))
    + "</ul></body></html>"
)


def signals(html: str, url: str | None = None) -> dict[str, float]:
    root = parse_html(html)
    row = page_signals(root, html, url, page_lines(root, CONFIG), CONFIG)
    assert row.shape == (len(SIGNAL_NAMES),)
    return dict(zip(SIGNAL_NAMES, row.tolist()))


def test_signals_read_what_the_page_declares_and_holds():
    article, product, listing = signals(ARTICLE), signals(PRODUCT), signals(LISTING)
    assert article["declared_article"] > 0 and article["declared_product"] == 0
    assert product["declared_product"] > 0 and product["declared_article"] == 0
    assert product["prices"] > 0 == article["prices"]
    assert listing["count_li"] == pytest.approx(np.log1p(12)) and article["count_li"] == 0
    # Twelve items of one form in one box: a run of items that holds the page's text.
    assert listing["largest_run"] == pytest.approx(np.log1p(12))
    assert listing["items_share"] > 0.9 and article["largest_run"] == pytest.approx(np.log1p(5))
    assert article["prose_share"] > 0.9 > listing["prose_share"]


def test_signals_count_prices_and_cjk_in_the_lines_text():
    found = signals("<html><body><p>Kettle $5 or 7元</p><p>中文句子</p><p>total $</p><p>9 each</p></body></html>")
    assert found["prices"] == np.log1p(3)  # $5, 7元, and $ 9 across a line break
    # The lines' first 40 characters: 15 + 4 + 7 + 6, five of them CJK ideographs.
    assert found["cjk_share"] == 5 / 32
    assert found["lines"] == np.log1p(4) and found["chars"] == np.log1p(12 + 4 + 6 + 5)
    assert found["kind_p_share"] == 1.0 and found["long_lines"] == 0.0


def test_the_lexicon_scores_each_word_as_its_counts_make_it():
    lexicon = TypeLexicon.count([("u:a", "u:b")] * 3 + [("u:a",)] * 2 + [("u:b", "u:c")] * 4, [0, 0, 0, 1, 1, 2, 2, 2, 2], 2)
    pages = lexicon.pages.astype(np.float64)
    for found in (["u:a"], ["u:a", "u:b"], ["u:a", "u:b", "u:c"], ["u:x"]):
        rows = [lexicon.words.index(word) for word in found if word in lexicon.words]
        n = lexicon.counts[rows].astype(np.float64)
        held = n.sum(axis=1)
        share, rest = (n + 0.5) / (pages + 1), (held[:, None] - n + 0.5) / (pages.sum() - pages + 1)
        expected = np.log(share / rest).sum(axis=0) if rows else np.zeros(len(PAGE_TYPES))
        assert np.array_equal(lexicon.scores(found), expected)
        no_own = np.zeros_like(lexicon.counts), np.zeros_like(lexicon.pages)
        assert np.array_equal(lexicon.scores(found, *no_own), expected)


def test_signals_read_the_address_shape():
    deep, root = signals(ARTICLE, "https://example.org/news/2024/05/bridge-opens-today.html"), signals(ARTICLE, "https://example.org/")
    assert deep["url_depth"] == 4 and deep["url_digits"] == 6 and deep["url_file"] == 1 and deep["url_last_words"] == 4
    assert root["url_root"] == 1 and root["url_depth"] == 0
    assert signals(ARTICLE, "https://forum.example.org/t/some-topic/12")["url_forum"] == 1


def test_type_words_take_the_path_and_title_words():
    found = type_words("https://shop.example/products/steel-kettle?ref=1", "Steel Kettle")
    assert {"u:products", "u:steel", "u:kettle", "t:steel", "t:kettle"} <= set(found)
    assert not any(word.startswith("u:ref") or word.startswith("u:shop") for word in found)


def test_a_title_in_chinese_is_read_as_its_pairs_of_characters():
    found = type_words(None, "iPhone手机论坛 - Ａｐｐｌｅ 产品列表 a 2024")
    assert set(found) == {"t:iphone", "t:apple", "t:2024", "t:手机", "t:机论", "t:论坛", "t:产品", "t:品列", "t:列表"}
    assert type_words(None, "论") == ()  # one character alone is no word


def test_the_lexicon_scores_a_word_for_the_type_whose_pages_hold_it():
    product, article = PAGE_TYPES.index("product"), PAGE_TYPES.index("article")
    found = [("u:products",)] * 4 + [("u:news",)] * 4 + [("u:rare",)]
    labels = [product] * 4 + [article] * 4 + [product]
    lexicon = TypeLexicon.count(found, labels, min_pages=2)
    scores = lexicon.scores(["u:products"])
    assert scores[product] > 0 > scores[article]
    assert lexicon.scores(["u:news"])[article] > 0
    # Held by fewer than min_pages pages, a word says nothing; so does an unknown one.
    assert not lexicon.scores(["u:rare", "u:unknown"]).any()
    # Taking a page's own counts out (as for a page of its own site) weakens the word.
    own = np.zeros_like(lexicon.counts)
    own[lexicon.words.index("u:products"), product] = 1
    own_pages = np.zeros_like(lexicon.pages)
    own_pages[product] = 1
    assert 0 < lexicon.scores(["u:products"], own, own_pages)[product] < scores[product]


def _toy(seed: int = 0) -> tuple[np.ndarray, list[tuple[str, ...]], list[str], list[str]]:
    """Rows where one signal tells three types apart, and the words of their addresses."""
    rng = np.random.default_rng(seed)
    kinds = ["article", "listing", "product"] * 30
    X = rng.normal(size=(len(kinds), len(SIGNAL_NAMES)))
    X[:, SIGNAL_NAMES.index("prices")] = [{"article": 0, "listing": 1, "product": 2}[k] * 3 for k in kinds]
    found = [(f"u:{kind}s",) for kind in kinds]
    return X, found, kinds, [f"site{i % 9}" for i in range(len(kinds))]


def test_fitted_trees_tell_the_types_apart_and_survive_saving():
    X, found, kinds, sites = _toy()
    model = fit_page_types(X, found, kinds, sites, CONFIG.page_type)
    predicted = [model.predict(row, words)[0] for row, words in zip(X, found)]
    assert predicted == kinds
    probabilities = model.probabilities(np.hstack([X, np.zeros((len(X), len(PAGE_TYPES)))]))
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0)
    # A type no page showed is never the most probable.
    assert probabilities[:, PAGE_TYPES.index("forum")].max() < 1e-6
    scalars, arrays = model.to_data()
    again = PageTypeModel.from_data(json.loads(json.dumps(scalars)), arrays)
    np.testing.assert_array_equal(again.probabilities(np.hstack([X, X[:, :7]])), model.probabilities(np.hstack([X, X[:, :7]])))
    with pytest.raises(ValueError):
        PageTypeModel.from_data({**scalars, "words": scalars["words"][1:]}, arrays)


def test_training_fits_no_model_where_the_settings_or_the_pages_give_none():
    X, found, kinds, sites = _toy()
    assert train_page_types(kinds, X, found, sites, CONFIG) is not None
    assert train_page_types(kinds, X, found, sites, CONFIG.with_overrides(["page_type.trees=0"])) is None
    two = ["article" if kind == "listing" else kind for kind in kinds]
    assert train_page_types(two, X, found, sites, CONFIG) is None
    # Pages that name no type count as [page_type] unlabelled, or are left out.
    unnamed = ["" if kind == "article" else kind for kind in kinds]
    assert train_page_types(unnamed, X, found, sites, CONFIG) is not None
    assert train_page_types(unnamed, X, found, sites, CONFIG.with_overrides(['page_type.unlabelled=""'])) is None


def _page(kind: str, i: int) -> Page:
    html = {"article": ARTICLE, "product": PRODUCT, "listing": LISTING}[kind]
    text = "Steel kettle" if kind == "product" else "Story number 1 of the day" if kind == "listing" else "The new bridge"
    return Page(id=f"{kind}{i}", source="toy", url=f"https://site{i}.example/{kind}s/{i}", lang="en", html=html, text=text, page_type=kind)


def test_a_trained_model_types_the_pages_it_extracts(tmp_path):
    # 24 pages a type: the trees' leaves hold 20 pages at least (scikit-learn's default).
    pages = [_page(kind, i) for i in range(24) for kind in ("article", "product", "listing")]
    small = ["classifier.folds=2", "classifier.c_grid=[1.0]", "classifier.gamma_grid=[0.1]", "classifier.samples_per_class=20"]
    small.append("page_type.features=true")  # the trees read the page's type probabilities too
    model, report = train(pages, CONFIG.with_overrides(small))
    assert model.page_types is not None and report.page_type_words > 0
    assert label_page(pages[1], model.config).page_type == "product"
    loaded = load_model(save_model(model, tmp_path / "m"))
    for page in pages[:3]:
        result = extract(page.html, page.url, model=loaded, config=model.config)
        assert result.page_type == page.page_type
        assert 0.5 < result.page_type_probability <= 1
        assert result.to_dict()["page_type"] == page.page_type
    # The trees read the page's type probabilities beside each line's own columns.
    assert loaded.svm.page_columns == len(PAGE_TYPES) == loaded.svm.trees.width - len(RICH_FEATURE_NAMES)
    # Without a page type model (here the SVM alone, without the trees that read the
    # page's columns), no type.
    plain = replace(loaded, page_types=None, svm=replace(loaded.svm, trees=None, page_columns=0))
    result = extract(ARTICLE, model=plain, config=plain.config)
    assert result.ok and result.page_type is None and result.page_type_probability is None


def test_the_training_pages_probabilities_come_from_models_of_other_sites():
    X, found, kinds, sites = _toy()
    columns = CONFIG.with_overrides(["page_type.features=true"])
    model, rows = page_type_stage(kinds, X, found, sites, columns)
    assert model is not None and rows.shape == (len(kinds), len(PAGE_TYPES))
    np.testing.assert_allclose(rows.sum(axis=1), 1.0)
    # Out of fold: not the probabilities of the model of all pages.
    inside = np.vstack([model.page_probabilities(row, words) for row, words in zip(X, found)])
    assert not np.allclose(rows, inside)
    assert page_type_stage(kinds, X, found, sites, columns.with_overrides(["page_type.trees=0"])) == (None, None)
    # By default the page type model is trained, and the trees do not read its probabilities.
    apart, none = page_type_stage(kinds, X, found, sites, CONFIG)
    assert apart is not None and none is None
