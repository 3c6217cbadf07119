# The page type's and the confidence's arithmetic once their signals are measured: the
# type scores (page_type.PageTypeModel.page_probabilities), the confidence's row
# (confidence.confidence_signals) and its trees' value (classifier.TreeEnsemble.row_value).
# Included in webclean/_core.pyx after _core_page.pxi: the same module, Trees
# (_core_trees.pxi) in scope. One call a page does what NumPy does in a dozen calls on
# arrays of a few numbers; the trees' leaf values are summed in NumPy's order, so the
# scores are the Python path's to the last bit.

from libc.math cimport exp, fabs


# --- sums in NumPy's order ---------------------------------------------------------------


cdef double _pairwise_sum(const double* a, Py_ssize_t n) noexcept nogil:
    """The sum of a[:n] as NumPy's add.reduce sums a contiguous axis (its pairwise_sum):
    below 8 numbers one after the other from 0.0; up to 128, eight running sums joined in
    pairs, then the rest one by one; above, the two halves (the first a multiple of 8)."""
    cdef double r[8]
    cdef double res
    cdef Py_ssize_t i, j, half
    if n < 8:
        res = 0.0
        for i in range(n):
            res += a[i]
        return res
    if n <= 128:
        for j in range(8):
            r[j] = a[j]
        i = 8
        while i < n - n % 8:
            for j in range(8):
                r[j] += a[i + j]
            i += 8
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        while i < n:
            res += a[i]
            i += 1
        return res
    half = n // 2
    half -= half % 8
    return _pairwise_sum(a, half) + _pairwise_sum(a + half, n - half)


def pairwise_sum(const double[::1] values not None):
    """_pairwise_sum of ``values`` (the tests compare it with NumPy's sums)."""
    return _pairwise_sum(&values[0] if values.shape[0] else NULL, values.shape[0])


cdef double* _row_leaves(Trees trees, const double* row, Py_ssize_t width) except NULL:
    """The value of the leaf ``row`` (``width`` numbers) reaches in each tree, in a
    buffer the caller frees."""
    cdef double* leaves
    if width < max(trees.width, 1) and trees.depth:
        raise ValueError(f"rows of {width} features, but the trees read {trees.width}")
    leaves = <double*> malloc(max(trees.trees, 1) * sizeof(double))
    if leaves is NULL:
        raise MemoryError()
    trees._leaves(row, leaves, 0, trees.trees, True)
    return leaves


# --- the trees' value of one row (classifier.TreeEnsemble.row_value) ----------------------


def tree_value(Trees trees not None, const double[::1] row not None):
    """The sum of the values of the leaves ``row`` reaches, as ``leaf_values(row).sum(axis=1)``
    sums them (from 0.0, pairwise), without the baseline."""
    cdef double* leaves = _row_leaves(trees, &row[0] if row.shape[0] else NULL, row.shape[0])
    try:
        return _pairwise_sum(leaves, trees.trees)
    finally:
        free(leaves)


# --- the page types' scores (page_type.PageTypeModel.page_probabilities) ------------------


def type_scores(Trees trees not None, const double[::1] signals not None, const double[:, ::1] logs not None, list rows not None,
                const Py_ssize_t[::1] starts not None, const double[::1] baselines not None):
    """Each type's score before the softmax: the page's row (``signals``, then for each
    column of ``logs`` the sum of its ``rows``, from 0.0 one after the other as NumPy
    sums an array's first axis) down ``trees``, the type's trees from its place in
    ``starts`` to the next type's, their leaf values summed as ``np.add.reduceat`` sums
    them (the first, and the pairwise sum of the rest), then its ``baselines`` added.
    IndexError for a row outside ``logs``, ValueError for ``starts`` that do not cut
    the trees into groups of one or more."""
    cdef Py_ssize_t n_signals = signals.shape[0], n_columns = logs.shape[1], n_types = starts.shape[0]
    cdef Py_ssize_t width = n_signals + n_columns, i, j, k, start, end
    cdef double* row = NULL
    cdef double* leaves = NULL
    cdef list scores = []
    if baselines.shape[0] != n_types:
        raise ValueError("a baseline a type")
    for k in range(n_types):
        end = starts[k + 1] if k + 1 < n_types else trees.trees
        if not (starts[k] < end <= trees.trees) or (k == 0 and starts[0] != 0):
            raise ValueError("the starts do not cut the trees into groups")
    for j in rows:
        if not 0 <= j < logs.shape[0]:
            raise IndexError(f"row {j} of {logs.shape[0]} words")
    row = <double*> malloc(max(width, 1) * sizeof(double))
    if row is NULL:
        raise MemoryError()
    try:
        for i in range(n_signals):
            row[i] = signals[i]
        for i in range(n_columns):
            row[n_signals + i] = 0.0
        for j in rows:
            for i in range(n_columns):
                row[n_signals + i] += logs[j, i]
        leaves = _row_leaves(trees, row, width)
        for k in range(n_types):
            start = starts[k]
            end = starts[k + 1] if k + 1 < n_types else trees.trees
            scores.append((leaves[start] + _pairwise_sum(leaves + start + 1, end - start - 1)) + baselines[k])
    finally:
        free(row)
        free(leaves)
    return scores


# --- the confidence's row (confidence.confidence_signals) --------------------------------


def confidence_signals(list units not None, tuple decisions not None, Py_ssize_t tag_at, Py_ssize_t length_at,
                       frozenset samples not None, Py_ssize_t text_at, Py_ssize_t value_at, Py_ssize_t sentence_at,
                       tuple slopes not None, double near, double[::1] out not None):
    """confidence.confidence_signals into ``out`` (zeros where no sample has a value): the
    ``units`` whose tag (at ``tag_at``) is one of ``samples`` count with their length (at
    ``length_at``) and their decision's value (at ``value_at``, or its sentence's at
    ``sentence_at`` where it has none) and kept text (at ``text_at``). The products are
    NumPy's; the sums of the expected characters, which NumPy leaves to BLAS's dot
    product, are taken one after the other, so that they differ from the Python path's
    by rounding alone (a relative 1e-15 or so); every other sum is of whole numbers,
    exact either way. False where a unit or a decision is no tuple, or ``out`` is not
    a row of 3 numbers a slope and 2 (Python runs)."""
    cdef Py_ssize_t n = min(len(units), len(decisions)), n_slopes = len(slopes), i, m = 0, k
    cdef double* values = NULL
    cdef double* lengths = NULL
    cdef double* kept = NULL
    cdef double kept_chars = 0.0, slope, content, right, wrong, missed, unsure = 0.0, unsure_kept = 0.0, floor
    cdef object unit, decision, value
    if out.shape[0] != 3 * n_slopes + 2:
        return False
    for i in range(n):
        if not isinstance(units[i], tuple) or not isinstance(decisions[i], tuple):
            return False
    values = <double*> malloc(max(n, 1) * sizeof(double))
    lengths = <double*> malloc(max(n, 1) * sizeof(double))
    kept = <double*> malloc(max(n, 1) * sizeof(double))
    try:
        if values is NULL or lengths is NULL or kept is NULL:
            raise MemoryError()
        for i in range(n):
            unit = units[i]
            if (<tuple> unit)[tag_at] not in samples:
                continue
            decision = decisions[i]
            value = (<tuple> decision)[value_at]
            if value is None:
                value = (<tuple> decision)[sentence_at]
                if value is None:
                    continue
            values[m] = value
            lengths[m] = (<tuple> unit)[length_at]
            kept[m] = 1.0 if (<tuple> decision)[text_at] else 0.0
            m += 1
        for i in range(out.shape[0]):
            out[i] = 0.0
        if not m:
            return True
        for i in range(m):
            kept_chars += lengths[i] * kept[i]
        for k in range(n_slopes):
            slope = slopes[k]
            right = missed = 0.0
            for i in range(m):
                content = 1.0 / (1.0 + exp(-slope * values[i]))
                right += lengths[i] * (content * kept[i])  # content kept
                missed += lengths[i] * (content * (1.0 - kept[i]))  # content dropped
            wrong = kept_chars - right  # noise kept
            out[3 * k] = 2 * right / (2 * right + wrong + missed) if right + wrong + missed else 0.0
            out[3 * k + 1] = right / kept_chars if kept_chars else 0.0
            out[3 * k + 2] = right / (right + missed) if right + missed else 0.0
        for i in range(m):
            unsure += lengths[i] * (1.0 if fabs(values[i]) < near else 0.0)
            unsure_kept += lengths[i] * (kept[i] * (1.0 if values[i] < near else 0.0))
        floor = 1.0 if 1.0 > kept_chars else kept_chars
        out[3 * n_slopes] = unsure / floor
        out[3 * n_slopes + 1] = unsure_kept / floor
        return True
    finally:
        free(values)
        free(lengths)
        free(kept)
