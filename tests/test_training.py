"""webclean.training: a model trained on small synthetic pages."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from webclean.classifier import CONTENT, NOISE
from webclean.config import Config, ConfigError
from webclean.datasets import DataError, Page
from webclean.extract import extract, locate_units
from webclean.features import feature_matrix
from webclean.gold import MIXED
from webclean.model import load_model, save_model
from webclean.parse import parse_html
from webclean.sampling import held_out_rows, keyed_sample, language_shares, page_weights, unit_keys
from webclean.training import choose_sample, fit_classifier, label_page, language_groups, samples_per_class, train, training_units

METHODS = ("svm", "paper")
# Small and fast: two folds, a 2 x 2 grid.
SMALL = ["classifier.folds=2", "classifier.c_grid=[1.0, 10.0]", "classifier.gamma_grid=[0.1, 1.0]"]

_PROSE = (
    "the council said that a new bridge over the river would open next spring after two years of work "
    "while residents on both banks have waited for a safer crossing since the old one was closed in winter "
    "engineers found that the piers had moved a few centimetres and the budget grew by a third as steel prices "
    "rose during the summer months but the mayor insisted that the project remained good value for the town "
    "shop owners near the market expect more visitors once buses can use the crossing again and schools plan "
    "to change their morning routes so that children no longer walk along the busy main road at rush hour"
).split()
_LINK_WORDS = "weather sport league results festival tickets parking fees election debate harbour market jobs fair".split()


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(_PROSE) for _ in range(rng.randint(12, 20))]
    return " ".join(words).capitalize() + "."


def synthetic_page(seed: int) -> tuple[str, list[str], list[str]]:
    """A news page: (html, its content paragraphs, its noise texts inside the article block)."""
    rng = random.Random(seed)
    paragraphs = [" ".join(_sentence(rng) for _ in range(rng.randint(2, 4))) for _ in range(rng.randint(5, 7))]
    links = [" ".join(rng.choice(_LINK_WORDS) for _ in range(3)).title() for _ in range(4)]
    related = "Related: " + ", ".join(f"<a href='/n/{seed}/{i}'>{t}</a>" for i, t in enumerate(links))
    share = "Share: <a href='#'>Facebook</a> <a href='#'>Twitter</a> <a href='#'>Email</a>"
    # Short footer lines, classified whole (a long one would go through the noise filter).
    footer = [
        f"Copyright © 20{10 + seed % 15} Riverside Gazette",
        f"Email: desk{seed}@gazette.example",
        f"Tel: 010-5555-{1000 + seed}",
    ]
    html = (
        f"<html><head><title>Bridge news {seed}</title></head><body>"
        "<div class='header'><ul>"
        + "".join(f"<li><a href='/{w}'>{w.title()}</a></li>" for w in _LINK_WORDS[:6])
        + "</ul></div><div class='main'>"
        + "".join(f"<p>{p}</p>" for p in paragraphs)
        + f"<p>{related}</p><p>{share}</p>"
        + "".join(f"<p>{line}</p>" for line in footer)
        + "</div><div class='footer'><a href='/about'>About</a> | <a href='/privacy'>Privacy</a></div></body></html>"
    )
    noise = [links[0], "Facebook", "Copyright ©", f"desk{seed}@gazette.example", "010-5555-"]
    return html, paragraphs, noise


def synthetic_pages(seeds: range) -> list[Page]:
    pages = []
    for seed in seeds:
        html, paragraphs, _ = synthetic_page(seed)
        pages.append(Page(id=str(seed), source="synthetic", url=None, lang="en", html=html, text="\n".join(paragraphs)))
    return pages


def small_config(method: str, *extra: str) -> Config:
    return Config(method=method).with_overrides([*SMALL, *extra])


@pytest.fixture(scope="module", params=METHODS)
def trained(request):
    method = request.param
    model, report = train(synthetic_pages(range(6)), small_config(method), sources=["synthetic"])
    return method, model, report


@pytest.mark.parametrize("method", METHODS)
def test_a_page_without_gold_trains_on_its_peers_agreement(method):
    page = synthetic_pages(range(100, 101))[0]
    _, paragraphs, _ = synthetic_page(100)
    # Three peers that keep the article's paragraphs and nothing else.
    peers = {name: "\n".join(paragraphs) for name in ("a", "b", "c")}
    weak = Page.from_json({"id": page.id, "html": page.html, "peers": peers})
    labels = {item.unit.text: item.label for item in label_page(weak, Config(method=method)).units}
    assert all(labels[p] == CONTENT for p in paragraphs)
    assert {label for text, label in labels.items() if text not in paragraphs} == {NOISE}


@pytest.mark.parametrize("method", METHODS)
def test_label_page_labels_the_units_of_the_block(method):
    _, paragraphs, _ = synthetic_page(100)
    page = synthetic_pages(range(100, 101))[0]
    labelled = label_page(page, Config(method=method))
    assert labelled.block_found
    labels = {item.unit.text: item.label for item in labelled.units}
    assert all(labels[p] == CONTENT for p in paragraphs)
    copyright_line = next(text for text in labels if text.startswith("Copyright ©"))
    assert labels[copyright_line] == NOISE


# --- train -----------------------------------------------------------------------


def test_training_keeps_content_and_drops_noise_on_a_new_page(trained):
    method, model, report = trained
    assert report.pages == report.pages_with_block == 6
    assert report.content_units > 0 and report.noise_units > 0
    html, paragraphs, noise = synthetic_page(1000)
    config = small_config(method)
    # The noise is inside the located block: the classifier, not Step 1, must drop it.
    _, units = locate_units(parse_html(html), config)
    block_text = "\n".join(unit.text for unit in units)
    assert all(text in block_text for text in noise)
    result = extract(html, config=config, model=model)
    assert result.ok, result.error
    for paragraph in paragraphs:
        assert paragraph in result.text
    for text in noise:
        assert text not in result.text


def test_method_svm_adds_boosted_trees_and_paper_does_not(trained):
    method, model, report = trained
    if method == "svm":
        assert model.svm.trees is not None and model.svm.tree_weight == Config().classifier.tree_weight
        # The trees learn from every labelled unit, the SVM from its sample.
        assert report.tree_rows == report.content_units + report.noise_units >= report.training_samples
        assert report.trees == len(model.svm.trees.roots) > 0
    else:
        assert model.svm.trees is None and report.trees == report.tree_rows == 0


def test_no_trees_when_configured_so():
    model, report = train(synthetic_pages(range(6)), small_config("svm", "classifier.trees=0"))
    assert model.svm.trees is None and report.trees == 0


def test_without_an_svm_the_trees_alone_decide_and_keep_the_article(tmp_path: Path):
    config = small_config("svm", "classifier.svm=false")
    model, report = train(synthetic_pages(range(6)), config)
    svm = model.svm
    assert len(svm.support_vectors) == len(svm.dual_coef) == 0 and svm.intercept == 0.0
    assert svm.trees is not None and svm.tree_weight == 1.0 and report.cv_accuracy == 0.0
    assert report.training_samples == report.samples_per_class == 0 and report.tree_rows > 0
    # No SVM, so no sample is drawn for one; the trees read every labelled unit.
    labels = np.array([CONTENT] * 300 + [NOISE] * 300)
    assert len(choose_sample(labels, config)) == 0
    assert len(training_units(labels, choose_sample(labels, config), config)) == 600
    with pytest.raises(DataError, match="too few labelled units"):
        choose_sample(np.array([CONTENT] * 10), config)
    html, paragraphs, noise = synthetic_page(1000)
    _, units = locate_units(parse_html(html), config)
    X = feature_matrix(units, model.lexicon, "rich")
    assert np.allclose(svm.decision_function(X), svm.trees.decision_function(X))
    result = extract(html, config=config, model=load_model(save_model(model, tmp_path / "model")))
    assert all(paragraph in result.text for paragraph in paragraphs)
    assert not any(text in result.text for text in noise)


@pytest.mark.parametrize(("method", "setting", "expected"), [("svm", 0, 1000), ("paper", 0, 2500), ("svm", 40, 40), ("paper", 40, 40)])
def test_the_svms_sample_is_the_methods_own_unless_set(method, setting, expected):
    config = Config(method=method).with_overrides([f"classifier.samples_per_class={setting}"])
    assert samples_per_class(config) == expected
    labels = np.array([CONTENT] * 3000 + [NOISE] * 3000)
    assert len(choose_sample(labels, config)) == 2 * expected


def test_trees_must_decide_where_there_is_no_svm():
    with pytest.raises(ConfigError, match="classifier.trees"):
        small_config("svm", "classifier.svm=false", "classifier.trees=0")


def test_trained_model_records_its_provenance(trained):
    method, model, report = trained
    assert model.metadata["trained_on"] == ["synthetic"]
    assert model.metadata["report"]["cv_accuracy"] == report.cv_accuracy
    assert model.config == small_config(method)


@pytest.mark.parametrize("method", METHODS)
def test_training_is_deterministic_for_a_fixed_seed(tmp_path: Path, method):
    config = small_config(method, "classifier.random_state=7", "classifier.samples_per_class=10")
    saved = [save_model(train(synthetic_pages(range(6)), config)[0], tmp_path / str(run)) for run in range(2)]
    # Sampling the larger class (10 of each) is where the seed matters.
    first, second = ((d / "model.json").read_bytes() for d in saved)
    assert first == second
    assert (saved[0] / "arrays.npz").read_bytes() == (saved[1] / "arrays.npz").read_bytes()
    # ... and the seed is really used: another one samples other units, so other support vectors.
    other = small_config(method, "classifier.random_state=8", "classifier.samples_per_class=10")
    other_dir = save_model(train(synthetic_pages(range(6)), other)[0], tmp_path / "other")
    assert (other_dir / "arrays.npz").read_bytes() != (saved[0] / "arrays.npz").read_bytes()


def test_too_few_labelled_units_is_an_error():
    with pytest.raises(ValueError, match="too few"):
        train(synthetic_pages(range(1)), small_config("svm", "classifier.folds=20"))


# --- the sample: pages weighed, each source keeping its share --------------------


def test_page_weights_spread_the_sample_over_pages_and_keep_each_sources_share():
    # Source "a": one page of 90 labelled units and one of 10; source "b": one page of 100.
    labels = np.ones(200, dtype=np.int64)
    labels[5] = MIXED
    pages = np.repeat([0, 1, 2], [90, 10, 100])
    sets = np.repeat(["a", "a", "b"], [90, 10, 100])
    weights = page_weights(labels, pages, sets, power=1.0)
    assert weights[5] == 0.0  # a mixed unit is never drawn
    # Within "a" each page weighs the same in all, whatever its length ...
    assert weights[pages == 0].sum() == pytest.approx(weights[pages == 1].sum())
    # ... and each source weighs what its labelled units are: 99 and 100.
    assert weights[sets == "a"].sum() == pytest.approx(99.0)
    assert weights[sets == "b"].sum() == pytest.approx(100.0)
    # Power 0: every labelled unit alike.
    assert set(page_weights(labels, pages, sets, power=0.0)[labels != MIXED]) == {1.0}


def test_languages_weigh_by_their_labelled_units_to_a_power_and_sets_keep_their_share_within():
    # English: set "a" of 300 units and "b" of 100; Chinese: set "c" of 100; German: "d" of 50.
    labels = np.ones(550, dtype=np.int64)
    pages = np.repeat([0, 1, 2, 3], [300, 100, 100, 50])
    sets = np.repeat(["a", "b", "c", "d"], [300, 100, 100, 50])
    langs = np.repeat(["en", "en", "zh", "de"], [300, 100, 100, 50])
    config = Config().with_overrides(["classifier.page_power=0.5"])
    groups = language_groups(langs, config)
    assert list(np.unique(groups)) == ["en", "other", "zh"]
    alike = page_weights(labels, pages, sets, 0.5, groups, language_power=0.0)
    shares = language_shares(alike, groups)
    assert shares == {"en": pytest.approx(1 / 3, abs=1e-4), "other": pytest.approx(1 / 3, abs=1e-4), "zh": pytest.approx(1 / 3, abs=1e-4)}
    # Within English, "a" keeps three times the weight of "b", as without languages.
    assert alike[sets == "a"].sum() == pytest.approx(3 * alike[sets == "b"].sum())
    # Power 1 is the languages' own proportion: the weights of the sets alone.
    own = page_weights(labels, pages, sets, 0.5, groups, language_power=1.0)
    np.testing.assert_allclose(own, page_weights(labels, pages, sets, 0.5))
    # Adding English pages leaves Chinese its share when the languages weigh alike.
    more = np.concatenate([labels, np.ones(1000, dtype=np.int64)])
    more_pages, more_sets = np.concatenate([pages, np.full(1000, 9)]), np.concatenate([sets, np.full(1000, "e")])
    more_groups = np.concatenate([groups, np.full(1000, "en")])
    after = language_shares(page_weights(more, more_pages, more_sets, 0.5, more_groups, 0.0), more_groups)
    assert after["zh"] == pytest.approx(shares["zh"], abs=1e-4)


def test_the_weighted_sample_holds_more_of_the_short_pages():
    labels = np.where(np.arange(1000) % 2 == 0, CONTENT, NOISE)
    pages = np.where(np.arange(1000) < 900, 0, 1 + np.arange(1000) % 10)  # one long page, ten short ones
    sets = np.zeros(1000, dtype=np.int64)
    config = Config().with_overrides(["classifier.samples_per_class=50"])
    uniform = choose_sample(labels, config.with_overrides(["classifier.page_power=0"]), pages, sets)
    weighted = choose_sample(labels, config, pages, sets)
    assert len(uniform) == len(weighted) == 100
    assert (pages[weighted] > 0).sum() > (pages[uniform] > 0).sum()
    # Without pages, or for method paper's balanced sample, the weights play no part.
    assert np.array_equal(choose_sample(labels, config), choose_sample(labels, config.with_overrides(["classifier.page_power=0"])))


def test_unit_keys_are_fixed_by_page_text_and_seed():
    texts = ["Home", "A long paragraph of the story.", "Home"]
    keys = unit_keys("set", "page-1", texts, seed=0)
    assert np.array_equal(keys, unit_keys("set", "page-1", texts, seed=0))
    assert ((keys > 0) & (keys < 1)).all()
    assert len(set(keys)) == 3  # the second "Home" is another unit
    # A unit keeps its key when lines are added after it, not when the seed or page differs.
    assert unit_keys("set", "page-1", [*texts, "More"], seed=0)[:3].tolist() == keys.tolist()
    assert not np.intersect1d(keys, unit_keys("set", "page-1", texts, seed=1)).size
    assert not np.intersect1d(keys, unit_keys("set", "page-2", texts, seed=0)).size


def test_the_keyed_sample_keeps_its_draw_when_units_are_added():
    rng = np.random.default_rng(0)
    labels = np.where(rng.random(3000) < 0.7, CONTENT, NOISE)
    labels[::50] = MIXED
    keys = rng.random(3000)
    before = keyed_sample(labels[:2000], 300, keys[:2000])
    after = keyed_sample(labels, 300, keys)
    assert len(before) == len(after) == 300
    assert MIXED not in labels[after]
    # Units added can only take the place of units drawn before; none of the old units
    # left out comes in.
    assert set(after[after < 2000]) <= set(before)
    # About two thirds of the draw are old units, all of them drawn before.
    assert len(set(after) & set(before)) > 0.5 * 300


def test_the_keyed_sample_draws_by_weight():
    labels = np.full(2000, CONTENT)
    weights = np.where(np.arange(2000) < 1000, 3.0, 1.0)
    chosen = keyed_sample(labels, 200, np.random.default_rng(1).random(2000), weights)
    heavy = (chosen < 1000).sum()
    assert 130 < heavy < 170  # about 3 / 4 of the draws
    weights[:1000] = 0.0  # a unit of weight 0 is never drawn
    assert (keyed_sample(labels, 200, np.random.default_rng(1).random(2000), weights) >= 1000).all()


def test_the_trees_hold_out_a_tenth_of_the_units_apart_from_the_sample():
    labels = np.full(20000, CONTENT)
    keys = np.random.default_rng(2).random(20000)
    held_out = held_out_rows(keys)
    assert 0.09 < held_out.mean() < 0.11
    chosen = keyed_sample(labels, 2000, keys)
    assert 0.07 < held_out[chosen].mean() < 0.13  # the SVM's sample is no more held out than the rest


def test_pages_without_gold_are_trained_on_and_not_scored():
    from webclean.evaluate import cross_validate, evaluate

    pages = synthetic_pages(range(200, 212))
    _, paragraphs, _ = synthetic_page(212)
    weak_html = synthetic_pages(range(212, 213))[0].html
    weak = Page.from_json({"id": "w", "html": weak_html, "peers": {n: "\n".join(paragraphs) for n in "abc"}})
    config = Config().with_overrides(SMALL)
    scored = evaluate([*pages[:2], weak], config)
    assert [r.score.page_id for r in scored.results] == [p.id for p in pages[:2]]
    folded = cross_validate([*pages, weak], config, 2)
    assert sorted(r.score.page_id for r in folded.results) == sorted(p.id for p in pages)


@pytest.mark.parametrize(
    ("method", "search", "expected"),
    [("paper", "auto", {"C": 10.0, "gamma": 5.0}), ("svm", "auto", {"C": 3.0, "gamma": 2.0}), ("svm", "grid", {"C": 10.0, "gamma": 5.0})],
)
def test_method_svm_takes_fixed_c_and_gamma_and_paper_searches_the_grid(method, search, expected):
    # Two classes in opposite quarters (XOR), which a wide kernel with a small C cannot
    # separate: the grid picks the narrow kernel and the large C.
    rng = np.random.default_rng(0)
    X = rng.uniform(size=(200, 2))
    y = ((X[:, 0] > 0.5) ^ (X[:, 1] > 0.5)).astype(np.int64)
    config = Config(method=method).with_overrides(
        ["classifier.folds=3", "classifier.c_grid=[0.1, 10.0]", "classifier.gamma_grid=[0.01, 5.0]",
         f"classifier.search={search}", "classifier.fixed_c=3.0", "classifier.fixed_gamma=2.0"]
    )  # fmt: skip
    assert fit_classifier(X, y, config).best_params_ == expected


def test_an_unknown_search_is_refused():
    with pytest.raises(ConfigError, match="classifier.search"):
        Config().with_overrides(["classifier.search=random"])
