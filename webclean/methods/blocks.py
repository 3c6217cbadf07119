"""Method "blocks": DOM block scoring, after a master's thesis, chapter 3 (docs/methods.md).

The thesis's recipe (its steps 1-5):

1. parse the page into a DOM tree;
2. delete ``script``, ``form``, ``style``, ``iframe`` and the like;
3. walk the tree top down for block tags (``table``, ``tbody``, ``tr``, ``div``, ``p``),
   delete the blocks that hold a common noise phrase (版权所有, copyright, 收藏,
   联系客服 …), merge sibling blocks, and list the blocks that remain;
4. for each block count its links L_i, its text length W_i and its sentence-ending
   marks P_i (。？！ …) and compute C_i (formula 3.1);
5. keep, in document order, the text of the blocks whose C_i is under a threshold c.

Formula (3.1) was lost in the conversion to text ("iiiiLC WP? ?": C_i, a fraction
with L_i above W_i and P_i, and two lost operators). The text around it says the
method starts from the ratio of links to text length (its reference [31]) and adds
sentence-ending marks (reference [32]) because they are far more frequent in main
text; a small C_i means content. The reading consistent with that is

    C_i = L_i / (W_i · P_i)

and this module uses it with add-one smoothing, ``(L_i + 1) / (W_i · (P_i + 1))``
(departure: without it a block with no sentence end divides by zero, and every
block without a link, however short, scores 0 and is kept; with it a short
link-free line such as "分享到：" still scores high). The value of c was lost too;
it is chosen on the dev data (docs/methods.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from lxml import etree

from webclean.metadata import PageMetadata
from webclean.text import LINE_ENDING_TAGS as _SEPARATING_TAGS
from webclean.text import SENTENCE_END_MARK_RE as _SENTENCE_END_RE
from webclean.text import text_length

__all__ = ["BLOCK_TAGS", "NOISE_PHRASES", "Block", "block_score", "blocks_text", "collect_blocks", "run"]

# Step 3: the thesis's block tags.
BLOCK_TAGS = frozenset({"table", "tbody", "tr", "div", "p"})
# Step 2: parse.parse_html already removes script, style, iframe (and other junk) and
# the forms that hold under 200 characters. Departure: a form that wraps the whole
# page (ASP.NET WebForms) is kept, as everywhere in webclean, or those pages would
# lose all their text; the thesis's Java pages had none.
# Step 3: common noise phrases, Chinese (simplified and traditional) and English; lower case.
NOISE_PHRASES = (
    "版权所有", "版權所有", "copyright", "©", "all rights reserved", "收藏", "联系客服", "聯繫客服",
    "联系我们", "關於我們", "关于我们", "免责声明", "网站地图", "隐私政策", "分享到", "举报",
    "icp备", "privacy policy", "terms of use", "terms of service", "contact us", "sign in", "log in",
    "subscribe", "share this",
)  # fmt: skip
# Departure: only blocks of at most this many characters are deleted for a noise
# phrase. The thesis deletes any block that holds one, which deletes a whole article
# that quotes "收藏" or ends with its own copyright line; measured on the dev data
# (docs/methods.md) the cap keeps those and still drops footers and share bars.
NOISE_BLOCK_MAX_CHARS = 200
# Step 5: c. Chosen on all five dev files together (docs/methods.md).
THRESHOLD_C = 0.005


@dataclass(frozen=True)
class Block:
    """One entry of Step 3's block list: the text of one or more merged sibling blocks."""

    texts: tuple[str, ...]
    links: int  # L_i
    length: int  # W_i, characters without white space
    sentence_ends: int  # P_i

    @property
    def score(self) -> float:
        return block_score(self.links, self.length, self.sentence_ends)


def block_score(links: int, length: int, sentence_ends: int) -> float:
    """C_i of formula (3.1), smoothed: (L_i + 1) / (W_i · (P_i + 1)); see the module docstring."""
    if length == 0:
        return float("inf")
    return (links + 1) / (length * (sentence_ends + 1))


def run(root: etree._Element, title: str, metadata: PageMetadata, model: Any) -> tuple[list[str], str]:
    """The method's steps on a parsed page: its main-text paragraphs and its title."""
    body = root.find("body")
    if body is None:  # parse_html always makes one; a tree from elsewhere may not have it
        body = root
    return blocks_text(body), title


def blocks_text(body: etree._Element, threshold: float = THRESHOLD_C) -> list[str]:
    """Steps 3-5: the texts of the blocks scoring under ``threshold``, in document order."""
    return [text for block in collect_blocks(body) if block.score < threshold for text in block.texts]


def collect_blocks(body: etree._Element) -> list[Block]:
    """Step 3: the block list, noise-phrase blocks deleted and sibling blocks merged.

    A leaf block is a block tag with no block tag inside; the text that a block tag
    holds beside its child blocks (bare text, ``<br>``-separated lines) is a leaf
    block too. Leaf blocks that follow each other under one parent are siblings and
    merge into one entry; a child that holds blocks of its own (a block tag, or an
    inline element such as ``<td>`` around them) ends the run and is walked in turn.
    Walked with an explicit stack, in document order: no recursion on deep pages.
    """
    holders = _block_holders(body)
    blocks: list[Block] = []
    run: list[_Leaf] = []
    stack = [iter(_children(body, holders))]
    while stack:
        item = next(stack[-1], None)
        if item is None or not isinstance(item, _Leaf):
            if run:
                blocks.append(_merge(run))
                run = []
            if item is None:
                stack.pop()
            else:
                stack.append(iter(_children(item, holders)))
        elif not item.is_noise():
            run.append(item)
    return blocks


@dataclass(frozen=True)
class _Leaf:
    text: str
    links: int

    def is_noise(self) -> bool:
        if len(self.text) > NOISE_BLOCK_MAX_CHARS:
            return False
        lowered = self.text.lower()
        return any(phrase in lowered for phrase in NOISE_PHRASES)


def _block_holders(body: etree._Element) -> set[etree._Element]:
    """Every element with a block tag below it, in one pass over the block tags."""
    holders: set[etree._Element] = set()
    for block in body.iterdescendants(*BLOCK_TAGS):
        parent = block.getparent()
        while parent is not None and parent not in holders:
            holders.add(parent)
            parent = parent.getparent()
    return holders


def _children(parent: etree._Element, holders: set[etree._Element]) -> Iterator[_Leaf | etree._Element]:
    """A container's content in order: leaf blocks, and the children that hold blocks."""
    pieces: list[str] = [parent.text or ""]
    links = 0
    for child in parent:
        if not isinstance(child.tag, str):  # a comment or processing instruction
            pieces.append(child.tail or "")
            continue
        if child in holders or child.tag in BLOCK_TAGS:
            leaf = _leaf("".join(pieces), links)
            if leaf is not None:
                yield leaf
            pieces, links = [], 0
            if child in holders:
                yield child
            else:
                leaf = _leaf("".join(child.itertext()), _count_links(child))
                if leaf is not None:
                    yield leaf
        else:
            # A <br>, <td> or <li> separates words that the markup may not separate.
            spaced = child.tag in _SEPARATING_TAGS
            pieces.append(" " * spaced + "".join(child.itertext()) + " " * spaced)
            links += _count_links(child)
        pieces.append(child.tail or "")
    leaf = _leaf("".join(pieces), links)
    if leaf is not None:
        yield leaf


def _leaf(text: str, links: int) -> _Leaf | None:
    text = " ".join(text.split())
    return _Leaf(text, links) if text else None


def _count_links(element: etree._Element) -> int:
    own = 1 if element.tag == "a" else 0
    return own + sum(1 for _ in element.iterdescendants("a"))


def _merge(run: list[_Leaf]) -> Block:
    texts = tuple(leaf.text for leaf in run)
    return Block(
        texts=texts,
        links=sum(leaf.links for leaf in run),
        length=sum(text_length(t) for t in texts),
        sentence_ends=sum(len(_SENTENCE_END_RE.findall(t)) for t in texts),
    )
