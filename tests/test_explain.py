"""webclean.explain and ``webclean extract --explain``: each unit's decision and fate."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from webclean.classifier import SVMParams
from webclean.cli import main
from webclean.config import Config
from webclean.explain import AS_IS, DROPPED, FURNITURE, KEPT, PARTLY_KEPT, POST, POST_REST, REPEAT, explain
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
    assert share.outcome == DROPPED and share.decision < 0 and share.kept == ""
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


def _keep_all_model(decision: float = 1.0) -> Model:
    """Method svm's features, an SVM that calls every unit content, at this decision."""
    width = SVM_WIDTHS["rich"]
    svm = SVMParams("linear", np.zeros(width), np.ones(width), np.zeros((1, width)), np.zeros(1), decision, gamma=1.0)
    return Model(NoiseLexicon(words={}, marks={}), svm, Config(method="svm"), "rich")


def test_a_passage_shown_twice_is_told_apart_and_dropped():
    description = "A wheel thrown mug with a matte speckled finish and a clear glazed interior."
    care = "Suitable for dishwashers and microwave ovens; avoid rapid heating and cooling."
    html = (
        f"<html><body><div class='product'><h1>White speckle mug</h1><p>{description}</p><p>{care}</p></div>"
        f"<div class='tabs'><div class='tab'><p>{description}</p><p>{care}</p></div></div></body></html>"
    )
    model = _keep_all_model()
    explanation = explain(html, model=model)
    assert [unit.outcome for unit in explanation.units] == [KEPT, KEPT, KEPT, REPEAT, REPEAT]
    assert explanation.text == extract(html, model=model).text == f"White speckle mug\n{description}\n{care}"


def test_a_line_of_the_pages_furniture_is_told_apart_and_dropped():
    body = "The council met on Monday to discuss the new bridge over the river, and voted to fund it in full."
    html = f"<html><body><div><p>{body}</p><p>{body}</p><footer><p>About the paper and its staff</p></footer></div></body></html>"
    model = _keep_all_model()
    outcomes = {unit.text: unit.outcome for unit in explain(html, model=model).units}
    assert outcomes == {body: KEPT, "About the paper and its staff": FURNITURE}
    assert extract(html, model=model).text == f"{body}\n{body}"


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
    assert any(line.startswith("dropped") and "Facebook" in line for line in table)
    assert main(["extract", "--explain", "--json", str(BLOG), str(BLOG)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(rows) == 2 and rows[0]["source_file"] == str(BLOG)
    assert {KEPT, DROPPED} <= {unit["outcome"] for unit in rows[0]["units"]}
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


def test_the_header_shows_the_confidence_where_there_is_one():
    from webclean.explain import Explanation

    typed = Explanation("ok", None, "svm", "/html/body/div", (), "article", 0.9)
    assert typed.table().splitlines()[0] == "method svm · status ok · block /html/body/div · page type article (0.90) · 0 units, 0 kept"
    confident = Explanation("ok", None, "svm", "/html/body/div", (), "article", 0.9, confidence=0.734)
    head = confident.table().splitlines()[0]
    assert head == "method svm · status ok · block /html/body/div · page type article (0.90) · confidence 0.73 · 0 units, 0 kept"
    assert confident.to_dict()["confidence"] == 0.734 and typed.to_dict()["confidence"] is None
