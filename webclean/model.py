"""A trained model as data: the noise lexicon, the SVM's arrays and the config.

On disk a model is a directory with ``model.json`` (format version, config,
metadata, lexicon, the SVM's scalars and the SHA-256 of the arrays) and
``arrays.npz`` (read with ``allow_pickle=False``). Nothing in it can run code.
The mlp method's model (webclean/methods/mlp.py) uses the same layout and the same
checksum through :func:`write_model_directory` and :func:`read_model_directory`;
its ``model.json`` says ``"model_type": "mlp"``.
"""

from __future__ import annotations

import hashlib
import io
import json
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from webclean.classifier import SVMParams
from webclean.config import Config
from webclean.features import FEATURE_SETS, FEATURE_WIDTHS, SVM_WIDTHS
from webclean.lexicon import NoiseLexicon

FORMAT_VERSION = 1
# The methods of webclean/methods that need no trained model.
MODEL_FREE_METHODS = ("blocks", "ladom")
MODELS_DIR = Path(__file__).parent / "models"


class ModelError(ValueError):
    """A model directory that cannot be used: missing, corrupt or of another format."""


@dataclass(frozen=True)
class Model:
    lexicon: NoiseLexicon
    svm: SVMParams
    config: Config
    feature_set: str = "paper"  # a key of features.FEATURE_SETS
    metadata: Mapping[str, Any] = field(default_factory=dict)

    @property
    def version(self) -> str:
        return str(self.metadata.get("version", "unversioned"))


def save_model(model: Model | Any, directory: str | Path) -> Path:
    """Write a model directory; a model of another method (webclean/methods/mlp.py) writes itself."""
    if not isinstance(model, Model):
        return model.save(directory)
    body = {
        "lexicon": model.lexicon.to_dict(),
        "svm": model.svm.scalars(),
        "config": model.config.to_dict(),
        "feature_set": model.feature_set,
    }
    return write_model_directory(directory, body, model.svm.arrays(), model.metadata, FORMAT_VERSION)


def write_model_directory(
    directory: str | Path, body: Mapping[str, Any], arrays: Mapping[str, np.ndarray], metadata: Mapping[str, Any], format_version: int
) -> Path:
    """``model.json`` (format version, metadata with a version hash, the arrays' SHA-256,
    ``body``) and ``arrays.npz``: the layout every webclean model shares."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    data = buffer.getvalue()
    digest = hashlib.sha256(data).hexdigest()
    version = _version(body, data)
    document = {
        "format_version": format_version,
        "metadata": {**metadata, "version": version},
        "arrays_sha256": digest,
        **body,
    }
    (directory / "arrays.npz").write_bytes(data)
    (directory / "model.json").write_text(json.dumps(document, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return directory


def load_model(directory: str | Path | None = None, method: str = "svm") -> Model | Any:
    """Load a model directory; None loads the packaged model of ``method``.

    Methods blocks and ladom have no model: for them, with no directory, this is None.
    """
    if directory is None:
        return None if method in MODEL_FREE_METHODS else default_model(method)
    return _load(Path(directory))


_default_lock = threading.Lock()
_defaults: dict[str, Model] = {}


def default_model(method: str = "svm") -> Model | Any:
    """The packaged model of a method, loaded on first use and then shared by the process."""
    model = _defaults.get(method)
    if model is None:
        with _default_lock:
            model = _defaults.get(method)
            if model is None:
                model = _defaults[method] = _load(MODELS_DIR / method)
    return model


def _load(directory: Path) -> Model | Any:
    document, arrays = read_model_directory(directory)
    if document.get("model_type") == "mlp":
        from webclean.methods.mlp import MLPModel

        return MLPModel.from_data(directory, document, arrays)
    if document.get("format_version") != FORMAT_VERSION:
        raise ModelError(f"{directory}: model format {document.get('format_version')!r} is not the supported format {FORMAT_VERSION}")
    try:
        model = Model(
            lexicon=NoiseLexicon.from_dict(document["lexicon"]),
            svm=SVMParams.from_data(document["svm"], arrays),
            config=Config.from_dict(document["config"]),
            feature_set=str(document.get("feature_set", "paper")),
            metadata=document.get("metadata", {}),
        )
        check_widths(model)
        return model
    except (KeyError, TypeError, ValueError) as exc:
        raise ModelError(f"{directory}: malformed model: {exc}") from exc


def check_widths(model: Model) -> None:
    """The SVM and the trees read as many columns as the model's feature set gives them."""
    if model.feature_set not in FEATURE_SETS:
        raise ValueError(f"unknown feature set {model.feature_set!r}")
    svm, trees = model.svm, model.svm.trees
    if svm.support_vectors.shape[1] != SVM_WIDTHS[model.feature_set] or len(svm.scale_min) != svm.support_vectors.shape[1]:
        raise ValueError(f"the SVM does not read the {model.feature_set!r} features")
    if trees is not None and trees.width != FEATURE_WIDTHS[model.feature_set]:
        raise ValueError(f"the trees do not read the {model.feature_set!r} features")


def _version(body: Mapping[str, Any], arrays: bytes) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode() + arrays).hexdigest()[:12]


def read_model_directory(directory: Path) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """``model.json`` and the arrays of ``arrays.npz``, after checking the arrays' checksum."""
    try:
        document = json.loads((directory / "model.json").read_text(encoding="utf-8"))
        data = (directory / "arrays.npz").read_bytes()
    except FileNotFoundError as exc:
        raise ModelError(f"{directory} is not a webclean model directory: {exc.filename} is missing") from exc
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise ModelError(f"{directory}/model.json is not valid JSON: {type(exc).__name__}") from exc
    if not isinstance(document, dict) or type(document.get("format_version")) is not int:
        found = document.get("format_version") if isinstance(document, dict) else None
        raise ModelError(f"{directory}: model format {found!r} is not the supported format {FORMAT_VERSION}")
    if hashlib.sha256(data).hexdigest() != document.get("arrays_sha256"):
        raise ModelError(f"{directory}/arrays.npz does not match the checksum in model.json")
    # The version is a hash of everything else in model.json and of the arrays: an
    # edited lexicon or config must not load under the same version.
    body = {k: v for k, v in document.items() if k not in ("format_version", "metadata", "arrays_sha256")}
    metadata = document.get("metadata")
    if not isinstance(metadata, dict) or _version(body, data) != metadata.get("version"):
        raise ModelError(f"{directory}/model.json does not match its checksum (metadata.version): it was edited")
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as npz:
            return document, {k: npz[k] for k in npz.files}
    except (OSError, ValueError) as exc:
        raise ModelError(f"{directory}/arrays.npz is not a NumPy archive: {exc}") from exc
