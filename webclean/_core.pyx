# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=False
"""The compiled core: per-element work of the Python modules, over libxml2's nodes.

Each function here gives exactly what its Python reference gives (tests/test_core.py
runs both), reads the rules it applies from that module (they are handed over, never
copied), and returns None where a tree holds what it leaves to Python (webclean/core.py).

It walks libxml2's nodes through lxml's public C API: no Python object per element,
only for the elements a result holds or a rule of the Python module is asked about.
"""

from cpython.unicode cimport Py_UNICODE_ISSPACE
from lxml.includes.etreepublic cimport import_lxml__etree

import_lxml__etree()


# --- text ------------------------------------------------------------------------------
# White space is what str.isspace says (Py_UNICODE_ISSPACE), as in text.normalise_space
# and text.text_length.


def _is_space(Py_UCS4 cp):
    """Whether the core reads ``cp`` as white space (tests compare it with str.isspace)."""
    return Py_UNICODE_ISSPACE(cp)
