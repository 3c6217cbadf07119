"""A forum thread located as its posts (method svm's Step 1; a departure from the paper).

A thread is a list of posts, each a record alike in tag, class and id (the post's
number aside): the longest post wins Step 1, and the user panel beside it stops the
block's growth (webclean/region.py), so the replies would be lost. Here the records
are found, the block grows over them, and in each record the element that holds its
post's text: Block.records and Block.slots, from which Unit.post keeps each post's
text and drops the rest of its record (docs/method.md, "A forum thread is taken as its
posts").
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lxml import etree

from webclean.config import ThreadsConfig
from webclean.segment import HEADINGS

# The thresholds (config.ThreadsConfig): ``record_depth``, how far above the block its
# record may lie (a forum post's text sits about ten levels below the post's own
# element: table, row, cell and the boxes within); ``records``, how many records alike
# make a list of them; ``post_chars``, what posts found by the likeness of their texts
# alone hold (twin_posts; a page's widgets do not).
_DEFAULT = ThreadsConfig()
# A list's rank number ("1.", "#2", "3)"): rows whose "post" is one are a ranked list.
_RANK_RE = re.compile(r"[#№]?\d+[.):]?")
_DIGITS_RE = re.compile(r"\d+")

# A thread's records, and in each the element that holds its post's text.
Thread = tuple[tuple[etree._Element, ...], tuple[etree._Element, ...]]


def find_records(
    best: etree._Element, total: dict[etree._Element, int], ascend_gain: float, settings: ThreadsConfig = _DEFAULT
) -> Thread | None:
    """The records that the block is one record's text of, with their posts' texts, or None.

    A forum thread is a list of posts, each a record alike in tag, class and id (the
    post's number aside: ``<div id="post_1001">``, ``<div id="post_1002">``): the
    longest post wins Step 1, and the user panel beside it stops its growth, so the
    replies are lost. When an ancestor of the block (up to ``settings.record_depth``
    levels) is one of at least ``records`` such records that hold counted text, and
    their parent adds at least ``ascend_gain`` of the block's text, the block grows into the parent
    (docs/method.md, "A forum thread is taken as its posts"), and the records are
    returned, the block's among them.
    Records alike only in their first class word count when they look like posts
    (:func:`loose_thread`).
    """
    element = best
    for _ in range(settings.record_depth):
        parent = element.getparent()
        if parent is None or parent.tag in ("html", "body"):
            return None
        if total.get(parent, 0) >= (1.0 + ascend_gain) * total[best]:
            signature = _record_signature(element)
            if signature is not None:
                alike = tuple(c for c in parent if total.get(c, 0) and _record_signature(c) == signature)
                if len(alike) >= settings.records:
                    return alike, _slots(best, alike, settings.records)
            thread = loose_thread(best, element, total, settings) or twin_posts(best, parent, total, settings)
            if thread is not None:
                return thread
        element = parent
    return None


def twin_posts(
    best: etree._Element, parent: etree._Element, total: dict[etree._Element, int], settings: ThreadsConfig = _DEFAULT
) -> Thread | None:
    """The posts under ``parent`` whose texts' elements are alike to the block's, or None.

    A question and its answers are records unlike each other (``<div id="question">``,
    and ``<div class="answer">`` inside ``<div id="answers">``), and the question's
    comments stop Step 1's growth at the question; but each post's text sits in an
    element alike in tag, class and id (``<div class="post-body">``). Such elements
    under ``parent`` are the posts when: at least ``settings.records``, and half of
    them, hold ``post_chars`` of counted text, together at least half of ``parent``'s;
    none lies in another; the records (each the highest element under ``parent`` that
    holds one of them alone) hold together at most twice the posts' counted text, at
    least ``records`` show a link outside the post (its author), and at most one holds a linked heading
    (a feed's stories have each their title).
    """
    signature = _record_signature(best)
    if signature is None:
        return None
    slots = [e for e in parent.iter(best.tag) if total.get(e, 0) and _record_signature(e) == signature]
    posts = sum(1 for slot in slots if total[slot] >= settings.post_chars)
    in_posts = sum(total[slot] for slot in slots)
    if posts < max(settings.records, len(slots) / 2) or 2 * in_posts < total[parent]:
        return None
    holding: dict[etree._Element, int] = {}  # how many of the slots each element holds
    for slot in slots:
        for ancestor in slot.iterancestors():
            if ancestor is parent:
                break
            holding[ancestor] = holding.get(ancestor, 0) + 1
    if any(slot in holding for slot in slots):
        return None
    records = [_alone(slot, parent, holding) for slot in slots]
    if 2 * in_posts < sum(total.get(record, 0) for record in records):
        return None
    if sum(1 for record, slot in zip(records, slots) if record is not slot and _signed(record, slot)) < settings.records:
        return None
    if sum(1 for record, slot in zip(records, slots) if _titled(record, slot)) > 1:
        return None
    return tuple(records), tuple(slots)


def _titled(record: etree._Element, text: etree._Element) -> bool:
    """Whether the record holds, outside the post's text, a heading that links (a
    story's title, which leads to the story)."""
    return any(text not in heading.iterancestors() and _links(heading) for heading in record.iter(*HEADINGS))


def _links(heading: etree._Element) -> bool:
    """Whether a heading holds a link or lies in one."""
    return any(True for _ in heading.iter("a")) or any(a.tag == "a" for a in heading.iterancestors())


def _alone(slot: etree._Element, parent: etree._Element, holding: dict[etree._Element, int]) -> etree._Element:
    """The highest element under ``parent`` that holds ``slot`` and no other slot."""
    record = slot
    for ancestor in slot.iterancestors():
        if ancestor is parent or holding[ancestor] > 1:
            break
        record = ancestor
    return record


def posts_within(
    winner: etree._Element, block: etree._Element, total: dict[etree._Element, int], settings: ThreadsConfig = _DEFAULT
) -> Thread | None:
    """A thread's posts inside the grown block, or None.

    Where the posts' panels hold no counted text (names and ranks that are links),
    nothing stops Step 1's growth at the winning post: the block grows over the whole
    thread by the usual gain, and the replies, short lines between the panels' links,
    are lost to the link runs and the classifier. So the winning text's ancestors
    inside the block (not the text's own element) are looked at as records too, by the
    stricter test of :func:`loose_thread`.
    """
    element = winner
    for _ in range(settings.record_depth):
        if element is block:
            return None
        parent = element.getparent()
        if parent is None:
            return None
        if element is not winner:
            thread = loose_thread(winner, element, total, settings)
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
    likeness of :func:`loose_thread`) and id without digits; None for an element with
    neither class nor id."""
    classes = key(element)
    ident = _DIGITS_RE.sub("", element.get("id") or "")
    if not classes and not ident:
        return None
    return str(element.tag), classes, ident


def loose_thread(
    winner: etree._Element, element: etree._Element, total: dict[etree._Element, int], settings: ThreadsConfig = _DEFAULT
) -> Thread | None:
    """``element`` and its siblings as a thread's posts, by a looser likeness, or None.

    Posts differ in their classes by more than a number: the first post is marked
    (Tieba's ``l_post ... noborder``), replies alternate (phpBB's ``post bg1`` and
    ``post bg2``) or carry a state (``is-unread``). Here records are alike in tag, first
    class word and id without digits, and the post's text is found in each by tags
    and first class words. So loose a likeness also matches an article's sections and
    a page's cards, so it counts only when the records look like posts: at least
    ``settings.records`` with a post's text, those texts hold at least half the
    records' counted text, and at least ``records`` records show a link outside their
    text (the author's name, a reply button).
    """
    key = _record_signature(element, _first_class)
    if key is None:
        return None
    parent = element.getparent()
    alike = [child for child in parent if total.get(child, 0) and _record_signature(child, _first_class) == key]
    if len(alike) < settings.records:
        return None
    steps = _steps(winner, element, _first_class)
    pairs = [(record, slot) for record in alike if (slot := _follow(record, steps, _first_class)) is not None]
    if len(pairs) < settings.records or not _hold_posts([slot for _, slot in pairs]):
        return None
    if 2 * sum(total.get(slot, 0) for _, slot in pairs) < sum(total.get(record, 0) for record in alike):
        return None
    if sum(1 for record, slot in pairs if _signed(record, slot)) < settings.records:
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
    element = record
    for tag, value in steps:
        found = next((c for c in element if c.tag == tag and key(c) == value), None)
        if found is None:
            return None
        element = found
    return element


def _slots(best: etree._Element, records: tuple[etree._Element, ...], least: int) -> tuple[etree._Element, ...]:
    """In each record, the element reached from it by the tags and classes that lead from
    the winning post's record down to ``best``: each post's text.
    Empty when fewer than ``least`` records have one: records alike outside and not
    within (a page's sections) are not a thread's posts; nor are rows whose "posts"
    are a list's rank numbers (:func:`_hold_posts`)."""
    record = next(r for r in records if r is best or r in best.iterancestors())
    steps = _steps(best, record, _class_string)
    found = [slot for r in records if (slot := _follow(r, steps, _class_string)) is not None]
    return tuple(found) if len(found) >= least and _hold_posts(found) else ()


def _hold_posts(slots: list[etree._Element]) -> bool:
    """Whether the ``slots`` hold posts: not when most of them hold a rank number only,
    the counted text of a ranked list whose titles are links (a news aggregator's)."""
    ranks = sum(1 for slot in slots if _RANK_RE.fullmatch("".join(slot.itertext()).strip()))
    return 2 * ranks <= len(slots)
