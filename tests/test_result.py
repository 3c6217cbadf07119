"""webclean.result: the status of a page is its string wherever it is written."""

from __future__ import annotations

import json

from webclean.result import Extraction, Status


def test_a_status_is_its_string() -> None:
    assert Status.NOT_HTML == "not_html" and str(Status.NOT_HTML) == "not_html" and f"{Status.TIMEOUT}" == "timeout"
    assert Status("ok") is Status.OK


def test_a_failed_extraction_writes_its_status_as_a_string() -> None:
    row = Extraction.failed(Status.TOO_LARGE, "over limits.max_bytes").to_dict()
    assert json.loads(json.dumps(row))["status"] == "too_large"
    assert json.dumps({Status.OK: 1}) == '{"ok": 1}'  # counts per status, keyed by member or string alike
