"""benchmarks/screen.py: its baseline decides a page as webclean.extract does."""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import replace
from pathlib import Path

import pytest

import webclean
from webclean.config import Config
from webclean.datasets import Page
from webclean.model import default_model

ROOT = Path(__file__).resolve().parents[1]
GOLDEN_DIR = ROOT / "tests" / "golden"


def _load_screen():
    spec = importlib.util.spec_from_file_location("screen", ROOT / "benchmarks" / "screen.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["screen"] = module
    spec.loader.exec_module(module)
    return module


screen = _load_screen()

_ITEMS = "\n".join(f'<li><a href="/p/{n}">Walnut side table no. {n}, oiled</a></li>' for n in range(30))
# A shop's category page: no og:type of a story, a short intro the classifier keeps
# (a tenth of the block) and the items it drops as links. On a page that says it is a
# story the pass items would leave such a block as the decisions have it.
LISTING = f"""<html><head><title>Side tables</title></head><body>
<nav><a href="/">Home</a> <a href="/tables">Tables</a> <a href="/chairs">Chairs</a></nav>
<main><h1>Side tables</h1>
<p>Our side tables are made by hand in our own workshop from walnut grown in the region, then oiled and waxed twice.</p>
<ul class="products">{_ITEMS}</ul></main>
<footer><p>Shop address and opening hours, written out here for the reader.</p></footer>
</body></html>"""


def _page(name: str, html: str) -> Page:
    return Page(id=name, source="test", url=None, lang="en", html=html, text="")


def _pages() -> list[Page]:
    golden = sorted(path for path in GOLDEN_DIR.iterdir() if (path / "source.html").is_file())
    pages = [_page(path.name, (path / "source.html").read_bytes().decode("utf-8", "replace")) for path in golden]
    return [_page("listing", LISTING), *pages]


@pytest.mark.parametrize("page", _pages(), ids=lambda page: page.id)
def test_the_baseline_decides_a_page_as_extract_does(page):
    config = Config(method=screen.METHOD)
    model = default_model()
    outcome = screen._outcome(page, config, model)
    expected = webclean.extract(page.html, config=config, model=model).text
    assert screen.kept_text(outcome, screen.VARIANTS["baseline"], config) == expected


def test_the_baseline_runs_a_forums_passes_as_extract_does():
    # A forum's page leaves its replies to the classifier (no pass comments): the
    # baseline tells a forum as extract does; here by its address, with a model without
    # a page type model.
    config = Config(method=screen.METHOD)
    model = replace(default_model(), page_types=None)
    story = "The council voted on Tuesday to keep the library open on Sundays, after a petition signed by four thousand residents. "
    replies = "".join(
        f"<li class='comment'><p><a href='/u'>reader{n}</a> says:</p><p>I grew up two streets from that library, and this is "
        f"wonderful news for the families who still use it every week, on Sundays above all ({n}).</p></li>"
        for n in range(3)
    )
    html = (
        "<html><body><div id='main'><h1>Library stays open on Sundays</h1>"
        + f"<p>{story * 2}</p>" * 5
        + f"<div id='comments'><h3>3 comments</h3><ol class='comment-list'>{replies}</ol></div></div></body></html>"
    )
    page = Page(id="forum", source="test", url="https://forum.example.org/t/library-sundays/42", lang="en", html=html, text="")
    outcome = screen._outcome(page, config, model)
    expected = webclean.extract(html, page.url, config=config, model=model).text
    assert expected != webclean.extract(html, config=config, model=model).text  # the replies
    assert screen.kept_text(outcome, screen.VARIANTS["baseline"], config) == expected


def test_a_variant_without_a_pass_leaves_its_lines_to_the_classifier():
    config = Config(method=screen.METHOD)
    outcome = screen._outcome(_page("listing", LISTING), config, default_model())
    furniture = [unit for unit in outcome.units if unit.furniture]
    assert furniture  # the menu before the block
    baseline = screen.kept_text(outcome, screen.VARIANTS["baseline"], config)
    without = screen.kept_text(outcome, screen.VARIANTS["without:furniture"], config)
    assert not any(unit.text in baseline.splitlines() for unit in furniture)
    assert set(baseline.splitlines()) <= set(without.splitlines())


def test_figures_by_page_type_score_each_type_apart():
    config = Config(method=screen.METHOD)
    model = default_model()
    listing = Page(id="l", source="set", url=None, lang="en", html=LISTING, text="Walnut side table no. 3, oiled", page_type="listing")
    article = (GOLDEN_DIR / "en-divs-split-by-ads" / "source.html").read_bytes().decode("utf-8")
    story = Page(id="a", source="set", url=None, lang="en", html=article, text="zzqx", page_type="article")
    results = [screen._outcome(page, config, model) for page in (listing, story)]
    by_type = screen.figures(results, screen.VARIANTS["baseline"], config, types=True)
    assert set(by_type) == {"set", "set:listing", "set:article"}
    assert by_type["set:article"] == 0.0 < by_type["set:listing"]
    assert by_type["set"] == pytest.approx((by_type["set:listing"] + by_type["set:article"]) / 2)
    assert set(screen.figures(results, screen.VARIANTS["baseline"], config)) == {"set"}


def test_a_variant_of_only_some_passes_runs_those_in_the_specs_order():
    assert screen.variant("only:comments+repeats").passes == ("repeats", "comments")
    assert screen.variant("only:").passes == ()
    assert screen.variant("without:furniture").passes == tuple(p for p in screen.SPEC.passes if p != "furniture")
    for unknown in ("only:no_such_pass", "no_such_variant"):
        with pytest.raises(KeyError):
            screen.variant(unknown)


def test_settings_given_reach_the_held_out_models_and_the_decisions(monkeypatch):
    asked = {}

    def fake_outcomes(paths, seed, overrides=()):
        asked["overrides"] = list(overrides)
        return []

    seen = []
    monkeypatch.setattr(screen, "outcomes", fake_outcomes)
    monkeypatch.setattr(screen, "figures", lambda results, variant, config, types=False: seen.append(config) or {})
    screen._seed_figures((["set.jsonl.gz"], 0, ["baseline"], False, ["classifier.second_trees=7"]))
    assert asked["overrides"] == ["classifier.second_trees=7"]
    assert [config.classifier.second_trees for config in seen] == [7]
