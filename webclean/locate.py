"""Step 1 of method.md: locate the one block that holds the main text (θ).

A ``<p>`` counts when its link ratio ``r = La / Lp <= θ``. Every block element
(``<div>`` in the paper) scores the text length of the counted ``<p>``s it reaches
without passing through a nested block element, which is scored on its own; the
block with the highest score wins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import html as lxml_html

from webclean.config import LocateConfig

_SPACE_RE = re.compile(r"\s+")


@dataclass(frozen=True)
class Block:
    element: lxml_html.HtmlElement
    path: str
    score: int


def text_length(text: str) -> int:
    """Characters that are not white space: the paper measures text by its characters."""
    return len(_SPACE_RE.sub("", text))


def link_ratio(p: lxml_html.HtmlElement) -> float:
    """r = La / Lp: the share of a ``<p>``'s text that sits inside its ``<a>``s."""
    total = text_length("".join(p.itertext()))
    if total == 0:
        return 0.0
    linked = sum(text_length("".join(a.itertext())) for a in p.iter("a"))
    return min(1.0, linked / total)


def locate_block(root: lxml_html.HtmlElement, config: LocateConfig) -> Block | None:
    """The block element with the highest score, or None when no ``<p>`` counts."""
    block_tags = frozenset(config.block_tags)
    scores: dict[lxml_html.HtmlElement, int] = {}
    order: dict[lxml_html.HtmlElement, int] = {}
    for p in root.iter("p"):
        length = text_length("".join(p.itertext()))
        if length == 0 or link_ratio(p) > config.theta:
            continue
        owner = _nearest_block(p, block_tags)
        if owner is None:
            continue
        scores[owner] = scores.get(owner, 0) + length
        order.setdefault(owner, len(order))
    if not scores:
        return None
    # Highest score; the first in document order on a tie.
    best = max(scores, key=lambda el: (scores[el], -order[el]))
    return Block(element=best, path=best.getroottree().getpath(best), score=scores[best])


def _nearest_block(el: lxml_html.HtmlElement, block_tags: frozenset[str]) -> lxml_html.HtmlElement | None:
    for ancestor in el.iterancestors():
        if ancestor.tag in block_tags:
            return ancestor
    return None
