"""webclean.extract: one page in, one Extraction out, whatever the page is."""

from __future__ import annotations

import dataclasses
import importlib
import random
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webclean.classifier import SVMParams
from webclean.config import Config, ParseConfig
from webclean.extract import _with_noscript, extract
from webclean.features import FEATURE_WIDTHS
from webclean.lexicon import NoiseLexicon
from webclean.model import Model, ModelError, default_model
from webclean.registry import classifier_spec
from webclean.result import Extraction, Status

METHODS = ("svm", "paper")
GBK_PAGE = Path(__file__).parent / "golden" / "zh-gbk-meta-gb2312" / "source.html"

HEADING = "Night buses return to the river route"
PARAGRAPHS = [
    "The night bus along the river route returns on Monday after a year without service, the transport board said in a statement on Friday afternoon.",
    "Buses will leave the central station every twenty minutes between midnight and five in the morning, stopping at the hospital, the university and the ferry terminal.",
    "Shift workers at the hospital had asked for the route to come back since it was cut last spring, when the operator could not find enough drivers for the late hours.",
    "The board said that six new drivers had finished their training and that the route would be reviewed again after six months of passenger counts.",
]
ARTICLE_ONLY = (
    "<html><head><title>Night buses return | City Transport News</title></head><body>"
    f"<div class='article'><h1>{HEADING}</h1>" + "".join(f"<p>{p}</p>" for p in PARAGRAPHS) + "</div></body></html>"
)
ARTICLE_WITH_NOISE = (
    "<!DOCTYPE html><html><head><meta charset='utf-8'><title>Night buses return | City Transport News</title></head><body>"
    "<div class='nav'><a href='/'>Home</a> <a href='/news'>News</a> <a href='/travel'>Travel</a> <a href='/contact'>Contact</a></div>"
    f"<div class='article'><h1>{HEADING}</h1>" + "".join(f"<p>{p}</p>" for p in PARAGRAPHS) + "</div>"
    "<div class='footer'><a href='/about'>About us</a> | <a href='/privacy'>Privacy</a> | <a href='/terms'>Terms</a></div>"
    "</body></html>"
)
ZH_ARTICLE = (
    "<html><head><meta charset='utf-8'><title>河道清淤工程下月开工</title></head><body>"
    "<div class='nav'><a href='/'>首页</a> <a href='/news'>新闻</a> <a href='/about'>关于我们</a></div>"
    "<div class='content'>"
    "<p>记者从市水务局获悉，城区三条主要河道的清淤工程将于下月开工，预计工期四个月，汛期到来之前完成主体施工。</p>"
    "<p>据介绍，这次清淤总长度约十二公里，施工期间将分段围堰作业，沿河步道部分路段会临时封闭，市民出行请留意现场提示。</p>"
    "<p>水务局有关负责人表示，清淤完成后，河道的行洪能力将明显提高，沿岸低洼小区的积水问题也有望得到缓解。</p>"
    "</div></body></html>"
)
# Every line is a link: no line counts for Step 1 under either method (r = 1 > θ).
LINKS_ONLY = (
    "<html><head><title>Site map</title></head><body><div class='nav'>"
    + "".join(f"<p><a href='/s{i}'>Section number {i} of the site</a></p>" for i in range(12))
    + "</div></body></html>"
)


def constant_model(method: str, label: int) -> Model:
    """A model whose SVM calls every unit content (label 1) or noise (label 0)."""
    feature_set = classifier_spec(method).feature_set
    width = FEATURE_WIDTHS[feature_set]
    svm = SVMParams(
        kernel="linear",
        scale_min=np.zeros(width),
        scale_factor=np.ones(width),
        support_vectors=np.zeros((1, width)),
        dual_coef=np.zeros(1),
        intercept=1.0 if label == 1 else -1.0,
        gamma=1.0,
    )
    return Model(NoiseLexicon(words={}, marks={}), svm, Config(method=method), feature_set)


def test_pdf_bytes_are_not_html():
    pdf = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n" + bytes(range(256))
    result = extract(pdf)
    assert result.status == Status.NOT_HTML
    assert result.text == ""
    assert result.error == "a PDF document"


@pytest.mark.parametrize("data", [b"", b"  \r\n\t ", ""], ids=["no-bytes", "whitespace-bytes", "empty-str"])
def test_empty_input_is_empty(data):
    result = extract(data)
    assert result.status == Status.EMPTY
    assert result.text == ""
    assert result.error


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (random.Random(0).randbytes(3000), "binary data"),
        (b"", "empty body"),
        (b"Just a line of plain text, no markup at all.\n", "plain text without markup"),
        (b"PK\x03\x04\x14\x00\x00\x00", "compressed or archived data (zip, gzip, ...)"),
    ],
    ids=["random-bytes", "empty", "plain-text", "zip"],
)
def test_a_body_that_is_not_html_is_said_to_be_what_it_is(data, reason):
    assert extract(data).error == reason


@pytest.mark.parametrize("as_bytes", [True, False], ids=["bytes", "str"])
def test_page_over_max_bytes_is_too_large(as_bytes):
    config = Config().with_overrides(["limits.max_bytes=100"])
    page = ARTICLE_WITH_NOISE.encode("utf-8") if as_bytes else ARTICLE_WITH_NOISE
    result = extract(page, config=config)
    assert result.status == Status.TOO_LARGE
    assert result.text == ""
    assert "max_bytes" in result.error
    # The same page under the default limit is extracted.
    assert extract(page).status == Status.OK


def _assert_a_result(result: Extraction) -> None:
    assert isinstance(result, Extraction)
    assert result.status in set(Status)
    assert result.status != Status.ERROR, result.error
    assert isinstance(result.text, str)
    assert (result.status == Status.OK) == bool(result.text)


# Random bytes, and random bytes behind a tag so that they reach the parser and Step 1.
_BYTES = st.binary(max_size=3000) | st.binary(max_size=2000).map(lambda b: b"<html><body><div><p>" + b + b"</p>")
_TEXT = st.text(max_size=2000) | st.text(max_size=1000).map(lambda t: f"<div><p>{t}</p><td>{t}<br>{t}</td></div>")


@pytest.mark.parametrize("method", METHODS)
@settings(max_examples=60, deadline=None)
@given(data=_BYTES)
def test_any_bytes_give_a_result(method, data):
    _assert_a_result(extract(data, config=Config(method=method)))


@pytest.mark.parametrize("method", METHODS)
@settings(max_examples=40, deadline=None)
@given(text=_TEXT)
def test_any_text_gives_a_result(method, text):
    _assert_a_result(extract(text, config=Config(method=method)))


@pytest.mark.parametrize(
    ("as_bytes", "as_str"),
    [
        (ZH_ARTICLE.encode("utf-8"), ZH_ARTICLE),
        (GBK_PAGE.read_bytes(), GBK_PAGE.read_bytes().decode("gbk")),
    ],
    ids=["utf-8", "gbk"],
)
@pytest.mark.parametrize("method", METHODS)
def test_str_and_bytes_give_the_same_text(method, as_bytes, as_str):
    config = Config(method=method)
    from_bytes, from_str = extract(as_bytes, config=config), extract(as_str, config=config)
    assert from_bytes.status == from_str.status == Status.OK
    assert from_bytes.text == from_str.text
    assert from_bytes.title == from_str.title


# A block of short lines alone: no paragraph of prose for method svm's last pass to keep.
SHORT_LINES_ONLY = (
    "<html><head><title>Timetable | City Transport News</title></head><body><div class='timetable'>"
    + "".join(f"<p>Night bus {n}: every twenty minutes.</p>" for n in range(1, 9))
    + "</div></body></html>"
)


@pytest.mark.parametrize("method", METHODS)
def test_every_unit_noise_gives_empty_with_a_reason(method):
    result = extract(SHORT_LINES_ONLY, config=Config(method=method), model=constant_model(method, 0))
    assert result.status == Status.EMPTY
    assert result.text == ""
    assert "noise" in result.error
    assert result.block_path  # the block was found; its units were all dropped


@pytest.mark.parametrize("method", ["svm", "paper"])
def test_every_unit_noise_is_an_empty_page_whatever_its_prose(method):
    # No rule overrides the classifier's decisions into keeping a block it dropped.
    result = extract(ARTICLE_ONLY, config=Config(method=method), model=constant_model(method, 0))
    assert result.status == Status.EMPTY and result.text == ""
    kept = extract(ARTICLE_ONLY, config=Config(method=method), model=constant_model(method, 1))
    assert set(PARAGRAPHS) <= set(kept.text.splitlines())


@pytest.mark.parametrize("method", METHODS)
def test_page_of_links_only_is_empty_with_a_reason(method):
    result = extract(LINKS_ONLY, config=Config(method=method))
    assert result.status == Status.EMPTY
    assert result.text == ""
    assert result.error


@pytest.mark.parametrize("method", METHODS)
def test_text_is_the_kept_units_one_a_line_in_document_order(method):
    # A model that keeps every unit: the text is then exactly the block's units.
    result = extract(ARTICLE_ONLY, config=Config(method=method), model=constant_model(method, 1))
    lines = result.text.split("\n")
    # The paper's units are <p> and <a> only; the improved method's are all lines.
    assert lines == (PARAGRAPHS if method == "paper" else [HEADING, *PARAGRAPHS])


def test_page_whose_text_is_only_in_noscript_is_read_without_scripts():
    # Blogger's template: the post in an inert script and again in <noscript>.
    article = f"<h1>{HEADING}</h1>" + "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
    page = (
        "<html><head><title>Night buses return | City Transport News</title></head><body>"
        "<div class='nav'><a href='/'>Home</a> <a href='/news'>News</a> <a href='/travel'>Travel</a></div>"
        f"<div class='post-body'><script type='text/template'>{article}</script><noscript>{article}</noscript></div>"
        "<div class='footer'><a href='/about'>About us</a> | <a href='/privacy'>Privacy</a></div></body></html>"
    )
    result = extract(page)
    assert result.status == Status.OK
    assert [line for line in result.text.split("\n") if line in PARAGRAPHS] == PARAGRAPHS
    # Where scripts alone already give a text, noscript content is not read.
    with_text = page.replace("<div class='post-body'>", f"<div class='intro'>{ARTICLE_ONLY.split('<body>')[1].split('</body>')[0]}</div><div class='post-body'>")
    assert extract(with_text).text.count(PARAGRAPHS[0]) == 1


def test_page_whose_scripts_show_little_is_read_without_scripts():
    # Discourse's template: the scripted view is the site's header and "Loading"; the
    # thread is in <noscript>, for browsers and crawlers without scripts.
    thread = f"<h1>{HEADING}</h1>" + "".join(f"<div class='post'><p>{p}</p></div>" for p in PARAGRAPHS)
    page = (
        "<html><head><title>Night buses return - City Transport Forum</title></head><body>"
        "<header><h2>City Transport Forum</h2><p>Share and learn with other riders.</p></header>"
        "<section><div>Loading</div></section>"
        f"<noscript><div id='main-outlet'>{thread}</div></noscript></body></html>"
    )
    result = extract(page)
    assert result.status == Status.OK
    assert [line for line in result.text.split("\n") if line in PARAGRAPHS] == PARAGRAPHS
    # A noscript that shows no more than the scripted view (a request to turn scripts
    # on) leaves that view as it is.
    notice = page.replace(f"<div id='main-outlet'>{thread}</div>", "<p>Please enable JavaScript.</p>")
    notice = notice.replace("<div>Loading</div>", f"<article><p>{PARAGRAPHS[0]}</p></article>")
    result = extract(notice)
    assert PARAGRAPHS[0] in result.text
    assert "JavaScript" not in result.text


def test_packaged_model_keeps_paragraphs_as_lines_in_order():
    lines = extract(ARTICLE_WITH_NOISE).text.split("\n")
    assert [line for line in lines if line in PARAGRAPHS] == PARAGRAPHS
    assert "About us" not in "\n".join(lines)


@pytest.mark.parametrize("method", METHODS)
def test_title_is_filled(method):
    result = extract(ARTICLE_WITH_NOISE, config=Config(method=method))
    assert result.title == "Night buses return | City Transport News"
    assert result.method == method


def test_extraction_is_frozen():
    result = extract(ARTICLE_WITH_NOISE)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.text = "something else"  # type: ignore[misc]


@pytest.mark.parametrize(("method", "other"), [("svm", "paper"), ("paper", "svm")])
def test_model_of_the_other_method_is_refused(method, other):
    with pytest.raises(ModelError, match=f"--method {method}"):
        extract(ARTICLE_WITH_NOISE, config=Config(method=method), model=default_model(other))


def test_slow_step_times_out(monkeypatch):
    calls = []

    def slow_denoise(*args, **kwargs):
        calls.append(1)
        stop = time.monotonic() + 60  # bounded: if the limit never fires, the test fails instead of hanging
        while time.monotonic() < stop:
            time.sleep(0.01)
        return ["not interrupted"]

    monkeypatch.setattr(importlib.import_module("webclean.extract"), "denoise", slow_denoise)
    config = Config().with_overrides(["limits.timeout_seconds=0.2"])
    model = default_model("svm")  # loaded outside the limit, so only the slow step can exceed it
    result = extract(ARTICLE_WITH_NOISE, config=config, model=model)
    assert calls, "the patched step was not reached"
    assert result.status == Status.TIMEOUT
    assert result.text == ""
    assert "timeout_seconds" in result.error


def test_what_a_process_loads_on_its_first_page_does_not_count_against_the_pages_limit(monkeypatch):
    # A worker's first page loads the packaged model and the language detector's; on a
    # busy machine that took longer than a tight limit, and the page timed out.
    extract_module = importlib.import_module("webclean.extract")
    model_module = importlib.import_module("webclean.model")
    loads = []

    def slow_language(text, declared, settings):
        loads.append(1)
        time.sleep(0.5)
        return "en"

    def slow_default_model(method="svm"):
        loads.append(1)
        time.sleep(0.5)
        return model_module.load_directory(model_module.MODELS_DIR / method)

    monkeypatch.setattr(extract_module, "page_language", slow_language)
    monkeypatch.setattr(extract_module, "default_model", slow_default_model)
    result = extract(ARTICLE_WITH_NOISE, config=Config().with_overrides(["limits.timeout_seconds=0.3"]))
    assert len(loads) == 2
    assert result.status == Status.OK and result.lang == "en" and result.text


def test_a_drop_down_of_months_does_not_outweigh_the_article():
    # A blog's sidebar: an archive's <select> holds more characters than the post.
    names = "January February March April May June July August September October November December".split()
    months = "".join(f"<option>{name} {year} ({n})</option>" for year in range(2009, 2020) for n, name in enumerate(names))
    post = [
        "The parser reads the whole file once and builds an index of its structure before any value is decoded.",
        "On a laptop it sustained two gigabytes a second, against a tenth of that for the library it replaced.",
        "The next release will stream documents larger than memory, which the index makes possible.",
    ]
    page = (
        "<html><body><div id='page'><div id='primary'><h1>Parsing JSON quickly</h1>"
        + "".join(f"<p>{text}</p>" for text in post)
        + "</div><div id='secondary'><h2>Archives</h2><select name='archive'>"
        + months
        + "</select><button>Go</button></div></div></body></html>"
    )
    text = extract(page).text
    assert all(sentence in text for sentence in post)
    assert "December 2019" not in text


def test_a_page_in_a_script_link_is_extracted():
    page = '<html><body><a href="javascript:"><p>abc</p><p>def</p>ghi</a></body></html>'
    assert extract(page).text.split() == ["abc", "def", "ghi"]


def test_a_page_over_the_element_cap_is_too_large():
    page = "<html><body>" + "<p>a line</p>" * 600 + "</body></html>"
    config = Config().with_overrides(["limits.max_elements=500"])
    result = extract(page, config=config)
    assert result.status == Status.TOO_LARGE and "limits.max_elements = 500" in result.error
    assert extract(page, config=Config().with_overrides(["limits.max_elements=1000"])).status != Status.TOO_LARGE


def test_running_out_of_memory_is_named_as_such(monkeypatch):
    def out_of_memory(*args, **kwargs):
        raise MemoryError

    # webclean.extract names the function: the module is reached by its full name.
    monkeypatch.setattr(importlib.import_module("webclean.extract"), "parse_html", out_of_memory)
    result = extract("<p>a page</p>")
    assert result.status == Status.TOO_LARGE and result.error.startswith("MemoryError")


def test_when_a_page_is_read_without_scripts_is_a_setting():
    # The Blogger page above: its scripted view finds no text, under parse.noscript_short.
    article = f"<h1>{HEADING}</h1>" + "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
    page = f"<html><body><div class='post-body'><script type='text/template'>{article}</script><noscript>{article}</noscript></div></body></html>"
    assert PARAGRAPHS[0] in extract(page).text
    assert extract(page, config=Config().with_overrides(["parse.noscript_short=0"])).text == ""
    # parse.noscript_gain (3): the view without scripts must show more than 3 times the text.
    views = {False: SimpleNamespace(text="s" * 50), True: SimpleNamespace(text="n" * 160)}
    noscript_page = "<noscript>the post</noscript>"
    assert _with_noscript(noscript_page, views.__getitem__, ParseConfig()).text == views[True].text
    assert _with_noscript(noscript_page, views.__getitem__, ParseConfig(noscript_gain=4.0)).text == views[False].text
