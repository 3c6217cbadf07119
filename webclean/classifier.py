"""Step 3 of method.md: min-max scaling and an SVM, C and γ by k-fold cross-validation.

``TagClassifier`` follows scikit-learn's conventions (``__init__`` stores, ``fit``
returns ``self``, learned state ends in ``_``). What it learns is a handful of
arrays, so it is saved as data and predicts with NumPy alone: one vectorised
decision function for all of a page's tags, and no unpickling on load.

Method svm adds gradient-boosted trees (:func:`fit_trees`, :class:`TreeEnsemble`),
also kept as arrays: their log-odds, weighted, join the SVM's decision value.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any, Protocol

import numpy as np

from webclean import core

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
    # Method svm: trees whose log-odds, times tree_weight, join the SVM's decision value.
    trees: TreeEnsemble | None = None
    tree_weight: float = 0.0
    # The columns of the page (page_type.py: its types' probabilities) that the trees read
    # after a row's own, the same for every row of a page (OnPage).
    page_columns: int = 0

    def decision_function(self, X: np.ndarray, page: np.ndarray | None = None) -> np.ndarray:
        """Positive means content, as scikit-learn's SVC with classes (0, 1). ``page``:
        the page's columns (``page_columns`` of them), appended to every row, where the
        rows do not hold them already."""
        X = np.asarray(X, dtype=np.float64)
        if X.shape[0] == 0:
            return np.zeros(0)
        if page is not None:
            if len(page) != self.page_columns:
                raise ValueError(f"{len(page)} columns of the page, but the trees read {self.page_columns}")
            rows = np.empty((len(X), X.shape[1] + self.page_columns))
            rows[:, : X.shape[1]] = X
            rows[:, X.shape[1] :] = page
            X = rows
        # The SVM reads the row's first columns; the trees (method svm) may read more.
        Z = (X[:, : len(self.scale_min)] - self.scale_min) * self.scale_factor
        # In chunks: a page of 200,000 tags must not build a kernel matrix of gigabytes,
        # and the page's time limit can interrupt between chunks.
        out = np.empty(len(Z))
        with one_blas_thread():
            for i in range(0, len(Z), _CHUNK):
                # An SVM of no support vectors (classifier.svm off) adds nothing.
                out[i : i + _CHUNK] = self._kernel(Z[i : i + _CHUNK]) @ self._dual_coef32 if len(self.dual_coef) else 0.0
                if self.trees is not None:
                    out[i : i + _CHUNK] += self.tree_weight * self.trees.decision_function(X[i : i + _CHUNK])
        out += self.intercept
        return out

    def predict(self, X: np.ndarray) -> np.ndarray:
        return (self.decision_function(X) > 0).astype(np.int64)

    def _kernel(self, Z: np.ndarray) -> np.ndarray:
        """The kernel between the rows of Z and the support vectors, computed in place
        in this thread's workspace (valid until the next call).

        In single precision: the kernel matrix is most of a page's classification, and
        float32 halves its time (the products and exp() do twice the values a vector
        instruction). Decision values move by about 1e-5 at most: 1.1e-5 on the 19,006
        rows of 231 dev pages, none of whose decisions lies closer to 0 than 1.9e-4.
        """
        K = _workspace(len(Z), len(self.support_vectors))
        if self.kernel == "rbf":
            # exp(-γ‖z - s‖²) = exp(2γ z·s - γ‖z‖² - γ‖s‖²): one product of the rows
            # [z, 1, ‖z‖²] by [2γs, -γ‖s‖², -γ] gives the exponent, and the matrix is
            # walked twice more (a clamp at 0 against rounding, exp) instead of five times.
            rows = np.empty((len(Z), Z.shape[1] + 2), dtype=np.float32)
            rows[:, :-2] = Z
            rows[:, -2] = 1.0
            rows[:, -1] = (Z * Z).sum(axis=1)
            np.dot(rows, self._rbf_columns32.T, out=K)
            # Against a row of zeros: NumPy's loop for a scalar operand takes twice as long.
            np.minimum(K, self._zeros32, out=K)
            np.exp(K, out=K)
            return K
        np.dot(Z.astype(np.float32), self._support_vectors32.T, out=K)
        if self.kernel == "poly":
            K *= self.gamma
            K += self.coef0
            np.power(K, self.degree, out=K)
        return K

    @cached_property
    def _support_vectors32(self) -> np.ndarray:
        return self.support_vectors.astype(np.float32)

    @cached_property
    def _rbf_columns32(self) -> np.ndarray:
        """[2γs, -γ‖s‖², -γ] for each support vector s: the same for every chunk of every page."""
        S = self.support_vectors
        norms = (S**2).sum(axis=1, keepdims=True)
        gamma = np.full((len(S), 1), -self.gamma)
        return np.hstack([2.0 * self.gamma * S, -self.gamma * norms, gamma]).astype(np.float32)

    @cached_property
    def _zeros32(self) -> np.ndarray:
        return np.zeros(len(self.support_vectors), dtype=np.float32)

    @cached_property
    def _dual_coef32(self) -> np.ndarray:
        return self.dual_coef.astype(np.float32)

    def arrays(self) -> dict[str, np.ndarray]:
        arrays = {
            "scale_min": self.scale_min,
            "scale_factor": self.scale_factor,
            "support_vectors": self.support_vectors,
            "dual_coef": self.dual_coef,
        }
        if self.trees is not None:
            arrays.update(self.trees.arrays(_TREE_PREFIX))
        return arrays

    def scalars(self) -> dict[str, Any]:
        scalars = {
            "kernel": self.kernel,
            "intercept": self.intercept,
            "gamma": self.gamma,
            "coef0": self.coef0,
            "degree": self.degree,
        }
        if self.trees is not None:
            trees = self.trees
            scalars.update({"tree_weight": self.tree_weight, "tree_baseline": trees.baseline, "tree_width": trees.width})
        if self.page_columns:
            scalars["page_columns"] = self.page_columns
        return scalars

    @classmethod
    def from_data(cls, scalars: Mapping[str, Any], arrays: Mapping[str, np.ndarray]) -> SVMParams:
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
            trees=TreeEnsemble.from_data(
                float(scalars["tree_baseline"]),
                arrays,
                int(scalars.get("tree_width", arrays["support_vectors"].shape[1])),
                _TREE_PREFIX,
            )
            if "tree_baseline" in scalars
            else None,
            tree_weight=float(scalars.get("tree_weight", 0.0)),
            page_columns=int(scalars.get("page_columns", 0)),
        )


_TREE_PREFIX = "tree_"


class Decider(Protocol):
    """What decides a page's rows: an SVMParams, or an OnPage."""

    def decision_function(self, X: np.ndarray) -> np.ndarray: ...


@dataclass(frozen=True)
class OnPage:
    """A classifier on one page: its rows' decision values with the page's columns
    (SVMParams.page_columns) given."""

    svm: SVMParams
    page: np.ndarray | None

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        return self.svm.decision_function(X, self.page)


@dataclass(frozen=True)
class TreeEnsemble:
    """Binary gradient-boosted trees (scikit-learn's HistGradientBoostingClassifier) as
    flat arrays, every tree's nodes one after the other.

    A leaf's children are the leaf itself and its threshold is +inf, so every row
    walks all trees at once, one level a step, until each has reached a leaf: one
    vectorised walk a page instead of a Python call a tree. The compiled core walks
    the same trees row by row in C (core.compiled.Trees), to the same leaves.
    """

    feature: np.ndarray  # the feature a node tests (0 at a leaf)
    threshold: np.ndarray  # a row goes left when its feature is <= this (+inf at a leaf)
    left: np.ndarray  # node indices into these arrays; a leaf's are its own
    right: np.ndarray
    value: np.ndarray  # a leaf's log-odds (0 elsewhere)
    roots: np.ndarray  # each tree's first node
    baseline: float  # the log-odds before any tree
    width: int  # the columns of a row the trees were fitted on

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        """The log-odds of content for each row of X."""
        return self.leaf_values(X).sum(axis=1) + self.baseline

    def row_value(self, row: np.ndarray) -> float:
        """The log-odds of one row (:meth:`decision_function` of it, as a float)."""
        if core.compiled is not None and (walk := self._compiled) is not None:  # one call (webclean/_core_pagetype.pxi)
            return core.compiled.tree_value(walk, np.ascontiguousarray(row, dtype=np.float64)) + self.baseline
        return float(self.decision_function(np.reshape(row, (1, -1)))[0])

    def leaf_values(self, X: np.ndarray) -> np.ndarray:
        """The value of the leaf each row of X reaches in each tree: (rows, trees)."""
        X = np.ascontiguousarray(X, dtype=np.float64)
        n, width = X.shape
        if width < self.width:
            raise ValueError(f"rows of {width} features, but the trees read {self.width}")
        compiled = self._compiled if core.compiled is not None else None
        if compiled is not None:  # each row down each tree in C (webclean/_core_trees.pxi)
            leaves = np.empty((n, len(self.roots)))
            compiled.leaf_values(X, leaves)
            return leaves
        flat = X.ravel()
        feature, threshold, children, value, (root_feature, root_threshold, root_left, root_right), depth = self._walk
        trees = len(self.roots)
        # One entry per (row, tree) pair: its node (as _walk numbers it), and where its row
        # starts in ``flat``. Every pair starts on its tree's root: the first step reads the
        # roots' columns of all rows at once. A leaf leads to itself, so after as many steps
        # as the deepest tree has levels every pair stands on its leaf: no test of which
        # pairs are done.
        node = np.where(X[:, root_feature] <= root_threshold, root_left, root_right).ravel()
        offset = np.repeat(np.arange(n, dtype=np.int32) * width, trees)
        for _ in range(depth - 1):
            go_left = flat.take(offset + feature.take(node)) <= threshold.take(node)
            node = children.take(node + go_left)
        return value.take(node).reshape(n, trees)

    def __getstate__(self) -> dict[str, Any]:
        """What pickles of the trees (Spark ships a model to its executors so): their
        arrays and what is derived from them, without the compiled core's walk, which is
        no Python object and is made again where the trees are first walked."""
        state = dict(self.__dict__)
        state.pop("_compiled", None)
        return state

    @cached_property
    def _compiled(self) -> Any:
        """The compiled core's walk of these trees (core.compiled.Trees), or None for
        trees it does not read (a child more than 65,535 nodes after its parent)."""
        assert core.compiled is not None
        ints = (np.ascontiguousarray(array, dtype=np.intp) for array in (self.feature, self.left, self.right, self.roots))
        feature, left, right, roots = ints
        threshold, value = (np.ascontiguousarray(array, dtype=np.float64) for array in (self.threshold, self.value))
        try:
            return core.compiled.Trees(feature, threshold, left, right, value, roots)
        except ValueError:
            return None

    @cached_property
    def _walk(
        self,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray], int]:
        """The nodes as the walk reads them, node i numbered 2i: each node's (32-bit)
        feature, threshold and value twice over, and its two children's numbers side by
        side (right, then left), so that a node's number plus its test finds the next
        node in one take; the roots' features, thresholds and children's numbers; and the
        levels of the deepest tree."""
        children = np.empty(2 * len(self.left), dtype=np.int32)
        children[0::2] = 2 * self.right
        children[1::2] = 2 * self.left
        roots = self.roots
        first = (
            self.feature[roots],
            self.threshold[roots],
            (2 * self.left[roots]).astype(np.int32),
            (2 * self.right[roots]).astype(np.int32),
        )
        feature, threshold, value = (np.repeat(array, 2) for array in (self.feature.astype(np.int32), self.threshold, self.value))
        return feature, threshold, children, value, first, self._depth()

    def _depth(self) -> int:
        """The most steps from a root to a leaf: the levels walked down, all trees at
        once, until every node reached is a leaf. Children come after their parents
        (from_data checks it), so this ends."""
        depth, reached = 0, np.unique(self.roots)
        while len(inner := reached[self.left[reached] != reached]):
            depth, reached = depth + 1, np.unique(np.concatenate([self.left[inner], self.right[inner]]))
        return depth

    def arrays(self, prefix: str = "") -> dict[str, np.ndarray]:
        """The arrays by name, each name after ``prefix`` (a model saves several ensembles
        side by side)."""
        named = {
            "feature": self.feature,
            "threshold": self.threshold,
            "left": self.left,
            "right": self.right,
            "value": self.value,
            "roots": self.roots,
        }
        return {prefix + name: array for name, array in named.items()}

    @classmethod
    def from_data(cls, baseline: float, arrays: Mapping[str, np.ndarray], width: int, prefix: str = "") -> TreeEnsemble:
        """From saved arrays (:meth:`arrays` of the same ``prefix``), checked: a corrupt
        model must fail on load, not index out of bounds (or loop) in the middle of a job."""
        ints = {name: np.asarray(arrays[prefix + name], dtype=np.intp) for name in ("feature", "left", "right", "roots")}
        floats = {name: np.asarray(arrays[prefix + name], dtype=np.float64) for name in ("threshold", "value")}
        size = len(floats["value"])
        if any(len(a) != size for a in (*floats.values(), ints["feature"], ints["left"], ints["right"])):
            raise ValueError("the tree arrays differ in length")
        if size >= 2**30:  # the walk numbers nodes (and twice their number) in 32 bits
            raise ValueError("the tree arrays hold too many nodes")
        index = np.arange(size)
        leaf = ints["left"] == index
        if (
            any(((a < 0) | (a >= size)).any() for a in (ints["left"], ints["right"], ints["roots"]))
            or ((ints["feature"] < 0) | (ints["feature"] >= width)).any()
            or not ((ints["left"] > index) | leaf).all()
            or not ((ints["right"] > index) | leaf).all()
            or (ints["right"][leaf] != index[leaf]).any()
            or not np.isinf(floats["threshold"][leaf]).all()
        ):
            raise ValueError("the tree arrays do not form trees")
        return cls(baseline=float(baseline), width=width, **ints, **floats)

    @classmethod
    def joined(cls, ensembles: Sequence[TreeEnsemble]) -> TreeEnsemble:
        """The trees of ``ensembles`` as one ensemble (its baseline 0), so that one walk
        reaches every tree's leaf: ``leaf_values`` gives them in the ensembles' order."""
        starts = np.cumsum([0, *(len(e.value) for e in ensembles)])[:-1]
        return cls(
            feature=np.concatenate([e.feature for e in ensembles]),
            threshold=np.concatenate([e.threshold for e in ensembles]),
            left=np.concatenate([e.left + start for e, start in zip(ensembles, starts)]),
            right=np.concatenate([e.right + start for e, start in zip(ensembles, starts)]),
            value=np.concatenate([e.value for e in ensembles]),
            roots=np.concatenate([e.roots + start for e, start in zip(ensembles, starts)]),
            baseline=0.0,
            width=max(e.width for e in ensembles),
        )

    @classmethod
    def from_sklearn(cls, model: Any, column: int | None = None) -> TreeEnsemble:
        """From a fitted binary HistGradientBoostingClassifier on numeric features, from
        one class's trees (``column``, its index in ``classes_``) of a multinomial one, or
        from a HistGradientBoostingRegressor (its values in place of log-odds)."""
        classes = getattr(model, "classes_", None)  # None: a regressor, one value a row
        if classes is not None and column is None and list(classes) != [NOISE, CONTENT]:
            raise ValueError(f"unexpected classes {classes!r}")
        if column is not None and (classes is None or len(classes) < 3):
            raise ValueError(f"{0 if classes is None else len(classes)} classes: a multinomial model has 3 or more")
        trees = [predictors[column or 0].nodes for predictors in model._predictors]
        sizes = np.asarray([len(nodes) for nodes in trees])
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        nodes = np.concatenate(trees)
        shift = np.repeat(starts, sizes)
        index = np.arange(len(nodes))
        leaf = nodes["is_leaf"].astype(bool)
        return cls(
            feature=np.where(leaf, 0, nodes["feature_idx"]).astype(np.intp),
            threshold=np.where(leaf, np.inf, nodes["num_threshold"]).astype(np.float64),
            left=np.where(leaf, index, nodes["left"].astype(np.intp) + shift),
            right=np.where(leaf, index, nodes["right"].astype(np.intp) + shift),
            value=np.where(leaf, nodes["value"], 0.0).astype(np.float64),
            roots=starts.astype(np.intp),
            baseline=float(np.ravel(model._baseline_prediction)[column or 0]),
            width=int(model.n_features_in_),
        )


# scikit-learn's HistGradientBoostingClassifier stops early (early_stopping="auto") on
# more rows than this.
EARLY_STOPPING_ROWS = 10_000


def fit_trees(
    X: np.ndarray,
    y: np.ndarray,
    sample_weight: np.ndarray | None = None,
    trees: int = 150,
    leaves: int = 31,
    rate: float = 0.2,
    random_state: int = 0,
    depth: int = 4,
    held_out: np.ndarray | None = None,
) -> TreeEnsemble:
    """Gradient-boosted trees on the rows X (scikit-learn's HistGradientBoostingClassifier,
    its early stopping on a tenth of the rows when they are many), as arrays; ``depth``
    0 leaves a tree's levels unlimited (only ``leaves`` bounds it).

    ``held_out`` (a boolean per row) names the rows early stopping scores, in place of a
    tenth drawn by position, so that a row more or less does not redraw them; it is
    used where scikit-learn would stop early (more than EARLY_STOPPING_ROWS rows).
    """
    from sklearn.ensemble import HistGradientBoostingClassifier

    model = HistGradientBoostingClassifier(
        max_iter=trees, max_leaf_nodes=leaves, max_depth=depth or None, learning_rate=rate, random_state=random_state
    )
    X, y = np.asarray(X, dtype=np.float64), np.asarray(y, dtype=np.int64)
    if held_out is None or len(X) <= EARLY_STOPPING_ROWS or held_out.all() or not held_out.any():
        model.fit(X, y, sample_weight=sample_weight)
    else:
        fit, val = ~held_out, held_out
        weight, weight_val = (None, None) if sample_weight is None else (sample_weight[fit], sample_weight[val])
        model.fit(X[fit], y[fit], sample_weight=weight, X_val=X[val], y_val=y[val], sample_weight_val=weight_val)
    return TreeEnsemble.from_sklearn(model)


_WORKSPACES = threading.local()


def one_blas_thread() -> AbstractContextManager[Any]:
    """A context in which the BLAS libraries that NumPy loaded run one thread, whatever
    the caller's environment says (OPENBLAS_NUM_THREADS, the machine's cores); on exit
    they run as many as before.

    The kernel is a product of a few hundred rows by a few dozen columns a chunk: a
    second thread only waits for the first, and spins while it waits, so that two
    threads took 2.5 times the CPU of one per page (and much more on a busy machine).
    Finding the libraries is done once; each library's count is read and set directly
    (threadpoolctl's controllers), about a microsecond, where threadpoolctl's limit
    costs ten."""
    return _OneBlasThread(_blas_libraries().lib_controllers)


class _OneBlasThread:
    __slots__ = ("_before", "_libraries")

    def __init__(self, libraries: Sequence[Any]) -> None:
        self._libraries = libraries
        self._before: list[Any] = []

    def __enter__(self) -> None:
        self._before = [library.get_num_threads() for library in self._libraries]
        for library, threads in zip(self._libraries, self._before):
            if threads != 1:
                library.set_num_threads(1)

    def __exit__(self, *exc: object) -> None:
        for library, threads in zip(self._libraries, self._before):
            if threads != 1 and threads is not None:
                library.set_num_threads(threads)


@cache
def _blas_libraries() -> Any:
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController().select(user_api="blas")


def _workspace(rows: int, columns: int) -> np.ndarray:
    """A (rows, columns) float32 array of this thread's, reused from call to call.

    A page's kernel matrix is about a megabyte: allocated afresh for every call, the
    allocator hands it out as new pages from the operating system, and the page
    faults cost several times the arithmetic. At most _CHUNK rows.
    """
    buffer = getattr(_WORKSPACES, "buffer", None)
    if buffer is None or buffer.size < rows * columns:
        buffer = _WORKSPACES.buffer = np.empty(max(rows * columns, _CHUNK * columns), dtype=np.float32)
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

    def fit(self, X: np.ndarray, y: np.ndarray) -> TagClassifier:
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
