import numpy as np
import pytest

from webclean.classifier import CONTENT, NOISE, SVMParams, TagClassifier, TreeEnsemble, fit_trees


def _data(seed=0, n=200):
    rng = np.random.default_rng(seed)
    content = np.column_stack([rng.uniform(0, 1, n), rng.uniform(0, 2, n), rng.uniform(60, 300, n)])
    noise = np.column_stack([rng.uniform(3, 9, n), rng.uniform(2, 6, n), rng.uniform(1, 20, n)])
    X = np.vstack([content, noise])
    y = np.array([CONTENT] * n + [NOISE] * n)
    return X, y


def test_fit_returns_self_and_learns():
    X, y = _data()
    classifier = TagClassifier(folds=3, c_grid=(1.0, 10.0), gamma_grid=(0.1, 1.0), random_state=0)
    assert classifier.fit(X, y) is classifier
    assert classifier.cv_accuracy_ > 0.95
    assert set(classifier.best_params_) == {"C", "gamma"}
    X_test, y_test = _data(seed=1, n=50)
    assert (classifier.predict(X_test) == y_test).mean() > 0.95


@pytest.mark.parametrize("kernel", ["rbf", "linear", "poly"])
def test_numpy_decision_function_matches_scikit_learn(kernel):
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import MinMaxScaler
    from sklearn.svm import SVC

    X, y = _data(n=80)
    classifier = TagClassifier(kernel=kernel, folds=3, c_grid=(10.0,), gamma_grid=(1.0,)).fit(X, y)
    reference = make_pipeline(MinMaxScaler(), SVC(kernel=kernel, C=10.0, gamma=1.0, class_weight="balanced")).fit(X, y)
    probe = np.vstack([X[::7], [[100.0, -5.0, 1000.0]]])
    np.testing.assert_allclose(classifier.decision_function(probe), reference.decision_function(probe), rtol=1e-6, atol=1e-8)


def test_chunks_and_threads_share_no_state(monkeypatch):
    # The kernel is computed in a per-thread workspace reused between calls and chunks:
    # pages scored one after another, in several chunks, or at the same time in several
    # threads, must get exactly what each would get alone.
    from concurrent.futures import ThreadPoolExecutor

    from webclean import classifier as module

    X, y = _data(n=80)
    svm = TagClassifier(folds=3, c_grid=(10.0,), gamma_grid=(1.0,)).fit(X, y).params_
    pages = [_data(seed=seed, n=40)[0] for seed in range(2, 10)]
    whole = [svm.decision_function(page) for page in pages]
    monkeypatch.setattr(module, "_CHUNK", 7)
    alone = [svm.decision_function(page) for page in pages]
    # The kernel is single precision: another chunking may sum in another order (BLAS
    # picks its kernel by shape), which moves a value by a few float32 ulps, no more.
    np.testing.assert_allclose(np.concatenate(alone), np.concatenate(whole), rtol=1e-6, atol=1e-6)
    with ThreadPoolExecutor(4) as pool:
        for _ in range(5):
            for got, expected in zip(pool.map(svm.decision_function, pages), alone):
                np.testing.assert_array_equal(got, expected)


def test_the_kernel_runs_one_blas_thread_whatever_the_caller_set(monkeypatch):
    # A caller of the library (not the CLI, not the Spark job's environment) may run
    # NumPy's BLAS on every core: the kernel's small products must still run on one
    # thread, and the caller's count must be back after the call.
    from threadpoolctl import threadpool_info, threadpool_limits

    def blas_threads():
        return [info["num_threads"] for info in threadpool_info() if info["user_api"] == "blas"]

    if not blas_threads():
        pytest.skip("NumPy loaded no BLAS library that threadpoolctl knows")
    X, y = _data(n=80)
    svm = TagClassifier(folds=3, c_grid=(10.0,), gamma_grid=(1.0,)).fit(X, y).params_
    seen = []
    kernel = SVMParams._kernel
    monkeypatch.setattr(SVMParams, "_kernel", lambda self, Z: seen.append(blas_threads()) or kernel(self, Z))
    with threadpool_limits(limits=3, user_api="blas"):
        svm.decision_function(X)
        after = blas_threads()
    assert seen and all(counts == [1] * len(counts) for counts in seen)
    assert after == [3] * len(after)


def test_deterministic_for_a_fixed_seed():
    X, y = _data()
    a = TagClassifier(folds=3, c_grid=(1.0, 10.0), gamma_grid=(0.1, 1.0), random_state=3).fit(X, y)
    b = TagClassifier(folds=3, c_grid=(1.0, 10.0), gamma_grid=(0.1, 1.0), random_state=3).fit(X, y)
    assert a.best_params_ == b.best_params_ and a.cv_accuracy_ == b.cv_accuracy_


def test_one_class_is_refused():
    X, _ = _data(n=10)
    with pytest.raises(ValueError, match="both"):
        TagClassifier(folds=2).fit(X, np.ones(len(X), dtype=int))


def test_empty_input_predicts_nothing():
    X, y = _data(n=40)
    classifier = TagClassifier(folds=2, c_grid=(1.0,), gamma_grid=(1.0,)).fit(X, y)
    assert classifier.predict(np.zeros((0, 3))).shape == (0,)


# --- boosted trees (method svm) ----------------------------------------------------


def _noisy(seed=0, n=400):
    # Overlapping classes, so that the trees grow many leaves at every depth.
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    y = (X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(scale=0.5, size=n) > 0).astype(np.int64)
    return X, y


def test_tree_arrays_predict_as_scikit_learn():
    from sklearn.ensemble import HistGradientBoostingClassifier

    X, y = _noisy()
    reference = HistGradientBoostingClassifier(max_iter=40, max_leaf_nodes=15, random_state=0).fit(X, y)
    trees = TreeEnsemble.from_sklearn(reference)
    assert len(trees.roots) == 40
    probe = np.vstack([_noisy(seed=1, n=100)[0], np.full((1, 4), 1e9), np.full((1, 4), -1e9)])
    np.testing.assert_allclose(trees.decision_function(probe), reference.decision_function(probe), rtol=1e-9, atol=1e-9)
    assert trees.decision_function(np.zeros((0, 4))).shape == (0,)


def test_trees_walked_once_pickle_and_walk_alike():
    # Spark pickles a model that the driver may have used already: trees that were
    # walked (by the compiled core, where it is built) must pickle, and walk alike after.
    import pickle

    from sklearn.ensemble import HistGradientBoostingClassifier

    X, y = _noisy()
    trees = TreeEnsemble.from_sklearn(HistGradientBoostingClassifier(max_iter=20, max_leaf_nodes=15, random_state=0).fit(X, y))
    before = trees.decision_function(X)
    copy = pickle.loads(pickle.dumps(trees))
    np.testing.assert_array_equal(copy.decision_function(X), before)
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(copy)).decision_function(X), before)


def test_fit_trees_learns_and_is_deterministic():
    X, y = _noisy()
    first = fit_trees(X, y, trees=30, leaves=7, random_state=3)
    second = fit_trees(X, y, trees=30, leaves=7, random_state=3)
    for name, array in first.arrays().items():
        np.testing.assert_array_equal(array, second.arrays()[name])
    X_test, y_test = _noisy(seed=2, n=200)
    assert ((first.decision_function(X_test) > 0) == y_test).mean() > 0.8
    # Weights move the trees: the same rows, weighted otherwise, give other log-odds.
    weights = np.where(y == CONTENT, 5.0, 1.0)
    weighted = fit_trees(X, y, weights, trees=30, leaves=7, random_state=3)
    assert (weighted.decision_function(X_test) > first.decision_function(X_test)).mean() > 0.9


def test_fit_trees_stops_early_on_the_rows_held_out():
    from webclean.classifier import EARLY_STOPPING_ROWS

    X, y = _noisy(n=EARLY_STOPPING_ROWS + 2000)
    held_out = np.zeros(len(X), dtype=bool)
    held_out[::10] = True
    first = fit_trees(X, y, trees=200, leaves=7, random_state=3, held_out=held_out)
    # The rows held out named, the seed draws nothing: another gives the same trees,
    # where it draws another tenth of its own.
    second = fit_trees(X, y, trees=200, leaves=7, random_state=4, held_out=held_out)
    for name, array in first.arrays().items():
        np.testing.assert_array_equal(array, second.arrays()[name])
    drawn = [fit_trees(X, y, trees=200, leaves=7, random_state=seed).arrays() for seed in (3, 4)]
    assert any(not np.array_equal(drawn[0][name], drawn[1][name]) for name in drawn[0])
    assert len(first.roots) < 200  # early stopping ended it
    X_test, y_test = _noisy(seed=2, n=200)
    assert ((first.decision_function(X_test) > 0) == y_test).mean() > 0.8


def test_svm_with_trees_adds_their_weighted_log_odds():
    from dataclasses import replace

    X, y = _data(n=80)
    svm = TagClassifier(folds=3, c_grid=(10.0,), gamma_grid=(1.0,)).fit(X, y).params_
    trees = fit_trees(X, y, trees=10, leaves=4)
    both = replace(svm, trees=trees, tree_weight=0.3)
    probe = _data(seed=5, n=30)[0]
    expected = svm.decision_function(probe) + 0.3 * trees.decision_function(probe)
    np.testing.assert_allclose(both.decision_function(probe), expected, rtol=1e-12, atol=1e-12)
    # Saved as plain arrays and scalars, and read back the same.
    again = SVMParams.from_data(both.scalars(), both.arrays())
    np.testing.assert_array_equal(again.decision_function(probe), both.decision_function(probe))
    assert SVMParams.from_data(svm.scalars(), svm.arrays()).trees is None


def test_the_svm_reads_the_front_columns_and_the_trees_all():
    from dataclasses import replace

    X, y = _data(n=80)
    wide = np.hstack([X, (y[:, None] * 2.0 - 1.0) * np.ones((len(y), 2))])  # two columns only the trees see
    svm = TagClassifier(folds=3, c_grid=(10.0,), gamma_grid=(1.0,)).fit(X, y).params_
    trees = fit_trees(wide, y, trees=10, leaves=4)
    assert trees.width == wide.shape[1]
    both = replace(svm, trees=trees, tree_weight=1.0)
    probe = np.hstack([_data(seed=5, n=30)[0], np.full((60, 2), 1.0)])
    np.testing.assert_array_equal(svm.decision_function(probe), svm.decision_function(probe[:, : X.shape[1]]))
    expected = svm.decision_function(probe) + trees.decision_function(probe)
    np.testing.assert_allclose(both.decision_function(probe), expected, rtol=1e-12, atol=1e-12)
    again = SVMParams.from_data(both.scalars(), both.arrays())
    assert again.trees.width == wide.shape[1]
    np.testing.assert_array_equal(again.decision_function(probe), both.decision_function(probe))
    with pytest.raises(ValueError, match="the trees read 5"):
        both.decision_function(probe[:, : X.shape[1]])


def test_page_columns_are_given_once_a_page_and_read_by_the_trees_alone():
    from dataclasses import replace

    from webclean.classifier import OnPage

    X, y = _data(n=80)
    page = (y[:, None] * 2.0 - 1.0) * np.ones((len(y), 2))  # columns of each row's page
    svm = TagClassifier(folds=3, c_grid=(10.0,), gamma_grid=(1.0,)).fit(X, y).params_
    # Trees for which a row's own columns say nothing: only the page's tell the label.
    noise = np.random.default_rng(0).normal(size=X.shape)
    trees = fit_trees(np.hstack([noise, page]), y, trees=10, leaves=4)
    both = replace(svm, trees=trees, tree_weight=1.0, page_columns=2)
    probe = _data(seed=5, n=30)[0]
    for columns in ([1.0, 1.0], [-1.0, -1.0]):
        given = np.hstack([probe, np.tile(columns, (len(probe), 1))])
        np.testing.assert_array_equal(OnPage(both, np.asarray(columns)).decision_function(probe), both.decision_function(given))
    assert (OnPage(both, np.ones(2)).decision_function(probe) > OnPage(both, -np.ones(2)).decision_function(probe)).all()
    with pytest.raises(ValueError, match="3 columns of the page, but the trees read 2"):
        both.decision_function(probe, np.ones(3))
    assert SVMParams.from_data(both.scalars(), both.arrays()).page_columns == 2


def test_joined_trees_reach_each_ensembles_leaves():
    X, y = _noisy()
    parts = [fit_trees(X, y, trees=n, leaves=5, random_state=n) for n in (3, 7, 1)]
    joined = TreeEnsemble.joined(parts)
    probe = _noisy(seed=4, n=50)[0]
    np.testing.assert_array_equal(joined.leaf_values(probe), np.hstack([part.leaf_values(probe) for part in parts]))
    for part, values in zip(parts, np.split(joined.leaf_values(probe), [3, 10], axis=1)):
        np.testing.assert_allclose(values.sum(axis=1) + part.baseline, part.decision_function(probe))


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda a: a["left"].__setitem__(0, 10**6),  # a child out of bounds
        lambda a: a["feature"].__setitem__(0, 99),  # a feature the rows do not have
        lambda a: a["right"].__setitem__(0, 0),  # a node that is its own child: a loop
        lambda a: a["threshold"].__setitem__(int(np.flatnonzero(a["left"] == np.arange(len(a["left"])))[0]), 0.5),
        lambda a: a.__setitem__("value", a["value"][:-1]),  # arrays of different lengths
    ],
)
def test_tree_arrays_that_do_not_form_trees_are_refused(corrupt):
    X, y = _noisy()
    arrays = {name: array.copy() for name, array in fit_trees(X, y, trees=5, leaves=4).arrays().items()}
    corrupt(arrays)
    with pytest.raises(ValueError, match="tree arrays"):
        TreeEnsemble.from_data(0.0, arrays, width=4)
