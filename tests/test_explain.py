"""webclean.explain and ``webclean extract --explain``: each unit's decision and fate."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from webclean.classifier import SVMParams
from webclean.cli import main
from webclean.config import Config
from webclean.explain import (
    AS_IS,
    CREDIT,
    DROPPED,
    EMPTY_LABEL,
    FURNITURE,
    KEPT,
    LINK_RUN,
    NOTICE,
    PARTLY_KEPT,
    POST,
    POST_REST,
    UNSURE_TAIL,
    explain,
)  # fmt: skip
from webclean.extract import extract
from webclean.features import SVM_WIDTHS
from webclean.lexicon import NoiseLexicon
from webclean.model import Model

GOLDEN = sorted(p for p in (Path(__file__).parent / "golden").iterdir() if (p / "source.html").is_file())
BLOG = Path(__file__).parent / "golden" / "en-blog-sidebar-comments" / "source.html"


@pytest.mark.parametrize("method", ["svm", "paper"])
@pytest.mark.parametrize("page", GOLDEN, ids=lambda p: p.name)
def test_the_explanation_is_the_extraction_unit_by_unit(page, method):
    html = (page / "source.html").read_bytes()
    config = Config(method=method)
    explanation, result = explain(html, config=config), extract(html, config=config)
    assert explanation.text == result.text
    assert (explanation.status, explanation.block_path) == (result.status, result.block_path)


def test_each_outcome_comes_with_its_decision():
    explanation = explain(BLOG.read_bytes())
    by_text = {unit.text: unit for unit in explanation.units}
    share = by_text["Facebook"]
    assert share.outcome == LINK_RUN and share.decision is None and share.kept == ""
    story = next(u for u in explanation.units if u.text.startswith("The rear wheel of the old touring bike"))
    assert story.outcome == KEPT and story.decision > 0 and story.kept == story.text and story.region == "block"
    reply = by_text["Leave a Reply"]  # the comment form's heading
    assert reply.outcome == DROPPED and reply.decision < 0 and reply.kept == ""
    assert {u.region for u in explanation.units} == {"before", "block"}


def _length_model() -> Model:
    """Method paper's features, a linear SVM that says content when L (a length) is 15 or more."""
    width = 5
    unit_l = np.zeros((1, width))
    unit_l[0, 2] = 1.0
    svm = SVMParams("linear", np.zeros(width), np.ones(width), unit_l, np.ones(1), -15.0, gamma=1.0)
    return Model(NoiseLexicon(words={}, marks={}), svm, Config(method="paper"), "paper")


def test_a_threads_posts_and_the_rest_of_their_records_are_told_apart():
    thread = Path(__file__).parent / "golden" / "zh-forum-thread" / "source.html"
    units = explain(thread.read_bytes()).units
    reply = next(u for u in units if u.text.startswith("同意楼上"))
    assert reply.outcome == POST and reply.kept == reply.text
    label = next(u for u in units if u.text == "积分" and u.decision is not None)
    assert label.outcome == POST_REST and label.kept == ""
    assert not any(u.outcome in (POST, POST_REST) for u in explain(BLOG.read_bytes()).units)


def test_a_credit_line_is_told_apart_and_dropped():
    body = "本报讯 记者从市环保局获悉，今年以来全市空气质量优良天数比例同比提高了五个百分点，细颗粒物浓度继续下降。"
    html = f"<html><body><div><p>{body}</p><p>{body}</p><p>（责任编辑：张三）</p></div></body></html>"
    explanation = explain(html)
    credit = next(u for u in explanation.units if "责任编辑" in u.text)
    assert credit.outcome == CREDIT and credit.kept == ""
    assert "责任编辑" not in explanation.text and explanation.text == extract(html).text


def _keep_all_model(decision: float = 1.0) -> Model:
    """Method svm's features, an SVM that calls every unit content, at this decision."""
    width = SVM_WIDTHS["rich"]
    svm = SVMParams("linear", np.zeros(width), np.ones(width), np.zeros((1, width)), np.zeros(1), decision, gamma=1.0)
    return Model(NoiseLexicon(words={}, marks={}), svm, Config(method="svm"), "rich")


def test_an_empty_label_is_told_apart_and_dropped():
    body = "The council met on Monday to discuss the new bridge over the river, and voted to fund it in full."
    html = f"<html><body><div><p>{body}</p><p>Ingredients:</p><p>{body}</p><p>Last modified:</p></div></body></html>"
    model = _keep_all_model()
    explanation = explain(html, model=model)
    outcomes = {unit.text: unit.outcome for unit in explanation.units}
    # A label over a kept line stays; one that ends the text labels nothing kept.
    assert outcomes == {body: KEPT, "Ingredients:": KEPT, "Last modified:": EMPTY_LABEL}
    assert explanation.text == extract(html, model=model).text == f"{body}\nIngredients:\n{body}"


def test_a_notice_is_told_apart_and_dropped():
    body = "The council met on Monday to discuss the new bridge over the river, and voted to fund it in full."
    html = f"<html><body><div><p>{body}</p><p>Sign up for our newsletter</p><p>{body}</p></div></body></html>"
    model = _keep_all_model()
    outcomes = {unit.text: unit.outcome for unit in explain(html, model=model).units}
    assert outcomes == {body: KEPT, "Sign up for our newsletter": NOTICE}
    assert extract(html, model=model).text == f"{body}\n{body}"


def test_an_unsure_line_of_the_tail_is_told_apart_and_dropped():
    body = " ".join(["The council met on Monday to discuss the new bridge over the river, and voted to fund it."] * 2)
    html = f"<html><body><div><p>{body}</p><p>Thanks to our newsroom</p><p>本报记者 张三</p></div></body></html>"
    model = _keep_all_model(decision=0.5)
    outcomes = {unit.text: unit.outcome for unit in explain(html, model=model).units}
    assert outcomes == {body: KEPT, "Thanks to our newsroom": UNSURE_TAIL, "本报记者 张三": KEPT}
    assert extract(html, model=model).text == f"{body}\n本报记者 张三"


def test_the_noise_filter_and_table_cells_are_told_apart():
    html = (
        "<html><body><div>"
        "<p>The council met on Monday to discuss the new bridge over the river. Subscribe now.</p>"
        "<p>Engineers said the work would take two more years to finish.</p>"
        "<table><tr><td>Cell text</td></tr></table><p><a href='/'>Home</a></p>"
        "</div></body></html>"
    )
    model = _length_model()
    explanation = explain(html, config=Config(method="paper"), model=model)
    outcomes = {unit.text: (unit.outcome, unit.kept) for unit in explanation.units}
    long_unit = "The council met on Monday to discuss the new bridge over the river. Subscribe now."
    assert outcomes[long_unit] == (PARTLY_KEPT, "The council met on Monday to discuss the new bridge over the river.")
    assert outcomes["Cell text"] == (AS_IS, "Cell text")
    assert outcomes["Home"] == (DROPPED, "")
    assert explanation.text == extract(html, config=Config(method="paper"), model=model).text


def test_a_page_that_fails_before_the_classifier_has_no_units():
    explanation = explain(b"%PDF-1.7\n" + bytes(range(256)))
    assert explanation.status == "not_html" and explanation.units == () and explanation.block_path is None


def test_methods_without_a_classifier_cannot_explain():
    with pytest.raises(ValueError, match="classifier"):
        explain(BLOG.read_bytes(), config=Config(method="blocks"))


def test_the_command_prints_a_table_or_json(capsys):
    assert main(["extract", "--explain", str(BLOG)]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].startswith("method svm · status ok · block /html/body/")
    assert any(line.startswith("link run") and "Facebook" in line for line in table)
    assert main(["extract", "--explain", "--json", str(BLOG), str(BLOG)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(rows) == 2 and rows[0]["source_file"] == str(BLOG)
    assert {KEPT, DROPPED, LINK_RUN} <= {unit["outcome"] for unit in rows[0]["units"]}
    # The post's "Previous post / Next post" links are a <nav>, the page's furniture:
    # dropped by the classifier, or by the furniture pass where the classifier keeps them.
    (links,) = [unit for unit in rows[0]["units"] if unit["text"].startswith("Previous post:")]
    assert links["outcome"] in (DROPPED, FURNITURE) and links["kept"] == ""
    assert main(["extract", "--explain", "--method", "blocks", str(BLOG)]) == 2


def test_a_page_read_again_without_scripts_is_explained_as_it_is_extracted():
    paragraph = "The night buses return to the city's five main lines from Monday, the transport office said. " * 2
    article = f"<p>{paragraph}</p><p>{paragraph}</p>"
    page = (
        "<html><head><title>Night buses</title></head><body><div class='post-body'>"
        f"<script type='text/template'>{article}</script><noscript>{article}</noscript></div></body></html>"
    )
    explanation, result = explain(page), extract(page)
    assert result.text and explanation.text == result.text and explanation.block_path == result.block_path
