"""The depth cap of a parsed page (parse.parse_html): no element deeper than a level,
and no recursion on the way.

libxml2 stops parsing at 2048 levels of nesting (with huge_tree; 256 without) and drops
the rest of the page, not only the deep part; a later walk of a deep tree in Python
could recurse past the interpreter's limit. So parse_html

- finds the elements at the cap's level (:func:`elements_at_level`) and replaces what
  each holds with its text (:func:`flatten`), a newline where a block began or ended;
- where libxml2 may have hit its own limit (an element at :data:`MAX_SUPPORTED_DEPTH`),
  first drops the tags nested deeper than the cap from the markup
  (:func:`flatten_markup`) and parses again.
"""

from __future__ import annotations

import functools
import re

from lxml import etree

from webclean import core
from webclean.text import LINE_ENDING_TAGS, xml_safe

__all__ = ["MAX_SUPPORTED_DEPTH", "elements_at_level", "flatten", "flatten_markup"]

# libxml2 stops parsing (and drops the rest of the page) at 2048 levels with
# huge_tree, 256 without. Depth caps are clamped below that, with room for the
# <html>/<body> that libxml2 adds on its own.
MAX_SUPPORTED_DEPTH = 2000

# Where flattening writes a newline: where a line ends, and between a drop-down's
# choices; not for a stray <html> tag inside the page, which browsers ignore.
_NEWLINE_TAGS = (LINE_ENDING_TAGS | {"option"}) - {"html"}
_VOID_TAGS = frozenset(
    "area base basefont bgsound br col embed frame hr image img input keygen link meta param "
    "source track wbr".split()
)
# An open tag of these closes an open sibling of the same name (<li><li>, <p><p>).
_SELF_CLOSING_SIBLINGS = frozenset("p li dt dd option tr td th".split())
# For the rare re-parse of over-deep pages: comments and raw-text elements are
# copied whole, so that a "<div>" inside a script string does not count as a tag.
_MARKUP_TOKEN = re.compile(
    r"<!--.*?(?:-->|\Z)"
    r"|<(script|style|textarea|title|xmp|plaintext)\b[^>]*>.*?(?:</\1\s*>|\Z)"
    r"|<(/?)([a-zA-Z][^\s/>]*)[^>]*>",
    re.S | re.I,
)
# How far an end tag looks down the stack for its start tag: bounded, so that a
# flood of stray end tags over a deep stack stays linear.
_END_TAG_LOOKBACK = 64


@functools.lru_cache(maxsize=8)
def _level_xpath(level: int) -> etree.XPath:
    # One step per level, evaluated inside libxml2: a pass over the tree in C, much
    # cheaper than a Python walk that tracks depth. Cached: compiling 400 steps is
    # not free, and the result depends on nothing but the level.
    return etree.XPath("/*" * level)


def elements_at_level(root: etree._Element, level: int) -> list[etree._Element]:
    """The elements ``level`` levels down from the document of ``root`` (level 1: its
    root element), in document order: an XPath reads the whole document from any
    element of it."""
    if core.compiled is not None:
        return list(core.compiled.elements_at_level(root, level))
    return _level_xpath(level)(root)


def flatten(element: etree._Element) -> None:
    """Replace the element's descendants with their text."""
    if len(element):
        text = _block_text(element)
        del element[:]  # the children's tails go with them, and are in text already
        # libxml2 lets control characters into text nodes; lxml refuses to set them.
        element.text = xml_safe(text)


def _block_text(element: etree._Element) -> str:
    """The element's text with newlines where blocks start and end (iterwalk: no recursion)."""
    parts = [element.text or ""]
    for event, node in etree.iterwalk(element, events=("start", "end")):
        if node is element:
            continue
        if node.tag in _NEWLINE_TAGS:
            parts.append("\n")
        parts.append((node.text if event == "start" else node.tail) or "")
    return "".join(parts)


def flatten_markup(text: str, depth: int) -> str:
    """Drop start and end tags nested deeper than ``depth``, keeping all text.

    A tokenizer with a stack of open elements, an approximation of HTML's tree
    construction that is good enough to keep libxml2 under its depth limit; the
    exact cap is applied to the tree afterwards. Dropped block tags become newlines.
    """
    stack: list[tuple[str, bool]] = []  # (tag, kept)
    return _MARKUP_TOKEN.sub(lambda match: _retag(match, stack, depth), text)


def _retag(match: re.Match[str], stack: list[tuple[str, bool]], depth: int) -> str:
    name = match.group(3)
    if name is None:  # a comment or a raw-text element: copied as it is
        return match.group(0)
    name = name.lower()
    if match.group(2):
        kept = _close(stack, name)
    elif name in _VOID_TAGS:
        kept = len(stack) < depth
    else:
        if name in _SELF_CLOSING_SIBLINGS and stack and stack[-1][0] == name:
            stack.pop()
        kept = len(stack) < depth
        stack.append((name, kept))
    if kept:
        return match.group(0)
    return "\n" if name in _NEWLINE_TAGS else ""


def _close(stack: list[tuple[str, bool]], name: str) -> bool:
    """Pop up to the matching start tag; whether to keep the end tag."""
    for i in range(len(stack) - 1, max(-1, len(stack) - 1 - _END_TAG_LOOKBACK), -1):
        if stack[i][0] == name:
            kept = stack[i][1]
            del stack[i:]
            return kept
    return True  # a stray end tag: harmless, libxml2 ignores it
