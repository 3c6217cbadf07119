"""webclean.methods.mlp: the line classifier after a BP network over lines, trained and saved as data."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import numpy as np
import pytest
from pages import EN_PAGE, ZH_PAGE, ZH_PARAGRAPHS

from webclean.cli import main
from webclean.config import Config
from webclean.datasets import read_pages
from webclean.extract import extract
from webclean.methods.mlp import FEATURES, MLPModel, fit_mlp, line_features, page_lines
from webclean.model import ModelError, default_model, load_model, save_model
from webclean.parse import parse_html
from webclean.training import train

WORDS = "the council said a new bridge over the river would open next spring after two years of work on both banks".split()


def _pages(path: Path, count: int) -> Path:
    rng = random.Random(0)
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        for n in range(count):
            paragraphs = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(15, 30))).capitalize() + "." for _ in range(4)]
            html = (
                f"<html><head><title>Bridge news {n}</title></head><body>"
                "<ul><li><a href='/'>Home</a></li><li><a href='/a'>Sport</a></li><li><a href='/b'>Weather</a></li></ul>"
                f"<h1>Bridge news {n}</h1><div>" + "".join(f"<p>{p}</p>" for p in paragraphs) + "</div>"
                f"<div><a href='/x{n}'>Market prices today</a><br><a href='/y{n}'>Road works</a></div>"
                f"<p>Copyright 2024 Gazette {n}</p></body></html>"
            )
            row = {"id": str(n), "source": "generated", "url": None, "lang": "en", "html": html, "text": "\n".join(paragraphs)}
            handle.write(json.dumps(row) + "\n")
    return path


@pytest.fixture(scope="module")
def trained(tmp_path_factory) -> tuple[MLPModel, Path]:
    data = _pages(tmp_path_factory.mktemp("mlp") / "pages.jsonl.gz", 30)
    model, report = train(read_pages([data]), Config(method="mlp"), sources=["pages.jsonl.gz"])
    assert report.content_units and report.noise_units
    return model, data


def test_features_hold_density_and_title_relevance():
    root = parse_html(ZH_PAGE)
    lines = page_lines(root)
    X = line_features(lines, "北京举行春季植树活动_新闻中心")
    assert X.shape == (len(lines), len(FEATURES))
    relevance = X[:, FEATURES.index("title_relevance")]
    headline = next(i for i, line in enumerate(lines) if line.text == "北京举行春季植树活动")
    assert relevance[headline] == relevance.max() > 0.5
    menu = next(i for i, line in enumerate(lines) if line.text.startswith("首页"))
    assert X[menu, FEATURES.index("link_ratio")] == 1.0
    assert 0.0 <= X[:, FEATURES.index("relative_position")].min() <= X[:, FEATURES.index("relative_position")].max() <= 1.0


def test_numpy_forward_pass_equals_scikit_learn():
    from sklearn.neural_network import MLPClassifier

    rng = np.random.default_rng(0)
    X = rng.normal(size=(3000, len(FEATURES)))
    y = (X[:, 0] + X[:, 3] > 0).astype(np.int64)
    config = Config(method="mlp")
    model, accuracy = fit_mlp(X, y, config)
    assert accuracy > 0.9
    scaled = (X - model.mean) / model.scale
    from webclean.methods import mlp

    network = MLPClassifier(
        hidden_layer_sizes=mlp.HIDDEN_LAYERS, activation="relu", max_iter=mlp.MAX_ITERATIONS, early_stopping=True, random_state=0
    ).fit(scaled, y)
    np.testing.assert_allclose(model.predict_proba(X), network.predict_proba(scaled)[:, 1], rtol=1e-9, atol=1e-12)


def test_trained_model_keeps_the_article(trained):
    model, _ = trained
    page = _pages_one()
    result = extract(page, config=Config(method="mlp"), model=model)
    assert result.ok
    assert "Home" not in result.text and "Copyright" not in result.text and "Market prices" not in result.text
    assert "bridge" in result.text.lower()


def _pages_one() -> str:
    return (
        "<html><head><title>Bridge news 99</title></head><body>"
        "<ul><li><a href='/'>Home</a></li><li><a href='/a'>Sport</a></li><li><a href='/b'>Weather</a></li></ul>"
        "<h1>Bridge news 99</h1><div><p>The council said the new bridge over the river would open next spring after two years of work.</p>"
        "<p>Work on both banks goes on until then, and the old ferry keeps running.</p></div>"
        "<div><a href='/x'>Market prices today</a><br><a href='/y'>Road works</a></div>"
        "<p>Copyright 2024 Gazette 99</p></body></html>"
    )


def test_saved_as_data_and_loaded_back(trained, tmp_path):
    model, _ = trained
    directory = save_model(model, tmp_path / "m")
    assert sorted(p.name for p in directory.iterdir()) == ["arrays.npz", "model.json"]
    document = json.loads((directory / "model.json").read_text(encoding="utf-8"))
    assert document["model_type"] == "mlp" and document["format_version"] == 1 and document["features"] == list(FEATURES)
    assert document["metadata"]["trained_on"] == ["pages.jsonl.gz"]
    with np.load(directory / "arrays.npz", allow_pickle=False) as npz:
        assert {"mean", "scale", "weights_0", "biases_0"} <= set(npz.files)
    loaded = load_model(directory)
    assert isinstance(loaded, MLPModel)
    X = np.random.default_rng(1).normal(size=(50, len(FEATURES)))
    np.testing.assert_array_equal(loaded.predict_proba(X), model.predict_proba(X))


def test_corrupt_arrays_are_refused(trained, tmp_path):
    directory = save_model(trained[0], tmp_path / "m")
    data = bytearray((directory / "arrays.npz").read_bytes())
    data[-10] ^= 0xFF
    (directory / "arrays.npz").write_bytes(bytes(data))
    with pytest.raises(ModelError, match="checksum"):
        load_model(directory)


def test_an_svm_model_is_refused_by_method_mlp():
    with pytest.raises(ModelError, match="mlp model"):
        extract(EN_PAGE, config=Config(method="mlp"), model=default_model("svm"))


def test_packaged_model_loads_and_extracts():
    model = default_model("mlp")
    assert isinstance(model, MLPModel)
    assert set(model.metadata["trained_on"]) == {
        "cwced_cleaneval.jsonl.gz", "cwced_modern.jsonl.gz", "readability.jsonl.gz", "trafilatura.jsonl.gz",
    }  # fmt: skip
    result = extract(ZH_PAGE.encode("utf-8"), config=Config(method="mlp"))
    assert result.ok and ZH_PARAGRAPHS[1] in result.text and "首页" not in result.text


def test_cli_trains_and_uses_an_mlp_model(trained, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    _, data = trained
    assert main(["train", "--method", "mlp", "--input", str(data), "--output", str(tmp_path / "model")]) == 0
    page = tmp_path / "page.html"
    page.write_text(_pages_one(), encoding="utf-8")
    capsys.readouterr()
    assert main(["extract", "--method", "mlp", "--model", str(tmp_path / "model"), "--json", str(page)]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["method"] == "mlp" and row["status"] == "ok" and row["source_file"] == str(page)
