"""Hostile pages and broken crawl files: a status and a reason for each, no exception, bounded time.

The corpus comes from scripts/make_hostile_corpus.py (generated, nothing downloaded).
Also here: the limits (time, bytes, depth, decompression, no network and no entity
expansion in lxml) and hostile model files.
"""

from __future__ import annotations

import ast
import gc
import gzip
import hashlib
import inspect
import io
import json
import re
import signal
import socket
import sys
import time
import zlib
from pathlib import Path

import numpy as np
import pytest
from lxml import etree

pytest.importorskip("warcio")

import importlib  # noqa: E402

import webclean.warc  # noqa: E402
from webclean.config import Config  # noqa: E402
from webclean.extract import extract  # noqa: E402

EXTRACT_MODULE = importlib.import_module("webclean.extract")
from webclean.model import ModelError, default_model, load_model, save_model  # noqa: E402
from webclean.parse import parse_html  # noqa: E402
from webclean.payload import decode_payload  # noqa: E402
from webclean.result import Extraction, Status  # noqa: E402
from webclean.warc import WarcDamage, WarcEnd, WarcPage, iter_warc  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))
import make_hostile_corpus as corpus_script  # noqa: E402

TIMEOUT = 3.0
CONFIG = Config().with_overrides([f"limits.timeout_seconds={TIMEOUT}"])
# What a page may cost beyond the time limit: the steps in C (libxml2's parse, one
# numpy call) cannot be interrupted, and the limit is checked between bytecodes.
SLACK = 6.0  # generous: CI machines are shared and noisy

# The statuses each case may get: through extract on the body as stored, and on the
# body iter_warc hands over (HTTP content coding undone, under the byte cap). Heavy
# cases may finish or time out, depending on the machine; both are answers.
EXPECTED: dict[str, tuple[set[str], set[str]]] = {
    "control-article": ({Status.OK}, {Status.OK}),
    "binary-as-html": ({Status.NOT_HTML}, {Status.NOT_HTML}),
    "pdf": ({Status.NOT_HTML}, {Status.NOT_HTML}),
    "pdf-typed": ({Status.NOT_HTML}, {Status.NOT_HTML}),
    "empty": ({Status.EMPTY}, {Status.EMPTY}),
    "big-page": ({Status.TOO_LARGE}, {Status.TOO_LARGE}),
    "nested-divs": ({Status.OK, Status.TIMEOUT}, {Status.OK, Status.TIMEOUT}),
    "nul-bytes": ({Status.OK}, {Status.OK}),
    "wrong-charset": ({Status.OK}, {Status.OK}),
    "missing-charset": ({Status.OK}, {Status.OK}),
    "gzip-body": ({Status.NOT_HTML}, {Status.OK}),  # as stored it is gzip; iter_warc inflates it
    "gzip-bomb": ({Status.NOT_HTML}, {Status.TOO_LARGE}),
    # Was a timeout until the e-mail and URL patterns got bounded repetitions.
    "regex-backtracking": ({Status.OK}, {Status.OK}),
    "sentence-splitter": ({Status.OK, Status.TIMEOUT}, {Status.OK, Status.TIMEOUT}),
    "nested-tables": ({Status.OK, Status.EMPTY}, {Status.OK, Status.EMPTY}),
    "huge-attribute": ({Status.OK, Status.TIMEOUT}, {Status.OK, Status.TIMEOUT}),
    # A million elements, over limits.max_elements: refused right after libxml2's parse (which
    # the time limit cannot interrupt, and may outlast it), before the work that takes GBs.
    "tiny-paragraphs": ({Status.TOO_LARGE, Status.TIMEOUT}, {Status.TOO_LARGE, Status.TIMEOUT}),
    "entity-bomb": ({Status.OK, Status.EMPTY}, {Status.OK, Status.EMPTY}),
}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> corpus_script.Corpus:
    # The real sizes: a 50 MB page and a 1 GiB gzip bomb (both cost well under a second).
    return corpus_script.make_corpus(tmp_path_factory.mktemp("hostile"))


@pytest.fixture(scope="module")
def warc_pages(corpus) -> dict[str, WarcPage]:
    items = list(iter_warc(str(corpus.warc)))
    return {p.url.rsplit("/", 1)[1]: p for p in items if isinstance(p, WarcPage) and p.url.startswith("http://hostile.test/")}


@pytest.fixture(scope="module", autouse=True)
def warm_up() -> None:
    """Load the model and jieba's dictionary outside any page's time limit."""
    default_model("svm")
    extract("<div><p>河道清淤工程下月开工。</p></div>", config=CONFIG)


def _timed(fn, *args, **kwargs):
    started = time.perf_counter()
    result = fn(*args, **kwargs)
    return result, time.perf_counter() - started


def _assert_answer(result: Extraction, allowed: set[str], seconds: float) -> None:
    assert isinstance(result, Extraction)
    assert result.status in allowed, (result.status, result.error)
    assert (result.status == Status.OK) == bool(result.text)
    if result.status != Status.OK:
        assert result.error and result.error.isprintable(), "a failed page needs a clear reason"
    assert seconds < TIMEOUT + SLACK, (
        f"took {seconds:.1f} s (timer {signal.getitimer(signal.ITIMER_REAL)}, handler {signal.getsignal(signal.SIGALRM)})"
    )


def test_every_case_is_covered(corpus):
    assert [c.name for c in corpus.cases] == list(EXPECTED)
    assert set(corpus.offsets) == set(EXPECTED)


# The million-paragraph page once overran its 3 s limit by 35 s in whole-suite runs:
# the PageTimeout was raised inside a destructor, printed as unraisable and lost. The
# alarm now repeats until the limit is disarmed; this case shows it.
CASES = list(EXPECTED)


@pytest.mark.parametrize("name", CASES)
def test_case_through_extract(corpus, name):
    case = next(c for c in corpus.cases if c.name == name)
    stored = (corpus.directory / "pages" / f"{name}.body").read_bytes()
    assert stored == case.body
    result, seconds = _timed(extract, stored, config=CONFIG, http_charset=case.header("Content-Type"))
    _assert_answer(result, EXPECTED[name][0], seconds)


@pytest.mark.parametrize("name", CASES)
def test_case_through_iter_warc(warc_pages, name):
    page = warc_pages[name]
    if page.status is not None:  # refused while reading: the job writes this status
        assert page.status in EXPECTED[name][1] and page.error and page.body == b""
        return
    result, seconds = _timed(extract, page.body, config=CONFIG, http_charset=page.charset)
    _assert_answer(result, EXPECTED[name][1], seconds)


def test_what_the_hostile_pages_keep(corpus, warc_pages):
    by_name = {c.name: c for c in corpus.cases}
    nul = extract(by_name["nul-bytes"].body, config=CONFIG)
    assert "\0" not in nul.text and "river" in nul.text
    for name in ("wrong-charset", "missing-charset"):
        result = extract(by_name[name].body, config=CONFIG, http_charset=by_name[name].header("Content-Type"))
        assert result.encoding == "gb18030" and "河道" in result.text, name
    inflated = extract(warc_pages["gzip-body"].body, config=CONFIG)
    assert inflated.text == extract(by_name["control-article"].body, config=CONFIG).text
    assert "archive" in extract(by_name["gzip-bomb"].body, config=CONFIG).error
    assert "inflates over limits.max_bytes" in warc_pages["gzip-bomb"].error


def test_the_real_50_mb_page(corpus, warc_pages):
    page = corpus.directory / "pages" / "big-page.body"
    assert page.stat().st_size == 50_000_000
    result, seconds = _timed(extract, page.read_bytes())
    assert result.status == Status.TOO_LARGE and "max_bytes" in result.error and seconds < 1
    assert warc_pages["big-page"].status == Status.TOO_LARGE
    assert warc_pages["big-page"].length == 50_000_000  # the rest was read past and counted


def test_the_hostile_warc_counts_every_record(corpus, warc_pages):
    items = list(iter_warc(str(corpus.warc)))
    end = items[-1]
    assert end.complete and end.counts == corpus.record_types
    pages = items[:-1]
    # One page per response and resource record; revisits, requests and metadata give none.
    assert len(pages) == corpus.record_types["response"] + corpus.record_types["resource"]
    # The duplicated record comes out twice, at two offsets, with the same record ID.
    control = [p for p in pages if p.url == "http://hostile.test/control-article"]
    assert len(control) == 2 and control[0].warc_record_id == control[1].warc_record_id
    assert control[0].offset != control[1].offset and control[0].body == control[1].body


def test_a_truncated_warc_keeps_a_prefix_and_says_where(corpus):
    full = [p for p in iter_warc(str(corpus.warc)) if isinstance(p, WarcPage)]
    items, seconds = _timed(lambda: list(iter_warc(str(corpus.truncated_warc))))
    pages, end = items[:-1], items[-1]
    assert isinstance(end, WarcEnd) and not end.complete and seconds < 5
    assert [p.warc_record_id for p in pages] == [p.warc_record_id for p in full[: len(pages)]]
    # A record cut short by the end of the file keeps its page, at the offset where reading stopped.
    before = [p for p in pages if p.offset != end.offset]
    assert len(pages) - len(before) == 1
    assert end.offset == corpus.offsets["nested-divs"] == full[len(before)].offset
    assert end.error and end.error.isprintable() and "the file ends" in end.error


def test_a_member_cut_in_half_is_skipped_and_the_members_after_it_are_read(corpus):
    full = [p for p in iter_warc(str(corpus.warc)) if isinstance(p, WarcPage)]
    items = list(iter_warc(str(corpus.cut_member_warc)))
    pages = [i for i in items if isinstance(i, WarcPage)]
    damages = [i for i in items if isinstance(i, WarcDamage)]
    cut = corpus.offsets["nested-divs"]
    assert [p.warc_record_id for p in pages] == [p.warc_record_id for p in full if p.offset != cut]
    assert [d.offset for d in damages] == [cut] and damages[0].error.isprintable()
    assert items[-1].complete


def test_a_warc_cut_inside_a_record_header_is_not_complete(corpus):
    end = list(iter_warc(str(corpus.header_cut_warc)))[-1]
    assert not end.complete and end.offset == corpus.offsets["nested-divs"]


def test_a_response_without_target_uri_is_read_and_the_file_goes_on(corpus):
    # warcio's own loader fails on the missing address, and the records after it were lost.
    items = list(iter_warc(str(corpus.no_target_uri_warc)))
    pages, end = items[:-1], items[-1]
    assert end.complete and end.counts == {"response": 3}
    assert [page.url for page in pages] == ["http://hostile.test/no-uri-0", None, "http://hostile.test/no-uri-2"]
    # Its block is read as HTTP, as the others are: the body holds the page, not the headers.
    assert pages[1].body == pages[0].body and pages[1].body.lstrip().startswith(b"<")


# ------------------------------------------------------------------ the time limit


def _patch_step(monkeypatch, name: str, slow) -> list[int]:
    calls: list[int] = []
    real = getattr(EXTRACT_MODULE, name)

    def patched(*args, **kwargs):
        calls.append(1)
        slow()
        return real(*args, **kwargs)

    monkeypatch.setattr(EXTRACT_MODULE, name, patched)
    return calls


def _python_loop() -> None:
    stop = time.monotonic() + 60  # bounded: a limit that never fires fails the test instead of hanging it
    n = 0
    while time.monotonic() < stop:
        n += 1


def _catastrophic_regex() -> None:
    # Exponential backtracking inside the C regex engine, which checks for signals.
    re.match(r"(a+)+$", "a" * 40 + "b")


@pytest.mark.parametrize(
    ("step", "slow"),
    [("parse_html", _python_loop), ("locate_units", _python_loop), ("page_title", _catastrophic_regex)],
)
def test_time_limit_interrupts_a_busy_step(monkeypatch, step, slow):
    calls = _patch_step(monkeypatch, step, slow)
    config = Config().with_overrides(["limits.timeout_seconds=0.3"])
    result, seconds = _timed(extract, corpus_script.ARTICLE, config=config, model=default_model("svm"))
    assert calls and result.status == Status.TIMEOUT and "timeout_seconds" in result.error
    assert seconds < 2
    # Nothing is left armed: the handler, the timer and the garbage collector are as they were.
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0) and gc.isenabled()
    assert signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, signal.default_int_handler, None)
    monkeypatch.undo()
    assert extract(corpus_script.ARTICLE, config=config).status == Status.OK


def test_no_garbage_collection_runs_under_the_time_limit():
    # A PageTimeout raised in a collector callback would be lost as unraisable, and the
    # repeated alarm would then fire into whatever reports it.
    from webclean.limits import time_limit

    phases: list[str] = []

    def callback(phase: str, info: dict) -> None:
        phases.append(phase)

    gc.callbacks.append(callback)
    try:
        with time_limit(5.0):
            assert not gc.isenabled()
            gc.collect()  # an explicit collection still runs, and says so
        assert gc.isenabled()
        gc.disable()
        with time_limit(5.0):
            pass
        assert not gc.isenabled()  # a collector the caller had turned off stays off
    finally:
        gc.enable()
        gc.callbacks.remove(callback)
    assert phases[:2] == ["start", "stop"]


def test_time_limit_restores_an_outer_alarm_handler():
    fired: list[int] = []
    previous = signal.signal(signal.SIGALRM, lambda *_: fired.append(1))
    try:
        assert extract(corpus_script.ARTICLE, config=CONFIG).status == Status.OK
        signal.setitimer(signal.ITIMER_REAL, 0.01)
        time.sleep(0.1)
        assert fired == [1]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# ------------------------------------------------------------------ bytes, depth, decompression


def test_byte_cap_counts_utf8_bytes_of_text():
    config = Config().with_overrides(["limits.max_bytes=1000"])
    text = "<p>" + "河" * 400 + "</p>"  # 407 characters, 1,207 UTF-8 bytes
    result = extract(text, config=config)
    assert result.status == Status.TOO_LARGE and "1207 bytes" in result.error


def _depth(root: etree._Element) -> int:
    deepest = level = 0
    for event, _ in etree.iterwalk(root, events=("start", "end")):
        level += 1 if event == "start" else -1
        deepest = max(deepest, level)
    return deepest


@pytest.mark.parametrize("name", ["nested-divs", "nested-tables"])
def test_depth_cap_holds_without_recursion(corpus, name):
    html = next(c for c in corpus.cases if c.name == name).body.decode()
    root = parse_html(html, max_depth=100)
    assert _depth(root) <= 100
    assert "cell text" in "".join(root.itertext()) or corpus_script.PARAGRAPH in "".join(root.itertext())
    # The whole extraction runs with little stack to spare: any recursion over the
    # tree would raise RecursionError here.
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 150)
    try:
        result = extract(html, config=Config().with_overrides(["limits.timeout_seconds=0"]))
    finally:
        sys.setrecursionlimit(limit)
    assert result.status in (Status.OK, Status.EMPTY), result.error


def _warc(body: bytes, headers: list[tuple[str, str]]) -> bytes:
    from warcio.warcwriter import WARCWriter

    out = io.BytesIO()
    writer = WARCWriter(out, gzip=True)
    head = "HTTP/1.1 200 OK\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers) + "\r\n"
    payload = head.encode("latin-1") + body
    writer.write_record(writer.create_warc_record("http://bomb.test/", "response", payload=io.BytesIO(payload), length=len(payload)))
    return out.getvalue()


def _deflate_bomb(size: int) -> bytes:
    deflater = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    block = deflater.compress(bytes(1 << 20)) + deflater.flush(zlib.Z_FULL_FLUSH)
    return block * (size >> 20) + deflater.flush()


def _chunked(body: bytes) -> bytes:
    return b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)


BOMBS = {
    "gzip": lambda: (corpus_script.gzip_bomb(1 << 30), [("Content-Encoding", "gzip")]),
    "raw-deflate-chunked": lambda: (
        _chunked(_deflate_bomb(1 << 30)),
        [("Content-Encoding", "deflate"), ("Transfer-Encoding", "chunked")],
    ),
    # A small outer gzip around the 1 GiB inner one: every layer is capped.
    "gzip-in-gzip": lambda: (gzip.compress(corpus_script.gzip_bomb(1 << 30)), [("Content-Encoding", "gzip, gzip")]),
}


@pytest.mark.parametrize("name", list(BOMBS))
def test_decompression_bombs_stop_at_the_cap(name):
    body, headers = BOMBS[name]()
    warc = _warc(body, [("Content-Type", "text/html"), *headers])
    items, seconds = _timed(lambda: list(iter_warc(io.BytesIO(warc), max_bytes=5_000_000)))
    assert items[-1].complete and len(items) == 2
    assert items[0].status == Status.TOO_LARGE and "inflates over limits.max_bytes" in items[0].error
    assert items[0].body == b"" and seconds < 3


def test_decode_payload_never_inflates_more_than_the_cap(monkeypatch):
    """Every inflate call is bounded: the bomb never exists in memory beyond the cap."""
    sizes: list[int] = []
    real = zlib.decompressobj

    class Bounded:
        def __init__(self, *args):
            self._inner = real(*args)

        def decompress(self, data, max_length=0):
            assert max_length > 0, "an unbounded decompress call"
            out = self._inner.decompress(data, max_length)
            sizes.append(len(out))
            return out

    monkeypatch.setattr(webclean.warc.zlib, "decompressobj", Bounded)
    bomb = corpus_script.gzip_bomb(1 << 28)
    payload = decode_payload(bomb, transfer_encoding=None, content_encoding="gzip", max_bytes=1_000_000)
    assert payload.status == Status.TOO_LARGE
    assert sizes and max(sizes) <= 1_000_001


# ------------------------------------------------------------------ lxml: no network, no entities


@pytest.fixture
def listener():
    """A TCP port that records every connection made to it."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.settimeout(0.3)
    yield server
    server.close()


def _accepted(server: socket.socket) -> int:
    count = 0
    while True:
        try:
            connection, _ = server.accept()
        except (TimeoutError, OSError):
            return count
        connection.close()
        count += 1


def test_no_entity_expansion_no_file_read_no_network(tmp_path, listener):
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET-FILE-CONTENT", encoding="utf-8")
    port = listener.getsockname()[1]
    page = corpus_script.XML_ENTITY_BOMB.decode().replace("file:///etc/passwd", secret.as_uri())
    page = page.replace("http://127.0.0.1:9/webclean-xxe", f"http://127.0.0.1:{port}/entity")
    page = page.replace("<!DOCTYPE html [", f'<!DOCTYPE html SYSTEM "http://127.0.0.1:{port}/dtd" [')
    page = page.replace(
        "</div></body>",
        f'<img src="http://127.0.0.1:{port}/img"><link rel=stylesheet href="http://127.0.0.1:{port}/css">'
        f'<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="http://127.0.0.1:{port}/xi"/></div></body>',
    )
    for data in (page, page.encode("utf-8")):
        result, seconds = _timed(extract, data, config=CONFIG)
        assert result.status in (Status.OK, Status.EMPTY)
        assert "lollol" not in result.text and "SECRET" not in result.text and seconds < 2
        root = parse_html(page)
        text = "".join(root.itertext())
        assert "lollol" not in text and "SECRET" not in text and len(text) < 10_000
    assert _accepted(listener) == 0


def test_xml_bytes_with_an_encoding_declaration_are_not_re_decoded():
    page = '<?xml version="1.0" encoding="utf-16"?><html><body><div><p>Grüße aus der Stadt, ein Satz.</p></div></body></html>'
    result = extract(page.encode("utf-8"), config=CONFIG)
    assert result.status in (Status.OK, Status.EMPTY) and "\ufffd" not in result.text


# ------------------------------------------------------------------ hostile model files
# (tests/test_model.py covers the checksum of arrays.npz, the format version, missing
# files, invalid JSON and object arrays; these are the cases it does not.)


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    return save_model(default_model("svm"), tmp_path / "model")


def _edit_json(directory: Path, edit) -> None:
    document = json.loads((directory / "model.json").read_text(encoding="utf-8"))
    (directory / "model.json").write_text(json.dumps(edit(document)), encoding="utf-8")


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: [d],
        lambda d: {k: v for k, v in d.items() if k != "format_version"},
        lambda d: {**d, "format_version": "1"},
        lambda d: {k: v for k, v in d.items() if k != "arrays_sha256"},
        lambda d: {**d, "config": {**d["config"], "exec": "import os"}},
        lambda d: {**d, "svm": {**d["svm"], "gamma": "fast"}},
    ],
    ids=["not-an-object", "no-version", "version-as-text", "no-checksum", "unknown-config-key", "bad-scalar"],
)
def test_malformed_model_json_is_refused_with_a_model_error(saved, edit):
    _edit_json(saved, edit)
    with pytest.raises(ModelError, match=re.escape(str(saved))):
        load_model(saved)


def test_a_boolean_format_version_is_refused(saved):
    _edit_json(saved, lambda d: {**d, "format_version": True})
    with pytest.raises(ModelError):
        load_model(saved)


def test_an_unknown_kernel_is_refused(saved):
    _edit_json(saved, lambda d: {**d, "svm": {**d["svm"], "kernel": "os.system"}})
    with pytest.raises(ModelError):
        load_model(saved)


def test_deeply_nested_model_json_is_refused_with_a_model_error(saved):
    (saved / "model.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(ModelError):
        load_model(saved)


def test_an_edited_lexicon_is_refused(saved):
    _edit_json(saved, lambda d: {**d, "lexicon": {**d["lexicon"], "words": {w: 0.0 for w in d["lexicon"]["words"]}}})
    with pytest.raises(ModelError):
        load_model(saved)


class _Runs:
    ran: list[str] = []

    def __reduce__(self):
        return (_Runs.ran.append, ("unpickled",))


def test_an_extra_pickled_member_in_arrays_npz_never_runs(saved):
    with np.load(saved / "arrays.npz") as npz:
        arrays = {k: npz[k] for k in npz.files}
    buffer = io.BytesIO()
    np.savez(buffer, **arrays, extra=np.array([_Runs()], dtype=object))
    (saved / "arrays.npz").write_bytes(buffer.getvalue())
    _edit_json(saved, lambda d: {**d, "arrays_sha256": hashlib.sha256(buffer.getvalue()).hexdigest()})
    _Runs.ran.clear()
    with pytest.raises(ModelError):
        load_model(saved)
    assert _Runs.ran == []


@pytest.mark.parametrize("module", ["model.py", "modeldir.py"])
def test_model_loading_code_has_no_way_to_run_code(module):
    tree = ast.parse((REPO / "webclean" / module).read_text(encoding="utf-8"))
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
                for alias in node.names} | {node.module.split(".")[0] for node in ast.walk(tree)
                                            if isinstance(node, ast.ImportFrom) and node.module}  # fmt: skip
    assert not imported & {"pickle", "joblib", "dill", "cloudpickle", "marshal", "shelve", "importlib", "yaml"}
    called = {node.func.id for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    assert not called & {"eval", "exec", "compile", "__import__", "getattr"}
