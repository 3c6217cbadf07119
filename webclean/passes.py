"""The passes of method svm after the classifier: what the page's structure decides.

The classifier decides each line from its features, among them everything the page's
structure says of it (line_features.RICH_FEATURE_NAMES: its boxes, a related box, a
run of links, the section it heads, the box of the text it lies past, a ``<pre>``
around it); four things the structure decides alone, whatever the classifier says,
as no line's text can say them:

- ``repeats``: a kept line that copies a kept line before it, in a passage shown again
  in a box of another kind (Unit.copy), goes: the layout shows the text twice;
- ``furniture``: a line of the page's footer, navigation, banner or asides
  (Unit.furniture) goes;
- ``comments``: a line of a box named for the readers' comments or a shop's reviews
  goes, where the page keeps its text outside such boxes (a corpus may want them:
  denoise.comments; a forum's replies are its text: extract.page_passes);
- ``items``: a located block of many lines, little prose, and almost nothing kept is
  a page of items (a listing, a collection, a table of contents), whose items are its
  content: every line of it is kept. No line says that of itself, and a model that
  never saw such a page could not learn it.

Each pass names the outcome of a line it decides (Decision.outcome).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from webclean.config import ItemsConfig, LinesConfig
from webclean.line_features import is_prose
from webclean.segment import GROUP_BIT, REVIEWS_BIT
from webclean.units import Unit

REPEAT = "repeat"  # a kept line that copies a kept line before it, shown again by the layout (repeats)
FURNITURE = "furniture"  # a line of the page's footer, navigation, banner or asides (Unit.furniture), dropped
COMMENT = "comment"  # a kept line of the readers' comments under an article, dropped (comment_boxes)
ITEM = "item"  # a line of a page of items, kept with the whole block (items)

# What a line of prose is (lines.long_line, lines.prose_link_ratio) where no settings are given.
_LINES = LinesConfig()

# The passes, in the order they run.
PASSES = ("repeats", "furniture", "comments", "items")

# The boxes of comment_boxes: the readers' comments, and the buyers' reviews of a shop's
# page (segment.REVIEWS_BIT).
COMMENT_BOXES = GROUP_BIT["comment"] | REVIEWS_BIT


def check_passes(passes: Sequence[str]) -> None:
    """ValueError for a name that is no pass of PASSES."""
    unknown = set(passes) - set(PASSES)
    if unknown:
        raise ValueError(f"unknown passes {sorted(unknown)}: choose among {PASSES}")


def copies(units: Sequence[Unit], kept: Sequence[str | None]) -> list[bool]:
    """Which units are kept copies of a kept line before them (the ``repeats`` pass)."""
    return [bool(text) and unit.copy > 0 and bool(kept[i - unit.copy]) for i, (unit, text) in enumerate(zip(units, kept))]


def comment_boxes(
    units: Sequence[Unit], kept: Sequence[str | None], article_chars: int, comment_form: Callable[[], bool] = lambda: False
) -> list[bool]:
    """Which units are kept lines of the readers' comments under an article (the
    ``comments`` pass): lines inside a box whose class, id or tag names comments or
    replies (Unit.groups: "comment-list", "disqus_thread", "respond") or a shop's
    reviews ("customer-reviews": segment.REVIEWS_BIT), on a page that keeps
    ``article_chars`` characters at least outside such boxes, or keeps some text
    outside them and holds the box to write a comment in (``comment_form``: asked only
    then, metadata.holds_comment_form): a blog's short post under a long discussion.
    A page whose text all sits in such boxes keeps it.
    """
    inside = [bool(unit.groups & COMMENT_BOXES) for unit in units]
    if not any(inside):
        return [False] * len(units)
    outside = sum(len(text) for text, box in zip(kept, inside) if text and not box)
    if outside < article_chars and not (outside and comment_form()):
        return [False] * len(units)
    return [box and bool(text) for box, text in zip(inside, kept)]


def items(
    units: Sequence[Unit],
    kept: Sequence[str | None],
    settings: ItemsConfig,
    story: Callable[[], bool],
    prose: LinesConfig = _LINES,
) -> list[bool]:
    """Which lines to keep because the page is a page of items (the ``items`` pass).

    A listing, a collection or a table of contents has its items as its content: a
    title link, a date, a line of summary, each of which reads as navigation. When the
    located block holds ``settings.lines`` lines or more, under ``prose_share`` of its
    text in lines of prose (line_features.is_prose by ``prose``), and the decisions keep under
    ``kept_share`` of it, every line of the block is kept (a thread's panels and the
    page's furniture aside). "Under ``kept_share``" is ``list_kept_share`` on a page
    that is not one story (``story``: its page type, or what it says of itself; asked
    only when it matters), and
    ``bare_kept_share`` where the block holds no line of prose at all.
    """
    block = {
        i: unit.length for i, unit in enumerate(units) if unit.region == 0 and unit.is_sample and unit.post >= 0 and not unit.furniture
    }
    if len(block) < settings.lines:
        return [False] * len(units)
    total = sum(block.values())
    in_prose = sum(length for i, length in block.items() if is_prose(length, units[i].link_ratio, prose))
    taken = sum(length for i, length in block.items() if kept[i])
    bar = settings.list_kept_share if in_prose else settings.bare_kept_share
    if not total or in_prose >= settings.prose_share * total or taken >= bar * total:
        return [False] * len(units)
    if taken >= settings.kept_share * total and story():
        return [False] * len(units)
    return [i in block and not kept[i] for i in range(len(units))]


def teaser_heads(
    units: Sequence[Unit],
    kept: Sequence[str | None],
    decided: Sequence[str | None],
    settings: ItemsConfig,
    story: Callable[[], bool],
    prose: LinesConfig = _LINES,
) -> list[bool]:
    """Which dropped headlines to keep because their summaries are kept (the ``items``
    pass): a feed of stories gives each as a linked headline over a line of summary;
    the classifier keeps the summary and drops the link. Where ``settings.teasers``
    such pairs lie (a headline of ``teaser_head_chars`` or more, a kept summary of
    ``teaser_summary_chars`` or more, under ``prose.prose_link_ratio`` of link text,
    within ``teaser_reach`` lines after it) on a page
    that is not one story (``story``), the headlines are kept too; a line a pass
    decided (``decided``) stays as it was decided.
    """
    found = [
        i
        for i, unit in enumerate(units)
        if kept[i] is None
        and decided[i] is None
        and unit.is_sample
        and unit.kind == "link"
        and unit.post == 0
        and not unit.furniture
        and unit.length >= settings.teaser_head_chars
        and any(
            kept[j] and units[j].length >= settings.teaser_summary_chars and units[j].link_ratio < prose.prose_link_ratio
            for j in range(i + 1, min(i + 1 + settings.teaser_reach, len(units)))
        )
    ]
    heads = [False] * len(units)
    if len(found) >= settings.teasers and not story():
        for i in found:
            heads[i] = True
    return heads
