"""webclean.confidence: what an extraction knows of itself, and the model that reads it."""

from __future__ import annotations

import dataclasses
from dataclasses import replace

import numpy as np
import pytest
from scipy.stats import spearmanr
from test_training import small_config, synthetic_page, synthetic_pages

from webclean.confidence import (
    SIGNAL_NAMES,
    SLOPES,
    ConfidenceModel,
    collection_percentiles,
    confidence_signals,
    fit_confidence,
)
from webclean.config import ConfidenceConfig, Config
from webclean.denoise import Decision
from webclean.explain import explain
from webclean.extract import classify_page, extract, page_confidence_signals
from webclean.model import default_model, load_model, save_model
from webclean.training import confidence_folds, label_page, train
from webclean.units import Unit

SIGNAL = {name: k for k, name in enumerate(SIGNAL_NAMES)}


def _signals(html: str) -> np.ndarray:
    config = Config()
    page = classify_page(html, config, default_model(), url="https://news.example/2024/bridge")
    return page_confidence_signals(page, config)


def test_the_signals_expect_a_high_f1_where_the_classifier_was_sure():
    html, _, _ = synthetic_page(3)
    row = _signals(html)
    assert row.shape == (len(SIGNAL_NAMES),)
    for slope in SLOPES:
        for kind in ("f1", "precision", "recall"):
            assert 0.5 < row[SIGNAL[f"expected_{kind}_{slope:g}"]] <= 1.0
    # The steeper the logistic, the surer each line: the expected F1 rises with the slope.
    assert row[SIGNAL["expected_f1_1"]] <= row[SIGNAL["expected_f1_2"]] <= row[SIGNAL["expected_f1_4"]]
    menu = "<html><head><title>Menu</title></head><body>" + "".join(f"<p><a href='/{i}'>Section {i}</a></p>" for i in range(30)) + "</body></html>"
    assert _signals(menu)[SIGNAL["expected_f1_1"]] < row[SIGNAL["expected_f1_1"]]


def _unit(length: int) -> Unit:
    return Unit("p", "x" * length, length=length, link_ratio=0.0, position=0.0)


def test_the_expected_f1_weighs_each_line_by_its_characters_and_its_value():
    settings = ConfidenceConfig(near=0.5)
    units = [_unit(300), _unit(100), _unit(100), Unit("h1", "Title", length=5, link_ratio=0.0, position=0.0)]
    sure = [Decision("x" * 300, "kept", 20.0), Decision("", "dropped", -20.0), Decision("", "dropped", -20.0), Decision("Title", "as is")]
    row = confidence_signals(units, sure, settings)
    assert row[SIGNAL["expected_f1_1"]] == pytest.approx(1.0) and row[SIGNAL["unsure_share"]] == 0
    # A dropped line that was content at even odds: expected recall 300 / (300 + 50).
    doubt = [sure[0], Decision("", "dropped", 0.0), sure[2], sure[3]]
    row = confidence_signals(units, doubt, settings)
    assert row[SIGNAL["expected_recall_1"]] == pytest.approx(300 / 350)
    assert row[SIGNAL["expected_precision_1"]] == pytest.approx(1.0)
    assert row[SIGNAL["unsure_share"]] == pytest.approx(100 / 300) and row[SIGNAL["unsure_kept_share"]] == 0
    # A kept line the classifier was unsure of counts against the precision.
    kept = [sure[0], Decision("x" * 100, "kept", 0.0), sure[2], sure[3]]
    row = confidence_signals(units, kept, settings)
    assert row[SIGNAL["expected_precision_1"]] == pytest.approx(350 / 400)
    assert row[SIGNAL["unsure_kept_share"]] == pytest.approx(100 / 400)
    # A long line cut into sentences counts with the value of the sentence that decided it.
    cut = [Decision("x" * 300, "partly kept", None, 20.0), *doubt[1:]]
    assert confidence_signals(units, cut, settings).tolist() == confidence_signals(units, doubt, settings).tolist()
    # Nothing valued, nothing to say: zeros.
    assert not confidence_signals(units, [Decision("x", "kept")] * 4, settings).any()
    assert not confidence_signals([], [], settings).any()


def test_the_model_learns_f1_from_the_signals_and_keeps_to_0_1():
    rng = np.random.default_rng(0)
    rows = rng.random((400, len(SIGNAL_NAMES)))
    f1 = np.clip(rows[:, SIGNAL["expected_f1_2"]] * 1.3 - 0.1 + rng.normal(0, 0.05, 400), 0, 1)
    model = fit_confidence(rows[:300], f1[:300], ConfidenceConfig(trees=100, min_pages=50))
    assert model is not None
    predicted = np.asarray([model.predict(row) for row in rows[300:]])
    assert spearmanr(predicted, f1[300:]).statistic > 0.8
    assert ((0 <= predicted) & (predicted <= 1)).all()
    assert fit_confidence(rows[:49], f1[:49], ConfidenceConfig(min_pages=50)) is None
    assert fit_confidence(rows, f1, ConfidenceConfig(trees=0)) is None


def test_a_model_with_its_confidence_model_saves_and_loads(tmp_path):
    rng = np.random.default_rng(1)
    rows = rng.random((80, len(SIGNAL_NAMES)))
    confidence = fit_confidence(rows, rows[:, 0], ConfidenceConfig(trees=20, min_pages=10))
    model = default_model()
    loaded = load_model(save_model(replace(model, confidence=confidence), tmp_path / "m"))
    assert loaded.confidence is not None
    assert [loaded.confidence.predict(row) for row in rows] == [confidence.predict(row) for row in rows]
    scalars, arrays = confidence.to_data("c_")
    with pytest.raises(ValueError, match="other signals"):
        ConfidenceModel.from_data({**scalars, "signals": ["x", *SIGNAL_NAMES[1:]]}, arrays, "c_")


def test_training_fits_the_confidence_model_on_held_out_extractions():
    pages = synthetic_pages(range(12))
    config = small_config("svm", "confidence.min_pages=10", "confidence.trees=30", "confidence.folds=3")
    model, report = train(pages, config, sources=["synthetic"])
    assert model.confidence is not None
    assert report.confidence_pages == len(pages)
    assert model.metadata["report"]["confidence_pages"] == len(pages)
    # Each page is extracted by a model of the other folds: every fold holds pages here.
    assert len(set(confidence_folds([label_page(p, config) for p in pages], config).tolist())) == 3
    html, _, _ = synthetic_page(50)
    found = extract(html, config=config, model=model)
    assert found.confidence is not None and 0.0 <= found.confidence <= 1.0
    # --explain gives the confidence of the extraction as extract makes it.
    assert explain(html, config=config, model=model).confidence == found.confidence
    # Fewer pages than confidence.min_pages: no confidence model, and no extraction says one.
    few, few_report = train(pages[:5], config, sources=["synthetic"])
    assert few.confidence is None and few_report.confidence_pages == 0
    assert extract(html, config=config, model=few).confidence is None


def test_pages_of_one_site_train_no_confidence_model():
    # One fold holds every page: no model is trained without it, so no page is held out.
    pages = [dataclasses.replace(page, url=f"https://one.example/{page.id}") for page in synthetic_pages(range(12))]
    config = small_config("svm", "confidence.min_pages=10", "confidence.trees=30")
    model, report = train(pages, config, sources=["synthetic"])
    assert model.confidence is None and report.confidence_pages == 0


def test_a_method_without_lines_trains_no_confidence_model():
    pages = synthetic_pages(range(12))
    model, report = train(pages, small_config("paper", "confidence.min_pages=10", "confidence.trees=30"), sources=["synthetic"])
    assert model.confidence is None and report.confidence_pages == 0


def test_the_calibration_maps_the_median_trees_to_the_mean_f1():
    # F1 skewed low as on real pages: most near 1, a tail of failures. The trees fit the
    # median, which overrates a page; the calibration brings each value to the mean F1.
    rng = np.random.default_rng(2)
    rows = rng.random((1200, len(SIGNAL_NAMES)))
    f1 = np.clip(1.0 - rng.exponential(0.25 * (1.2 - rows[:, SIGNAL["expected_f1_2"]]), 1200), 0, 1)
    model = fit_confidence(rows[:900], f1[:900], ConfidenceConfig(trees=60, min_pages=50))
    assert model is not None and model.calibration_x is not None and model.calibration_y is not None
    # An increasing map through the steps' middles: no range of values shares one confidence.
    assert (np.diff(model.calibration_x) > 0).all() and (np.diff(model.calibration_y) > 0).all()
    assert 0.0 <= model.calibration_y[0] and model.calibration_y[-1] <= 1.0
    held = rows[900:]
    raw = model.trees.decision_function(held)
    calibrated = np.asarray([model.predict(row) for row in held])
    assert calibrated.tolist() == [round(float(np.interp(v, model.calibration_x, model.calibration_y)), 4) for v in raw]
    assert abs(calibrated.mean() - f1[900:].mean()) < abs(raw.mean() - f1[900:].mean())
    assert abs(calibrated.mean() - f1[900:].mean()) < 0.03
    # An increasing map keeps the trees' order of the pages (but for rounding).
    assert spearmanr(calibrated, raw).statistic > 0.999
    assert spearmanr(calibrated, f1[900:]).statistic > 0.25


def test_the_trees_learn_how_pages_rank_within_their_collection_not_each_collections_level():
    # Two training collections extracted alike but scored at different levels (a gold
    # that counts what the extraction leaves out): a signal that tells the collections
    # apart (its second column) says nothing of a page within one. The pages of a third
    # collection must be ordered by what orders every collection's pages (the first).
    rng = np.random.default_rng(4)
    rows = rng.random((900, len(SIGNAL_NAMES)))
    sets = np.repeat(["low", "high", "new"], 300)
    rows[:300, 1] *= 0.5  # the low collection's pages: the second signal under 0.5
    rows[300:600, 1] = 0.5 + 0.5 * rows[300:600, 1]
    level = np.where(sets == "low", 0.2, np.where(sets == "high", 0.85, 0.5))
    f1 = np.clip(level + 0.1 * rows[:, 0] + rng.normal(0, 0.01, 900), 0, 1)
    model = fit_confidence(rows[:600], f1[:600], ConfidenceConfig(trees=60, min_pages=50), groups=sets[:600])
    assert model is not None
    predicted = np.asarray([model.predict(row) for row in rows[600:]])
    assert spearmanr(predicted, f1[600:]).statistic > 0.8
    # Learning the F1 itself, the trees spend themselves on the level of each collection.
    level_model = fit_confidence(rows[:600], f1[:600], ConfidenceConfig(trees=60, min_pages=50))
    assert level_model is not None
    assert spearmanr([level_model.predict(row) for row in rows[600:]], f1[600:]).statistic < 0.6


def test_collection_percentiles_rank_within_each_group_ties_in_the_middle():
    scores = np.asarray([0.5, 0.9, 0.5, 0.1, 0.7, 0.7])
    groups = ["a", "a", "a", "a", "b", "b"]
    assert collection_percentiles(scores, groups).tolist() == [0.5, 0.875, 0.5, 0.125, 0.5, 0.5]
    assert collection_percentiles(scores).tolist() == [
        (2.5 - 0.5) / 6, (6 - 0.5) / 6, (2.5 - 0.5) / 6, (1 - 0.5) / 6, (4.5 - 0.5) / 6, (4.5 - 0.5) / 6,
    ]  # fmt: skip
    with pytest.raises(ValueError, match="groups"):
        collection_percentiles(scores, groups[:3])


def test_a_confidence_model_without_calibration_gives_its_trees_value_and_a_broken_one_is_refused():
    rng = np.random.default_rng(3)
    rows = rng.random((120, len(SIGNAL_NAMES)))
    confidence = fit_confidence(rows, rows[:, 0], ConfidenceConfig(trees=20, min_pages=10))
    assert confidence is not None
    scalars, arrays = confidence.to_data("c_")
    assert {"c_calibration_x", "c_calibration_y"} <= set(arrays)
    bare = {k: v for k, v in arrays.items() if "calibration" not in k}
    plain = ConfidenceModel.from_data(scalars, bare, "c_")
    assert plain.calibration_x is None
    assert [plain.predict(row) for row in rows[:20]] == [
        round(min(1.0, max(0.0, float(v))), 4) for v in confidence.trees.decision_function(rows[:20])
    ]
    falling = {**arrays, "c_calibration_y": arrays["c_calibration_y"][::-1].copy()}
    with pytest.raises(ValueError, match="increasing"):
        ConfidenceModel.from_data(scalars, falling, "c_")
