"""Golden pages: hand-written pages and what webclean extracts from them.

Two kinds of test, as in Readability.js's test-pages:

- the whole output of each method is compared exactly with ``expected.txt`` (svm) and
  ``expected-paper.txt`` (paper). These record what the library does today; after a
  deliberate change, ``python tests/golden/regenerate.py`` rewrites them and the diff
  shows what changed;
- ``checks.json``, written by hand, says what a correct extraction of the page must do
  (method svm, the default): texts it must contain (``must_have``), whole lines it must
  contain (``must_have_lines``: paragraphs kept apart), texts it must not contain
  (``must_not_have``) and, where given, the encoding the bytes must be decoded with.
  A check the library fails today is listed under ``xfail`` with the reason; it stays
  strict, so the day it passes the xfail must be removed.
"""

from __future__ import annotations

import functools
import importlib.util
import json
from pathlib import Path

import pytest

from webclean.result import Extraction, Status

GOLDEN_DIR = Path(__file__).parent / "golden"


def _load_regenerate():
    spec = importlib.util.spec_from_file_location("golden_regenerate", GOLDEN_DIR / "regenerate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


regenerate = _load_regenerate()
PAGES = regenerate.pages()
SLUGS = [page.name for page in PAGES]
CHECK_KINDS = ("must_have", "must_have_lines", "must_not_have")


@functools.cache
def _extraction(slug: str, method: str) -> Extraction:
    return regenerate.extraction(GOLDEN_DIR / slug, method)


def _checks(slug: str) -> dict:
    return json.loads((GOLDEN_DIR / slug / "checks.json").read_text(encoding="utf-8"))


def test_there_are_golden_pages():
    assert len(SLUGS) >= 6


@pytest.mark.parametrize("slug", SLUGS)
def test_checks_file_is_well_formed(slug):
    checks = _checks(slug)
    assert set(checks) <= {"about", "encoding", "xfail", *CHECK_KINDS}
    listed = [text for kind in CHECK_KINDS for text in checks.get(kind, [])]
    assert checks.get("must_have") and checks.get("must_not_have")
    # An xfail names a check that exists, so a reworded check cannot leave a stale one behind.
    assert set(checks.get("xfail", {})) <= set(listed)


@pytest.mark.parametrize("method", sorted(regenerate.EXPECTED))
@pytest.mark.parametrize("slug", SLUGS)
def test_output_equals_expected(slug, method):
    expected = (GOLDEN_DIR / slug / regenerate.EXPECTED[method]).read_text(encoding="utf-8")
    result = _extraction(slug, method)
    assert result.status in (Status.OK, Status.EMPTY), result.error
    actual = result.text + "\n" if result.text else ""
    assert actual == expected, (
        f"{slug} ({method}) differs from {regenerate.EXPECTED[method]}: if the change is intended, "
        "run  python tests/golden/regenerate.py  and review the diff"
    )


def _check_params() -> list:
    params = []
    for slug in SLUGS:
        checks = _checks(slug)
        xfail = checks.get("xfail", {})
        for kind in CHECK_KINDS:
            for number, text in enumerate(checks.get(kind, [])):
                marks = [pytest.mark.xfail(reason=xfail[text], strict=True)] if text in xfail else []
                params.append(pytest.param(slug, kind, text, id=f"{slug}-{kind}-{number}", marks=marks))
    return params


@pytest.mark.parametrize(("slug", "kind", "text"), _check_params())
def test_svm_extraction_check(slug, kind, text):
    output = _extraction(slug, "svm").text
    if kind == "must_have":
        assert text in output
    elif kind == "must_have_lines":
        assert text in output.split("\n")
    else:
        assert text not in output


@pytest.mark.parametrize("slug", [slug for slug in SLUGS if "encoding" in _checks(slug)])
def test_declared_encoding_is_used(slug):
    assert _extraction(slug, "svm").encoding == _checks(slug)["encoding"]


def test_gbk_page_is_stored_as_gbk():
    # Guards the fixture: an editor that re-saves it as UTF-8 would hollow out the test.
    data = (GOLDEN_DIR / "zh-gbk-meta-gb2312" / "source.html").read_bytes()
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    assert "冬小麦越冬期田间管理要点" in data.decode("gbk")
