# Columns of the units that line_features.line_units makes from a block's lines, and the
# units themselves (units.units_from_columns), included in webclean/_core.pyx after
# _core_units.pxi: the same module, its cimports and _number in scope.

from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from libc.math cimport rint


def neighbour_means(values not None, window):
    """line_features._neighbour_means: for each value, the mean of the values up to
    ``window`` places before and after it, added in the order NumPy adds them there
    (from the farthest before, the missing ones as 0), 0.0 where it has none. None
    where ``window`` is no int of at least 0, or a value no float, bool or int that a
    float holds exactly (NumPy reads it, or raises)."""
    cdef Py_ssize_t n = len(values), w, m, offset, i, count
    cdef double* padded
    cdef double total, value
    if type(window) is not int or not 0 <= window < (1 << 30):
        return None
    w = window
    padded = <double*> realloc(NULL, (n + 2 * w + 1) * sizeof(double))
    if padded is NULL:
        raise MemoryError()
    try:
        for i in range(n + 2 * w):
            padded[i] = 0.0
        for i in range(n):
            if not _number(values[i], &value):
                return None
            padded[w + i] = value
        means = []
        for m in range(n):
            total = padded[m]
            for offset in range(1, 2 * w + 1):
                if offset != w:
                    total += padded[m + offset]
            count = min(m, w) + min(n - 1 - m, w)
            means.append(total / count if count > 0 else 0.0)
        return means
    finally:
        free(padded)


def link_runs(kinds not None, lengths not None, long_line, str link not None):
    """line_features.link_runs: for each line of kind ``link`` shorter than
    ``long_line``, the length of the run of such lines it is one of; 0 for any other.
    None where a length or ``long_line`` is no int (Python compares them as they are)."""
    cdef Py_ssize_t n = len(kinds), m, start = 0, k
    cdef list column = [0] * n
    if type(long_line) is not int or len(lengths) < n:
        return None
    for m in range(n + 1):
        if m < n:
            length = lengths[m]
            if type(length) is not int:
                return None
            if kinds[m] == link and length < long_line:
                continue
        for k in range(start, m):
            column[k] = m - start
        start = m + 1
    return column


def section_text(kinds not None, lengths not None, ratios not None, str heading not None):
    """line_features.section_text: for each line, the characters outside links of the
    lines other than headings (of kind ``heading``) of its section, rounded as Python's
    round rounds (half to even). None where a length is no int that a float holds
    exactly or a ratio no float."""
    cdef Py_ssize_t n = len(kinds), m, start = 0, k
    cdef double total = 0.0, length
    cdef list column = [0] * n
    if len(lengths) < n or len(ratios) < n:
        return None
    for m in range(n + 1):
        if m == n or kinds[m] == heading:
            if total != total or total - total != 0.0:
                return None  # round raises on a NaN or an infinity
            rounded = int(rint(total))
            for k in range(start, m):
                column[k] = rounded
            start, total = m, 0.0
        else:
            value, ratio = lengths[m], ratios[m]
            if type(value) is not int or type(ratio) is not float or not -(1 << 53) <= value <= (1 << 53):
                return None
            length = <double> <long long> value
            total += length * (1.0 - <double> ratio)
    return column


def units(cls not None, list columns not None):
    """units.units_from_columns once its columns are checked: a ``cls`` (a named tuple)
    a row, made as the named tuple makes itself (tuple.__new__ of its fields), until
    the shortest column ends, as map stops. Columns that are all lists or tuples are
    read by index; any other column is read as map reads it, row after row."""
    cdef Py_ssize_t width = len(columns), k, m, n
    cdef list made = []
    cdef tuple row
    if not width:
        return None  # map needs a column
    if all([type(column) is list or type(column) is tuple for column in columns]) and _named_tuple(cls):
        n = min([len(column) for column in columns])
        for m in range(n):
            row = _named_row(cls, width)
            for k in range(width):
                _set(row, k, columns[k][m])
            made.append(row)
        return made
    cdef list iterators = [iter(column) for column in columns]
    end = object()
    while True:
        row = PyTuple_New(width)
        for k in range(width):
            value = next(iterators[k], end)
            if value is end:
                return made
            Py_INCREF(value)
            PyTuple_SET_ITEM(row, k, value)
        made.append(tuple.__new__(cls, row))


def prose_lines(lengths not None, ratios not None, long_line, prose_link_ratio):
    """The places of the lines of prose of line_features.prose_lines: a length of at
    least ``long_line``, a link ratio of at most ``prose_link_ratio`` (is_prose). None
    where a length or ``long_line`` is no int, or a ratio or ``prose_link_ratio`` no float."""
    cdef Py_ssize_t n = len(lengths), m
    cdef double most
    if type(long_line) is not int or type(prose_link_ratio) is not float or len(ratios) < n:
        return None
    most = <double> prose_link_ratio
    found = []
    for m in range(n):
        length, ratio = lengths[m], ratios[m]
        if type(length) is not int or type(ratio) is not float:
            return None
        if length >= long_line and <double> ratio <= most:
            found.append(m)
    return found


def log_lengths(lengths not None):
    """math.log1p of each length (line_features.log_lengths). None where a length is no
    int of at least 0 that a float holds exactly."""
    cdef Py_ssize_t n = len(lengths), m
    logs = []
    for m in range(n):
        length = lengths[m]
        if type(length) is not int or not 0 <= length <= (1 << 53):
            return None
        logs.append(log1p(<double> <long long> length))
    return logs


def main_depth(depths not None, lengths not None, ratios not None, prose_link_ratio):
    """line_features._main_depth: the depth whose lines of link ratio at most
    ``prose_link_ratio`` hold the most characters, the shallowest on a tie; 0 where none
    does. None where a depth or a length is no int, or a ratio no float."""
    cdef Py_ssize_t n = len(depths), m
    cdef double most
    if type(prose_link_ratio) is not float or len(lengths) < n or len(ratios) < n:
        return None
    most = <double> prose_link_ratio
    text_at = {}
    for m in range(n):
        depth, length, ratio = depths[m], lengths[m], ratios[m]
        if type(depth) is not int or type(length) is not int or type(ratio) is not float:
            return None
        if <double> ratio <= most:
            text_at[depth] = text_at.get(depth, 0) + length
    best = None
    for depth, text in text_at.items():
        if best is None or text > text_at[best] or (text == text_at[best] and depth < best):
            best = depth
    return 0 if best is None else best


def no_code(owners not None, texts not None, str tag not None):
    """line_features._code of lines none of whose owners is a ``tag``: "" for each line
    (as many as ``owners`` and ``texts`` both hold). None where an owner is such an
    element (Python reads its text), or no element."""
    cdef Py_ssize_t n = min(len(owners), len(texts)), m
    cdef xmlNode* node
    cdef bytes name = tag.encode("utf-8")
    cdef const char* wanted = name
    if "\0" in tag:
        return None
    for m in range(n):
        owner = owners[m]
        if not isinstance(owner, _Element):
            return None
        node = (<_Element> owner)._c_node
        if node.type != tree.XML_ELEMENT_NODE:
            return None
        if node.ns is NULL:
            if strcmp(<const char*> node.name, wanted) == 0:
                return None
        elif namespacedName(node) == tag:
            return None
    return [""] * n


def repeats(texts not None, owners not None, lengths not None, min_chars, in_passage not None, box not None):
    """line_features.repeats: for each line of at least ``min_chars`` whose text an
    earlier line showed first, how many lines back that is where ``in_passage(texts,
    k, m)`` and the two ``box`` differ (both asked of Python); 0 for any other line.
    None where a length or ``min_chars`` is no int."""
    cdef Py_ssize_t n = len(texts), m
    cdef list column = [0] * n
    if type(min_chars) is not int or len(lengths) < n or len(owners) < n:
        return None
    first = {}
    for m in range(n):
        length = lengths[m]
        if type(length) is not int:
            return None
        if length >= min_chars:
            k = first.setdefault(texts[m], m)
            if k != m and in_passage(texts, k, m) and box(owners[k]) != box(owners[m]):
                column[m] = m - k
    return column


cdef Py_ssize_t _chain_place(xmlNode* node, xmlNode** chain, Py_ssize_t size) noexcept:
    """The place in ``chain`` of ``node`` or of its nearest element ancestor there, or -1."""
    cdef Py_ssize_t k
    while node is not NULL and node.type == tree.XML_ELEMENT_NODE:
        for k in range(size):
            if chain[k] == node:
                return k
        node = node.parent
    return -1


def past_core(owner_lines not None, length_lines not None, prose_lines not None, long long core_prose_chars,
              double core_share, tuple parts not None):
    """line_features._past_core over libxml2's nodes: whether each line lies after the
    box that holds ``core_share`` of the prose's characters, outside it (``parts``: the
    tags of the parts of a box, passed over outwards); None where an owner is no
    element of lxml's, a length of the prose or a place no int, or the box is not found
    (Python raises there)."""
    cdef list owners = list(owner_lines), lengths = list(length_lines), prose = list(prose_lines)
    cdef Py_ssize_t n = len(owners), count = len(prose), i, m, k, size = 0, middle = -1, core_place, last = -1
    cdef long long total = 0, reached = 0, held = 0
    cdef _Tags part_names = _Tags(parts)
    cdef xmlNode* node
    cdef xmlNode* core
    cdef xmlNode** chain = NULL
    cdef Py_ssize_t* innermost = NULL
    cdef long long* counted = NULL
    if len(lengths) < n or not all(isinstance(owner, _Element) for owner in owners):
        return None
    for i in range(count):
        if type(prose[i]) is not int or not 0 <= prose[i] < n or type(lengths[<Py_ssize_t> prose[i]]) is not int:
            return None
        total += <long long> lengths[<Py_ssize_t> prose[i]]
    if total < core_prose_chars:
        return [False] * n
    for i in range(count):
        reached += <long long> lengths[<Py_ssize_t> prose[i]]
        if 2 * reached >= total:
            middle = prose[i]
            break
    node = (<_Element> owners[middle])._c_node
    while node is not NULL and node.type == tree.XML_ELEMENT_NODE:  # the middle line's owner and its ancestors
        size += 1
        node = node.parent
    chain = <xmlNode**> malloc(max(size, 1) * sizeof(xmlNode*))
    innermost = <Py_ssize_t*> malloc(max(count, 1) * sizeof(Py_ssize_t))
    counted = <long long*> calloc(max(size, 1), sizeof(long long))
    try:
        if chain is NULL or innermost is NULL or counted is NULL:
            raise MemoryError()
        node = (<_Element> owners[middle])._c_node
        for k in range(size):
            chain[k] = node
            node = node.parent
        for i in range(count):
            m = prose[i]
            k = _chain_place((<_Element> owners[m])._c_node, chain, size)
            if k < 0:
                return None
            innermost[i] = k
            counted[k] += <long long> lengths[m]
        core_place = -1
        for k in range(size):
            held += counted[k]
            if held >= core_share * total:
                core_place = k
                break
        if core_place < 0:
            return None
        while part_names.place(chain[core_place]) >= 0 and core_place + 1 < size:
            core_place += 1
        core = chain[core_place]
        for i in range(count):
            if innermost[i] <= core_place:
                last = max(last, <Py_ssize_t> prose[i])
        while last + 1 < n and _within((<_Element> owners[last + 1])._c_node, core):
            last += 1
        return [m > last for m in range(n)]
    finally:
        free(chain)
        free(innermost)
        free(counted)


cdef bint _within(xmlNode* node, xmlNode* box) noexcept:
    """Whether ``node`` is ``box`` or lies inside it."""
    while node is not NULL:
        if node == box:
            return True
        node = node.parent
    return False
