"""webclean.model: a trained model is data on disk, checked when it is loaded."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

import webclean.model
from webclean.config import Config
from webclean.extract import extract
from webclean.features import FEATURE_WIDTHS
from webclean.model import FORMAT_VERSION, MODELS_DIR, ModelError, default_model, load_model, save_model
from webclean.registry import classifier_spec

METHODS = ("svm", "paper")
GOLDEN_PAGE = Path(__file__).parent / "golden" / "zh-news-article" / "source.html"

# Set when a pickled object is rebuilt: loading a model must never do that.
UNPICKLED: list[str] = []


def _record_unpickling() -> str:
    UNPICKLED.append("ran")
    return "payload"


class Payload:
    """An object whose unpickling runs code (as a malicious model file would)."""

    def __reduce__(self):
        return (_record_unpickling, ())


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    """A copy of the packaged svm model, saved again by save_model."""
    return save_model(default_model("svm"), tmp_path / "model")


def _rewrite_arrays(directory: Path, arrays: dict[str, np.ndarray]) -> None:
    """Replace arrays.npz and record its checksum, as a consistent (if hostile) model would."""
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    (directory / "arrays.npz").write_bytes(buffer.getvalue())
    document = json.loads((directory / "model.json").read_text(encoding="utf-8"))
    document["arrays_sha256"] = hashlib.sha256(buffer.getvalue()).hexdigest()
    body = {k: v for k, v in document.items() if k not in ("format_version", "metadata", "arrays_sha256")}
    document["metadata"]["version"] = hashlib.sha256(json.dumps(body, sort_keys=True).encode() + buffer.getvalue()).hexdigest()[:12]
    (directory / "model.json").write_text(json.dumps(document), encoding="utf-8")


@pytest.mark.parametrize("method", METHODS)
def test_save_load_round_trip_predicts_identically(tmp_path, method):
    original = default_model(method)
    loaded = load_model(save_model(original, tmp_path / method))
    width = FEATURE_WIDTHS[original.feature_set] + original.svm.page_columns
    probe = np.random.default_rng(0).uniform(0, 50, size=(200, width))
    np.testing.assert_array_equal(loaded.svm.decision_function(probe), original.svm.decision_function(probe))
    assert loaded.lexicon == original.lexicon
    assert loaded.config == original.config
    assert loaded.feature_set == original.feature_set == classifier_spec(method).feature_set
    saved_config = json.loads((MODELS_DIR / method / "model.json").read_text(encoding="utf-8"))["config"]
    if saved_config == original.config.to_dict():
        assert loaded.version == original.version
    else:
        # Saved before some settings existed: written out now at their defaults, another
        # file and so another version, which a second round trip keeps.
        assert Config.from_dict(saved_config) == loaded.config
        assert load_model(save_model(loaded, tmp_path / f"{method}-again")).version == loaded.version
    page = GOLDEN_PAGE.read_bytes()
    config = Config(method=method)
    assert extract(page, config=config, model=loaded) == extract(page, config=config, model=original)


def test_saving_twice_gives_the_same_files(tmp_path):
    first = save_model(default_model("svm"), tmp_path / "a")
    second = save_model(load_model(first), tmp_path / "b")
    for name in ("model.json", "arrays.npz"):
        assert (first / name).read_bytes() == (second / name).read_bytes()


def test_tampered_arrays_are_refused(saved):
    data = bytearray((saved / "arrays.npz").read_bytes())
    data[len(data) // 2] ^= 0xFF
    (saved / "arrays.npz").write_bytes(bytes(data))
    with pytest.raises(ModelError, match="checksum"):
        load_model(saved)


def test_other_format_version_is_refused(saved):
    document = json.loads((saved / "model.json").read_text(encoding="utf-8"))
    document["format_version"] = FORMAT_VERSION + 1
    (saved / "model.json").write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(ModelError, match="format"):
        load_model(saved)


@pytest.mark.parametrize("missing", ["model.json", "arrays.npz"])
def test_missing_file_is_refused(saved, missing):
    (saved / missing).unlink()
    with pytest.raises(ModelError, match=missing):
        load_model(saved)


def test_missing_directory_is_refused(tmp_path):
    with pytest.raises(ModelError):
        load_model(tmp_path / "no-such-model")


def test_model_json_that_is_not_json_is_refused(saved):
    (saved / "model.json").write_text("{ not json", encoding="utf-8")
    with pytest.raises(ModelError, match="JSON"):
        load_model(saved)


def test_an_edited_model_json_is_refused(saved):
    document = json.loads((saved / "model.json").read_text(encoding="utf-8"))
    document["config"]["denoise"]["beta"] = 41
    (saved / "model.json").write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(ModelError, match="edited"):
        load_model(saved)


@pytest.mark.parametrize(
    ("edit", "refusal"),
    [
        (lambda d: {**d, "feature_set": "paper"}, "SVM does not read"),
        (lambda d: {**d, "svm": {**d["svm"], "tree_width": d["svm"]["tree_width"] + 1}}, "trees do not read"),
    ],
    ids=["svm", "trees"],
)
def test_a_model_whose_arrays_do_not_fit_its_feature_set_is_refused(saved, edit, refusal):
    # Consistent files (checksum and version recomputed), but the SVM or the trees
    # would read other columns than the named feature set gives them.
    document = json.loads((saved / "model.json").read_text(encoding="utf-8"))
    (saved / "model.json").write_text(json.dumps(edit(document)), encoding="utf-8")
    with np.load(saved / "arrays.npz") as npz:
        _rewrite_arrays(saved, {k: npz[k] for k in npz.files})
    with pytest.raises(ModelError, match=refusal):
        load_model(saved)


def test_missing_array_is_refused(saved):
    with np.load(saved / "arrays.npz") as npz:
        arrays = {k: npz[k] for k in npz.files if k != "support_vectors"}
    _rewrite_arrays(saved, arrays)
    with pytest.raises(ModelError, match="malformed"):
        load_model(saved)


def test_object_arrays_are_refused_without_unpickling(saved):
    with np.load(saved / "arrays.npz") as npz:
        arrays = {k: npz[k] for k in npz.files}
    arrays["support_vectors"] = np.array([Payload(), Payload()], dtype=object)
    _rewrite_arrays(saved, arrays)  # the checksum matches: only allow_pickle=False stands in the way
    UNPICKLED.clear()
    with pytest.raises(ModelError):
        load_model(saved)
    assert UNPICKLED == []


def test_np_load_is_called_without_pickle(saved, monkeypatch):
    calls = []
    real_load = np.load

    def spy(*args, **kwargs):
        calls.append(kwargs)
        return real_load(*args, **kwargs)

    monkeypatch.setattr(webclean.model.np, "load", spy)
    load_model(saved)
    assert calls and all(kwargs.get("allow_pickle") is False for kwargs in calls)


@pytest.mark.parametrize("method", METHODS)
def test_packaged_model_loads_with_its_provenance(method):
    assert (MODELS_DIR / method / "model.json").is_file(), f"no packaged model for {method}"
    model = default_model(method)
    assert model.feature_set == classifier_spec(method).feature_set
    assert model.config.method == method
    trained_on = model.metadata["trained_on"]
    assert trained_on and all(isinstance(name, str) and name for name in trained_on)
    report = model.metadata["report"]
    # A cross-validated accuracy, better than the coin flip a balanced sample gives.
    assert 0.5 < report["cv_accuracy"] <= 1.0
    assert report["samples_per_class"] > 0
    assert set(report["best_params"]) >= {"C"}
    assert model.version != "unversioned"


@pytest.mark.parametrize("method", METHODS)
def test_default_model_is_loaded_once(method):
    assert default_model(method) is default_model(method)
    assert load_model(None, method) is default_model(method)


def test_packaged_model_directory_is_what_default_model_reads(tmp_path):
    # load_model(dir) on a copy of the packaged directory gives the same model.
    copy = shutil.copytree(MODELS_DIR / "svm", tmp_path / "svm")
    loaded = load_model(copy)
    assert loaded.version == default_model("svm").version
    assert loaded.metadata == default_model("svm").metadata
