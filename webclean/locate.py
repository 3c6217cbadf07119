"""Step 1 of method.md: locate the one block that holds the main text (θ).

A ``<p>`` counts when its link ratio ``r = La / Lp <= θ``. Every block element
(``<div>`` in the paper) scores the text length of the counted ``<p>``s it reaches
without passing through a nested block element, which is scored on its own; the
block with the highest score wins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING


from lxml import etree

from webclean.config import LocateConfig

if TYPE_CHECKING:
    from webclean.segment import Line

@dataclass(frozen=True)
class Block:
    element: etree._Element
    path: str
    score: int
    # A thread's posts (method svm, _records): the records, and in each the element at
    # the place the post's text holds in the record that won.
    records: tuple[etree._Element, ...] = ()
    slots: tuple[etree._Element, ...] = ()


def text_length(text: str) -> int:
    """Characters that are not white space: the paper measures text by its characters."""
    # A printable text has no white space but " " (every other white space character is
    # a separator or a control), so counting spaces will do; lines and their sentences
    # are such texts. str.split() treats the same characters as white space as the regex \s.
    if text.isprintable():
        return len(text) - text.count(" ")
    return sum(map(len, text.split()))


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


def _nearest_block(el: etree._Element, block_tags: frozenset[str]) -> etree._Element | None:
    for ancestor in el.iterancestors():
        if ancestor.tag in block_tags:
            return ancestor
    return None


# --- The improved method: any block tag competes, and the block may grow over its siblings.


def locate_region(
    lines: "list[Line]", root: etree._Element, theta: float, block_tags: frozenset[str], ascend_gain: float
) -> Block | None:
    """Step 1 on lines instead of ``<p>``s, for the improved method.

    Departures from the paper, each measured on the dev data (docs/quality.md):
    every line of text counts, not only ``<p>`` (text in ``<div>``/``<td>``/``<br>``);
    more tags compete (``td``, ``article``, ``section``, ``body`` …); and the winner
    grows into its parent while the parent's siblings add more than ``ascend_gain``
    times its own counted text, so a text split over sibling blocks (one ``<div>`` per
    paragraph, paragraphs broken up by ad slots) is taken whole.
    """
    direct: dict[etree._Element, int] = {}
    order: dict[etree._Element, int] = {}
    nearest: dict[etree._Element, etree._Element | None] = {}
    for line in lines:
        if line.link_ratio > theta:
            continue
        owner = line.owner
        if owner not in nearest:
            nearest[owner] = owner if owner.tag in block_tags else _nearest_block(owner, block_tags)
        block = nearest[owner]
        if block is None:
            continue
        direct[block] = direct.get(block, 0) + line.length
        order.setdefault(block, len(order))
    if not direct:
        return None
    # Each block's counted text, and the text counted below each of its ancestors.
    total = dict(direct)
    for block, length in direct.items():
        for ancestor in block.iterancestors():
            total[ancestor] = total.get(ancestor, 0) + length
    best = max(direct, key=lambda el: (direct[el], -order[el]))
    return _grow(best, total, ascend_gain)


# An ancestor that adds at most this share of text is a wrapper: look past it.
_WRAPPER_GAIN = 0.05


def _grow(best: etree._Element, total: dict[etree._Element, int], ascend_gain: float) -> Block:
    """Grow the block into ancestors whose other children add much counted text."""
    node = best
    records: tuple[etree._Element, ...] = ()
    slots: tuple[etree._Element, ...] = ()
    while True:
        parent = node.getparent()
        if parent is None or parent.tag == "html":
            break
        added = total.get(parent, 0)
        if added >= (1.0 + ascend_gain) * total[best]:
            best = node = parent
        elif added <= (1.0 + _WRAPPER_GAIN) * total[best]:
            node = parent
        else:
            above = _continued(node, best, total, ascend_gain)
            if above is None:
                thread = _records(best, total, ascend_gain)
                if thread is None:
                    break
                if not records:
                    records, slots = thread, _slots(best, thread)
                above = thread[0].getparent()
            best = node = above
    return Block(best, best.getroottree().getpath(best), total[best], records, slots)


# A text that continues in its ancestors' other children holds, there, at least this
# many times the block's counted text ...
_CONTINUED = 2.0
# ... and what stops the block's growth on the way up is no more than this many
# characters: a caption or a byline beside the block.
_BESIDE = 80


def _continued(
    node: etree._Element, best: etree._Element, total: dict[etree._Element, int], ascend_gain: float
) -> etree._Element | None:
    """The ancestor to grow into past a little text beside the block, or None.

    An article cut into sections, each section's text wrapped with its picture and
    caption, is located as one section: the caption next to it adds too little for
    the block to grow and too much to look past. When the ancestor that the block
    would grow into holds at least _CONTINUED times its text, and what lay between
    adds at most _BESIDE characters, the block grows into that ancestor
    (docs/quality.md, change #46).
    """
    below, above = node, node.getparent()
    while above is not None and above.tag != "html" and total.get(above, 0) < (1.0 + ascend_gain) * total[best]:
        below, above = above, above.getparent()
    if above is None or above.tag == "html":
        return None
    if total[above] >= _CONTINUED * total[best] and total.get(below, 0) - total[best] <= _BESIDE:
        return above
    return None


# How far above the block its record may lie: a forum post's text sits about ten
# levels below the post's own element (table, row, cell and the boxes within).
_RECORD_DEPTH = 12
# So many records alike make a list of them.
_RECORDS = 3
_DIGITS_RE = re.compile(r"\d+")


def _records(
    best: etree._Element, total: dict[etree._Element, int], ascend_gain: float
) -> tuple[etree._Element, ...] | None:
    """The records that the block is one record's text of, or None.

    A forum thread is a list of posts, each a record alike in tag, class and id (the
    post's number aside: ``<div id="post_1001">``, ``<div id="post_1002">``): the
    longest post wins Step 1, and the user panel beside it stops its growth, so the
    replies are lost. When an ancestor of the block (up to _RECORD_DEPTH levels) is
    one of at least three such records that hold counted text, and their parent adds
    at least ``ascend_gain`` of the block's text, the block grows into the parent
    (docs/quality.md, change #50), and the records are returned, the block's among them.
    """
    element = best
    for _ in range(_RECORD_DEPTH):
        parent = element.getparent()
        if parent is None or parent.tag in ("html", "body"):
            return None
        signature = _record_signature(element)
        if signature is not None and total.get(parent, 0) >= (1.0 + ascend_gain) * total[best]:
            alike = tuple(child for child in parent if total.get(child, 0) and _record_signature(child) == signature)
            if len(alike) >= _RECORDS:
                return alike
        element = parent
    return None


def _record_signature(element: etree._Element) -> tuple[str, str, str] | None:
    """Tag, class and id without digits; None for an element with neither class nor id."""
    classes = (element.get("class") or "").strip()
    ident = _DIGITS_RE.sub("", element.get("id") or "")
    if not classes and not ident:
        return None
    return str(element.tag), classes, ident


def _slots(best: etree._Element, records: tuple[etree._Element, ...]) -> tuple[etree._Element, ...]:
    """In each record, the element reached from it by the tags and classes that lead from
    the winning post's record down to ``best``: each post's text (docs/quality.md, #51).
    Empty when fewer than _RECORDS records have one: records alike outside and not
    within (a page's sections) are not a thread's posts."""
    steps: list[tuple[str, str]] = []
    element = best
    while element not in records:
        steps.append((element.tag, (element.get("class") or "").strip()))
        element = element.getparent()
    found = []
    for record in records:
        element = record
        for tag, classes in reversed(steps):
            element = next((c for c in element if c.tag == tag and (c.get("class") or "").strip() == classes), None)
            if element is None:
                break
        else:
            found.append(element)
    return tuple(found) if len(found) >= _RECORDS else ()
