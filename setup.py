"""Builds webclean's compiled core (webclean/_core.pyx); everything else is in pyproject.toml.

The extension is optional: without a C compiler (or without Cython and lxml's headers,
in a build without isolation) the package installs with a warning and runs its Python
path, which gives the same results more slowly (webclean/core.py).
"""

from __future__ import annotations

import sys

from setuptools import Extension, setup


def _warn(message: str) -> None:
    print(f"webclean: {message}; webclean will run its Python path (slower, the same results)", file=sys.stderr)


def extensions() -> list[Extension]:
    try:
        import lxml
        from Cython.Build import cythonize
    except ImportError as exc:  # only in a build without isolation: pyproject.toml requires both
        _warn(f"the compiled core is not built ({exc})")
        return []
    core = Extension(
        "webclean._core",
        ["webclean/_core.pyx"],
        # included by _core.pyx: _core_page.pxi (which includes _core_sums.pxi and _core_trees.pxi),
        # _core_lexicon.pxi (which includes _core_words.pxi and _core_text.pxi), _core_units.pxi, _core_region.pxi, _core_columns.pxi,
        # _core_denoise.pxi, _core_parse.pxi, _core_pagetype.pxi, _core_tuples.pxi, _core_marks.pxi,
        # _core_names.pxi and _core_metadata.pxi
        depends=[
            "webclean/_core_page.pxi",
            "webclean/_core_sums.pxi",
            "webclean/_core_trees.pxi",
            "webclean/_core_lexicon.pxi",
            "webclean/_core_text.pxi",
            "webclean/_core_words.pxi",
            "webclean/_core_units.pxi",
            "webclean/_core_region.pxi",
            "webclean/_core_columns.pxi",
            "webclean/_core_denoise.pxi",
            "webclean/_core_parse.pxi",
            "webclean/_core_pagetype.pxi",
            "webclean/_core_tuples.pxi",
            "webclean/_core_marks.pxi",
            "webclean/_core_names.pxi",
            "webclean/_core_metadata.pxi",
        ],
        include_dirs=lxml.get_include(),  # lxml's public C API and libxml2's headers
        # Each product and sum rounded on its own, as Python rounds them: a fused
        # multiply-add would change the last bit of a sum the Python path makes.
        extra_compile_args=[] if sys.platform == "win32" else ["-ffp-contract=off"],
        optional=True,  # a failed compile is a warning (setuptools' build_ext), not a failed install
    )
    compiled = cythonize([core], compiler_directives={"language_level": "3"}, quiet=True)
    for extension in compiled:
        extension.optional = True  # kept whatever cythonize copies
    return compiled


setup(ext_modules=extensions())
