# Named tuples made in C: the Lines of segment (webclean/_core.pyx) and the Units of
# units.units_from_columns (_core_columns.pxi). Included in webclean/_core.pyx: the same
# module, its cimports in scope.

# A Line or a Unit is made as tuple.__new__ makes a tuple's subclass (CPython's
# tuple_subtype_new): the class's tp_alloc, then its items set, without the tuple of
# fields that tuple.__new__ copies.

cdef extern from "Python.h":
    ctypedef PyObject* (*_allocfunc)(PyTypeObject*, Py_ssize_t) except NULL
    ctypedef struct _AllocatedType "PyTypeObject":
        _allocfunc tp_alloc


cdef bint _named_tuple(cls) noexcept:
    """Whether ``cls`` is a subclass of tuple that Python made (a named tuple): its
    instances are tuples, allocated by its tp_alloc, that hold nothing else."""
    return (isinstance(cls, type) and issubclass(cls, tuple) and cls is not tuple
            and (<PyTypeObject*> cls).tp_basicsize == (<PyTypeObject*> tuple).tp_basicsize)


cdef tuple _named_row(cls, Py_ssize_t width):
    """A new instance of ``cls`` (_named_tuple) of ``width`` items, each to be set once
    (_set) before it is used."""
    cdef PyObject* allocated = (<_AllocatedType*> cls).tp_alloc(<PyTypeObject*> cls, width)
    made = <object> allocated  # a second reference: the allocation's is given up
    Py_DECREF(made)
    return <tuple> made


cdef inline void _set(tuple row, Py_ssize_t k, value) noexcept:
    """Item ``k`` of a row of _named_row, set once."""
    Py_INCREF(value)
    PyTuple_SET_ITEM(row, k, value)
