"""Method "mlp": a multi-layer perceptron over the lines of the page, after a BP network over lines.

The paper (docs/methods.md): the page is decoded by its meta charset into UTF-8 (done by
decode.py for every method), tidied into a DOM tree (libxml2, parse.py), scripts,
styles and empty tags removed (parse.py; empty tags make no line); then for each
line of the normalised DOM its text density, its relevance to the page title and a
few more values are the inputs of a BP network (an MLP trained by back-propagation)
that says whether the line is main text.

Here the lines are segment.segment's (a block element or a <br> ends a line) after
hidden elements are dropped, and the inputs are :data:`FEATURES`. The network is
scikit-learn's MLPClassifier, fitted by ``webclean train --method mlp`` on lines
labelled by gold.GoldMatcher; the saved model is data (weights, biases and the
input scaling in ``arrays.npz``, the rest in ``model.json``, the layout and checksum
of webclean/modeldir.py, where this format registers its loader), and prediction is a
NumPy forward pass.

Departure: the paper's reference [5] and the paper itself use a handful of inputs of
the line alone; the two neighbours' length and link ratio are added because a
line's neighbourhood (inside a paragraph run or a link list) is the strongest
evidence a line-level classifier has, and it costs nothing.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
from lxml import etree

from webclean.classifier import CONTENT, NOISE
from webclean.config import Config
from webclean.gold import MIXED, GoldMatcher
from webclean.metadata import PageMetadata, find_date
from webclean.methods.blocks import NOISE_PHRASES
from webclean.modeldir import ModelError, register_format, write_model_directory
from webclean.parse import ParseError, page_title, parse_html
from webclean.sampling import TrainReport, natural_sample
from webclean.segment import Line, drop_hidden, segment
from webclean.text import CJK_RE as _CJK_RE
from webclean.text import SENTENCE_END_MARK_RE as _SENTENCE_END_RE
from webclean.text import WORD_RE as _TOKEN_RE

__all__ = ["FEATURES", "MLPModel", "fit_mlp", "line_features", "mlp_lines", "page_lines", "run", "train"]

MODEL_TYPE = "mlp"
MLP_FORMAT_VERSION = 1
# The network's size and the training sample's, chosen by 3-fold cross-validation on
# the five dev files together (docs/methods.md).
HIDDEN_LAYERS: tuple[int, ...] = (32,)
MAX_TRAINING_LINES = 40_000
MAX_ITERATIONS = 300
EARLY_STOPPING_MIN_LINES = 2_000
# A line is main text when the network's probability is at least this.
DECISION_THRESHOLD = 0.5

FEATURES = (
    "log_length",
    "text_density",  # characters per tag of the line's block element
    "title_relevance",  # share of the title's tokens found in the line
    "link_ratio",
    "sentence_ends",  # log(1 + sentence-ending marks)
    "punct_density",
    "relative_position",
    "kind_p",
    "kind_heading",
    "kind_list",
    "kind_cell",
    "kind_link",
    "noise_attr",
    "content_attr",
    "noise_phrase",
    "has_date",
    "prev_log_length",
    "next_log_length",
    "prev_link_ratio",
    "next_link_ratio",
    "window_log_length",  # mean log length of the 7 lines around it
)
_PUNCT_RE = re.compile(r"[^\w\s]", re.UNICODE)
_WINDOW = 3


@dataclass(frozen=True)
class MLPModel:
    """The trained network as arrays: ``weights[i]``, ``biases[i]`` per layer, and the input scaling."""

    weights: tuple[np.ndarray, ...]
    biases: tuple[np.ndarray, ...]
    mean: np.ndarray
    scale: np.ndarray
    config: Config
    metadata: Mapping[str, Any] = field(default_factory=dict)
    activation: str = "relu"
    feature_set: str = MODEL_TYPE  # lets extract.check_model name it when paired with an SVM method

    @property
    def version(self) -> str:
        return str(self.metadata.get("version", "unversioned"))

    def predict_proba(self, X: np.ndarray) -> np.ndarray:
        """P(main text) of each row: the MLP's forward pass, as scikit-learn computes it."""
        hidden = (np.asarray(X, dtype=np.float64) - self.mean) / self.scale
        for weights, biases in zip(self.weights[:-1], self.biases[:-1]):
            hidden = _ACTIVATIONS[self.activation](hidden @ weights + biases)
        logits = (hidden @ self.weights[-1] + self.biases[-1]).ravel()
        return 1.0 / (1.0 + np.exp(-np.clip(logits, -500, 500)))

    def save(self, directory: str | Path) -> Path:
        body = {
            "model_type": MODEL_TYPE,
            "features": list(FEATURES),
            "activation": self.activation,
            "layers": len(self.weights),
            "config": self.config.to_dict(),
        }
        arrays = {"mean": self.mean, "scale": self.scale}
        for i, (weights, biases) in enumerate(zip(self.weights, self.biases)):
            arrays[f"weights_{i}"] = weights
            arrays[f"biases_{i}"] = biases
        return write_model_directory(directory, body, arrays, self.metadata, MLP_FORMAT_VERSION)

    @classmethod
    def from_data(cls, directory: Path, document: Mapping[str, Any], arrays: Mapping[str, np.ndarray]) -> MLPModel:
        if document.get("format_version") != MLP_FORMAT_VERSION:
            raise ModelError(f"{directory}: mlp model format {document.get('format_version')!r} is not {MLP_FORMAT_VERSION}")
        if list(document.get("features", ())) != list(FEATURES):
            raise ModelError(f"{directory}: the model was trained on other inputs than this version computes")
        try:
            layers = int(document["layers"])
            model = cls(
                weights=tuple(arrays[f"weights_{i}"] for i in range(layers)),
                biases=tuple(arrays[f"biases_{i}"] for i in range(layers)),
                mean=arrays["mean"],
                scale=arrays["scale"],
                config=Config.from_dict(document["config"]),
                metadata=document.get("metadata", {}),
                activation=str(document["activation"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelError(f"{directory}: malformed mlp model: {exc}") from exc
        if model.activation not in _ACTIVATIONS:
            raise ModelError(f"{directory}: unknown activation {model.activation!r}")
        return model


_ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "relu": lambda x: np.maximum(x, 0.0),
    "tanh": np.tanh,
    "logistic": lambda x: 1.0 / (1.0 + np.exp(-x)),
    "identity": lambda x: x,
}

register_format(MODEL_TYPE, MLPModel.from_data)


# --- extraction --------------------------------------------------------------------------


def run(root: etree._Element, title: str, metadata: PageMetadata, model: Any) -> tuple[list[str], str]:
    """The method's steps on a parsed page: its main-text lines and its title."""
    return mlp_lines(root, title, model), title


def mlp_lines(root: etree._Element, title: str, model: MLPModel) -> list[str]:
    """The lines of a parsed page that the network calls main text, in document order; edits the tree."""
    if not isinstance(model, MLPModel):
        raise ModelError(f"method mlp needs an mlp model, not a model for {getattr(model, 'feature_set', '?')!r} features")
    lines = page_lines(root)
    if not lines:
        return []
    keep = model.predict_proba(line_features(lines, title)) >= DECISION_THRESHOLD
    return [line.text for line, kept in zip(lines, keep) if kept]


def page_lines(root: etree._Element) -> list[Line]:
    """The lines of the normalised DOM: hidden elements dropped, then segment.segment of <body>."""
    drop_hidden(root)
    body = root.find("body")
    return segment(body if body is not None else root)


def line_features(lines: Sequence[Line], title: str) -> np.ndarray:
    """One row of :data:`FEATURES` per line."""
    title_tokens = _tokens(title)
    n = len(lines)
    tag_counts: dict[etree._Element, int] = {}
    own = np.zeros((n, 16), dtype=np.float64)
    for i, line in enumerate(lines):
        length = line.length
        owner = line.owner
        if owner not in tag_counts:
            tag_counts[owner] = sum(1 for _ in owner.iter())
        tokens = _tokens(line.text)
        lowered = line.text.lower()
        own[i] = (
            math.log1p(length),
            length / tag_counts[owner],
            len(tokens & title_tokens) / len(title_tokens) if title_tokens else 0.0,
            line.link_ratio,
            math.log1p(len(_SENTENCE_END_RE.findall(line.text))),
            len(_PUNCT_RE.findall(line.text)) / max(length, 1),
            i / max(n - 1, 1),
            line.kind == "p",
            line.kind == "heading",
            line.kind == "list",
            line.kind == "cell",
            line.kind == "link",
            line.noise_attr,
            line.content_attr,
            length <= 200 and any(phrase in lowered for phrase in NOISE_PHRASES),
            length <= 200 and find_date(line.text) is not None,
        )
    log_length, link = own[:, 0], own[:, 3]
    prev_len, next_len = np.roll(log_length, 1), np.roll(log_length, -1)
    prev_link, next_link = np.roll(link, 1), np.roll(link, -1)
    if n:
        prev_len[0] = next_len[-1] = 0.0
        prev_link[0] = next_link[-1] = 1.0
    padded = np.concatenate([np.zeros(_WINDOW), log_length, np.zeros(_WINDOW)])
    window = np.convolve(padded, np.ones(2 * _WINDOW + 1) / (2 * _WINDOW + 1), mode="valid")
    return np.column_stack([own, prev_len, next_len, prev_link, next_link, window])


def _tokens(text: str) -> set[str]:
    """Words of space-delimited text, character bigrams of Chinese (single characters
    are too common to show relevance)."""
    out: set[str] = set()
    for token in _TOKEN_RE.findall(text.lower()):
        if _CJK_RE.search(token):
            out.update(token[i : i + 2] for i in range(max(len(token) - 1, 1)))
        else:
            out.add(token)
    return out


# --- training ----------------------------------------------------------------------------


def train(pages: Iterable[Any], config: Config, sources: Sequence[str] = ()) -> tuple[MLPModel, TrainReport]:
    """``webclean train --method mlp``: the network over all lines of each page, labelled
    by gold.GoldMatcher, the classes in their own proportion."""
    X, labels, count = labelled_rows(pages, config)
    report = TrainReport(pages=count, pages_with_block=count)
    report.content_units = int((labels == CONTENT).sum())
    report.noise_units = int((labels == NOISE).sum())
    chosen = natural_sample(labels, MAX_TRAINING_LINES, config.classifier.random_state)
    model, accuracy = fit_mlp(X[chosen], labels[chosen], config)
    report.training_samples = len(chosen)
    report.cv_accuracy = accuracy  # for mlp: the accuracy on its training sample
    return replace(model, metadata={"trained_on": list(sources), "report": report.to_dict()}), report


def fit_mlp(X: np.ndarray, y: np.ndarray, config: Config, metadata: Mapping[str, Any] | None = None) -> tuple[MLPModel, float]:
    """Fit the network on feature rows and CONTENT/NOISE labels; returns the model and its training accuracy."""
    from sklearn.neural_network import MLPClassifier

    mean = X.mean(axis=0)
    scale = X.std(axis=0)
    scale[scale == 0] = 1.0
    network = MLPClassifier(
        hidden_layer_sizes=HIDDEN_LAYERS,
        activation="relu",
        max_iter=MAX_ITERATIONS,
        # A tenth of the sample held out to stop training: on the dev data's tens of
        # thousands of lines it stops before overfitting; on a few hundred lines the
        # held-out tenth is too small to judge by, and training runs to max_iter.
        early_stopping=len(X) >= EARLY_STOPPING_MIN_LINES,
        random_state=config.classifier.random_state,
    ).fit((X - mean) / scale, y)
    if list(network.classes_) != [NOISE, CONTENT]:
        raise ValueError(f"training needs both content and noise lines, got classes {list(network.classes_)}")
    model = MLPModel(
        weights=tuple(np.asarray(w) for w in network.coefs_),
        biases=tuple(np.asarray(b) for b in network.intercepts_),
        mean=mean,
        scale=scale,
        config=config,
        metadata=dict(metadata or {}),
        activation=network.activation,
    )
    accuracy = float(((model.predict_proba(X) >= DECISION_THRESHOLD) == (y == CONTENT)).mean())
    return model, accuracy


def labelled_rows(pages: Iterable[Any], config: Config) -> tuple[np.ndarray, np.ndarray, int]:
    """Feature rows and labels of every page's lines (mixed lines left out), and the page count."""
    rows: list[np.ndarray] = []
    labels: list[np.ndarray] = []
    count = 0
    for page in pages:
        count += 1
        try:
            root = parse_html(page.html, max_depth=config.limits.max_depth, settings=config.parse)
        except (ParseError, etree.LxmlError):
            continue
        title = page_title(root)
        lines = page_lines(root)
        if not lines:
            continue
        matcher = GoldMatcher(page, config.weak, config.gold)
        page_labels = np.asarray([matcher.label(line.text) for line in lines], dtype=np.int64)
        keep = page_labels != MIXED
        if keep.any():
            rows.append(line_features(lines, title)[keep])
            labels.append(page_labels[keep])
    if not rows:
        return np.zeros((0, len(FEATURES))), np.zeros(0, dtype=np.int64), count
    return np.concatenate(rows), np.concatenate(labels), count
