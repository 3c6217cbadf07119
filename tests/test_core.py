"""The compiled core (webclean/_core.pyx) gives exactly what the Python path gives.

Each test runs the same input through both: the compiled function where webclean.core
loaded it, the Python function with ``core.compiled`` set to None (as WEBCLEAN_PURE=1
or a machine without the extension leaves it). Where the extension is not built they
skip, saying so.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import webclean
from webclean import core
from webclean.cli import main

REPO = Path(__file__).resolve().parents[1]

try:
    from webclean import _core
except ImportError as exc:
    _core = None
    _NOT_BUILT = f"the compiled core is not built here ({exc}); installing webclean with a C compiler builds it"
else:
    _NOT_BUILT = ""

needs_core = pytest.mark.skipif(_core is None, reason=_NOT_BUILT)


@needs_core
def test_white_space_is_what_str_isspace_says():
    assert _core is not None
    assert [cp for cp in range(sys.maxunicode + 1) if _core._is_space(cp)] == [
        cp for cp in range(sys.maxunicode + 1) if chr(cp).isspace()
    ]


# --- which core runs ---------------------------------------------------------------------


def test_version_names_the_core(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    version, named = capsys.readouterr().out.splitlines()
    assert version.startswith("webclean ")
    assert named == f"core: {core.name()}"


_VERSION = "from webclean.cli import main; main(['--version'])"


@needs_core
def test_the_compiled_core_runs_where_it_is_built():
    result = subprocess.run([sys.executable, "-c", _VERSION], cwd=REPO, env={**os.environ, "WEBCLEAN_PURE": "0"}, capture_output=True, text=True)
    assert result.stdout.splitlines()[-1] == "core: compiled"
    assert result.stderr == ""


def test_webclean_pure_forces_the_python_path():
    result = subprocess.run([sys.executable, "-c", _VERSION], cwd=REPO, env={**os.environ, "WEBCLEAN_PURE": "1"}, capture_output=True, text=True)
    assert result.stdout.splitlines()[-1] == "core: python"
    assert result.stderr == ""  # chosen, so no warning


def test_without_the_extension_the_library_says_so_once_and_runs_python():
    code = (
        "import sys; sys.modules['webclean._core'] = None\n"  # an import of it raises ImportError
        "import webclean, webclean.core, webclean.segment\n"
        "print(webclean.extract(b'<p>' + b'Some words of a page. ' * 20 + b'</p>').text[:10])\n"
        + _VERSION
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, env={**os.environ, "WEBCLEAN_PURE": ""}, capture_output=True, text=True)
    assert result.stdout.splitlines() == ["Some words", f"webclean {webclean.__version__}", "core: python"]
    assert result.stderr.count("compiled core is not available") == 1
