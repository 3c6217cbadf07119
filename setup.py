"""Builds webclean's compiled core (webclean/_core.pyx); everything else is in pyproject.toml.

The extension is optional: without a C compiler (or without Cython and lxml's headers,
in a build without isolation) the package installs with a warning and runs its Python
path, which gives the same results more slowly (webclean/core.py).
"""

from __future__ import annotations

import glob
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
        # the .pxi files _core.pyx includes: a change to one builds the core again
        depends=sorted(glob.glob("webclean/_core_*.pxi")),
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
