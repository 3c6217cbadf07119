"""Lines of text as a browser lays them out: the units of the improved method.

The paper samples only ``<p>`` and ``<a>``; on today's pages much main text is bare
text in a ``<div>`` or ``<td>``, split by ``<br>``, or in headings and list items
(method.md, "Where Step 1 falls short"). Here a block-level element or a ``<br>``
ends a line and inline elements (``<a>``, ``<span>``, ``<b>`` …) continue it, so every
visible text of the page lands in exactly one line. Each line remembers the block
element that holds it and a little of its context (its kind, and whether its
ancestors' class or id name it navigation, comments or the article).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

from webclean.locate import text_length

BLOCK_LEVEL = frozenset(
    "address article aside blockquote body caption center dd details dialog dir div dl dt "
    "fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr html li legend main menu "
    "nav ol p pre section summary table tbody td tfoot th thead tr ul".split()
)
LINE_BREAKS = frozenset({"br", "hr"})
HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
LIST_ITEMS = frozenset({"li", "dd", "dt"})
CELLS = frozenset({"td", "th"})
# Landmarks that never hold an article's text.
NOISE_TAGS = frozenset({"nav", "aside", "footer", "menu"})

# Words of class and id values; matched as whole words or word parts between - and _.
_NOISE_ATTR_RE = re.compile(
    r"(?:^|[\s_-])(?:nav|navbar|menu|footer|foot|sidebar|side|breadcrumbs?|crumbs?|comments?|reply|share|sharing|"
    r"social|related|recommend|promo|sponsor|advert|ads?|banner|copyright|subscribe|newsletter|cookie|consent|"
    r"popup|modal|toolbar|pagination|pager|tags?|login|signup|widget|hot|rank)(?:$|[\s_\d-])",
    re.IGNORECASE,
)
_CONTENT_ATTR_RE = re.compile(
    r"(?:^|[\s_-])(?:article|content|post|entry|story|main|body|text|detail|news|artibody|endtext)(?:$|[\s_\d-])",
    re.IGNORECASE,
)
_HIDDEN_STYLE_RE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
_SPACE_RE = re.compile(r"\s+")


@dataclass(frozen=True)
class Line:
    text: str
    owner: etree._Element  # the innermost block-level element holding the line
    kind: str  # "p", "heading", "list", "cell", "link" (a line that is all link) or "text"
    link_ratio: float
    noise_attr: bool  # an ancestor's class/id or tag names navigation, comments, footers …
    content_attr: bool  # an ancestor's class/id names the article


def drop_hidden(root: etree._Element) -> int:
    """Remove elements a browser would not show; returns how many were removed."""
    hidden = [
        el
        for el in root.iter()
        if isinstance(el.tag, str)
        and (
            el.get("hidden") is not None
            or (el.get("aria-hidden") or "").strip().lower() == "true"
            or _HIDDEN_STYLE_RE.search(el.get("style") or "")
        )
        and el.tag not in ("html", "body")
    ]
    for el in hidden:
        parent = el.getparent()
        if parent is None:
            continue
        tail = el.tail
        previous = el.getprevious()
        parent.remove(el)
        if tail:
            if previous is not None:
                previous.tail = (previous.tail or "") + tail
            else:
                parent.text = (parent.text or "") + tail
    return len(hidden)


class _Builder:
    """Collects text pieces into lines during one walk of the tree."""

    def __init__(self) -> None:
        self.lines: list[Line] = []
        self.pieces: list[str] = []
        self.linked = 0
        self.total = 0

    def add(self, text: str | None, in_link: bool) -> None:
        if not text:
            return
        self.pieces.append(text)
        length = text_length(text)
        self.total += length
        if in_link:
            self.linked += length

    def flush(self, owner: etree._Element, noise: bool, content: bool) -> None:
        text = _SPACE_RE.sub(" ", "".join(self.pieces)).strip()
        if text and self.total:
            ratio = min(1.0, self.linked / self.total)
            self.lines.append(Line(text, owner, _kind(owner, ratio), ratio, noise, content))
        self.pieces.clear()
        self.linked = self.total = 0


def segment(container: etree._Element) -> list[Line]:
    """The lines of ``container`` in document order (no recursion: an explicit walk)."""
    builder = _Builder()
    # One entry per open element: (element, is block, in a link, noise attr, content attr).
    stack: list[tuple[etree._Element, bool, bool, bool, bool]] = []
    owners: list[etree._Element] = [container]
    for event, el in etree.iterwalk(container, events=("start", "end")):
        tag = el.tag if isinstance(el.tag, str) else ""
        parent_state = stack[-1] if stack else (container, True, False, False, False)
        in_link, noise, content = parent_state[2], parent_state[3], parent_state[4]
        if event == "start":
            block = tag in BLOCK_LEVEL or el is container
            if block or tag in LINE_BREAKS:
                builder.flush(owners[-1], noise, content)
            attrs = f"{el.get('class') or ''} {el.get('id') or ''}"
            state = (
                el,
                block,
                in_link or tag == "a",
                noise or tag in NOISE_TAGS or bool(_NOISE_ATTR_RE.search(attrs)),
                content or bool(_CONTENT_ATTR_RE.search(attrs)),
            )
            stack.append(state)
            if block:
                owners.append(el)
            builder.add(el.text, state[2])
            continue
        state = stack.pop()
        if state[1]:
            builder.flush(owners[-1], state[3], state[4])
            owners.pop()
        if el is not container:
            # The tail belongs to the parent's context.
            builder.add(el.tail, in_link)
    return builder.lines


def _kind(owner: etree._Element, ratio: float) -> str:
    tag = owner.tag
    if ratio >= 0.999:
        return "link"
    if tag in HEADINGS:
        return "heading"
    if tag in LIST_ITEMS:
        return "list"
    if tag in CELLS:
        return "cell"
    if tag == "p":
        return "p"
    return "text"
