"""Step 4 of method.md: keep the content units of the block, cut noise off long tags (β).

A ``<p>`` or ``<a>`` of at most β characters is classified whole. A longer one goes
through the noise filter: noise in a long tag sits at its end, so its last sentence is
classified, dropped when noise, and the next one from the end tried, until the first
sentence classified as content, which is kept with everything before it. The paper
writes the filter recursively; here it is a loop over all long tags at once, so each
round is one vectorised classification, and no page can reach the recursion limit.

:func:`denoise` also runs the passes that method svm adds over the decisions
(departures, webclean/smoothing.py), and says what became of each unit and why.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from itertools import repeat
from typing import NamedTuple

from webclean.classifier import SVMParams
from webclean.features import FEATURE_SETS
from webclean.lexicon import NoiseLexicon
from webclean.smoothing import (
    AUTHOR_BOX,
    CODE,
    COMMENT,
    COMMENT_BOXES,
    DENOISE_PASSES,
    FORUM_POST,
    FURNITURE,
    ITEM,
    LINK_RUN,
    PAST_CORE,
    PROSE,
    UNSURE_MARGIN,
    UNSURE_TAIL,
    apply_passes,
    author_boxes,
    bare_prose,
    code_lines,
    comment_boxes,
    forum_prose,
    items,
    link_runs,
    margin_lines,
    past_core,
    tail_lines,
    teaser_heads,
    whole_values,
)
from webclean.timing import StageTimer, timed
from webclean.tokenize import split_sentences
from webclean.units import Unit

# What becomes of a unit (Decision.outcome); the passes of smoothing.py name theirs.
KEPT = "kept"
PARTLY_KEPT = "partly kept"  # the noise filter dropped some of its sentences (Step 4)
DROPPED = "dropped"  # classified as noise
AS_IS = "as is"  # not a sample: kept as it is (method paper's table cells)
POST = "post"  # a thread's post text, kept whatever the classifier says (Unit.post)
POST_REST = "post rest"  # the rest of a post's record (user panel, signature), dropped


class Decision(NamedTuple):
    """What became of one unit: the text kept of it ("" when nothing), its outcome, and
    the classifier's decision value for the unit as a whole (above 0: content), where
    asked for and the unit was classified."""

    text: str
    outcome: str
    value: float | None = None


def denoise(
    units: Sequence[Unit],
    lexicon: NoiseLexicon,
    svm: SVMParams,
    beta: int,
    feature_set: str = "paper",
    smoothing: Sequence[str] = (),
    title: str = "",
    whole: bool = False,
    *,
    story: Callable[[], bool] = lambda: True,
    comment_form: Callable[[], bool] = lambda: False,
    values: bool = False,
    timer: StageTimer | None = None,
) -> list[Decision]:
    """What becomes of each unit, in document order; the page's text joins the kept texts.

    ``smoothing`` names passes of smoothing.smooth over the decisions,
    ``tail_lines`` and ``margin_lines`` (smoothing.tail_lines, smoothing.margin_lines),
    which ask the classifier again (``empty_headings`` then runs again over what they
    left), and
    ``items`` (smoothing.items), which keeps a page of items' block (``story``: whether
    the page says it is one story, metadata.is_story), ``code`` (smoothing.code_lines),
    which keeps the lines of a ``<pre>`` inside the text, ``furniture``,
    which drops the kept lines inside the page's footer, navigation, banner or asides
    (Unit.furniture), ``comments`` (smoothing.comment_boxes), which drops the
    readers' comments under an article (``comment_form``: whether the page holds the
    box to write one, metadata.holds_comment_form), ``past_core``
    (smoothing.past_core), which drops what follows the box of the block's text past a
    gap, ``author_boxes`` (smoothing.author_boxes), which drops a box about the author
    after the text, and ``prose`` (smoothing.bare_prose), which keeps the block's
    paragraphs of prose when nothing else is kept, and ``forum_prose``
    (smoothing.forum_prose), which keeps them on a forum's page; ``whole``
    keeps a long unit whole that the noise filter would drop (method svm only; see
    :func:`decide`). ``values``: each sample's decision value as a whole too, at the
    cost of one more classification of the units (``webclean extract --explain``).
    """
    # Where the comments are wanted (a forum's replies, denoise.comments: the pass
    # "comments" is not run), a box named for comments is no evidence against its lines.
    in_comments = [bool(unit.groups & COMMENT_BOXES) for unit in units] if "comments" not in smoothing else None
    if in_comments and any(in_comments):
        units = [unit._replace(groups=unit.groups & ~COMMENT_BOXES) if inside else unit for unit, inside in zip(units, in_comments)]
    # The link_runs pass drops its runs whatever the classifier says: they are not
    # classified, and decide leaves them as noise, which is that pass done.
    in_runs = link_runs(units, beta=beta, title=title) if "link_runs" in smoothing else None
    kept, known = decide(units, lexicon, svm, beta, feature_set, in_runs, whole, timer)
    # A thread located as its posts (method svm, Unit.post): each post's text is kept
    # whatever the classifier says, the rest of its record (user panel, signature, links)
    # dropped; the passes then judge the posts' lines as any other kept line (a comment's
    # "Reply" is a notice).
    kept = [unit.text if unit.post > 0 else None if unit.post < 0 else text for unit, text in zip(units, kept)]
    # The pass that decided each unit, where one did: its outcome.
    by_pass: list[str | None] = [LINK_RUN if run and not unit.post else None for unit, run in zip(units, in_runs or repeat(False))]
    rest = [name for name in smoothing if name != "link_runs" and name not in DENOISE_PASSES]
    if rest:
        kept, dropped_by = apply_passes(units, kept, beta, rest)
        by_pass = [by or before for before, by in zip(by_pass, dropped_by)]
    for name, unsure_of, outcome in (("tail_lines", tail_lines, UNSURE_TAIL), ("margin_lines", margin_lines, UNSURE_MARGIN)):
        if name in smoothing:
            kept, by_pass = _drop(kept, by_pass, unsure_of(units, kept, lexicon, svm, feature_set, timer, known), outcome)
    if "empty_headings" in smoothing:
        # The headings of the lines dropped since the pass ran (by the later passes, the
        # tail's and the margin's) may head nothing now.
        kept, dropped_by = apply_passes(units, kept, beta, ["empty_headings"])
        by_pass = [by or before for before, by in zip(by_pass, dropped_by)]
    if "items" in smoothing:
        story = functools.cache(story)  # walks the page's tree: asked once at most
        kept, by_pass = _keep(units, kept, by_pass, items(units, kept, story), ITEM)
        kept, by_pass = _keep(units, kept, by_pass, teaser_heads(units, kept, by_pass, story), ITEM)
    if "code" in smoothing:
        kept, by_pass = _keep(units, kept, by_pass, code_lines(units, kept), CODE)
    if "furniture" in smoothing:
        by_pass = [FURNITURE if unit.furniture and text is not None else by for unit, text, by in zip(units, kept, by_pass)]
        kept = [None if unit.furniture else text for unit, text in zip(units, kept)]
    if "comments" in smoothing:
        kept, by_pass = _drop(kept, by_pass, comment_boxes(units, kept, comment_form), COMMENT)
    if "past_core" in smoothing:
        kept, by_pass = _drop(kept, by_pass, past_core(units, kept), PAST_CORE)
    if "author_boxes" in smoothing:
        kept, by_pass = _drop(kept, by_pass, author_boxes(units, kept), AUTHOR_BOX)
    if "prose" in smoothing and not any(kept):
        kept, by_pass = _keep(units, kept, by_pass, bare_prose(units), PROSE)
    if "forum_prose" in smoothing:
        kept, by_pass = _keep(units, kept, by_pass, forum_prose(units, kept, by_pass), FORUM_POST)
    scores = unit_values(units, lexicon, svm, feature_set, in_runs, timer, known) if values else [None] * len(units)
    return [_decision(*each) for each in zip(units, kept, by_pass, scores)]


def _keep(
    units: Sequence[Unit], kept: Sequence[str | None], by_pass: Sequence[str | None], taken: Sequence[bool], outcome: str
) -> tuple[list[str | None], list[str | None]]:
    """The decisions with the ``taken`` units kept whole, each with the outcome of the
    pass that kept it."""
    if not any(taken):  # most passes take nothing on most pages
        return list(kept), list(by_pass)
    return (
        [unit.text if take else text for unit, text, take in zip(units, kept, taken)],
        [outcome if take else by for by, take in zip(by_pass, taken)],
    )


def _drop(
    kept: Sequence[str | None], by_pass: Sequence[str | None], dropped: Sequence[bool], outcome: str
) -> tuple[list[str | None], list[str | None]]:
    """The decisions with the ``dropped`` units dropped, each with the outcome of the
    pass that dropped it."""
    if not any(dropped):  # most passes drop nothing on most pages
        return list(kept), list(by_pass)
    return (
        [None if drop else text for text, drop in zip(kept, dropped)],
        [outcome if drop else by for by, drop in zip(by_pass, dropped)],
    )


def _decision(unit: Unit, kept: str | None, by_pass: str | None, value: float | None) -> Decision:
    text = kept or ""
    if not unit.is_sample:
        outcome = AS_IS
    elif by_pass is not None:
        outcome = by_pass
    elif unit.post:
        outcome = POST if unit.post > 0 else POST_REST
    elif not text:
        outcome = DROPPED
    else:
        outcome = KEPT if text == unit.text else PARTLY_KEPT
    if unit.code and text == unit.text:
        text = unit.code  # a <pre>'s line as the page sets it out
    return Decision(text, outcome, value)


def decide(
    units: Sequence[Unit],
    lexicon: NoiseLexicon,
    svm: SVMParams,
    beta: int,
    feature_set: str = "paper",
    skip: Sequence[bool] | None = None,
    whole: bool = False,
    timer: StageTimer | None = None,
) -> tuple[list[str | None], dict[int, float]]:
    """Steps 3 and 4 per unit: its kept text, or None where it is noise; and the
    decision value of each unit that was classified whole, by its index (the passes
    that ask the classifier again about whole units read it there).

    Units whose ``skip`` is true are not classified, and come out as noise. With
    ``whole``, a long unit that the noise filter drops entirely is classified whole
    and kept when that says content.
    """
    kept: list[str | None] = [u.text if not u.is_sample else None for u in units]
    samples = [i for i, u in enumerate(units) if u.is_sample and not (skip and skip[i])]
    texts, values = noise_filter([units[i] for i in samples], lexicon, svm, feature_set, timer, beta)
    known = {samples[k]: value for k, value in values.items()}
    for i, text in zip(samples, texts):
        kept[i] = text
    if whole:
        # Departure (method svm): a long unit none of whose sentences passed alone is kept
        # whole when the whole of it is content: a short article's last paragraph was lost.
        lost = [i for i in samples if kept[i] is None and i not in known]
        for i, value in zip(lost, whole_values(units, lost, lexicon, svm, feature_set, timer, known)):
            if value > 0:  # SVMParams.predict's CONTENT
                kept[i] = units[i].text
    return kept, known


def unit_values(
    units: Sequence[Unit],
    lexicon: NoiseLexicon,
    svm: SVMParams,
    feature_set: str,
    skip: Sequence[bool] | None = None,
    timer: StageTimer | None = None,
    known: dict[int, float] | None = None,
) -> list[float | None]:
    """The classifier's decision value of each sample as a whole, in one call; None for
    the other units and those ``skip`` says (the link runs, which are not classified)."""
    samples = [i for i, unit in enumerate(units) if unit.is_sample and not (skip and skip[i])]
    values: list[float | None] = [None] * len(units)
    for i, value in zip(samples, whole_values(units, samples, lexicon, svm, feature_set, timer, known)):
        values[i] = value
    return values


def noise_filter(
    units: Sequence[Unit],
    lexicon: NoiseLexicon,
    svm: SVMParams,
    feature_set: str = "paper",
    timer: StageTimer | None = None,
    beta: int | None = None,
) -> tuple[list[str | None], dict[int, float]]:
    """For each unit, its text up to and including its last content sentence (None
    where none is); with ``beta``, a unit of at most ``beta`` characters is classified
    whole, as one sentence, in the filter's first round (one call of the classifier for
    the page's short units and its long units' last sentences). Also the decision value
    of each unit whose whole text was classified so (a short unit, or a long one of one
    sentence), by its index."""
    rows_of = FEATURE_SETS[feature_set]
    whole = [beta is not None and u.length <= beta for u in units]
    sentences = [[u.text] if one else split_sentences(u.text) for u, one in zip(units, whole)]
    # ends[k]: how many of unit k's sentences are still in play; None once decided.
    ends: list[int | None] = [len(s) for s in sentences]
    result: list[str | None] = [None] * len(units)
    values: dict[int, float] = {}
    while True:
        pending = [k for k, end in enumerate(ends) if end]
        if not pending:
            return result, values
        texts = [sentences[k][ends[k] - 1].strip() for k in pending]  # type: ignore[operator]
        with timed(timer, "features"):
            rows = rows_of([units[k] for k in pending], texts, lexicon)
        with timed(timer, "classify"):
            scores = svm.decision_function(rows)
        for k, text, score in zip(pending, texts, scores):
            end = ends[k] - 1  # type: ignore[operator]
            if whole[k] or text == units[k].text:
                values[k] = float(score)
            if score > 0:  # SVMParams.predict's CONTENT
                result[k] = units[k].text if whole[k] else "".join(sentences[k][: end + 1]).strip()
                ends[k] = None
            else:
                ends[k] = end if end > 0 else None
