# The unit columns of method svm's features (line_features._unit_columns), included in
# webclean/_core.pyx: the same module, its cimports in scope. Each column is the float
# that NumPy makes of the Python value (a bool 1.0 or 0.0, an int its float), its
# logarithm C's log1p, which math.log1p calls.

from libc.math cimport log1p


cdef enum:
    _UNIT_NUMBERS = 10  # the columns before the kind's: line_features._UNIT_COLUMN_NAMES up to window_length
    _UNIT_SIGNS = 4  # before_span, before_block, after_span, after_block
    _UNIT_STRUCTURE = 10  # line_features._STRUCTURE_NAMES


cdef int _number(value, double* into) except -1:
    """``into`` the float NumPy makes of ``value``; 0 for a value that is no float, bool
    or int, or an int that a float does not hold exactly."""
    if isinstance(value, float):
        into[0] = <double> value
    elif type(value) is bool:
        into[0] = 1.0 if value else 0.0
    elif type(value) is int and -(1 << 53) <= value <= (1 << 53):
        into[0] = <double> value
    else:
        return 0
    return 1


cdef int _log_number(value, double* into) except -1:
    """``into`` math.log1p of ``value``; 0 where _number finds none or math.log1p raises."""
    if not _number(value, into) or not into[0] > -1.0:
        return 0
    into[0] = log1p(into[0])
    return 1


def unit_columns(list units not None, rules, double[:, ::1] out not None, tuple columns not None):
    """line_features._unit_columns into the ``columns`` of ``out`` (one for each of
    line_features._UNIT_COLUMN_NAMES, in order; a row a unit). ``rules``: the places of
    the fields it reads in a unit (position, link_ratio, noise_attr, content_attr,
    prev_length, next_length, neighbour_link_ratio, depth, depth_offset, window_length,
    kind, span, region, groups, furniture, related, copy, code, past_core, post,
    link_run, section_text), the kinds' rows (a dict of a kind's row, the row of any
    other, and the rows), the groups' rows, and segment's RELATED_NAME and IN_RELATED.
    None, ``out`` half filled, where there are no units or a unit is no tuple or a
    value is not as _unit_columns reads it (its Python then raises, or reads it)."""
    cdef Py_ssize_t n = len(units), row, k, i, group, other_kind, needed
    cdef Py_ssize_t kinds_width, groups_width, at[22], into[64]
    cdef const double[:, ::1] kind_rows
    cdef const double[:, ::1] group_rows
    cdef double value
    cdef tuple unit
    places, kind_index, other_kind, kind_rows, group_rows, related_name, in_related = rules
    kinds_width, groups_width = kind_rows.shape[1], group_rows.shape[1]
    if len(places) != 22 or len(columns) != _UNIT_NUMBERS + kinds_width + _UNIT_SIGNS + groups_width + _UNIT_STRUCTURE:
        return None
    if not n or len(columns) > 64 or out.shape[0] != n or not 0 <= other_kind < kind_rows.shape[0]:
        return None
    for k in range(22):
        at[k] = places[k]
    needed = max(places)
    for k in range(len(columns)):
        into[k] = columns[k]
        if not 0 <= into[k] < out.shape[1]:
            return None
    for row in range(n):
        item = units[row]
        if not isinstance(item, tuple) or len(<tuple> item) <= needed:
            return None
        unit = <tuple> item
        # position, link_ratio, noise_attr, content_attr, then the logs of prev_length and
        # next_length, neighbour_link_ratio, the logs of depth and depth_offset, window_length
        for k in range(_UNIT_NUMBERS):
            if k in (4, 5, 7, 8):
                if not _log_number(unit[at[k]], &value):
                    return None
            elif not _number(unit[at[k]], &value):
                return None
            out[row, into[k]] = value
        found = kind_index.get(unit[at[10]], other_kind)
        if type(found) is not int or not 0 <= <Py_ssize_t> found < kind_rows.shape[0]:
            return None
        for k in range(kinds_width):
            out[row, into[_UNIT_NUMBERS + k]] = kind_rows[<Py_ssize_t> found, k]
        k = _UNIT_NUMBERS + kinds_width
        span, region = unit[at[11]], unit[at[12]]
        if type(span) is not int or type(region) is not int:
            return None
        out[row, into[k]] = span < 0
        out[row, into[k + 1]] = region < 0
        out[row, into[k + 2]] = span > 0
        out[row, into[k + 3]] = region > 0
        k += _UNIT_SIGNS
        groups = unit[at[13]]
        if type(groups) is not int or not 0 <= groups < group_rows.shape[0]:
            return None
        group = groups
        for i in range(groups_width):
            out[row, into[k + i]] = group_rows[group, i]
        k += groups_width
        if not _number(unit[at[14]], &value):  # furniture
            return None
        out[row, into[k]] = value
        related, copy, code, post = unit[at[15]], unit[at[16]], unit[at[17]], unit[at[19]]
        if type(related) is not int or type(copy) is not int or type(code) is not str or type(post) is not int:
            return None
        out[row, into[k + 1]] = related == related_name
        out[row, into[k + 2]] = related == in_related
        out[row, into[k + 3]] = copy > 0
        out[row, into[k + 4]] = len(<str> code) > 0
        if not _number(unit[at[18]], &value):  # past_core
            return None
        out[row, into[k + 5]] = value
        out[row, into[k + 6]] = post > 0
        out[row, into[k + 7]] = post < 0
        if not _log_number(unit[at[20]], &value):  # link_run
            return None
        out[row, into[k + 8]] = value
        if not _log_number(unit[at[21]], &value):  # section_text
            return None
        out[row, into[k + 9]] = value
    return out
