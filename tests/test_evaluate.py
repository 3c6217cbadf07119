"""Held-out evaluation: leave one set out, folds of whole sites, and what a site is."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_training import SMALL, synthetic_pages

from webclean.config import Config
from webclean.datasets import Page
from webclean.evaluate import cross_validate, held_out_models, judge, leave_one_set_out
from webclean.splits import JUDGE_FOLDS, SCORE_ONLY, fold_of, judge_flags, judge_sites, registered_domain, select, site_of


def _set(name: str, pages: list[Page]) -> list[Page]:
    return [replace(page, source=name, id=f"{name}/{page.id}") for page in pages]


@pytest.fixture(scope="module")
def sets() -> list[Page]:
    twin_pages = synthetic_pages(range(300, 302))
    return [
        *_set("alpha", synthetic_pages(range(310, 314))),
        *_set("beta", synthetic_pages(range(320, 324))),
        *_set("cleaneval_zh", twin_pages),
        *_set("cwced_cleaneval", twin_pages),
    ]


def _trained_pages(model) -> int:
    return model.metadata["report"]["pages"]


def test_each_set_is_held_out_once_and_never_trains_with_its_twin(sets):
    config = Config().with_overrides(SMALL)
    splits = {held[0].source: (held, model) for held, model in held_out_models(sets, config, by="set")}
    assert sorted(splits) == ["alpha", "beta", "cleaneval_zh", "cwced_cleaneval"]
    for name, (held, _) in splits.items():
        assert {page.source for page in held} == {name}
    assert "cleaneval_zh" in SCORE_ONLY
    # alpha left out: beta and cwced_cleaneval train; cleaneval_zh never does.
    assert _trained_pages(splits["alpha"][1]) == 4 + 2
    # cleaneval_zh left out: not its twin either, so alpha and beta alone.
    assert _trained_pages(splits["cleaneval_zh"][1]) == 4 + 4
    assert _trained_pages(splits["cwced_cleaneval"][1]) == 4 + 4


def test_leave_one_set_out_scores_every_page_once(sets):
    evaluation = leave_one_set_out(sets, Config().with_overrides(SMALL))
    assert sorted(r.score.page_id for r in evaluation.results) == sorted(page.id for page in sets)
    assert set(evaluation.summary()) == {"alpha", "beta", "cleaneval_zh", "cwced_cleaneval", "all"}


def test_held_out_models_trained_in_processes_score_as_in_one(sets):
    config = Config().with_overrides(SMALL)
    alone = leave_one_set_out(sets, config)
    side_by_side = leave_one_set_out(sets, config, jobs=2)
    # The same pages in the same order, with the same scores: the same models.
    assert [(r.score.page_id, r.score.token) for r in side_by_side.results] == [(r.score.page_id, r.score.token) for r in alone.results]
    assert side_by_side.summary()["all"]["token_f1"] == alone.summary()["all"]["token_f1"]


def test_a_group_with_no_page_to_score_trains_no_model(sets, monkeypatch):
    from webclean import evaluate

    assert not any(judge_flags(sets))
    trained = []
    monkeypatch.setattr(evaluate._Trainer, "model", lambda self, indices: trained.append(indices))
    assert leave_one_set_out(sets, Config().with_overrides(SMALL), split="judge").results == []
    assert trained == []


def test_site_folds_keep_each_site_on_one_side():
    pages = synthetic_pages(range(330, 342))
    sites = ["a.example.com", "b.example.com", "www.other.org", "news.site.co.uk"]
    pages = [replace(page, url=f"https://{sites[i % 4]}/{i}") for i, page in enumerate(pages)]
    config = Config().with_overrides(SMALL)
    seen = []
    for held, model in held_out_models(pages, config, by="site", folds=3):
        held_sites = {site_of(page) for page in held}
        seen.extend(page.id for page in held)
        assert _trained_pages(model) == sum(site_of(page) not in held_sites for page in pages)
    assert sorted(seen) == sorted(page.id for page in pages)
    evaluation = cross_validate(pages, config, 3, by="site")
    assert len(evaluation.results) == len(pages)


def test_a_site_is_a_registered_domain():
    assert registered_domain("https://news.bbc.co.uk/a/b.html") == "bbc.co.uk"
    assert registered_domain("www.example.com") == "example.com"
    assert registered_domain("localhost") is None
    assert registered_domain(None) is None
    page = Page(id="1", source="s", url=None, lang="en", html="<html><body><p>x</p></body></html>", text="x")
    canonical = '<html><head><link rel="Canonical" href="https://blog.example.org/post"></head><body><p>x</p></body></html>'
    assert site_of(replace(page, html=canonical)) == "example.org"
    assert site_of(replace(page, url="https://m.example.net/x", html=canonical)) == "example.net"
    assert site_of(replace(page, site="163")) == "163"  # a set's own site name, not a host
    # Without any address a page is its own site, the same for the same HTML (twins).
    assert site_of(page) == site_of(replace(page, source="other")) != site_of(replace(page, html="<p>y</p>"))


def test_groups_by_language_and_page_type():
    pages = synthetic_pages(range(350, 356))
    pages = [replace(page, page_type="listing" if i % 2 else "article") for i, page in enumerate(pages)]
    config = Config().with_overrides(SMALL)
    evaluation = cross_validate(pages, config, 2, by="page")
    assert set(evaluation.summary("page_type")) == {"article", "listing", "all"}
    assert evaluation.summary("page_type")["listing"]["pages"] == 3
    assert "| page type |" in evaluation.table()


def test_unknown_grouping_is_refused():
    with pytest.raises(ValueError, match="site, page or judge"):
        list(held_out_models([], Config(), by="domain"))


def _sites(name: str, pages: list[Page], sites: list[str]) -> list[Page]:
    return [replace(page, source=name, id=f"{name}/{page.id}", site=sites[i % len(sites)]) for i, page in enumerate(pages)]


def test_the_judge_split_is_a_fifth_of_a_large_sets_sites_and_one_of_a_small_sets():
    many = [f"site{k}.com" for k in range(40)]
    pages = _sites("wcxb_dev", synthetic_pages(range(400, 440)), many) + _sites("tt_zh_dev", synthetic_pages(range(440, 448)), ["a.cn", "b.cn", "c.cn", "d.cn"])
    judged = judge_sites(pages)
    assert {site for site in many if site in judged} == {site for site in many if fold_of(site, JUDGE_FOLDS) == 0}
    assert 0 < len(judged & set(many)) < len(many) / 2
    assert len(judged & {"a.cn", "b.cn", "c.cn", "d.cn"}) == 1
    # A page of another set at a judge site is judged too; a set without a split gives no site.
    stray = replace(pages[0], source="readability", id="r/1")
    assert judge_flags([*pages, stray])[-1] == (site_of(pages[0]) in judged)
    assert judge_sites(_sites("readability", synthetic_pages(range(400, 410)), many)) == frozenset()
    dev, held = select(pages, "dev"), select(pages, "judge")
    assert len(dev) + len(held) == len(pages) == len(select(pages, "all"))
    assert {site_of(page) for page in held} <= judged and not {site_of(page) for page in dev} & judged
    with pytest.raises(ValueError, match="split"):
        select(pages, "test")


def test_the_judge_split_never_trains_and_site_folded_sets_are_left_out_a_site_at_a_time():
    config = Config().with_overrides(SMALL)
    pages = [*_set("alpha", synthetic_pages(range(450, 454))), *_sites("tt_zh_dev", synthetic_pages(range(454, 462)), ["a.cn", "b.cn", "c.cn", "d.cn"])]
    judged = judge_flags(pages)
    assert sum(judged) == 2
    splits = list(held_out_models(pages, config, by="set"))
    assert len(splits) == 1 + 4  # alpha, and each of tt_zh_dev's sites alone
    for held, model in splits:
        trained_outside = sum(not flag for page, flag in zip(pages, judged) if page not in held)
        assert _trained_pages(model) == trained_outside
    ((held, model),) = held_out_models(pages, config, by="judge")
    assert [page.id for page in held] == [page.id for page, flag in zip(pages, judged) if flag]
    assert _trained_pages(model) == len(pages) - 2
    scored = {r.score.page_id for r in leave_one_set_out(pages, config).results}
    assert scored == {page.id for page, flag in zip(pages, judged) if not flag}
    assert {r.score.page_id for r in judge(pages, config).results} == {page.id for page in held}
