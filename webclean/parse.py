"""Text in, a clean lxml tree out: the tree every later step (method.md, Steps 1-4) walks.

:func:`parse_html` parses with libxml2, without network access, comments or processing
instructions, and then

- removes elements that never hold main text (:data:`JUNK_TAGS`), keeping the text
  that follows each of them (its tail), and the ``<textarea>`` elements whose text
  is markup (templates and embed codes);
- puts each box of React's streamed server rendering, ``<div hidden id="S:1">``, in
  the place of its marker, ``<template id="B:1">`` (or ``"P:1"``), shown, as React's
  script does at once: what was not ready with the page's first bytes (an article, a
  product's details) comes in such boxes at the end of the body;
- reads a link to a script (``href="javascript:…"``) around the page's boxes as a box:
  it leads to no page, and what it wraps is the page's text;
- removes ``<form>`` elements that hold little text (search boxes, log-ins, sign-ups),
  but keeps the forms that wrap a whole page, as ASP.NET WebForms pages and shop
  product pages do: on the dev data 13 of 1,240 pages have their main text in one;
- makes sure ``<body>`` exists and holds the page (see :func:`_repair_body`);
- caps the depth of the tree, without recursion (see :func:`parse_html` and webclean/depth.py).

libxml2 (2.14, bundled with lxml 6) behaviours that are worked around:

- everything after ``</html>`` is dropped, and what follows ``</body>`` lands outside
  ``<body>`` (8 dev pages have text there). Browsers (HTML5) put both into ``<body>``,
  so these two end tags are removed before parsing, to the same effect;
- raw control characters are kept in text nodes, and lxml then refuses any text
  assignment that contains one, so later steps could not edit such a tree: they are
  removed from the input (VT and FF become spaces). Character references such as
  ``&#1;`` can still produce them: they are removed from the tree's text after
  parsing (:func:`_drop_referenced_controls`), so that later steps may edit it;
- at 2048 levels of nesting it stops and drops the rest of the page (see
  :func:`parse_html`);
- ``<noscript>`` is parsed as markup, so an element left open inside it
  (``<noscript><div></noscript>``) puts the rest of the page inside the noscript,
  and the whole page went with it as junk. Browsers with scripts on read its content
  as raw text up to ``</noscript>``: where a noscript holds more than a noscript
  should (``parse.noscript_max_elements``), the page is parsed again with each
  noscript up to its end tag removed from the markup (:data:`NOSCRIPT`). With
  ``noscript=True`` its content is kept instead, as a browser without scripts shows
  it (the posts of Blogger's template live there, their script copy being inert).

Empty input (also whitespace or comments only) gives an empty document,
``<html><head/><body/></html>``, not an error: "no text" is a result for the caller
to report. :class:`ParseError` is reserved for input lxml refuses outright.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from lxml import etree

from webclean import core
from webclean.config import ParseConfig
from webclean.depth import MAX_SUPPORTED_DEPTH, elements_at_level, flatten, flatten_markup
from webclean.text import NOT_XML_CHAR_RE, normalise_space, text_length, xml_safe

__all__ = [
    "JUNK_TAGS", "ParseError", "TooManyElements", "element_path", "meta_contents", "meta_values", "page_title", "parse_html",
    "text_of",
]  # fmt: skip


class ParseError(Exception):
    """lxml could not turn the text into a tree."""


class TooManyElements(Exception):
    """The tree holds more elements than ``max_elements``: refused before any walk of it."""

    def __init__(self, elements: int, max_elements: int) -> None:
        super().__init__(f"{elements} elements is over limits.max_elements = {max_elements}")


# Counted in C: a walk in Python costs a tenth of a second on the largest pages.
_COUNT_ELEMENTS = etree.XPath("count(//*)")


# Never main text. script/style/noscript/iframe: code, or content for another context;
# template: inert markup; svg: drawing labels, and its <title> is not the page's;
# object/embed/applet: plug-in content; select/button/datalist: form controls, whose
# options and labels are the page's menus and buttons (an archive's drop-down of months
# outweighs a blog post when locating the block); rt/rp: ruby
# annotations, the readings set over Japanese or Chinese characters, which would cut
# every word of the text they gloss. Not every textarea: a few old pages show their
# text in one; those holding markup go (_drop_markup_textareas).
JUNK_TAGS = (
    "script", "style", "noscript", "iframe", "template", "svg", "object", "embed", "applet",
    "select", "button", "datalist", "rt", "rp",
)
# Of those, the form controls that libxml2 leaves open over the rest of the page when
# their markup is not closed as it expects (a <button> around a menu's <div>s): one that
# holds one of the page's boxes and more text than a widget form (parse.widget_form_chars)
# loses its tag, not its content.
CONTROL_TAGS = ("select", "button", "datalist")
# The boxes a page lays its content out in, which no control's content model allows.
# Narrower than text.BLOCK_LEVEL, and kept so: the question is whether a control has
# swallowed the page's layout, not whether it holds a line (a widget's <li> or <br>).
_PAGE_BOXES = ("div", "p", "article", "section", "main", "table", "ul", "ol", "h1", "h2", "h3")

# A <noscript> up to its end tag, as a browser with scripts on reads it: raw text. One
# without an end tag is left to libxml2 (and removed as junk).
NOSCRIPT = re.compile(rb"<noscript\b.*?</noscript\s*>", re.S | re.I)
# The thresholds of the cleaning (config.ParseConfig). A noscript with more elements
# than ``noscript_max_elements`` may have swallowed the page after it: the page is
# parsed again without its noscripts. Theirs is a tracking pixel, a notice, a fallback
# link or a small menu; a page's whole body has hundreds. A form with less text than
# ``widget_form_chars`` (whitespace not counted) is a widget. Measured on the dev data:
# 99 % of the forms that hold no main text have under 750 characters, 90 % under 205;
# of the 13 that hold main text, 12 have over 900 (one is a log-in form on a forum
# error page, where the gold text is that form).
_DEFAULT = ParseConfig()

# huge_tree: without it libxml2 also drops everything after any text node or attribute
# over 10 MB (an inline script or a data: URI), and limits.max_bytes allows 20 MB
# pages. Its other effect, lifting the guards against XML entity amplification, does
# not apply to HTML, which has no entity declarations. Input is handed over as UTF-8
# bytes with the encoding fixed, so an XML declaration or a <meta charset> in the text
# cannot make libxml2 re-decode it, and lxml's ValueError for str input with an
# encoding declaration cannot happen. lxml serialises concurrent use of one parser
# with a lock, so sharing it between threads is safe.
# lxml's plain parser, not lxml.html's: its element classes cost a Python lookup for
# every element a later step touches (6 % of extraction time, benchmarks/speed.py).
_PARSER = etree.HTMLParser(
    encoding="utf-8",
    remove_comments=True,
    remove_pis=True,
    no_network=True,
    huge_tree=True,
    collect_ids=False,  # nothing looks elements up by id; saves a hash table per page
    default_doctype=False,
)

_HEAD_TAGS = frozenset({"title", "meta", "link", "base", "style", "script", "noscript", "template"})

# The end tags that _reopen_document removes: their names, and the tags as found.
_DOCUMENT_END_NAMES = (b"html", b"body")
_DOCUMENT_END_TAG = re.compile(rb"</(?:" + b"|".join(_DOCUMENT_END_NAMES) + rb")(?:\s[^>]*)?>", re.I)

# C0 control characters other than TAB, LF and CR; VT and FF are HTML whitespace.
_C0_TO_SPACE = bytes.maketrans(b"\x0b\x0c", b"  ")
_C0_DELETE = bytes([*range(0x00, 0x09), *range(0x0E, 0x20)])
# The bytes that translating with those two changes: data without them stays as it is.
_C0_CHANGED = bytes(b for b in range(256) if b in _C0_DELETE or _C0_TO_SPACE[b] != b)
# The code points of NOT_XML_CHAR_RE that libxml2 makes of a character reference
# (&#1; … &#8;, &#11;, &#12;, &#14; … &#31;, &#65534;, &#65535;, in decimal or hex, with
# or without the ";"), and 0: pages without such a reference skip a walk of the whole tree.
_CONTROL_CODE_POINTS = frozenset([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0xFFFE, 0xFFFF])
_REFERENCE_RE = re.compile(rb"&#(?:[xX]([0-9a-fA-F]+)|([0-9]+))")


def parse_html(
    text: str | bytes,
    *,
    max_depth: int = 400,
    noscript: bool = False,
    max_elements: int | None = None,
    settings: ParseConfig = _DEFAULT,
) -> etree._Element:
    """Parse a page into its cleaned ``<html>`` element (see the module docstring).

    ``text``: the page's text, or its bytes where they are valid UTF-8
    (decode.Decoded.utf8), read as they are: encoding the text again costs as much as
    a tenth of the parse.

    ``noscript``: keep the content of ``<noscript>`` elements, as a browser without
    scripts shows it, instead of removing them with their content.

    ``max_elements``: raise TooManyElements for a tree of more elements, right after
    libxml2 built it: every later step walks the tree in Python.

    ``settings``: when a noscript has swallowed the page, and what form is a widget.

    No element lies deeper than ``min(max_depth, MAX_SUPPORTED_DEPTH)`` levels, the
    root being level 1: an element at that level keeps the text of all its
    descendants, with a newline where a block element began or ended, and loses them.
    Pages deeper than libxml2's own limit, where it would stop parsing and drop the
    rest of the page, are flattened in the markup first and parsed again. Nothing
    here recurses, so 200,000 nested ``<div>`` cost a few tenths of a second.
    """
    depth = min(max_depth, MAX_SUPPORTED_DEPTH)
    if depth < 2:
        raise ValueError(f"max_depth must be at least 2, not {max_depth}")
    data = _reopen_document(_markup(text))
    root = _parse(data)
    if root is None:
        return _empty_document()
    elements, deep, found = _census(root, depth)
    if max_elements is not None and elements > max_elements:
        raise TooManyElements(elements, max_elements)
    if not noscript and _swallowing_noscript(found.noscripts, settings.noscript_max_elements):
        data = NOSCRIPT.sub(b"", data)
        root = _parse(data)
        if root is None:
            return _empty_document()
        _, deep, found = _census(root, depth)
    if deep and elements_at_level(root, MAX_SUPPORTED_DEPTH):
        # libxml2 may have hit its limit and dropped the rest of the page.
        root = _parse(flatten_markup(data.decode("utf-8", "replace"), depth).encode("utf-8"))
        if root is None:
            return _empty_document()
        _, deep, found = _census(root, depth)
    # Junk goes before flattening, or its text would be folded into the page's.
    # Elements of `deep` inside removed junk are detached: flattening them is moot, and
    # so is cleaning the textareas and forms of `found` that went with the junk.
    if noscript and found.noscripts:
        etree.strip_tags(root, "noscript")
    _place_streamed_boxes(found.templates, root)
    _unwrap_swallowing_controls(found.controls, settings.widget_form_chars)
    if _holds(data, _NOWHERE_SCHEME.encode(), 0):  # most pages hold no such link: a search of the text spares a walk of the tree
        _unwrap_nowhere_links(root)
    etree.strip_elements(root, *JUNK_TAGS, with_tail=False)
    _drop_markup_textareas(found.textareas)
    _drop_widget_forms(found.forms, settings.widget_form_chars)  # after the textareas, whose text a form's holds
    _repair_body(root)  # moves head and body children only: levels stay the same
    for element in deep:
        flatten(element)
    return root


def page_title(root: etree._Element) -> str:
    """The page's title, whitespace collapsed; "" if it has none.

    In this order: the first non-empty ``<title>`` (wherever libxml2 put it), the
    ``og:title`` meta property (pages whose <title> is empty or missing often
    have one), the first non-empty ``<h1>``.
    """
    head = root.find("head")
    # A first <head>'s titles come first in document order, and are looked for in it
    # alone first: lxml's iter() walks on to the next match as it returns one, so a walk
    # of the whole page would read all of it to return the title of its head.
    for scope in (head, root) if head is not None and head.getprevious() is None else (root,):
        for element in scope.iter("title"):
            title = text_of(element)
            if title:
                return title
    for title in meta_contents(root, "og:title"):
        return title
    for element in root.iter("h1"):
        title = text_of(element)
        if title:
            return title
    return ""


def element_path(element: etree._Element) -> str:
    """An XPath that locates the element, e.g. ``/html/body/div[2]/div``.

    Positions appear only where siblings share the tag (libxml2's getpath).
    """
    return element.getroottree().getpath(element)


def meta_contents(root: etree._Element, key: str) -> Iterator[str]:
    """The non-empty contents, spaces collapsed, of the ``<meta>`` elements whose
    ``property`` or ``name`` is ``key`` (lower case), in document order."""
    return meta_values(root.iter("meta"), key)


def meta_values(metas: Iterable[etree._Element], key: str) -> Iterator[str]:
    """:func:`meta_contents` of the page's ``<meta>`` elements, ``metas``, where a walk
    over the page has found them already (page_type.element_census)."""
    for element in metas:
        if (element.get("property") or element.get("name") or "").strip().lower() == key:
            content = normalise_space(element.get("content") or "")
            if content:
                yield content


def text_of(element: etree._Element) -> str:
    """The text inside an element (not its tail), runs of whitespace made one space.

    Nothing is inserted between elements: right for the inline content of a <p> or
    an <a>, which is what the method measures; two blocks with no whitespace
    between them in the markup run together.
    """
    return normalise_space("".join(element.itertext()))


# --- parsing -------------------------------------------------------------------------


def _markup(text: str | bytes) -> bytes:
    """The UTF-8 bytes libxml2 reads: ``text`` encoded (or the bytes as they are), its
    control characters out."""
    # "replace": a lone surrogate would make lxml stop reading a str at that point.
    # Control characters go: libxml2 keeps them, and lxml then refuses every text
    # assignment that contains one (a NUL also moves the whole page into <body>).
    # bytes.translate runs at about 1 GB/s, a tenth of the parse; few pages hold a
    # control character, and the compiled core tells them apart several times faster.
    data = text if isinstance(text, bytes) else text.encode("utf-8", "replace")
    if core.compiled is not None and not core.compiled.holds_bytes(data, _C0_CHANGED):
        return data
    return data.translate(_C0_TO_SPACE, _C0_DELETE)


def _parse(data: bytes) -> etree._Element | None:
    """libxml2's tree of UTF-8 bytes (_markup), or None for a document without content."""
    try:
        root = etree.fromstring(data, _PARSER)
    except etree.LxmlError as err:
        raise ParseError(str(err)) from err
    if root is not None and _holds_reference(data, _CONTROL_CODE_POINTS):
        _drop_referenced_controls(root)
    return root


def _holds(data: bytes, key: bytes, anchor: int) -> bool:
    """``key in data``; the compiled core finds it by memchr on ``key[anchor]``, a byte
    rarer in markup than the key's others ("#" of "&#", "j" of "javascript:"): Python's
    search for a short key looks at most of a page's bytes."""
    if core.compiled is not None:
        return bool(core.compiled.holds_key(data, key, anchor))
    return key in data


def _holds_reference(data: bytes, code_points: frozenset[int]) -> bool:
    """Whether ``data`` holds a numeric character reference whose value, read over all
    its digits, is one of ``code_points``: one scan of the bytes for each "&#" (the
    compiled core's memchr, or the pattern's search for its literal start)."""
    if core.compiled is not None:
        return bool(core.compiled.holds_reference(data, code_points))
    for found in _REFERENCE_RE.finditer(data):
        digits = (found[1] or found[2]).lstrip(b"0")
        # More digits than 8 make a value above every code point (and int() refuses thousands).
        if len(digits) <= 8 and int(digits or b"0", 16 if found[1] else 10) in code_points:
            return True
    return False


def _drop_referenced_controls(root: etree._Element) -> None:
    """Remove the control characters that character references put into text.

    lxml refuses to set a text that holds one, so any later edit of such a node
    (segment.drop_hidden moving a tail, flattening) would raise. Found by the
    property tests: ``<div hidden></div>&#1;``.
    """
    for element in root.iter():
        if element.text and NOT_XML_CHAR_RE.search(element.text):
            element.text = NOT_XML_CHAR_RE.sub("", element.text)
        if element.tail and NOT_XML_CHAR_RE.search(element.tail):
            element.tail = NOT_XML_CHAR_RE.sub("", element.tail)


def _empty_document() -> etree._Element:
    root = _PARSER.makeelement("html")
    etree.SubElement(root, "head")
    etree.SubElement(root, "body")
    return root


def _swallowing_noscript(noscripts: list[etree._Element], max_elements: int) -> bool:
    for element in noscripts:
        for count, _ in enumerate(element.iter(), 1):
            if count > max_elements:
                return True
    return False


def _reopen_document(data: bytes) -> bytes:
    """Remove </body> and </html>, from the first one on (module docstring)."""
    if core.compiled is not None:
        return bytes(core.compiled.reopened(data, _DOCUMENT_END_NAMES))
    first = _DOCUMENT_END_TAG.search(data)  # in bytes: faster than in a str of wide characters
    if first is None:
        return data
    return data[: first.start()] + _DOCUMENT_END_TAG.sub(b"", data[first.start() :])


# --- cleaning ------------------------------------------------------------------------


# A tag as written in text: "<div", "</p>", "<img src=".
_MARKUP_RE = re.compile(r"</?[a-zA-Z][a-zA-Z0-9]*[\s/>]")


class _Cleanable(NamedTuple):
    """The elements that the cleaning steps look at, each kind in document order."""

    noscripts: list[etree._Element]
    controls: list[etree._Element]  # of CONTROL_TAGS
    textareas: list[etree._Element]
    forms: list[etree._Element]
    templates: list[etree._Element]

    @classmethod
    def of(cls, elements: Iterable[etree._Element]) -> _Cleanable:
        """The elements of _CLEANABLE_TAGS, in document order, sorted by kind."""
        found = cls([], [], [], [], [])
        kinds = {"noscript": found.noscripts, "textarea": found.textareas, "form": found.forms, "template": found.templates}
        for element in elements:
            kinds.get(element.tag, found.controls).append(element)
        return found


_CLEANABLE_TAGS = ("noscript", "textarea", "form", "template", *CONTROL_TAGS)


def _census(root: etree._Element, level: int) -> tuple[int, list[etree._Element], _Cleanable]:
    """How many elements ``root``'s document holds, those ``level`` levels down
    (depth.elements_at_level), and what the cleaning steps look at: one walk of the
    tree in the compiled core."""
    if core.compiled is not None:
        elements, deep, cleanable = core.compiled.tree_census(root, level, _CLEANABLE_TAGS)
    else:
        elements, deep, cleanable = int(_COUNT_ELEMENTS(root)), elements_at_level(root, level), root.iter(*_CLEANABLE_TAGS)
    return elements, deep, _Cleanable.of(cleanable)


_STREAMED_BOXES = etree.XPath("//div[@hidden][starts-with(@id, 'S:')]")
# The marker of a suspended boundary (B:), and of a postponed segment (P:).
_STREAMED_MARKERS = ("B:", "P:")


def _place_streamed_boxes(templates: list[etree._Element], root: etree._Element) -> None:
    """Move each streamed box (``<div hidden id="S:n">``) to its marker's place
    (``<template id="B:n">`` or ``"P:n"``, which goes with the junk), no longer hidden;
    a box in its marker's place may hold the next marker. A box without a marker stays
    hidden."""
    markers = [template for template in templates if (template.get("id") or "")[:2] in _STREAMED_MARKERS]
    if not markers:
        return
    boxes = {box.get("id")[2:]: box for box in _STREAMED_BOXES(root)}
    for marker in markers:
        box = boxes.pop(marker.get("id")[2:], None)
        if box is None or any(ancestor is box for ancestor in marker.iterancestors()):
            continue
        _drop_keeping_tail(box)
        box.tail = None
        del box.attrib["hidden"]
        marker.addprevious(box)


def _drop_markup_textareas(textareas: list[etree._Element]) -> None:
    """Remove each ``<textarea>`` whose text is markup: an embed code, a gallery or
    comment template kept there by the site, never text for the reader."""
    for textarea in textareas:
        if _MARKUP_RE.search(textarea.text or ""):
            _drop_keeping_tail(textarea)


def _unwrap_swallowing_controls(controls: list[etree._Element], widget_chars: int) -> None:
    """A control holding the page's boxes (which no control's content model allows:
    a <select> holds options) and more text than a widget (``widget_chars``) becomes a block."""
    swallowing = [
        control
        for control in controls
        if _holds_boxes(control) and _has_visible_chars(control, widget_chars)
    ]
    for control in swallowing:
        control.tag = "div"  # a block, as the page's boxes inside it are; junk inside it still goes


def _holds_boxes(element: etree._Element) -> bool:
    if core.compiled is not None:
        return bool(core.compiled.holds_named(element, _PAGE_BOXES))
    return any(True for _ in element.iter(*_PAGE_BOXES))


# A link to a script (``javascript:``) around the page's boxes goes to no other page:
# a box the reader clicks, whose text is the page's (Readability.js reads it so too).
_NOWHERE_SCHEME = "javascript:"
_NOWHERE_LINKS = etree.XPath(
    f"//a[starts-with(normalize-space(@href), '{_NOWHERE_SCHEME}')][" + " or ".join(f".//{tag}" for tag in _PAGE_BOXES) + "]"
)


def _unwrap_nowhere_links(root: etree._Element) -> None:
    links = None if core.compiled is None else core.compiled.nowhere_links(root, _NOWHERE_SCHEME.encode(), _PAGE_BOXES)
    for link in _NOWHERE_LINKS(root) if links is None else links:
        link.tag = "div"


def _drop_widget_forms(forms: list[etree._Element], widget_chars: int) -> None:
    for form in forms:
        if not _has_visible_chars(form, widget_chars):
            _drop_keeping_tail(form)


def _has_visible_chars(element: etree._Element, count: int) -> bool:
    """Whether the element holds ``count`` characters besides whitespace; stops as
    soon as it does, since a form that wraps the page holds all of its text."""
    if core.compiled is not None:
        holds = core.compiled.visible_chars(element, count)
        if holds is not None:
            return bool(holds)
    seen = 0
    for piece in element.itertext():
        seen += text_length(piece)
        if seen >= count:
            return True
    return False


def _drop_keeping_tail(element: etree._Element) -> None:
    """lxml.html's drop_tree, but safe: its text assignment raises on a control
    character (libxml2 makes them from &#1; or &#xffff;), and lxml has already
    deleted the old text by then."""
    parent = element.getparent()
    if element.tail:
        previous = element.getprevious()
        if previous is None:
            parent.text = xml_safe((parent.text or "") + element.tail)
        else:
            previous.tail = xml_safe((previous.tail or "") + element.tail)
    parent.remove(element)


def _repair_body(root: etree._Element) -> None:
    """Make sure <body> exists, and holds the page when the parser left it in <head>.

    Given content before <html> (a <script>, stray text), libxml2 has been seen to
    put the whole page into <head> and leave <body> empty or missing; 2.14 does
    not, but the check costs two lookups. Then everything in <head> from its first
    element that does not belong in a head on is moved, in order and with its tail
    text, into <body>.
    """
    body = root.find("body")
    if body is None:
        body = etree.SubElement(root, "body")
    head = root.find("head")
    if head is None or len(body) or (body.text or "").strip():
        return
    start = next((i for i, child in enumerate(head) if child.tag not in _HEAD_TAGS), None)
    if start is not None:
        body.extend(head[start:])  # extend moves the elements, tails included
