"""Step 1 of method svm: the block located on the page's lines, and grown (departures).

The paper's Step 1 (webclean/locate.py) scores the ``<p>``s of each ``<div>``. Here
(docs/method.md, "Departures in method svm") every line of text counts, not only
``<p>`` (text in ``<div>``/``<td>``/``<br>``); more tags compete (``td``, ``article``,
``section``, ``body`` …); and the winner grows into its parent while the parent's
siblings add more than ``ascend_gain`` times its own counted text, so a text split
over sibling blocks (one ``<div>`` per paragraph, paragraphs broken up by ad slots) is
taken whole. A forum thread is taken as its posts (webclean/threads.py).
"""

from __future__ import annotations

from lxml import etree

from webclean.locate import Block, nearest_block
from webclean.segment import Line
from webclean.threads import Thread, find_records, posts_within


def locate_region(
    lines: list[Line], root: etree._Element, theta: float, block_tags: frozenset[str], ascend_gain: float
) -> Block | None:
    """Step 1 on lines instead of ``<p>``s (the module docstring): the block, grown.

    A page whose every line is mostly link text (a post of one paragraph of links, a
    page of links) has no line under θ to count: there every line counts, and the
    classifier decides on the block's lines as on any other's.
    """
    if all(line.link_ratio > theta for line in lines):
        theta = 1.0
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
                found = find_records(best, total, ascend_gain)
                if found is None:
                    break
                thread = thread or found
                above = found[0][0].getparent()
            best = node = above
    if thread is None:
        thread = posts_within(winner, best, total)
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
