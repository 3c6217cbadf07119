"""Step 3 of method.md: min-max scaling and an SVM, C and γ by k-fold cross-validation.

``TagClassifier`` follows scikit-learn's conventions (``__init__`` stores, ``fit``
returns ``self``, learned state ends in ``_``). What it learns is a handful of
arrays, so it is saved as data and predicts with NumPy alone: one vectorised
decision function for all of a page's tags, and no unpickling on load.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Mapping

import numpy as np

CONTENT = 1
NOISE = 0
KERNELS = ("rbf", "linear", "poly")
_CHUNK = 256


@dataclass(frozen=True)
class SVMParams:
    """A fitted scaler and SVM as plain arrays: everything prediction needs."""

    kernel: str
    scale_min: np.ndarray  # x_scaled = (x - scale_min) * scale_factor
    scale_factor: np.ndarray
    support_vectors: np.ndarray
    dual_coef: np.ndarray  # shape (n_support,)
    intercept: float
    gamma: float
    coef0: float = 0.0
    degree: int = 3

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        """Positive means content, as scikit-learn's SVC with classes (0, 1)."""
        X = np.asarray(X, dtype=np.float64)
        if X.shape[0] == 0:
            return np.zeros(0)
        Z = (X - self.scale_min) * self.scale_factor
        # In chunks: a page of 200,000 tags must not build a kernel matrix of gigabytes,
        # and the page's time limit can interrupt between chunks.
        out = np.empty(len(Z))
        for i in range(0, len(Z), _CHUNK):
            out[i : i + _CHUNK] = self._kernel(Z[i : i + _CHUNK]) @ self.dual_coef
        out += self.intercept
        return out

    def predict(self, X: np.ndarray) -> np.ndarray:
        return (self.decision_function(X) > 0).astype(np.int64)

    def _kernel(self, Z: np.ndarray) -> np.ndarray:
        """The kernel between the rows of Z and the support vectors, computed in place
        in this thread's workspace (valid until the next call)."""
        K = _workspace(len(Z), len(self.support_vectors))
        np.dot(Z, self.support_vectors.T, out=K)
        if self.kernel == "linear":
            return K
        if self.kernel == "poly":
            K *= self.gamma
            K += self.coef0
            np.power(K, self.degree, out=K)
            return K
        # exp(-γ‖z - s‖²) with ‖z - s‖² = ‖z‖² + ‖s‖² - 2 z·s
        K *= -2.0
        K += (Z * Z).sum(axis=1)[:, None]
        K += self._support_norms
        np.maximum(K, 0.0, out=K)
        K *= -self.gamma
        np.exp(K, out=K)
        return K

    @cached_property
    def _support_norms(self) -> np.ndarray:
        """Squared norms of the support vectors: the same for every chunk of every page."""
        return (self.support_vectors**2).sum(axis=1)

    def arrays(self) -> dict[str, np.ndarray]:
        return {
            "scale_min": self.scale_min,
            "scale_factor": self.scale_factor,
            "support_vectors": self.support_vectors,
            "dual_coef": self.dual_coef,
        }

    def scalars(self) -> dict[str, Any]:
        return {
            "kernel": self.kernel,
            "intercept": self.intercept,
            "gamma": self.gamma,
            "coef0": self.coef0,
            "degree": self.degree,
        }

    @classmethod
    def from_data(cls, scalars: Mapping[str, Any], arrays: Mapping[str, np.ndarray]) -> "SVMParams":
        if scalars.get("kernel") not in KERNELS:
            raise ValueError(f"unknown kernel {scalars.get('kernel')!r}")
        return cls(
            kernel=str(scalars["kernel"]),
            intercept=float(scalars["intercept"]),
            gamma=float(scalars["gamma"]),
            coef0=float(scalars.get("coef0", 0.0)),
            degree=int(scalars.get("degree", 3)),
            scale_min=np.asarray(arrays["scale_min"], dtype=np.float64),
            scale_factor=np.asarray(arrays["scale_factor"], dtype=np.float64),
            support_vectors=np.asarray(arrays["support_vectors"], dtype=np.float64),
            dual_coef=np.asarray(arrays["dual_coef"], dtype=np.float64),
        )


_WORKSPACES = threading.local()


def _workspace(rows: int, columns: int) -> np.ndarray:
    """A (rows, columns) float64 array of this thread's, reused from call to call.

    A page's kernel matrix is about a megabyte: allocated afresh for every call, the
    allocator hands it out as new pages from the operating system, and the page
    faults cost several times the arithmetic (benchmarks/speed.py: classification
    took 0.8 ms a page, 0.2 ms with the workspace). At most _CHUNK rows.
    """
    buffer = getattr(_WORKSPACES, "buffer", None)
    if buffer is None or buffer.size < rows * columns:
        buffer = _WORKSPACES.buffer = np.empty(max(rows * columns, _CHUNK * columns))
    return buffer[: rows * columns].reshape(rows, columns)


class TagClassifier:
    """Min-max scaling and an SVM, C and γ by grid search (balanced class weights by default)."""

    def __init__(
        self,
        kernel: str = "rbf",
        c_grid: tuple[float, ...] = (0.1, 1.0, 10.0, 100.0, 1000.0),
        gamma_grid: tuple[float, ...] = (0.01, 0.1, 1.0, 10.0),
        folds: int = 10,
        random_state: int = 0,
        n_jobs: int | None = None,
        class_weight: str | None = "balanced",
    ) -> None:
        self.kernel = kernel
        self.class_weight = class_weight
        self.c_grid = c_grid
        self.gamma_grid = gamma_grid
        self.folds = folds
        self.random_state = random_state
        self.n_jobs = n_jobs

    def fit(self, X: np.ndarray, y: np.ndarray) -> "TagClassifier":
        from sklearn.model_selection import GridSearchCV, StratifiedKFold
        from sklearn.pipeline import Pipeline
        from sklearn.preprocessing import MinMaxScaler
        from sklearn.svm import SVC

        X = np.asarray(X, dtype=np.float64)
        y = np.asarray(y, dtype=np.int64)
        if set(np.unique(y)) != {NOISE, CONTENT}:
            raise ValueError("training needs both content (1) and noise (0) samples")
        pipeline = Pipeline(
            [
                ("scale", MinMaxScaler()),
                ("svm", SVC(kernel=self.kernel, class_weight=self.class_weight, random_state=self.random_state)),
            ]
        )
        grid: dict[str, list[float]] = {"svm__C": list(self.c_grid)}
        if self.kernel != "linear":
            grid["svm__gamma"] = list(self.gamma_grid)
        folds = StratifiedKFold(n_splits=self.folds, shuffle=True, random_state=self.random_state)
        search = GridSearchCV(pipeline, grid, cv=folds, scoring="accuracy", n_jobs=self.n_jobs)
        search.fit(X, y)
        best = search.best_estimator_
        self.best_params_ = {k.removeprefix("svm__"): float(v) for k, v in search.best_params_.items()}
        self.cv_accuracy_ = float(search.best_score_)
        self.params_ = _params_from(best.named_steps["scale"], best.named_steps["svm"])
        return self

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        return self.params_.decision_function(X)

    def predict(self, X: np.ndarray) -> np.ndarray:
        return self.params_.predict(X)


def _params_from(scaler: Any, svm: Any) -> SVMParams:
    # scikit-learn's binary SVC: decision = dual_coef · K(sv, x) + intercept, > 0 means classes_[1].
    if list(svm.classes_) != [NOISE, CONTENT]:
        raise ValueError(f"unexpected classes {svm.classes_!r}")
    span = scaler.data_max_ - scaler.data_min_
    factor = np.where(span > 0, 1.0 / np.where(span > 0, span, 1.0), 0.0)
    gamma = svm._gamma if hasattr(svm, "_gamma") else float(svm.gamma)
    return SVMParams(
        kernel=svm.kernel,
        scale_min=np.asarray(scaler.data_min_, dtype=np.float64),
        scale_factor=factor,
        support_vectors=np.asarray(svm.support_vectors_, dtype=np.float64),
        dual_coef=np.asarray(svm.dual_coef_[0], dtype=np.float64),
        intercept=float(svm.intercept_[0]),
        gamma=float(gamma),
        coef0=float(svm.coef0),
        degree=int(svm.degree),
    )
