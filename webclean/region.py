"""Step 1 of method svm: the block located on the page's lines, and grown (departures).

The paper's Step 1 (webclean/locate.py) scores the ``<p>``s of each ``<div>``. Here
(docs/method.md, "Departures in method svm") every line of text counts, not only
``<p>`` (text in ``<div>``/``<td>``/``<br>``); more tags compete (``td``, ``article``,
``section``, ``body`` …); and the winner grows into its parent while the parent's
siblings add more than ``ascend_gain`` times its own counted text, so a text split
over sibling blocks (one ``<div>`` per paragraph, paragraphs broken up by ad slots) is
taken whole. A forum thread is taken as its posts (webclean/threads.py). Where nothing
else takes it further, a block that is a small box beside an article of many short
sections grows into the ancestor that holds them (_far).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lxml import etree

from webclean import core
from webclean.config import RegionConfig, ThreadsConfig
from webclean.locate import Block, nearest_block
from webclean.segment import Line
from webclean.threads import Thread, find_records, posts_within

_REGION = RegionConfig()
_THREADS = ThreadsConfig()


def locate_region(
    lines: list[Line],
    root: etree._Element,
    theta: float,
    block_tags: frozenset[str],
    ascend_gain: float,
    region: RegionConfig = _REGION,
    threads: ThreadsConfig = _THREADS,
) -> Block | None:
    """Step 1 on lines instead of ``<p>``s (the module docstring): the block, grown
    (``region``: past what lies beside it; ``threads``: over a thread's posts).

    A page whose every line is mostly link text (a post of one paragraph of links)
    has no line under θ to count: there every line that is not all link (of kind
    "link", segment.py) counts, and the classifier decides on the block's lines as on
    any other's. A page of links alone (a site map, a menu) still has no block.
    """
    if all(line.link_ratio > theta for line in lines):
        lines = [line for line in lines if line.kind != "link"]
        theta = 1.0
    best, total = counted_text(lines, theta, block_tags)
    if best is None:
        return None
    return _grow(best, total, ascend_gain, region, threads)


# The places in a segment.Line of what Step 1 reads of it (the compiled counted_text).
_LINE_AT = (Line._fields.index("owner"), Line._fields.index("link_ratio"), Line._fields.index("length"))


def counted_text(
    lines: list[Line], theta: float, block_tags: frozenset[str]
) -> tuple[etree._Element | None, dict[etree._Element, int]]:
    """Step 1's count: the length of each line of link ratio at most θ, counted for its
    nearest block element and below each of the block's ancestors; the block with the
    most (the first in document order on a tie) and what each element counts, or
    ``(None, {})`` where no line counts."""
    if core.compiled is not None:
        counted = core.compiled.counted_text(lines, _LINE_AT, theta, block_tags)
        if counted is not None:
            return counted
    direct: dict[etree._Element, int] = {}
    order: dict[etree._Element, int] = {}
    nearest: dict[etree._Element, etree._Element | None] = {}
    for line in lines:
        if line.link_ratio > theta:
            continue
        owner = line.owner
        if owner not in nearest:
            nearest[owner] = owner if owner.tag in block_tags else nearest_block(owner, block_tags)
        block = nearest[owner]
        if block is None:
            continue
        direct[block] = direct.get(block, 0) + line.length
        order.setdefault(block, len(order))
    if not direct:
        return None, {}
    # Each block's counted text, and the text counted below each of its ancestors.
    total = dict(direct)
    for block, length in direct.items():
        for ancestor in block.iterancestors():
            total[ancestor] = total.get(ancestor, 0) + length
    best = max(direct, key=lambda el: (direct[el], -order[el]))
    return best, total


def lines_inside(lines: Sequence[Line], element: etree._Element) -> list[int]:
    """The places of the lines whose owner is ``element`` or lies inside it."""
    if core.compiled is not None:
        inside = core.compiled.lines_inside(lines, _LINE_AT[0], element)
        if inside is not None:
            return inside
    members = set(element.iter())
    return [i for i, line in enumerate(lines) if line.owner in members]


def _grow(
    best: etree._Element, total: dict[etree._Element, int], ascend_gain: float, region: RegionConfig, threads: ThreadsConfig
) -> Block:
    """Grow the block into ancestors whose other children add much counted text; an
    ancestor that adds at most ``region.wrapper_gain`` of it is a wrapper: looked past."""
    node = winner = best
    thread: Thread | None = None
    while True:
        parent = node.getparent()
        if parent is None or parent.tag == "html":
            break
        added = total.get(parent, 0)
        if added >= (1.0 + ascend_gain) * total[best]:
            best = node = parent
        elif added <= (1.0 + region.wrapper_gain) * total[best]:
            node = parent
        else:
            above = _continued(node, best, total, ascend_gain, region)
            if above is None:
                found = find_records(best, total, ascend_gain, threads)
                if found is not None:
                    thread = thread or found
                    above = found[0][0].getparent()
                else:
                    above = _far(node, best, total, ascend_gain, region)
                    if above is None:
                        break
            best = node = above
    if thread is None:
        thread = posts_within(winner, best, total, threads)
    records, slots = thread or ((), ())
    return Block(best, best.getroottree().getpath(best), total[best], records, slots)


def _crossing(
    node: etree._Element, best: etree._Element, total: dict[etree._Element, int], ascend_gain: float
) -> tuple[etree._Element, etree._Element | None]:
    """The first ancestor of ``node`` below ``<html>`` whose counted text crosses the
    growth's gain over the block's, with its child on the way (``below``); None for
    the ancestor when none does."""
    below, above = node, node.getparent()
    while above is not None and above.tag != "html" and total.get(above, 0) < (1.0 + ascend_gain) * total[best]:
        below, above = above, above.getparent()
    return below, None if above is None or above.tag == "html" else above


def _continued(
    node: etree._Element, best: etree._Element, total: dict[etree._Element, int], ascend_gain: float, region: RegionConfig
) -> etree._Element | None:
    """The ancestor to grow into past a little text beside the block, or None.

    An article cut into sections, each section's text wrapped with its picture and
    caption, is located as one section: the caption next to it adds too little for
    the block to grow and too much to look past. When the ancestor that the block
    would grow into holds at least ``region.continued`` times its text, and what lay
    between adds at most ``region.beside_chars`` (a caption or a byline beside the
    block), the block grows into that ancestor (docs/method.md, "Step 1 on lines").

    A manual's page is cut into sections too, each opening with its heading and a
    few lines before the part that wins: there what lies beside the block can be
    longer. When ``region.alike_share`` of the text the ancestor adds lies in siblings
    alike to the section that holds the block (:func:`_alike`), the block grows
    whatever lies beside it.
    """
    below, above = _crossing(node, best, total, ascend_gain)
    if above is None:
        return None
    if total[above] < region.continued * total[best]:
        return None
    if total.get(below, 0) - total[best] <= region.beside_chars:
        return above
    alike = sum(total.get(sibling, 0) for sibling in above if sibling is not below and _alike(sibling, below))
    if alike >= region.alike_share * (total[above] - total.get(below, 0)):
        return above
    return None


def _far(
    node: etree._Element, best: etree._Element, total: dict[etree._Element, int], ascend_gain: float, region: RegionConfig
) -> etree._Element | None:
    """The far ancestor to grow into past the block's own box, or None.

    The last resort of the growth, when neither :func:`_continued` nor a record list
    takes the block further: a box beside the article (an editorial note, an
    author's bio, a few hundred characters) wins Step 1 over sections that each hold
    less. The ancestor that crosses the growth's gain holds under ``region.continued``
    times the block's text (the box and a little around it); when an ancestor further
    up, below ``<body>``, holds at least ``region.far`` times as much, and the block's
    own branch adds at most ``region.far_beside`` of that ancestor's text, the block
    grows into it: what won is a small part of it, beside many others. A block under
    ``region.far_min_chars`` (a page of a few lines) does not grow into the page
    around it.
    """
    if total[best] < region.far_min_chars:
        return None
    below, above = _crossing(node, best, total, ascend_gain)
    if above is None or total[above] >= region.continued * total[best]:
        return None
    while above is not None and above.tag not in ("body", "html") and total.get(above, 0) < region.far * total[best]:
        below, above = above, above.getparent()
    if above is None or above.tag in ("body", "html"):
        return None
    if total.get(below, 0) - total[best] > region.far_beside * total[above]:
        return None
    return above


_SECTIONS = frozenset({"section", "article"})
_DIGITS_RE = re.compile(r"\d+")  # classes alike but for a number (item-1, item-2)


def _alike(element: etree._Element, other: etree._Element) -> bool:
    """Whether two siblings are alike: both ``<section>`` or both ``<article>``, or the
    same tag with the same classes (digits aside). Elements without a class are
    not alike: a page's columns are often bare ``<div>``s."""
    if element.tag != other.tag:
        return False
    if element.tag in _SECTIONS:
        return True
    classes = _classes(element)
    return bool(classes) and classes == _classes(other)


def _classes(element: etree._Element) -> frozenset[str]:
    return frozenset(_DIGITS_RE.sub("", element.get("class") or "").split())
