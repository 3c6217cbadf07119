# The compiled core's walk of boosted trees (classifier.TreeEnsemble.leaf_values), which
# the page type, the confidence and method svm's classifier read. Included by
# webclean/_core_page.pxi: the same module, its cimports in scope.

from libc.stdint cimport int32_t, uint16_t


cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define WEBCLEAN_PREFETCH(address) __builtin_prefetch((address), 0, 3)
    #else
    #define WEBCLEAN_PREFETCH(address) ((void) 0)
    #endif
    """
    void WEBCLEAN_PREFETCH(const void* address) noexcept nogil


cdef enum:
    _AHEAD = 8  # how many trees ahead of those walked the first row's walk asks for their nodes
    _FETCHED_LINES = 64  # the most lines of 64 bytes it asks for at once (four trees' nodes)
    _BLOCK = 32  # the trees all rows walk before the next ones: their nodes stay in the first-level cache


# --- boosted trees (classifier.TreeEnsemble.leaf_values) --------------------------------


cdef struct _Node:
    # A node in sixteen bytes: its test, or its value at a leaf, and how far after it its
    # children lie, left then right (0 at a leaf, which is its own children).
    double number  # the threshold, a leaf's value at a leaf
    int32_t feature  # 0 at a leaf
    uint16_t child[2]


cdef class Trees:
    """A TreeEnsemble's trees, walked _BLOCK trees at a time, every row down each of
    them before the next trees: the leaf each row reaches in each tree, where a row goes left when its feature is <= the node's
    threshold (so a NaN goes right, as in the vectorised walk). A node's test, its
    children and its value lie side by side in sixteen bytes; every walk takes as many
    steps as the deepest tree has levels (a leaf leads to itself), choosing a child
    without a branch. The arrays are TreeEnsemble's, checked again here: children
    after their parents (and at most 65,535 nodes after them), a leaf its own
    children, so that every walk ends at a leaf; ValueError where they are not."""

    cdef _Node* nodes
    cdef Py_ssize_t* roots
    cdef Py_ssize_t trees, depth, size
    cdef Py_ssize_t width  # the columns a row needs: the highest feature a node tests, and one

    def __init__(self, const Py_ssize_t[::1] feature, const double[::1] threshold, const Py_ssize_t[::1] left,
                 const Py_ssize_t[::1] right, const double[::1] value, const Py_ssize_t[::1] roots):
        cdef Py_ssize_t size = value.shape[0], i, t
        cdef Py_ssize_t* level
        if not (feature.shape[0] == threshold.shape[0] == left.shape[0] == right.shape[0] == size):
            raise ValueError("the tree arrays differ in length")
        self.trees = roots.shape[0]
        self.size = size
        self.nodes = <_Node*> malloc(max(size, 1) * sizeof(_Node))
        self.roots = <Py_ssize_t*> malloc(max(self.trees, 1) * sizeof(Py_ssize_t))
        level = <Py_ssize_t*> calloc(max(size, 1), sizeof(Py_ssize_t))
        if self.nodes is NULL or self.roots is NULL or level is NULL:
            free(level)
            raise MemoryError()
        try:
            self.width = self.depth = 0
            for i in range(size):
                if left[i] == i and right[i] == i:
                    self.nodes[i].number = value[i]
                    self.nodes[i].feature = 0
                    self.nodes[i].child[0] = self.nodes[i].child[1] = 0
                    continue
                if not (i < left[i] <= i + 65535 and i < right[i] <= i + 65535 and left[i] < size and right[i] < size
                        and 0 <= feature[i] < 2**31 - 1):
                    raise ValueError("the tree arrays do not form trees the compiled walk reads")
                self.nodes[i].number = threshold[i]
                self.nodes[i].feature = <int32_t> feature[i]
                self.nodes[i].child[0] = <uint16_t> (left[i] - i)
                self.nodes[i].child[1] = <uint16_t> (right[i] - i)
                self.width = max(self.width, feature[i] + 1)
                # children after their parents: a node's level is known before its children's
                level[left[i]] = max(level[left[i]], level[i] + 1)
                level[right[i]] = max(level[right[i]], level[i] + 1)
                self.depth = max(self.depth, level[i] + 1)
            for t in range(self.trees):
                if not 0 <= roots[t] < size or level[roots[t]]:
                    raise ValueError("the tree arrays do not form trees the compiled walk reads")
                self.roots[t] = roots[t]
        finally:
            free(level)

    def __dealloc__(self):
        free(self.nodes)
        free(self.roots)

    def leaf_values(self, const double[:, ::1] rows not None, double[:, ::1] out not None):
        """Write into ``out`` (rows, trees) the value of the leaf each row of ``rows``
        reaches in each tree; ``rows`` has a column for every feature a node tests."""
        cdef Py_ssize_t n = rows.shape[0], r, first
        if out.shape[0] != n or out.shape[1] != self.trees:
            raise ValueError("out must have a row for each row and a column for each tree")
        if rows.shape[1] < max(self.width, 1) and self.depth:
            raise ValueError(f"rows of {rows.shape[1]} features, but the trees read {self.width}")
        for first in range(0, self.trees, _BLOCK):
            for r in range(n):
                self._leaves(&rows[r, 0], &out[r, 0], first, min(first + _BLOCK, self.trees), r == 0)

    cdef void _leaves(self, const double* row, double* out, Py_ssize_t t, Py_ssize_t last, bint fetch) noexcept nogil:
        """Write into ``out`` (a value a tree) the value of the leaf ``row`` reaches in each
        tree from ``t`` up to ``last``. Four trees are walked side by side: each step of a
        walk waits on the node the step before chose, and four walks that do not wait on
        one another keep the processor busy while each waits. With ``fetch`` (the first
        row of a call), the walk also asks for the nodes of the four trees _AHEAD trees
        on: after a page's other work the trees are no longer in the cache, and which
        nodes a walk needs is known only step by step, so that each would otherwise come
        when it is reached. A call's other rows find them in the cache."""
        cdef Py_ssize_t step, a, b, c, d, node, start, stop
        cdef const _Node* nodes = self.nodes
        cdef const _Node* at
        cdef const char* byte
        cdef const char* end
        while t + 4 <= last:
            if fetch and t + _AHEAD < self.trees:
                start = self.roots[t + _AHEAD]
                stop = self.roots[t + _AHEAD + 4] if t + _AHEAD + 4 < self.trees else self.size
                if start < stop:
                    byte = <const char*> &nodes[start]
                    end = <const char*> &nodes[min(stop, start + _FETCHED_LINES * 64 // sizeof(_Node))]
                    while byte < end:
                        WEBCLEAN_PREFETCH(byte)
                        byte += 64
            a, b, c, d = self.roots[t], self.roots[t + 1], self.roots[t + 2], self.roots[t + 3]
            for step in range(self.depth):
                a += nodes[a].child[not (row[nodes[a].feature] <= nodes[a].number)]
                b += nodes[b].child[not (row[nodes[b].feature] <= nodes[b].number)]
                c += nodes[c].child[not (row[nodes[c].feature] <= nodes[c].number)]
                d += nodes[d].child[not (row[nodes[d].feature] <= nodes[d].number)]
            out[t], out[t + 1], out[t + 2], out[t + 3] = nodes[a].number, nodes[b].number, nodes[c].number, nodes[d].number
            t += 4
        while t < last:
            node = self.roots[t]
            for step in range(self.depth):
                at = &nodes[node]
                node += at.child[not (row[at.feature] <= at.number)]
            out[t] = nodes[node].number
            t += 1
