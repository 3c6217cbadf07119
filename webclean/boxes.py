"""The names of the boxes around a line: the words of the class and id attributes of
its nearest named ancestors, which the box lexicon (lexicon.py) weighs.

A page's template names its boxes for what they hold (``article-body``,
``related-posts``, ``newsletter-signup``, ``caption``); the box lexicon learns from the
training pages which words name boxes of main text and which name boxes of noise, in
whatever language a site's authors write them, as the paper learns its noise words.
Only the nearest named boxes count: the words of a distant wrapper (``page``,
``container``) say nothing of one line in it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from lxml import etree

# The named ancestors (the line's owner first) whose words a line takes.
NEAREST = 3
# Of a class or id: runs of letters, and their camel-case parts, lower-cased; a single
# letter or a number names nothing.
_NAME_PART_RE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


@functools.lru_cache(maxsize=1 << 16)
def name_words(value: str) -> tuple[str, ...]:
    """The words of a class or id value: ``postBody related_links-2`` gives post, body,
    related, links. Cached: a site's pages repeat their templates' names."""
    return tuple(part.lower() for part in _NAME_PART_RE.findall(value) if len(part) > 1)


def box_words(owners: Sequence[etree._Element]) -> list[str]:
    """For each line's owner, the words (space-separated, each once) of the class and id
    of the NEAREST nearest elements that have one, from the owner up."""
    found: dict[etree._Element, tuple[tuple[str, ...], ...]] = {}
    out = []
    for owner in owners:
        boxes = found.get(owner)
        if boxes is None:
            boxes = _named_boxes(owner, found)
        out.append(" ".join(dict.fromkeys(word for box in boxes for word in box)))
    return out


def _named_boxes(element: etree._Element, found: dict[etree._Element, tuple[tuple[str, ...], ...]]) -> tuple[tuple[str, ...], ...]:
    """The words of each of the NEAREST named elements from ``element`` up, nearest first;
    what is found is kept in ``found`` for every element walked, so that a page's lines
    walk each ancestor once."""
    walked: list[tuple[etree._Element, tuple[str, ...]]] = []
    el: etree._Element | None = element
    above: tuple[tuple[str, ...], ...] = ()
    while el is not None:
        known = found.get(el)
        if known is not None:
            above = known
            break
        names = f"{el.get('class') or ''} {el.get('id') or ''}"
        walked.append((el, name_words(names) if names != " " else ()))
        el = el.getparent()
    # From the top of the walk down: each element's boxes are its own words (where it
    # has some) before the boxes of its parent, NEAREST at most.
    for el, words in reversed(walked):
        above = ((words, *above) if words else above)[:NEAREST]
        found[el] = above
    return found[element]
