"""Which pages may train and which may judge: sites, folds and the judge split.

A page's *site* is the unit that every held-out measure keeps on one side. The *judge
split* holds whole sites of the large modern sets back from every choice: their pages
never train a model that is measured, and the development tools (the leave-one-set-out
and site-fold figures, the screens of failing pages) never score them. They are scored
only to report, beside those figures, how the method does on sites nobody chose a rule,
a feature or a threshold by (docs/quality.md, "How it is measured").

The split is fixed by hashes of the sites' names, so it is the same on every machine
and for every version of the code: in ``wcxb_dev`` and ``dragnet`` the sites of fold 0
of JUDGE_FOLDS (:func:`fold_of`), a fifth; in ``tt_zh_dev``, which holds four sites, the
one whose hash is lowest.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from functools import lru_cache
from urllib.parse import urlsplit

from lxml import etree
from publicsuffixlist import PublicSuffixList

from webclean.datasets import Page
from webclean.parse import ParseError, parse_html

# Sets that hold the same pages under another gold: a set left out never trains with
# its twin, and folds keep twin pages together (they share their HTML, site_of).
TWINS = {"cleaneval_zh": "cwced_cleaneval", "cwced_cleaneval": "cleaneval_zh"}
# Scored, never trained on, as the packaged models leave them out (webclean/models/README.md):
# cleaneval_zh's gold states no licence; dragnet, trained on with its article as gold
# (datasets.split_comments), lowers readability and wcxb_dev held out.
SCORE_ONLY = frozenset({"cleaneval_zh", "dragnet"})
# Sets of few sites, many pages each: left out one site at a time (leave one set out
# holds out each of their sites as a set of its own), since a site's pages share a template.
SITE_FOLDED = frozenset({"tt_zh_dev"})
# The sets with a judge split, and the share of their sites it takes (1 / JUDGE_FOLDS);
# a set of fewer than JUDGE_FOLDS sites gives one.
JUDGED_SETS = frozenset({"wcxb_dev", "dragnet", "tt_zh_dev"})
JUDGE_FOLDS = 5

SPLITS = ("dev", "judge", "all")


def judge_sites(pages: Iterable[Page]) -> frozenset[str]:
    """The sites of the judge split among ``pages`` (site_of): those of JUDGED_SETS in
    fold 0 of JUDGE_FOLDS, or for a set of fewer sites the one whose hash is lowest."""
    per_set: dict[str, set[str]] = {}
    for page in pages:
        if page.source in JUDGED_SETS:
            per_set.setdefault(page.source, set()).add(site_of(page))
    judged: set[str] = set()
    for sites in per_set.values():
        if len(sites) < JUDGE_FOLDS:
            judged.add(min(sites, key=_hash))
        else:
            judged.update(site for site in sites if fold_of(site, JUDGE_FOLDS) == 0)
    return frozenset(judged)


def judge_flags(pages: Sequence[Page]) -> list[bool]:
    """For each page, whether it belongs to the judge split: its site is a judge site
    (:func:`judge_sites`), whichever set it comes from."""
    sites = [site_of(page) for page in pages]
    judged = judge_sites(pages)
    return [site in judged for site in sites]


def select(pages: Sequence[Page], split: str, flags: Sequence[bool] | None = None) -> list[Page]:
    """The pages of ``split``: ``dev`` (outside the judge split: what development reads
    and chooses by), ``judge`` (the judge split alone) or ``all``; ``flags``: the pages'
    judge_flags, where the caller has them."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {', '.join(SPLITS)}, not {split!r}")
    if split == "all":
        return list(pages)
    flags = judge_flags(pages) if flags is None else flags
    return [page for page, judge in zip(pages, flags) if judge == (split == "judge")]


def site_of(page: Page) -> str:
    """The page's site, the unit that held-out folds keep on one side: the registered
    domain of the site its set names (or that name), else of its URL, else of the
    canonical address its HTML gives; a page with none of these is a site of its own."""
    if page.site:
        return registered_domain(page.site) or page.site
    for address in (page.url, canonical_url(page.html)):
        domain = registered_domain(address)
        if domain:
            return domain
    return page_key(page)


def registered_domain(address: str | None) -> str | None:
    """``news.bbc.co.uk`` for ``https://news.bbc.co.uk/a`` or ``news.bbc.co.uk``, by the
    Public Suffix List; None for what is no host name."""
    if not address:
        return None
    host = urlsplit(address if "//" in address else "//" + address).hostname
    if not host or "." not in host:
        return None
    return _public_suffixes().privatesuffix(host)


@lru_cache(maxsize=1)
def _public_suffixes() -> PublicSuffixList:
    return PublicSuffixList()


_CANONICAL_XPATH = etree.XPath(
    "(//link[translate(@rel, 'CANONICAL', 'canonical')='canonical']/@href"
    " | //meta[@property='og:url']/@content)[1]"
)


def canonical_url(html: str) -> str | None:
    """The page's own address as its HTML states it (canonical link, else og:url)."""
    try:
        found = _CANONICAL_XPATH(parse_html(html))
    except (ParseError, etree.LxmlError, ValueError):
        return None
    address = str(found[0]).strip() if found else ""
    return address or None


def page_key(page: Page) -> str:
    """A page's own key: the hash of its HTML (twins, the same HTML, share it)."""
    return "page:" + hashlib.sha256(page.html.encode("utf-8", "replace")).hexdigest()


def fold_of(key: str, folds: int) -> int:
    """The fold of a group key (a site, a page), fixed for a given number of folds."""
    return _hash(key) % folds


def _hash(key: str) -> int:
    return int.from_bytes(hashlib.sha256(key.encode("utf-8", "replace")).digest()[:8], "big")
