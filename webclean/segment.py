"""Lines of text as a browser lays them out: the units of the improved method.

The paper samples only ``<p>`` and ``<a>``; on today's pages much main text is bare
text in a ``<div>`` or ``<td>``, split by ``<br>``, or in headings and list items
(method.md, "Where Step 1 falls short"). Here a block-level element or a ``<br>``
ends a line and inline elements (``<a>``, ``<span>``, ``<b>`` …) continue it, so every
visible text of the page lands in exactly one line. Each line remembers the block
element that holds it and a little of its context (its kind, and whether the nearest
ancestor whose class or id says what it holds names navigation, comments or the article).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

from lxml import etree

from webclean import core
from webclean.config import ImprovedConfig, LinesConfig
from webclean.text import BLOCK_LEVEL, LINE_BREAKS, normalise_space, text_length
from webclean.vocabulary import (
    ANCESTOR_GROUPS,
    CONSENT_BRANDS,
    CONSENT_PARTS,
    CONTENT_ATTR_WORDS,
    GALLERY_PARTS,
    GALLERY_WRAPPERS,
    NOISE_ATTR_WORDS,
    RELATED_BOX_NAMES,
    SUBJECT_PREFIXES,
)

# The thresholds of the lines (config.LinesConfig): a line whose link ratio is at least
# ``all_link`` is all link (its kind is "link"); and those of the boxes below.
_LINES = LinesConfig()
HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
LIST_ITEMS = frozenset({"li", "dd", "dt"})
CELLS = frozenset({"td", "th"})
# Landmarks that never hold an article's text.
NOISE_TAGS = frozenset({"nav", "aside", "footer", "menu"})
# The page's furniture: its footer and its navigation, by tag or by ARIA role, and its
# banner (the site's header; by role only: an article's <header> holds its headline).
# A line inside one is marked (Line.furniture) unless the element wraps the page: it
# holds ``passed_max_share`` of the page or more, and the headline or a paragraph of prose
# (_holds_story) with it (libxml2 leaves an unclosed <footer> or <nav> open over the
# rest of the page; a shop's mega menu holds more than half of its product page).
FURNITURE_TAGS = frozenset({"footer", "nav"})
FURNITURE_ROLES = frozenset({"contentinfo", "navigation", "banner"})
# What stands beside the text or over it: an <aside> or an element of its ARIA role,
# complementary, and a dialog, shown over the page on demand (a sign-up, a cookie
# banner, a log-in box, a tooltip). segment notes the nearest around each line
# (Line.beside); it is furniture too unless it holds the story (aside_furniture).
BESIDE_TAGS = frozenset({"aside", "dialog"})
BESIDE_ROLES = frozenset({"complementary", "dialog", "alertdialog", "tooltip"})
# A gallery or a slideshow stands beside a story too: a class or id word that names one
# (vocabulary.GALLERY_PARTS, "photo-gallery", "slideshow-wrapper"), on an element that is
# no <article> or <main>. A word that names a script's hook ("js-lightbox-gallery") says
# what a script does with the box, not what it holds, and WordPress names a post's
# subject and format so ("category-gallery", "format-gallery"). A gallery beside a
# story is furniture unless it holds the story (aside_furniture).
_STORY_TAGS = frozenset({"article", "main"})

# The kinds of box an ancestor's class/id words (vocabulary.ANCESTOR_GROUPS, or its tag)
# name, for the boosted trees of method svm: bit k of Line.groups is the k-th group, set
# when any ancestor inside the walked container names it.
_GROUP_WORDS = tuple(frozenset(words.split()) for _, words in ANCESTOR_GROUPS)
# The bit of each group in Line.groups (and Unit.groups), by its name.
GROUP_BIT = {name: 1 << k for k, (name, _) in enumerate(ANCESTOR_GROUPS)}
_TAG_GROUPS = {
    "address": GROUP_BIT["author"],
    "figure": GROUP_BIT["caption"],
    "figcaption": GROUP_BIT["caption"],
    "time": GROUP_BIT["meta"],
    "blockquote": GROUP_BIT["quote"],
    "form": GROUP_BIT["form"],
    "header": GROUP_BIT["header"],
}
# What each of those words marks, as bits: bit k for the k-th of ANCESTOR_GROUPS, then
# noise, then content. A value's marks are its words' bits or-ed: a lookup a word.
_NOISE_BIT = 1 << len(ANCESTOR_GROUPS)
_CONTENT_BIT = _NOISE_BIT << 1
_GROUPS_MASK = _NOISE_BIT - 1
# A box of buyers' reviews ("customer-reviews", "product-reviews", a widget's
# "jdgm-reviews"): the readers' comments of a shop's page. A bit of Line.groups past
# those of ANCESTOR_GROUPS, so it is no feature (line_features reads those bits only);
# the pass comments drops what such a box holds as it drops comments. The one review
# ("review-body") is a critic's article, and "category-reviews" the subject of a post
# (vocabulary.SUBJECT_PREFIXES).
REVIEWS_BIT = 1 << len(ANCESTOR_GROUPS)


def _word_bits() -> dict[str, int]:
    marks = [(1 << k, words) for k, words in enumerate(_GROUP_WORDS)]
    marks += [(_NOISE_BIT, NOISE_ATTR_WORDS), (_CONTENT_BIT, CONTENT_ATTR_WORDS)]
    bits: dict[str, int] = {}
    for bit, words in marks:
        for word in words:
            bits[word] = bits.get(word, 0) | bit
    return bits


_WORD_BITS = _word_bits()
# The candidate words of a lower-cased class/id value: runs of ASCII letters that start
# it or follow white space, "_" or "-", and end it or come before one of those or a digit.
_ATTR_WORD_RE = re.compile(r"(?<![^\s_-])[a-z]+(?![^\s_\d-])")


class Line(NamedTuple):
    text: str  # whitespace runs made one space, stripped
    owner: etree._Element  # the innermost block-level element holding the line
    kind: str  # "p", "heading", "list", "cell", "link" (a line that is all link) or "text"
    link_ratio: float
    # The marks of the nearest ancestor (or self) whose tag or class/id words name
    # what it holds: navigation, comments, footers … (noise), the article (content), or
    # both at once ("comment-content"). The nearest decides: a comment box inside the
    # page's "main-content" is a comment.
    noise_attr: bool
    content_attr: bool
    groups: int  # the ANCESTOR_GROUPS named by the line's ancestors, as bits, and REVIEWS_BIT
    length: int  # characters other than white space (text.text_length of the text)
    level: int  # the owner's ancestors: how deep it sits in the tree
    # Inside a footer, a navigation or a banner (FURNITURE_TAGS, FURNITURE_ROLES), or an
    # aside (aside_furniture): the pass "furniture" drops it.
    furniture: bool
    # The nearest aside, dialog or gallery around the line (BESIDE_TAGS, BESIDE_ROLES,
    # _names_gallery), or None: aside_furniture decides on it once Step 1 has located
    # the block.
    beside: etree._Element | None = None


# What segment carries down the tree for each open element (see its stack).
_Marks = tuple[bool, bool, bool, bool, int, bool, "etree._Element | None"]

# Elements a browser does not show: those of an attribute of _SHOWN_NOT (whatever its
# value), of _SAID_HIDDEN saying "true", or of a style of _HIDDEN_STYLES; never <html>
# or <body>. aria-modal: a modal dialog, shown over the page once opened, closed as
# the page loads.
_SHOWN_NOT = ("hidden",)
_SAID_HIDDEN = ("aria-hidden", "aria-modal")
_HIDDEN_STYLES = (("display", "none"), ("visibility", "hidden"))
_NEVER_HIDDEN = ("html", "body")
_HIDDEN_STYLE_RE = re.compile("|".join(rf"{prop}\s*:\s*{value}" for prop, value in _HIDDEN_STYLES), re.IGNORECASE)
# Found through the attributes, in document order: libxml2 walks to named attributes
# faster than it tests a predicate on every element.
_MAYBE_HIDDEN = etree.XPath(" | ".join(f"//@{name}/.." for name in (*_SHOWN_NOT, *_SAID_HIDDEN, "style")))


def _is_hidden(el: etree._Element) -> bool:
    return el.tag not in _NEVER_HIDDEN and bool(
        any(el.get(name) is not None for name in _SHOWN_NOT)
        or any((el.get(name) or "").strip().lower() == "true" for name in _SAID_HIDDEN)
        or _HIDDEN_STYLE_RE.search(el.get("style") or "")
    )


def drop_hidden(root: etree._Element, shown_share: float = ImprovedConfig.shown_by_script_share) -> int:
    """Remove elements a browser would not show; returns how many were hidden.

    A page whose hidden elements hold all but ``shown_share`` of its text
    (improved.shown_by_script_share) is shown by its own scripts: a wrapper hidden
    until they run, or the content that streamed server rendering sends in hidden
    boxes for a script to move into place. Its hidden elements stay. What a script
    reveals is a tree of elements: a hidden element of bare text (a block of keywords
    stuffed out of sight) does not count towards the share.
    """
    hidden = core.compiled.hidden_elements(root, _HIDDEN_RULES) if core.compiled is not None else None
    count, going, hidden_chars, page_chars = hidden if hidden is not None else _hidden_elements(root)
    if count and page_chars - hidden_chars < shown_share * page_chars:
        return 0
    for el in going:
        parent = el.getparent()
        tail = el.tail
        previous = el.getprevious()
        parent.remove(el)
        if tail:
            if previous is not None:
                previous.tail = (previous.tail or "") + tail
            else:
                parent.text = (parent.text or "") + tail
    return count


def _hidden_elements(root: etree._Element) -> tuple[int, list[etree._Element], float, float]:
    """How many elements of ``root``'s document are hidden (an XPath reads the whole
    document from any element of it); those that go (each with a parent, and not
    inside another that goes: it goes with it); the characters of the outermost hidden
    elements that hold elements; and those of ``root`` (0.0 for both where nothing is
    hidden)."""
    hidden = [el for el in _MAYBE_HIDDEN(root) if _is_hidden(el)]
    if not hidden:
        return 0, [], 0.0, 0.0
    kept = set(hidden)
    hidden_chars = sum(_text_size(el) for el in hidden if len(el) and not any(a in kept for a in el.iterancestors()))
    going: list[etree._Element] = []
    gone: set[etree._Element] = set()
    for el in hidden:  # in document order: an element's ancestors come before it
        if el.getparent() is not None and not any(a in gone for a in el.iterancestors()):
            going.append(el)
            gone.add(el)
    return len(hidden), going, float(hidden_chars), _text_size(root)


# What the compiled hidden_elements reads of the rules above, handed over, not copied.
_HIDDEN_RULES = core.HiddenRules(_SHOWN_NOT, _SAID_HIDDEN, _HIDDEN_STYLES, "true", _NEVER_HIDDEN, _is_hidden)


_text_size = etree.XPath("string-length(.)")  # the characters of an element's text, counted in C


@functools.lru_cache(maxsize=8192)
def _attr_marks(attrs: str) -> tuple[bool, bool, int, bool, bool]:
    """Whether class and id words name noise, whether they name the article, the
    ANCESTOR_GROUPS they name (as bits), whether they name a consent box, and whether
    they name a gallery (_names_gallery)."""
    bits = 0
    lowered = attrs.lower()
    for word in _ATTR_WORD_RE.findall(lowered):
        bits |= _WORD_BITS.get(word, 0)
    groups = bits & _GROUPS_MASK
    if "reviews" in lowered and _names_reviews(lowered):
        groups |= REVIEWS_BIT
    return bool(bits & _NOISE_BIT), bool(bits & _CONTENT_BIT), groups, _names_consent(lowered), _names_gallery(lowered)


# What a gallery's class or id words hold, one of them at least.
_GALLERY_CUES = ("gallery", "slideshow")


def _names_gallery(names: str) -> bool:
    """Whether lower-cased class and id words name a gallery or a slideshow (the words
    of a script's hook, of a post's subject or of its format aside)."""
    return any(cue in names for cue in _GALLERY_CUES) and any(
        _gallery_word(word) for word in names.split() if not word.startswith(("js-", *SUBJECT_PREFIXES)) and "format-" not in word
    )


def _gallery_word(word: str) -> bool:
    """Whether a class or id word's last part names a gallery (vocabulary.GALLERY_PARTS),
    or such a part is followed by a wrapper's name (vocabulary.GALLERY_WRAPPERS)."""
    parts = word.replace("_", "-").split("-")
    return any(
        part in GALLERY_PARTS and (k + 1 == len(parts) or parts[k + 1] in GALLERY_WRAPPERS) for k, part in enumerate(parts)
    )


def _names_reviews(names: str) -> bool:
    """Whether lower-cased class and id words name a box of reviews (REVIEWS_BIT)."""
    return any(
        "reviews" in _ATTR_WORD_RE.findall(word) and not any(prefix in word for prefix in SUBJECT_PREFIXES)
        for word in names.split()
    )


# An element holding at least ``passed_max_share`` of the walked container's characters
# is a wrapper of the page, whatever its names say ("cookies-accepted" on an outer
# <div>, the one <form> of an ASP.NET page): it is walked.
# A paragraph of more than ``story_paragraph_chars`` characters is prose: an element
# that holds one, or the page's <h1>, holds the story (FURNITURE_TAGS); call with chars=.
_holds_story = etree.XPath("boolean(.//h1 | .//p[string-length(normalize-space(.)) > $chars])")
_holds_headline = etree.XPath("boolean(.//h1)")


# A consent manager's box (a cookie banner, its preference centre, a form's consent
# box) lies over the page or beside it and is no part of its text: segment passes over
# an element whose class or id word holds a manager's name, or cookie, consent or GDPR
# joined to another part ("cookie-banner", "onetrust-consent-sdk"). Alone ("cookies")
# such a word names a section of a policy page, and after "category-" or "tag-" the
# subject of a post (WordPress marks its posts so).
# What a consent box's class or id words hold, one of them at least.
_CONSENT_CUES = ("cookie", "consent", "gdpr", *CONSENT_BRANDS)


def _names_consent(names: str) -> bool:
    """Whether lower-cased class and id words name a consent box."""
    if not any(cue in names for cue in _CONSENT_CUES):
        return False
    for word in names.split():
        if word.startswith(SUBJECT_PREFIXES):
            continue
        if any(brand in word for brand in CONSENT_BRANDS):
            return True
        parts = [part.rstrip("0123456789") for part in word.replace("_", "-").split("-")]
        if len(parts) > 1 and any(part in CONSENT_PARTS for part in parts):
            return True
    return False


# A form the reader types into (a comment, a search, a sign-up, a login) asks for text
# and is no part of the page's: segment passes over a <form> holding a <textarea> or an
# input for an e-mail address, a search or a password. A form without one (a shop's
# product form, a forum's moderation form, a comment shown in its edit form) holds
# the page's own text and is walked.
_takes_entry = etree.XPath("boolean(.//textarea or .//input[@type='email' or @type='search' or @type='password'])")


def segment(container: etree._Element, settings: LinesConfig = _LINES) -> list[Line]:
    """The lines of ``container`` in document order (no recursion: an explicit walk).

    One pass of lxml's iterwalk; a line's pieces are joined when a block element or
    a ``<br>`` ends it. Only the pieces inside links are measured as they come: the
    characters other than white space add up, so the line's own length is measured
    once, on its joined text. A consent manager's box (_names_consent) and a form the
    reader types into (_takes_entry) are passed over, their tails kept, unless they hold
    ``settings.passed_max_share`` of the container's characters. Lines inside a ``<footer>``, a
    ``<nav>`` or an element of role ``contentinfo``, ``navigation`` or ``banner`` are
    marked (Line.furniture), unless it holds that share and the story with it.

    The text after a link's end tag is measured as linked when it is no longer than the
    link: a title's date or source (``<a>Title</a> (2005-01-01)``) belongs to the link, a
    sentence that opens with a link (``<a>Redis sets</a> are unordered collections …``)
    is prose.
    """
    if core.compiled is not None:  # the same walk over libxml2's nodes (webclean/_core.pyx)
        compiled = core.compiled.segment(container, _RULES, settings)
        if compiled is not None:
            return compiled
    lines: list[Line] = []
    pieces: list[str] = []
    linked = 0
    link_start = 0  # the line's linked characters when the open link began (or the line did)
    solid = False  # whether a piece of the line has more than white space

    def flush(owner: tuple[etree._Element, int], marks: _Marks) -> None:
        nonlocal linked, link_start
        text = normalise_space("".join(pieces))
        pieces.clear()
        if text:
            # Its only white space is single spaces: text_length without the test for others.
            length = len(text) - text.count(" ")
            ratio = linked / length if linked < length else 1.0
            element, level = owner
            _, _, noise, content, groups, furniture, beside = marks
            kind = _kind(element, ratio, settings.all_link)
            lines.append(Line(text, element, kind, ratio, noise, content, groups, length, level, furniture, beside))
        linked = link_start = 0

    # One entry per open element: (is block, in a link, noise attr, content attr, groups,
    # in furniture, the nearest aside or dialog).
    stack: list[_Marks] = []
    # The open block elements, each with its level (its ancestors in the whole tree).
    base = sum(1 for _ in container.iterancestors())
    owners: list[tuple[etree._Element, int]] = [(container, base)]
    top: _Marks = (True, False, False, False, 0, False, None)
    state = top
    size = 0.0  # the container's characters, counted when a box to pass over is first met

    def small(el: etree._Element) -> bool:
        """Whether ``el`` holds under ``passed_max_share`` of the container's characters."""
        nonlocal size
        size = size or _text_size(container)
        return bool(_text_size(el) < settings.passed_max_share * size)

    walk = etree.iterwalk(container, events=("start", "end"))
    for event, el in walk:
        if event == "start":
            tag = el.tag  # a str, or a function for comments and the like: never in the sets
            block = tag in BLOCK_LEVEL or el is container
            if block or tag in LINE_BREAKS:
                if solid:
                    flush(owners[-1], state)
                    solid = False
                elif pieces:
                    pieces.clear()
            noise, content = state[2], state[3]
            # The nearest element that names what it holds decides the marks (see Line).
            noisy, contenty = tag in NOISE_TAGS, False
            groups = state[4] | _TAG_GROUPS.get(tag, 0)
            attrs = el.get("class")
            name = el.get("id")
            passed = tag == "form" and _takes_entry(el)
            gallery = False
            if attrs is not None or name is not None:
                named_noise, contenty, named_groups, consent, gallery = _attr_marks(f"{attrs or ''} {name or ''}")
                noisy = noisy or named_noise
                groups |= named_groups
                passed = passed or consent
            skip = passed and el is not container and small(el)
            furniture, beside = state[5], state[6]
            role = el.get("role")
            if not (furniture or skip) and (tag in FURNITURE_TAGS or role in FURNITURE_ROLES) and el is not container:
                furniture = small(el) or not _holds_story(el, chars=settings.story_paragraph_chars)
            if tag in BESIDE_TAGS or role in BESIDE_ROLES or (gallery and tag not in _STORY_TAGS and el is not container):
                beside = el
            if noisy or contenty:
                noise, content = noisy, contenty
            if tag == "a" and not state[1]:
                link_start = linked
            state = (block, state[1] or tag == "a", noise, content, groups, furniture, beside)
            stack.append(state)
            if block:
                owners.append((el, base + len(stack) - 1))
            if skip:
                walk.skip_subtree()  # its end comes next: its tail stays the page's
                continue
            text = el.text
            if text:
                pieces.append(text)
                if not solid and not text.isspace():
                    solid = True
                if state[1]:
                    linked += text_length(text)
            continue
        closed = stack.pop()
        if closed[0]:
            if solid:
                flush(owners[-1], closed)
                solid = False
            elif pieces:
                pieces.clear()
            owners.pop()
        state = stack[-1] if stack else top
        # Inside a link the tail is linked; after the link itself, when no longer than the
        # link: counted as the parent's, the date or source after an old portal's linked
        # title would read as prose.
        tail = el.tail
        if tail and el is not container:
            pieces.append(tail)
            if not solid and not tail.isspace():
                solid = True
            if closed[1]:
                length = text_length(tail)
                if state[1] or length <= linked - link_start:
                    linked += length
    return lines


# The places in a Line of its beside and furniture (the compiled aside_furniture).
_BESIDE_AT = (Line._fields.index("beside"), Line._fields.index("furniture"))


def aside_furniture(
    lines: Sequence[Line], block: etree._Element, story: Callable[[], bool] = lambda: False, settings: LinesConfig = _LINES
) -> list[Line]:
    """The lines, those inside an aside, a dialog or a gallery (Line.beside) marked as
    furniture (Line.furniture) unless it holds the located block or the story.

    An ``<aside>`` holds what stands beside the text: an author's box, a box of related
    stories, a sign-up, a caption's credit, a sidebar; a dialog, what is shown over it.
    Some pages put their story in one (a blog theme's post, a news site's column): such
    an element wraps the block that Step 1 located, or holds the page's ``<h1>`` or a
    paragraph of more than ``settings.story_paragraph_chars`` characters (a product's description,
    in the drawer of a shop's page), and is text. Marked once Step 1 has located the
    block, which segment does not know of. The nearest such element around a line
    decides: one around it holds whatever the nearest holds.

    A gallery (_names_gallery) is furniture on a page that says it is one story
    (``story``, metadata.is_story): a slideshow of other stories set in the text, the
    site's galleries beside it, each picture's caption a paragraph. It holds the story
    only where it wraps the block or holds the ``<h1>``. A shop's gallery is its
    product's pictures, with the product's name and price: on a page that is no story
    it is text.
    """
    wrapping = {block, *block.iterancestors()}

    def furniture(el: etree._Element) -> bool:
        """Whether the aside, dialog or gallery ``el`` is furniture."""
        if el.tag in BESIDE_TAGS or el.get("role") in BESIDE_ROLES:
            return el not in wrapping and not _holds_story(el, chars=settings.story_paragraph_chars)
        return el not in wrapping and not _holds_headline(el) and story()

    if core.compiled is not None:
        found = core.compiled.aside_furniture(lines, _BESIDE_AT, furniture)
        if found is not None:
            return found
    aside: dict[etree._Element, bool] = {}  # whether each element around lines is furniture
    marked = []
    for line in lines:
        el = line.beside
        if el is not None and not line.furniture:
            if el not in aside:
                aside[el] = furniture(el)
            if aside[el]:
                line = line._replace(furniture=True)
        marked.append(line)
    return marked


def names_related_box(text: str) -> bool:
    """Whether a line says only that a box of other stories follows: one of
    vocabulary.RELATED_BOX_NAMES between marks and white space ("Related:" is a label
    of the line, not a name)."""
    lowered = text.lower()
    start, end = 0, len(lowered)
    while start < end and not (lowered[start].isalnum() or lowered[start] in _NAME_LEAD):
        start += 1
    while end > start and not (lowered[end - 1].isalnum() or lowered[end - 1] in _NAME_TRAIL):
        end -= 1
    return " ".join(lowered[start:end].split()) in RELATED_BOX_NAMES


# The marks a box's name may open with, and end with ("Related:"), as it does with a letter.
_NAME_LEAD = "_"
_NAME_TRAIL = "_:："
# The places in a Line of its text and its length (the compiled related_names).
_NAME_AT = (Line._fields.index("text"), Line._fields.index("length"))


def related_names(lines: Sequence[Line], name_chars: int) -> list[int]:
    """The places of the lines after the first that name a box of other stories: of at
    most ``name_chars`` characters, saying only that (:func:`names_related_box`)."""
    if core.compiled is not None:
        found = core.compiled.related_names(lines, _NAME_AT, name_chars, RELATED_BOX_NAMES, _NAME_LEAD, _NAME_TRAIL)
        if found is not None:
            return found
    return [i for i, line in enumerate(lines) if i and line.length <= name_chars and names_related_box(line.text)]


# Line.related: a line that names such a box, and a line inside the box it names.
RELATED_NAME, IN_RELATED = 1, 2


def related_boxes(lines: Sequence[Line], name_chars: int = _LINES.related_name_chars) -> list[int]:
    """Which lines name a box of other stories (RELATED_NAME) and which lie in the box
    (IN_RELATED), 0 for the others. A name is a line of at most ``name_chars``
    (lines.related_name_chars) that says only that (:func:`names_related_box`).

    The box is the largest element that the name's line opens: the owner's ancestors,
    climbed while the line before lies outside them. A name alone in that element (a
    title ``<div>`` over a list beside it, a heading among the story's paragraphs)
    names the element after it. The name on the first line opens the lines, not a
    box; a name inside a box already marked adds nothing (nor, on a page of names
    nested in one another, a walk of the rest of the page per name).
    """
    marks = [0] * len(lines)
    names = related_names(lines, name_chars)
    for i in names:
        if marks[i]:
            continue
        line = lines[i]
        marks[i] = RELATED_NAME
        before = {lines[i - 1].owner, *lines[i - 1].owner.iterancestors()}
        box = line.owner
        for ancestor in line.owner.iterancestors():
            if ancestor in before:
                break
            box = ancestor
        j = _mark_inside(lines, i + 1, box, marks)
        if j == i + 1:
            # A name alone in its element names the element after it (comments passed over).
            after = next(box.itersiblings(etree.Element), None)
            if after is not None:
                _mark_inside(lines, j, after, marks)
    return marks


def _mark_inside(lines: Sequence[Line], j: int, box: etree._Element, marks: list[int]) -> int:
    """Mark IN_RELATED the lines from ``j`` on whose owner lies in ``box``; the index of
    the first that does not."""
    while j < len(lines) and (lines[j].owner is box or box in lines[j].owner.iterancestors()):
        marks[j] = IN_RELATED
        j += 1
    return j


# The kind of a line by its owner's tag (Line.kind), where the line is not all link.
_TAG_KINDS = {**dict.fromkeys(HEADINGS, "heading"), **dict.fromkeys(LIST_ITEMS, "list"), **dict.fromkeys(CELLS, "cell"), "p": "p"}
_OTHER_KIND, _LINK_KIND = "text", "link"


def _kind(owner: etree._Element, ratio: float, all_link: float) -> str:
    return _LINK_KIND if ratio >= all_link else _TAG_KINDS.get(owner.tag, _OTHER_KIND)


def _compiled_attr_marks() -> Callable[[str], tuple[bool, bool, int, bool, bool]]:
    """_attr_marks compiled (core.compiled.AttrMarks) where the core is: uncached, as the
    compiled walk keeps what it gives from page to page."""
    if core.compiled is None:
        return _attr_marks
    return core.compiled.AttrMarks(
        _WORD_BITS, _GROUPS_MASK, _NOISE_BIT, _CONTENT_BIT, REVIEWS_BIT, _names_reviews, _CONSENT_CUES, _names_consent,
        _GALLERY_CUES, _names_gallery,
    )


# What the compiled segment (core.compiled.segment) reads of the rules above.
_RULES = core.SegmentRules(
    BLOCK_LEVEL, LINE_BREAKS, NOISE_TAGS, _TAG_GROUPS, FURNITURE_TAGS, FURNITURE_ROLES, BESIDE_TAGS, BESIDE_ROLES,
    _STORY_TAGS, _compiled_attr_marks(), _takes_entry, _text_size, Line, _holds_story, _TAG_KINDS, _OTHER_KIND, _LINK_KIND,
)
