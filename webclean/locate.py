"""Step 1 of method.md: locate the one block that holds the main text (θ).

A ``<p>`` counts when its link ratio ``r = La / Lp <= θ``. Every block element
(``<div>`` in the paper) scores the text length of the counted ``<p>``s it reaches
without passing through a nested block element, which is scored on its own; the
block with the highest score wins.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from webclean.config import LocateConfig
from webclean.text import text_length


@dataclass(frozen=True)
class Block:
    element: etree._Element
    path: str
    score: int
    # A thread's posts (method svm, webclean/threads.py): the records, and in each the
    # element at the place the post's text holds in the record that won.
    records: tuple[etree._Element, ...] = ()
    slots: tuple[etree._Element, ...] = ()


def link_ratio(p: etree._Element) -> float:
    """r = La / Lp: the share of a ``<p>``'s text that sits inside its ``<a>``s."""
    total = text_length("".join(p.itertext()))
    if total == 0:
        return 0.0
    linked = sum(text_length("".join(a.itertext())) for a in p.iter("a"))
    return min(1.0, linked / total)


def locate_block(root: etree._Element, config: LocateConfig) -> Block | None:
    """The block element with the highest score, or None when no ``<p>`` counts."""
    block_tags = frozenset(config.block_tags)
    scores: dict[etree._Element, int] = {}
    order: dict[etree._Element, int] = {}
    for p in root.iter("p"):
        length = text_length("".join(p.itertext()))
        if length == 0 or link_ratio(p) > config.theta:
            continue
        owner = nearest_block(p, block_tags)
        if owner is None:
            continue
        scores[owner] = scores.get(owner, 0) + length
        order.setdefault(owner, len(order))
    if not scores:
        return None
    # Highest score; the first in document order on a tie.
    best = max(scores, key=lambda el: (scores[el], -order[el]))
    return Block(element=best, path=best.getroottree().getpath(best), score=scores[best])


def nearest_block(el: etree._Element, block_tags: frozenset[str]) -> etree._Element | None:
    """The nearest ancestor of ``el`` that is a block element."""
    for ancestor in el.iterancestors():
        if ancestor.tag in block_tags:
            return ancestor
    return None
