"""The SVM methods' trained model as data: the noise lexicon, the SVM's arrays and the config.

Saved in the layout every webclean model shares (webclean/modeldir.py): ``model.json``
holds the format version, the config, the metadata, the lexicon, the SVM's scalars and
the feature set, ``arrays.npz`` the SVM's (and the boosted trees') arrays. Its format
registers itself here; method mlp's registers in webclean/methods/mlp.py.
:func:`load_model` and :func:`default_model` load the model of any method.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from webclean.classifier import SVMParams, TreeEnsemble
from webclean.confidence import ConfidenceModel
from webclean.config import PAGE_TYPES, Config
from webclean.features import FEATURE_SETS, FEATURE_WIDTHS, SVM_WIDTHS
from webclean.lexicon import NoiseLexicon
from webclean.modeldir import (
    DEFAULT_MODEL_TYPE,
    FORMAT_VERSION,
    ModelError,
    load_directory,
    register_format,
    write_model_directory,
)  # fmt: skip
from webclean.page_type import PageTypeModel
from webclean.registry import method as method_spec
from webclean.second_stage import CONTEXT_NAMES

MODELS_DIR = Path(__file__).parent / "models"


@dataclass(frozen=True)
class Model:
    lexicon: NoiseLexicon
    svm: SVMParams
    config: Config
    feature_set: str = "paper"  # a key of features.FEATURE_SETS
    metadata: Mapping[str, Any] = field(default_factory=dict)
    # Method svm: the second stage's trees (webclean/second_stage.py), or None.
    second: TreeEnsemble | None = None
    # Method svm: the page type model (webclean/page_type.py), or None.
    page_types: PageTypeModel | None = None
    # Method svm: the confidence model (webclean/confidence.py), or None.
    confidence: ConfidenceModel | None = None

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
    arrays = dict(model.svm.arrays())
    if model.second is not None:
        body["second"] = {"baseline": model.second.baseline, "width": model.second.width}
        arrays.update(model.second.arrays(_SECOND_PREFIX))
    if model.page_types is not None:
        body["page_type"], typed = model.page_types.to_data(_PAGE_TYPE_PREFIX)
        arrays.update(typed)
    if model.confidence is not None:
        body["confidence"], trusted = model.confidence.to_data(_CONFIDENCE_PREFIX)
        arrays.update(trusted)
    return write_model_directory(directory, body, arrays, model.metadata, FORMAT_VERSION)


_SECOND_PREFIX = "second_"
_PAGE_TYPE_PREFIX = "type_"
_CONFIDENCE_PREFIX = "confidence_"


def _second_stage(document: Mapping[str, Any], arrays: Mapping[str, np.ndarray]) -> TreeEnsemble | None:
    second = document.get("second")
    if second is None:
        return None
    return TreeEnsemble.from_data(float(second["baseline"]), arrays, int(second["width"]), _SECOND_PREFIX)


def _confidence(document: Mapping[str, Any], arrays: Mapping[str, np.ndarray]) -> ConfidenceModel | None:
    trusted = document.get("confidence")
    return None if trusted is None else ConfidenceModel.from_data(trusted, arrays, _CONFIDENCE_PREFIX)


def load_model(directory: str | Path | None = None, method: str = "svm") -> Model | Any:
    """Load a model directory, of any format; None loads the packaged model of ``method``,
    or is None for a method that needs no model (blocks, ladom)."""
    if directory is None:
        return None if method_spec(method).model is None else default_model(method)
    return load_directory(Path(directory))


_default_lock = threading.Lock()
_defaults: dict[str, Model] = {}


def default_model(method: str = "svm") -> Model | Any:
    """The packaged model of a method, loaded on first use and then shared by the process."""
    model = _defaults.get(method)
    if model is None:
        with _default_lock:
            model = _defaults.get(method)
            if model is None:
                model = _defaults[method] = load_directory(MODELS_DIR / method)
    return model


def _load(directory: Path, document: Mapping[str, Any], arrays: Mapping[str, np.ndarray]) -> Model:
    """The SVM methods' format: the loader registered for it."""
    if document.get("format_version") != FORMAT_VERSION:
        raise ModelError(f"{directory}: model format {document.get('format_version')!r} is not the supported format {FORMAT_VERSION}")
    try:
        model = Model(
            lexicon=NoiseLexicon.from_dict(document["lexicon"]),
            svm=SVMParams.from_data(document["svm"], arrays),
            config=Config.from_dict(document["config"]),
            feature_set=str(document.get("feature_set", "paper")),
            metadata=document.get("metadata", {}),
            second=_second_stage(document, arrays),
            page_types=None if "page_type" not in document else PageTypeModel.from_data(document["page_type"], arrays, _PAGE_TYPE_PREFIX),
            confidence=_confidence(document, arrays),
        )
        check_widths(model)
        return model
    except (KeyError, TypeError, ValueError) as exc:
        raise ModelError(f"{directory}: malformed model: {exc}") from exc


register_format(DEFAULT_MODEL_TYPE, _load)


def check_widths(model: Model) -> None:
    """The SVM and the trees read as many columns as the model's feature set gives them."""
    if model.feature_set not in FEATURE_SETS:
        raise ValueError(f"unknown feature set {model.feature_set!r}")
    svm, trees = model.svm, model.svm.trees
    if svm.support_vectors.shape[1] != SVM_WIDTHS[model.feature_set] or len(svm.scale_min) != svm.support_vectors.shape[1]:
        raise ValueError(f"the SVM does not read the {model.feature_set!r} features")
    if trees is not None and trees.width != FEATURE_WIDTHS[model.feature_set] + svm.page_columns:
        raise ValueError(f"the trees do not read the {model.feature_set!r} features")
    if svm.page_columns and (model.page_types is None or svm.page_columns != len(PAGE_TYPES)):
        raise ValueError("the trees read the page's type probabilities, but the model has no page type model")
    if model.second is not None and model.second.width != FEATURE_WIDTHS[model.feature_set] + len(CONTEXT_NAMES):
        raise ValueError(f"the second stage does not read the {model.feature_set!r} features and its context")
