"""Step 4 of method.md: keep the content units of the block, cut noise off long tags (β).

A ``<p>`` or ``<a>`` of at most β characters is classified whole. A longer one goes
through the noise filter: noise in a long tag sits at its end, so its last sentence is
classified, dropped when noise, and the next one from the end tried, until the first
sentence classified as content, which is kept with everything before it. The paper
writes the filter recursively; here it is a loop over all long tags at once, so each
round is one vectorised classification, and no page can reach the recursion limit.

:func:`denoise` also runs the passes that method svm adds over the decisions, what
the page's structure decides alone (webclean/passes.py), and says what became of
each unit and why.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import NamedTuple

from webclean import core
from webclean.classifier import Decider, TreeEnsemble
from webclean.config import DenoiseConfig, ItemsConfig, LinesConfig
from webclean.features import FEATURE_SETS, feature_matrix
from webclean.lexicon import NoiseLexicon
from webclean.passes import (
    COMMENT,
    COMMENT_BOXES,
    FURNITURE,
    ITEM,
    REPEAT,
    check_passes,
    comment_boxes,
    copies,
    items,
    teaser_heads,
)
from webclean.second_stage import stage_rows
from webclean.timing import StageTimer, timed
from webclean.tokenize import split_sentences
from webclean.units import SAMPLE_UNIT_TAGS, Unit

# What becomes of a unit (Decision.outcome); the passes of passes.py name theirs.
KEPT = "kept"
PARTLY_KEPT = "partly kept"  # the noise filter dropped some of its sentences (Step 4)
DROPPED = "dropped"  # classified as noise
AS_IS = "as is"  # not a sample: kept as it is (method paper's table cells)
POST = "post"  # a thread's post text, kept whatever the classifier says (Unit.post)
POST_REST = "post rest"  # the rest of a post's record (user panel, signature), dropped


class Decision(NamedTuple):
    """What became of one unit: the text kept of it ("" when nothing), its outcome, and
    the classifier's decision value for the unit as a whole (above 0: content), where
    the unit was classified whole or the value was asked for (denoise's ``values``);
    for a unit the noise filter cut into sentences, the value of the sentence that
    decided it: its last kept sentence, or its best where none was kept."""

    text: str
    outcome: str
    value: float | None = None
    sentence_value: float | None = None


def denoise(
    units: Sequence[Unit],
    lexicon: NoiseLexicon,
    svm: Decider,
    settings: DenoiseConfig,
    feature_set: str = "paper",
    passes: Sequence[str] = (),
    whole: bool = False,
    *,
    items_settings: ItemsConfig | None = None,
    lines_settings: LinesConfig | None = None,
    story: Callable[[], bool] = lambda: True,
    comment_form: Callable[[], bool] = lambda: False,
    values: bool = False,
    second: TreeEnsemble | None = None,
    timer: StageTimer | None = None,
) -> list[Decision]:
    """What becomes of each unit, in document order; the page's text joins the kept texts.

    ``settings``: β, the decision threshold and the thresholds of the passes.
    ``passes`` names passes of passes.py over the decisions (``comment_form``: whether
    the page holds the box to write a comment, metadata.holds_comment_form, for
    ``comments``; ``items_settings``, ``lines_settings`` (what a line of prose is) and
    ``story``, whether the page is one story, by its page type or metadata.is_story, for ``items``); ``whole``
    keeps a long unit whole that the noise filter would drop (method svm only; see
    :func:`decide`). A decision carries the decision value of a unit that was classified
    whole; ``values``: of every sample, at the cost of one more classification of the
    units (``webclean extract --explain``).
    ``second``: method svm's second stage (second_stage.py), which decides each line
    again; a decision value is then the second stage's.
    """
    check_passes(passes)
    # Where the comments are wanted (a forum's replies, denoise.comments: the pass
    # "comments" is not run), a box named for comments is no evidence against its lines.
    in_comments = [bool(unit.groups & COMMENT_BOXES) for unit in units] if "comments" not in passes else None
    if in_comments and any(in_comments):
        units = [unit._replace(groups=unit.groups & ~COMMENT_BOXES) if inside else unit for unit, inside in zip(units, in_comments)]
    if second is not None:
        kept, known = decide_twice(units, lexicon, svm, second, settings.beta, feature_set, timer, settings.threshold)
        deciding: dict[int, float] = {}
    else:
        kept, known, deciding = decide(units, lexicon, svm, settings.beta, feature_set, whole, timer, settings.threshold)
    # A thread located as its posts (method svm, Unit.post): each post's text is kept
    # whatever the classifier says, the rest of its record (user panel, signature, links)
    # dropped.
    kept = [unit.text if unit.post > 0 else None if unit.post < 0 else text for unit, text in zip(units, kept)]
    # The pass that decided each unit, where one did: its outcome.
    by_pass: list[str | None] = [None] * len(units)
    if "repeats" in passes:
        kept, by_pass = _drop(kept, by_pass, copies(units, kept), REPEAT)
    if "furniture" in passes:
        kept, by_pass = _drop(kept, by_pass, [unit.furniture and text is not None for unit, text in zip(units, kept)], FURNITURE)
    if "comments" in passes:
        kept, by_pass = _drop(kept, by_pass, comment_boxes(units, kept, settings.article_chars, comment_form), COMMENT)
    if "items" in passes:
        story = functools.cache(story)  # may walk the page's tree (metadata.is_story): asked once at most
        item_settings, prose = items_settings or ItemsConfig(), lines_settings or LinesConfig()
        kept, by_pass = _keep(units, kept, by_pass, items(units, kept, item_settings, story, prose), ITEM)
        kept, by_pass = _keep(units, kept, by_pass, teaser_heads(units, kept, by_pass, item_settings, story, prose), ITEM)
    scores: list[float | None]
    if values and second is None:
        scores = unit_values(units, lexicon, svm, feature_set, timer, known)
    else:  # the values the decisions gave on the way, at no cost
        scores = [known.get(i) for i in range(len(units))]
    sentence_values = [deciding.get(i) for i in range(len(units))]
    return decisions(units, kept, by_pass, scores, sentence_values)


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


# The places in a Unit of what _decision reads of it (the compiled decisions), and the
# outcomes it gives, in the order the compiled decisions takes them.
_DECISION_AT = tuple(Unit._fields.index(name) for name in ("tag", "text", "post", "code"))
_OUTCOMES = (AS_IS, POST, POST_REST, DROPPED, KEPT, PARTLY_KEPT)


def decisions(
    units: Sequence[Unit],
    kept: Sequence[str | None],
    by_pass: Sequence[str | None],
    values: Sequence[float | None],
    sentence_values: Sequence[float | None],
) -> list[Decision]:
    """The decision on each unit (:func:`_decision`)."""
    if core.compiled is not None:
        made = core.compiled.decisions(units, kept, by_pass, values, sentence_values, _DECISION_AT, SAMPLE_UNIT_TAGS, _OUTCOMES, Decision)
        if made is not None:
            return made
    return [_decision(*each) for each in zip(units, kept, by_pass, values, sentence_values)]


def _decision(unit: Unit, kept: str | None, by_pass: str | None, value: float | None, sentence_value: float | None) -> Decision:
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
    return Decision(text, outcome, value, sentence_value)


def decide(
    units: Sequence[Unit],
    lexicon: NoiseLexicon,
    svm: Decider,
    beta: int,
    feature_set: str = "paper",
    whole: bool = False,
    timer: StageTimer | None = None,
    threshold: float = 0.0,
) -> tuple[list[str | None], dict[int, float], dict[int, float]]:
    """Steps 3 and 4 per unit: its kept text, or None where it is noise; the decision
    value of each unit that was classified whole, by its index; and of each unit cut
    into sentences, the value of the sentence that decided it (noise_filter).

    A unit is content where its decision value is above ``threshold``. With
    ``whole``, a long unit that the noise filter drops entirely is classified whole
    and kept when that says content.
    """
    kept: list[str | None] = [u.text if not u.is_sample else None for u in units]
    samples = [i for i, u in enumerate(units) if u.is_sample]
    texts, values, deciding = noise_filter([units[i] for i in samples], lexicon, svm, feature_set, timer, beta, threshold)
    known = {samples[k]: value for k, value in values.items()}
    for i, text in zip(samples, texts):
        kept[i] = text
    if whole:
        # Departure (method svm): a long unit none of whose sentences passed alone is kept
        # whole when the whole of it is content: a short article's last paragraph was lost.
        lost = [i for i in samples if kept[i] is None and i not in known]
        for i, value in zip(lost, whole_values(units, lost, lexicon, svm, feature_set, timer, known)):
            if value > threshold:
                kept[i] = units[i].text
    return kept, known, {samples[k]: value for k, value in deciding.items() if samples[k] not in known}


def decide_twice(
    units: Sequence[Unit],
    lexicon: NoiseLexicon,
    svm: Decider,
    second: TreeEnsemble,
    beta: int,
    feature_set: str,
    timer: StageTimer | None = None,
    threshold: float = 0.0,
) -> tuple[list[str | None], dict[int, float]]:
    """:func:`decide` with the second stage (method svm): every sample classified whole
    by the first stage, then decided by the second stage from the first stage's values
    (second_stage.py). A sample it drops goes; a long one it keeps goes through the
    noise filter and keeps what that kept of it, or its whole text where the filter kept
    nothing. The values returned are the second stage's.
    """
    kept: list[str | None] = [u.text if not u.is_sample else None for u in units]
    samples = [i for i, u in enumerate(units) if u.is_sample]
    if not samples:
        return kept, {}
    with timed(timer, "features"):
        X = feature_matrix([units[i] for i in samples], lexicon, feature_set)
    with timed(timer, "classify"):
        final = second.decision_function(stage_rows(X, svm.decision_function(X)))
    # The noise filter cuts the noise off the end of the long lines the second stage keeps.
    long = [k for k, i in enumerate(samples) if final[k] > 0 and units[i].length > beta]
    cut, _, _ = noise_filter([units[samples[k]] for k in long], lexicon, svm, feature_set, timer, None, threshold)
    filtered = dict(zip(long, cut))
    for k, i in enumerate(samples):
        if final[k] > 0:
            kept[i] = filtered.get(k) or units[i].text
    return kept, {i: float(value) for i, value in zip(samples, final)}


def unit_values(
    units: Sequence[Unit],
    lexicon: NoiseLexicon,
    svm: Decider,
    feature_set: str,
    timer: StageTimer | None = None,
    known: dict[int, float] | None = None,
) -> list[float | None]:
    """The classifier's decision value of each sample as a whole, in one call; None for
    the other units."""
    samples = [i for i, unit in enumerate(units) if unit.is_sample]
    values: list[float | None] = [None] * len(units)
    for i, value in zip(samples, whole_values(units, samples, lexicon, svm, feature_set, timer, known)):
        values[i] = value
    return values


def noise_filter(
    units: Sequence[Unit],
    lexicon: NoiseLexicon,
    svm: Decider,
    feature_set: str = "paper",
    timer: StageTimer | None = None,
    beta: int | None = None,
    threshold: float = 0.0,
) -> tuple[list[str | None], dict[int, float], dict[int, float]]:
    """For each unit, its text up to and including its last content sentence (None
    where none is); with ``beta``, a unit of at most ``beta`` characters is classified
    whole, as one sentence, in the filter's first round (one call of the classifier for
    the page's short units and its long units' last sentences). Also the decision value
    of each unit whose whole text was classified so (a short unit, or a long one of one
    sentence), by its index; and of every unit, the value of the sentence that decided
    it: the sentence kept last, or the best of its sentences where none was kept."""
    rows_of = FEATURE_SETS[feature_set]
    whole = [beta is not None and u.length <= beta for u in units]
    sentences = [[u.text] if one else split_sentences(u.text) for u, one in zip(units, whole)]
    # ends[k]: how many of unit k's sentences are still in play; None once decided.
    ends: list[int | None] = [len(s) for s in sentences]
    result: list[str | None] = [None] * len(units)
    values: dict[int, float] = {}
    deciding: dict[int, float] = {}
    first = True
    while True:
        pending = [k for k, end in enumerate(ends) if end]
        if not pending:
            return result, values, deciding
        # The first round asks for each unit's last sentence; the second, at once, for
        # every sentence of the units still undecided, read from the end as rounds of a
        # sentence each would read them: a call of the classifier costs as much for one
        # row as for dozens, and the values are the same.
        asked = [(k, j) for k in pending for j in range(ends[k] - 1, ends[k] - 2 if first else -1, -1)]  # type: ignore[operator]
        texts = [sentences[k][j].strip() for k, j in asked]
        with timed(timer, "features"):
            rows = rows_of([units[k] for k, _ in asked], texts, lexicon)
        with timed(timer, "classify"):
            scores = svm.decision_function(rows)
        for (k, end), text, score in zip(asked, texts, scores):
            if ends[k] != end + 1:
                continue  # decided by a later sentence of its unit
            if whole[k] or text == units[k].text:
                values[k] = float(score)
            if k not in deciding or score > deciding[k]:
                deciding[k] = float(score)
            if score > threshold:
                result[k] = units[k].text if whole[k] else "".join(sentences[k][: end + 1]).strip()
                ends[k] = None
            else:
                ends[k] = end if end > 0 else None
        first = False


def whole_values(
    units: Sequence[Unit],
    indices: Sequence[int],
    lexicon: NoiseLexicon,
    svm: Decider,
    feature_set: str,
    timer: StageTimer | None = None,
    known: dict[int, float] | None = None,
) -> list[float]:
    """The classifier's decision value of each of these units as a whole (its whole
    text, not a sentence), asked in one call for those that ``known`` (by index) does
    not hold yet; the values asked are added to ``known``."""
    known = {} if known is None else known
    asked = [i for i in indices if i not in known]
    if asked:
        with timed(timer, "features"):
            X = feature_matrix([units[i] for i in asked], lexicon, feature_set)
        with timed(timer, "classify"):
            values = svm.decision_function(X)
        known.update(zip(asked, map(float, values)))
    return [known[i] for i in indices]
