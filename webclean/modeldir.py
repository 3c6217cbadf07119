"""A model directory: the layout every webclean model shares, and its formats.

On disk a model is a directory with ``model.json`` (format version, metadata with a
version hash, the SHA-256 of the arrays, and the format's own fields) and
``arrays.npz`` (read with ``allow_pickle=False``). Nothing in it can run code.

Each format registers the function that builds its model from the two files
(:func:`register_format`), under the ``model_type`` its ``model.json`` names: the SVM
methods' format (webclean/model.py), whose files name none, and method mlp's
(webclean/methods/mlp.py).
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

# The layout's version, which the SVM methods' format (the first) shares.
FORMAT_VERSION = 1
# The format of a model.json that names no model_type.
DEFAULT_MODEL_TYPE = "svm"

Loader = Callable[[Path, Mapping[str, Any], Mapping[str, np.ndarray]], Any]
_FORMATS: dict[str, Loader] = {}


class ModelError(ValueError):
    """A model directory that cannot be used: missing, corrupt or of another format."""


def register_format(model_type: str, load: Loader) -> None:
    """Let :func:`load_directory` build the models whose ``model.json`` says ``model_type``
    with ``load(directory, document, arrays)``."""
    _FORMATS[model_type] = load


def load_directory(directory: Path) -> Any:
    """The model of a directory, built by the loader its format registered."""
    document, arrays = read_model_directory(directory)
    model_type = document.get("model_type", DEFAULT_MODEL_TYPE)
    load = _FORMATS.get(model_type) if isinstance(model_type, str) else None
    if load is None:
        raise ModelError(f"{directory}: unknown model type {model_type!r}")
    return load(directory, document, arrays)


def write_model_directory(
    directory: str | Path, body: Mapping[str, Any], arrays: Mapping[str, np.ndarray], metadata: Mapping[str, Any], format_version: int
) -> Path:
    """``model.json`` (format version, metadata with a version hash, the arrays' SHA-256,
    ``body``) and ``arrays.npz``: the layout every webclean model shares."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)  # type: ignore[arg-type]  # numpy's stub counts allow_pickle among the names
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
