"""Step 1 of method.md: locate the one block that holds the main text (θ).

A ``<p>`` counts when its link ratio ``r = La / Lp <= θ``. Every block element
(``<div>`` in the paper) scores the text length of the counted ``<p>``s it reaches
without passing through a nested block element, which is scored on its own; the
block with the highest score wins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable


from lxml import etree

from webclean.config import LocateConfig
from webclean.text import text_length

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

    Departures from the paper (docs/method.md, "Departures in method svm"):
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
    node = winner = best
    thread: Thread | None = None
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
                found = _records(best, total, ascend_gain)
                if found is None:
                    break
                thread = thread or found
                above = found[0][0].getparent()
            best = node = above
    if thread is None:
        thread = _posts_within(winner, best, total)
    records, slots = thread or ((), ())
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
    (docs/quality.md, "What the method adds to the paper").
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

# A thread's records, and in each the element that holds its post's text.
Thread = tuple[tuple[etree._Element, ...], tuple[etree._Element, ...]]


def _records(best: etree._Element, total: dict[etree._Element, int], ascend_gain: float) -> Thread | None:
    """The records that the block is one record's text of, with their posts' texts, or None.

    A forum thread is a list of posts, each a record alike in tag, class and id (the
    post's number aside: ``<div id="post_1001">``, ``<div id="post_1002">``): the
    longest post wins Step 1, and the user panel beside it stops its growth, so the
    replies are lost. When an ancestor of the block (up to _RECORD_DEPTH levels) is
    one of at least three such records that hold counted text, and their parent adds
    at least ``ascend_gain`` of the block's text, the block grows into the parent
    (docs/quality.md, "What the method adds to the paper"), and the records are
    returned, the block's among them.
    Records alike only in their first class word count when they look like posts
    (:func:`_thread`).
    """
    element = best
    for _ in range(_RECORD_DEPTH):
        parent = element.getparent()
        if parent is None or parent.tag in ("html", "body"):
            return None
        if total.get(parent, 0) >= (1.0 + ascend_gain) * total[best]:
            signature = _record_signature(element)
            if signature is not None:
                alike = tuple(c for c in parent if total.get(c, 0) and _record_signature(c) == signature)
                if len(alike) >= _RECORDS:
                    return alike, _slots(best, alike)
            thread = _thread(best, element, total)
            if thread is not None:
                return thread
        element = parent
    return None


def _posts_within(winner: etree._Element, block: etree._Element, total: dict[etree._Element, int]) -> Thread | None:
    """A thread's posts inside the grown block, or None.

    Where the posts' panels hold no counted text (names and ranks that are links),
    nothing stops Step 1's growth at the winning post: the block grows over the whole
    thread by the usual gain, and the replies, short lines between the panels' links,
    are lost to the link runs and the classifier. So the winning text's ancestors
    inside the block (not the text's own element) are looked at as records too, by the
    stricter test of :func:`_thread`.
    """
    element = winner
    for _ in range(_RECORD_DEPTH):
        if element is block:
            return None
        parent = element.getparent()
        if parent is None:
            return None
        if element is not winner:
            thread = _thread(winner, element, total)
            if thread is not None:
                return thread
        element = parent
    return None


def _class_string(element: etree._Element) -> str:
    return (element.get("class") or "").strip()


def _first_class(element: etree._Element) -> str:
    classes = (element.get("class") or "").split(None, 1)
    return classes[0] if classes else ""


def _record_signature(
    element: etree._Element, key: Callable[[etree._Element], str] = _class_string
) -> tuple[str, str, str] | None:
    """Tag, class (its ``key``: the whole string, or the first word for the loose
    likeness of :func:`_thread`) and id without digits; None for an element with
    neither class nor id."""
    classes = key(element)
    ident = _DIGITS_RE.sub("", element.get("id") or "")
    if not classes and not ident:
        return None
    return str(element.tag), classes, ident


def _thread(winner: etree._Element, element: etree._Element, total: dict[etree._Element, int]) -> Thread | None:
    """``element`` and its siblings as a thread's posts, by a looser likeness, or None.

    Posts differ in their classes by more than a number: the first post is marked
    (Tieba's ``l_post ... noborder``), replies alternate (phpBB's ``post bg1`` and
    ``post bg2``) or carry a state (``is-unread``). Here records are alike in tag, first
    class word and id without digits, and the post's text is found in each by tags
    and first class words. So loose a likeness also matches an article's sections and
    a page's cards, so it counts only when the records look like posts: at least three
    with a post's text, those texts hold at least half the records' counted text, and
    at least three records show a link outside their text (the author's name, a reply
    button).
    """
    key = _record_signature(element, _first_class)
    if key is None:
        return None
    parent = element.getparent()
    alike = [child for child in parent if total.get(child, 0) and _record_signature(child, _first_class) == key]
    if len(alike) < _RECORDS:
        return None
    steps = _steps(winner, element, _first_class)
    pairs = [(record, slot) for record in alike if (slot := _follow(record, steps, _first_class)) is not None]
    if len(pairs) < _RECORDS:
        return None
    if 2 * sum(total.get(slot, 0) for _, slot in pairs) < sum(total.get(record, 0) for record in alike):
        return None
    if sum(1 for record, slot in pairs if _signed(record, slot)) < _RECORDS:
        return None
    return tuple(alike), tuple(slot for _, slot in pairs)


def _signed(record: etree._Element, text: etree._Element) -> bool:
    """Whether the record holds a link with text outside the post's text."""
    return any("".join(link.itertext()).strip() and text not in link.iterancestors() for link in record.iter("a"))


def _steps(best: etree._Element, record: etree._Element, key: Callable[[etree._Element], str]) -> list[tuple[str, str]]:
    """The tags and class keys that lead from ``record`` down to ``best``, top first."""
    steps: list[tuple[str, str]] = []
    element = best
    while element is not record:
        steps.append((element.tag, key(element)))
        element = element.getparent()
    return steps[::-1]


def _follow(
    record: etree._Element, steps: list[tuple[str, str]], key: Callable[[etree._Element], str]
) -> etree._Element | None:
    """The element reached from ``record`` by ``steps`` (the first child matching each), or None."""
    element: etree._Element | None = record
    for tag, value in steps:
        element = next((c for c in element if c.tag == tag and key(c) == value), None)
        if element is None:
            return None
    return element


def _slots(best: etree._Element, records: tuple[etree._Element, ...]) -> tuple[etree._Element, ...]:
    """In each record, the element reached from it by the tags and classes that lead from
    the winning post's record down to ``best``: each post's text.
    Empty when fewer than _RECORDS records have one: records alike outside and not
    within (a page's sections) are not a thread's posts."""
    record = next(r for r in records if r is best or r in best.iterancestors())
    steps = _steps(best, record, _class_string)
    found = [slot for r in records if (slot := _follow(r, steps, _class_string)) is not None]
    return tuple(found) if len(found) >= _RECORDS else ()
