"""The whole extraction of one page, as a short recipe of named steps.

decode → parse → locate the block (Step 1) → its units and their features (Step 2)
→ classify and denoise (Steps 3, 4) → an :class:`Extraction`; a method with its own
steps (webclean/methods/) takes over after the parse. A page that fails at any step
gives an Extraction with a status and a reason; nothing here raises for a bad page.
Each step is timed when a :class:`~webclean.timing.StageTimer` is given.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache, partial
from typing import Any, Protocol, TypeVar

import numpy as np
from lxml import etree

from webclean.classifier import Decider, OnPage
from webclean.confidence import confidence_signals
from webclean.config import Config, LanguageConfig, ParseConfig
from webclean.decode import KIND_REASONS, decode_html, sniff
from webclean.denoise import Decision, denoise
from webclean.features import block_units
from webclean.language import declared_language, page_language
from webclean.limits import PageTimeout, time_limit
from webclean.line_features import line_units
from webclean.locate import Block, locate_block
from webclean.metadata import PageMetadata, holds_comment_form, is_forum, is_story, page_metadata
from webclean.model import Model, ModelError, default_model
from webclean.page_type import most_probable, page_signals, type_words
from webclean.parse import ParseError, TooManyElements, page_title, parse_html
from webclean.region import lines_inside, locate_region
from webclean.registry import MethodSpec, classifier_spec, method
from webclean.result import Extraction, Status
from webclean.segment import Line, aside_furniture, drop_hidden, segment
from webclean.timing import StageTimer, timed
from webclean.units import Unit

_DEFAULT_CONFIG = Config()


def extract(
    html: str | bytes,
    url: str | None = None,
    *,
    config: Config | None = None,
    model: Model | None = None,
    http_charset: str | None = None,
    timer: StageTimer | None = None,
) -> Extraction:
    """Extract the main text of one page given as text or as the bytes of the response.

    ``timer`` adds the time of each step to its total (webclean/timing.py)."""
    config = config or _DEFAULT_CONFIG
    refused = oversized(html, config)
    if refused is not None:
        return refused
    spec = method(config.method)
    if spec.model is not None:
        model = model or default_model(config.method)
        check_model(model, config)
    # The page's time limit bounds the page's own work: neither the model nor the
    # language detector, which a process loads on its first page, counts against it;
    # language detection reads a bounded prefix of the text.
    extraction = within_limits(config, lambda: _extract(html, url, config, spec, model, http_charset, timer))
    return _with_language(extraction, config.language, timer)


_Work = TypeVar("_Work")


def oversized(html: str | bytes, config: Config) -> Extraction | None:
    """The Extraction of a page over limits.max_bytes, before any work; None for one within it."""
    # Bytes for bytes; for text its UTF-8 size, measured only where it could matter.
    size = len(html)
    if isinstance(html, str) and size * 4 > config.limits.max_bytes:
        size = len(html.encode("utf-8", "surrogatepass"))
    if size > config.limits.max_bytes:
        reason = f"{size} bytes is over limits.max_bytes = {config.limits.max_bytes}"
        return Extraction.failed(Status.TOO_LARGE, reason, method=config.method)
    return None


def within_limits(config: Config, work: Callable[[], _Work]) -> _Work | Extraction:
    """``work()`` on one page under limits.timeout_seconds; the Extraction that says why
    when it runs out of time or of memory."""
    try:
        with time_limit(config.limits.timeout_seconds):
            return work()
    except PageTimeout:
        return Extraction.failed(Status.TIMEOUT, f"over limits.timeout_seconds = {config.limits.timeout_seconds}", method=config.method)
    except MemoryError:
        # A worker under a memory cap (spark.executor.pyspark.memory) runs out on a page
        # that is too large for it: say so, rather than failing the task or "unknown error".
        reason = "MemoryError: the page needs more memory than the process may use; lower limits.max_bytes or max_elements"
        return Extraction.failed(Status.TOO_LARGE, reason, method=config.method)


def check_model(model: Model, config: Config) -> None:
    """A model reads the features of one method: refuse to pair it with another."""
    spec = method(config.method).classifier
    if spec is None:
        return  # the methods of webclean/methods check their own model, if they use one
    if model.feature_set != spec.feature_set:
        raise ModelError(
            f"the model was trained for {model.feature_set!r} features, but method {config.method!r} "
            f"uses {spec.feature_set!r}: train a model with --method {config.method}"
        )


def _extract(
    html: str | bytes,
    url: str | None,
    config: Config,
    spec: MethodSpec,
    model: Any,
    http_charset: str | None,
    timer: StageTimer | None,
) -> Extraction:
    if spec.classifier is None:
        return _with_noscript(html, lambda noscript: _run_pipeline(html, config, spec, model, http_charset, noscript, timer), config.parse)
    page = classify_page(html, config, model, http_charset, url=url, timer=timer)
    if isinstance(page, Extraction):
        return page
    extraction = _extraction(page, config)
    if model.confidence is None:
        return extraction
    with timed(timer, "confidence"):
        confidence = model.confidence.predict(page_confidence_signals(page, config))
    return replace(extraction, confidence=confidence)


def page_confidence_signals(page: ClassifiedPage, config: Config) -> np.ndarray:
    """The row of confidence.SIGNAL_NAMES of a classified page (method svm)."""
    return confidence_signals(page.located.units, page.decisions, config.confidence)


@dataclass(frozen=True)
class ParsedPage:
    """A page decoded and parsed: where the methods part."""

    root: etree._Element
    title: str
    lang_declared: str | None
    encoding: str | None


@dataclass(frozen=True)
class LocatedPage:
    """A page decoded, parsed and its block located (Steps 1 and 2): where the
    classifier takes over. ``block`` is None when no block holds text."""

    root: etree._Element
    title: str
    lang_declared: str | None
    encoding: str | None
    block: Block | None
    units: list[Unit]
    lines: list[Line] | None  # the page's lines (method svm; None for paper)
    # Whether the page is one story, read once at most: what it says of itself
    # (metadata.is_story) for the galleries of Step 1 (segment.aside_furniture); then its
    # page type, where the model has a page type model, for page_threads and the passes.
    story: Callable[[], bool]


@dataclass(frozen=True)
class ClassifiedPage:
    """A page through Steps 1 to 4: what became of each unit of its located block
    (empty when no block was found)."""

    located: LocatedPage
    decisions: tuple[Decision, ...]
    metadata: PageMetadata
    # PAGE_TYPES' probabilities for the page (page_type.py), where the model has a page type model.
    type_probabilities: np.ndarray | None = None

    @property
    def page_type(self) -> tuple[str, float] | None:
        """The most probable type and its probability (rounded to four places), or None."""
        if self.type_probabilities is None:
            return None
        kind, probability = most_probable(self.type_probabilities)
        return kind, round(probability, 4)

    @property
    def text(self) -> str:
        return "\n".join(decision.text for decision in self.decisions if decision.text)


def classify_page(
    html: str | bytes,
    config: Config,
    model: Model,
    http_charset: str | None = None,
    *,
    url: str | None = None,
    values: bool = False,
    timer: StageTimer | None = None,
) -> ClassifiedPage | Extraction:
    """Steps 1 to 4 of an SVM method as :func:`extract` takes them, or the Extraction of
    a page that failed before Step 1. ``url``: the page's address, which may say it is
    a forum's (metadata.is_forum); ``values``: each unit's decision value too (denoise)."""
    return _with_noscript(html, lambda noscript: _classify(html, url, config, model, http_charset, noscript, values, timer), config.parse)


def _classify(
    html: str | bytes,
    url: str | None,
    config: Config,
    model: Model,
    http_charset: str | None,
    noscript: bool,
    values: bool,
    timer: StageTimer | None,
) -> ClassifiedPage | Extraction:
    page = locate_page(html, config, http_charset, noscript, timer)
    if isinstance(page, Extraction):
        return page
    typed = None
    if model.page_types is not None and page.lines is not None:
        with timed(timer, "page_type"):
            signals = page_signals(page.root, html, url, page.lines, config)
            typed = model.page_types.page_probabilities(signals, type_words(url, page.title))
    # Right after the page type's walk of the tree, which leaves the tree in the cache for
    # the walk of the metadata (no step after Step 1 edits the tree).
    with timed(timer, "metadata"):
        lines = None if page.lines is None else [line.text for line in page.lines]
        metadata = page_metadata(page.root, lines=lines, settings=config.metadata)
    if page.block is None:
        return ClassifiedPage(page, (), metadata, typed)
    block = page.block.element
    if typed is not None:  # the page type says what the page is, where the model has one
        article = is_type(typed, "article")
        page = replace(page, story=lambda: article)
    forum = is_forum_page(url, typed)
    page = page_threads(page, url, forum)
    spec = classifier_spec(config.method)
    passes = page_passes(spec.passes, config, forum, block)
    with timed(timer, "denoise"):
        decisions = denoise(
            page.units, model.lexicon, decider(model, typed), config.denoise, model.feature_set, passes, spec.keep_whole,
            items_settings=config.items, lines_settings=config.lines, story=page.story,
            comment_form=partial(holds_comment_form, page.root),
            values=values, second=model.second, timer=timer,
        )  # fmt: skip
    return ClassifiedPage(page, tuple(decisions), metadata, typed)


def decider(model: Model, type_probabilities: np.ndarray | None) -> Decider:
    """What decides the page's units: the model's classifier, given the page's type
    probabilities where its trees read them (SVMParams.page_columns)."""
    if not model.svm.page_columns:
        return model.svm
    if type_probabilities is None:
        raise ModelError("the model's trees read the page's type, but the page has none")
    return OnPage(model.svm, type_probabilities)


def _extraction(page: ClassifiedPage, config: Config) -> Extraction:
    located, typed, metadata = page.located, page.page_type, page.metadata
    if located.block is None:
        text, error, block_path = "", "no block holds text", None
    else:
        text, error, block_path = page.text, "every unit of the block was classified as noise", located.block.path
    return Extraction(
        text=text,
        title=located.title,
        status=Status.OK if text else Status.EMPTY,
        error=None if text else error,
        block_path=block_path,
        encoding=located.encoding,
        lang_declared=located.lang_declared,
        method=config.method,
        published=metadata.published,
        source=metadata.source,
        page_type=None if typed is None else typed[0],
        page_type_probability=None if typed is None else typed[1],
    )


class _Found(Protocol):
    @property
    def text(self) -> str: ...


_Attempt = TypeVar("_Attempt", bound=_Found)
_NOSCRIPT_TAG = re.compile(r"<noscript\b", re.I)


def _with_noscript(html: str | bytes, attempt: Callable[[bool], _Attempt], settings: ParseConfig) -> _Attempt:
    """``attempt(noscript=False)``; when that finds under ``settings.noscript_short``
    characters, the page as a browser without scripts shows it, if that shows more than
    ``noscript_gain`` times as much (docs/method.md, "Reading the page"). Blogger keeps
    its posts in <noscript> (their script copy inert), Discourse its threads (the
    scripted view is a header and "Loading")."""
    found = attempt(False)
    if len(found.text) < settings.noscript_short and _has_noscript(html):
        again = attempt(True)
        if len(again.text) > settings.noscript_gain * len(found.text):
            return again
    return found


def _has_noscript(html: str | bytes) -> bool:
    return _NOSCRIPT_TAG.search(html if isinstance(html, str) else html.decode("latin-1")) is not None


def is_type(type_probabilities: np.ndarray, kind: str) -> bool:
    """Whether ``kind`` is the page's most probable type (config.PAGE_TYPES)."""
    return most_probable(type_probabilities)[0] == kind


def is_forum_page(url: str | None, type_probabilities: np.ndarray | None) -> bool:
    """Whether the page is a forum's: its page type where the model has a page type
    model, else its address (metadata.is_forum)."""
    return is_forum(url) if type_probabilities is None else is_type(type_probabilities, "forum")


def page_passes(passes: Sequence[str], config: Config, forum: bool, block: etree._Element | None = None) -> tuple[str, ...]:
    """The passes of ``passes`` that run on the page whose located block is ``block``.
    A forum's replies are its text, whatever its engine names their boxes, and a corpus
    may want an article's comments too (``comments``); a block that is the whole page
    (Step 1 found no smaller one) is no page of items (``items``). ``forum``: whether
    the page is a forum's (its page type, or without one its address: _classify)."""
    skipped = {"comments"} if config.denoise.comments or forum else set()
    if block is not None and block.tag in ("body", "html"):
        skipped.add("items")
    return tuple(name for name in passes if name not in skipped)


def page_threads(page: LocatedPage, url: str | None, forum: bool) -> LocatedPage:
    """The located page, its thread's posts (Unit.post) read as any other lines where
    the page is no forum's (``forum``, as page_passes takes it) and not one story
    (``page.story``): there the records that the thread rules find alike are a site's
    teasers, a shop's products or a service's cards, whose titles and prices the posts'
    rule would drop as the rest of a post's record. A page without an address keeps
    its thread."""
    if not url or forum or not any(unit.post for unit in page.units) or page.story():
        return page
    return replace(page, units=[unit._replace(post=0) if unit.post else unit for unit in page.units])


def read_page(
    html: str | bytes, config: Config, http_charset: str | None = None, noscript: bool = False, timer: StageTimer | None = None
) -> ParsedPage | Extraction:
    """Decode and parse: the page's tree and what every method reads of it first, or the
    Extraction of a page that is no HTML or cannot be parsed. ``noscript``: parse the
    page as a browser without scripts shows it (parse_html)."""
    encoding = None
    if isinstance(html, bytes):
        with timed(timer, "decode"):
            kind = sniff(html)
            if kind != "html":
                status = Status.EMPTY if kind == "empty" else Status.NOT_HTML
                return Extraction.failed(status, KIND_REASONS[kind], method=config.method)
            decoded = decode_html(html, http_charset)
        html, encoding = decoded.text if decoded.utf8 is None else decoded.utf8, decoded.encoding
    try:
        with timed(timer, "parse"):
            limits = config.limits
            root = parse_html(
                html, max_depth=limits.max_depth, noscript=noscript, max_elements=limits.max_elements, settings=config.parse
            )
    except (ParseError, etree.LxmlError) as exc:
        return Extraction.failed(Status.PARSE_ERROR, str(exc) or type(exc).__name__, method=config.method, encoding=encoding)
    except TooManyElements as exc:
        return Extraction.failed(Status.TOO_LARGE, str(exc), method=config.method, encoding=encoding)
    with timed(timer, "title"):
        title = page_title(root)
        declared = declared_language(root)
    return ParsedPage(root, title, declared, encoding)


def locate_page(
    html: str | bytes, config: Config, http_charset: str | None = None, noscript: bool = False, timer: StageTimer | None = None
) -> LocatedPage | Extraction:
    """Decode, parse and locate (an SVM method): the page up to its classification, or the
    Extraction of a page that failed on the way."""
    page = read_page(html, config, http_charset, noscript, timer)
    if isinstance(page, Extraction):
        return page
    lines = None
    if classifier_spec(config.method).lines:
        with timed(timer, "segment"):
            lines = page_lines(page.root, config)
    story = cache(partial(is_story, page.root))
    with timed(timer, "locate"):
        block, units = locate_units(page.root, config, lines, story)
    return LocatedPage(page.root, page.title, page.lang_declared, page.encoding, block, units, lines, story)


def _run_pipeline(
    html: str | bytes,
    config: Config,
    spec: MethodSpec,
    model: Any,
    http_charset: str | None,
    noscript: bool,
    timer: StageTimer | None,
) -> Extraction:
    """The extraction of a page by a method with its own steps (webclean/methods/)."""
    assert spec.pipeline is not None
    page = read_page(html, config, http_charset, noscript, timer)
    if isinstance(page, Extraction):
        return page
    with timed(timer, "metadata"):
        metadata = page_metadata(page.root, settings=config.metadata)  # before the method edits the tree
    with timed(timer, "method"):
        paragraphs, title = spec.pipeline(page.root, page.title, metadata, model)
    text = "\n".join(paragraphs)
    return Extraction(
        text=text,
        title=title,
        status=Status.OK if text else Status.EMPTY,
        error=None if text else f"method {config.method} kept no text",
        encoding=page.encoding,
        lang_declared=page.lang_declared,
        method=config.method,
        published=metadata.published,
        source=metadata.source,
    )


def page_lines(root: etree._Element, config: Config) -> list[Line]:
    """The lines of the page's body (segment.py), hidden elements dropped first when
    the improved method says so (this edits the tree)."""
    if config.improved.drop_hidden:
        drop_hidden(root, config.improved.shown_by_script_share)
    body = root.find("body")
    return segment(body if body is not None else root, config.lines)


def locate_units(
    root: etree._Element, config: Config, lines: list[Line] | None = None, story: Callable[[], bool] | None = None
) -> tuple[Block | None, list[Unit]]:
    """Step 1 and the units of Step 2 for the configured method.

    The improved method works on the page's lines: pass them when they are at hand
    (:func:`page_lines`), or they are made here; ``story``: whether the page says it is
    one story (metadata.is_story, cached), where the caller reads it again.
    """
    spec = classifier_spec(config.method)
    if not spec.lines:
        block = locate_block(root, config.locate)
        return block, (block_units(block.element) if block is not None else [])
    improved = config.improved
    if lines is None:
        lines = page_lines(root, config)
    block = locate_region(
        lines, root, config.locate.theta, frozenset(improved.block_tags), improved.ascend_gain, config.region, config.threads
    )
    if block is None:
        return None, []
    lines = aside_furniture(lines, block.element, story=story or cache(partial(is_story, root)), settings=config.lines)
    inside = lines_inside(lines, block.element)
    if not inside:
        return block, []
    posts = None
    if block.slots:
        posts = ({e for s in block.slots for e in s.iter()}, {e for r in block.records for e in r.iter()})
    units = line_units([lines[i] for i in inside], block.element, posts=posts, settings=config.lines)
    before, after = spec.margins
    first = 0 if before is None else max(0, inside[0] - before)
    if first < inside[0]:
        units = line_units(lines[first : inside[0]], region=-1, settings=config.lines) + units
    if after:
        units += line_units(lines[inside[-1] + 1 : inside[-1] + 1 + after], region=1, settings=config.lines)
    return block, units


def locate(root: etree._Element, config: Config) -> Block | None:
    """Step 1 for the configured method."""
    return locate_units(root, config)[0]


def _with_language(extraction: Extraction, settings: LanguageConfig, timer: StageTimer | None = None) -> Extraction:
    """``lang``: the language detected in the text when it is long enough, else the declared one."""
    with timed(timer, "language"):
        lang = page_language(extraction.text, extraction.lang_declared, settings)
    return extraction if lang == extraction.lang else replace(extraction, lang=lang)
