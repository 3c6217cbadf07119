"""A trained model as data: the noise lexicon, the SVM's arrays and the config.

On disk a model is a directory with ``model.json`` (format version, config,
metadata, lexicon, the SVM's scalars and the SHA-256 of the arrays) and
``arrays.npz`` (read with ``allow_pickle=False``). Nothing in it can run code.
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
from webclean.lexicon import NoiseLexicon

FORMAT_VERSION = 1
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


def save_model(model: Model, directory: str | Path) -> Path:
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    np.savez(buffer, **model.svm.arrays())
    arrays = buffer.getvalue()
    digest = hashlib.sha256(arrays).hexdigest()
    body = {
        "lexicon": model.lexicon.to_dict(),
        "svm": model.svm.scalars(),
        "config": model.config.to_dict(),
        "feature_set": model.feature_set,
    }
    version = hashlib.sha256(json.dumps(body, sort_keys=True).encode() + arrays).hexdigest()[:12]
    document = {
        "format_version": FORMAT_VERSION,
        "metadata": {**model.metadata, "version": version},
        "arrays_sha256": digest,
        **body,
    }
    (directory / "arrays.npz").write_bytes(arrays)
    (directory / "model.json").write_text(json.dumps(document, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return directory


def load_model(directory: str | Path | None = None, method: str = "svm") -> Model:
    """Load a model directory; None loads the packaged model of ``method``."""
    if directory is None:
        return default_model(method)
    return _load(Path(directory))


_default_lock = threading.Lock()
_defaults: dict[str, Model] = {}


def default_model(method: str = "svm") -> Model:
    """The packaged model of a method, loaded on first use and then shared by the process."""
    model = _defaults.get(method)
    if model is None:
        with _default_lock:
            model = _defaults.get(method)
            if model is None:
                model = _defaults[method] = _load(MODELS_DIR / method)
    return model


def _load(directory: Path) -> Model:
    try:
        document = json.loads((directory / "model.json").read_text(encoding="utf-8"))
        arrays = (directory / "arrays.npz").read_bytes()
    except FileNotFoundError as exc:
        raise ModelError(f"{directory} is not a webclean model directory: {exc.filename} is missing") from exc
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ModelError(f"{directory}/model.json is not valid JSON: {exc}") from exc
    if not isinstance(document, dict) or document.get("format_version") != FORMAT_VERSION:
        found = document.get("format_version") if isinstance(document, dict) else None
        raise ModelError(f"{directory}: model format {found!r} is not the supported format {FORMAT_VERSION}")
    if hashlib.sha256(arrays).hexdigest() != document.get("arrays_sha256"):
        raise ModelError(f"{directory}/arrays.npz does not match the checksum in model.json")
    try:
        with np.load(io.BytesIO(arrays), allow_pickle=False) as npz:
            svm = SVMParams.from_data(document["svm"], {k: npz[k] for k in npz.files})
        return Model(
            lexicon=NoiseLexicon.from_dict(document["lexicon"]),
            svm=svm,
            config=Config.from_dict(document["config"]),
            feature_set=str(document.get("feature_set", "paper")),
            metadata=document.get("metadata", {}),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ModelError(f"{directory}: malformed model: {exc}") from exc
