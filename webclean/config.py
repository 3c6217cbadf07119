"""One typed configuration for every stage, with the paper's defaults.

Defaults live here and in training_config.py (the sections of training), nowhere
else: θ = 0.3, α = 0.8, β = 40 (method.md).
A TOML file (``conf/webclean.toml``) and ``section.key=value`` overrides from the
command line replace them; unknown keys and out-of-range values raise
:class:`ConfigError` at start, never half-way through a job.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from webclean.config_check import ConfigError
from webclean.config_check import check_range as _check_range
from webclean.training_config import PAGE_TYPES, ClassifierConfig, ConfidenceConfig, GoldConfig, PageTypeConfig, WeakConfig

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised only on Python 3.10
    import tomli as tomllib


# "paper" and "svm" are the SVM method of Liang, Yang and Wei (2018; docs/method.md); the
# others are the systems of the other source documents (docs/methods.md, webclean/methods/).
METHODS = ("paper", "svm", "blocks", "ladom", "mlp")


@dataclass(frozen=True)
class LocateConfig:
    """Step 1: choose the content block."""

    theta: float = 0.3
    # The paper lets only <div> compete; "svm" (the improved method) widens this.
    block_tags: tuple[str, ...] = ("div",)

    def validate(self) -> None:
        _check_range("locate.theta", self.theta, 0.0, 1.0)
        if not self.block_tags:
            raise ConfigError("locate.block_tags must name at least one tag")


@dataclass(frozen=True)
class ImprovedConfig:
    """Step 1 of the improved method (method = "svm"); see locate.locate_region."""

    block_tags: tuple[str, ...] = (
        "div", "td", "table", "article", "section", "main", "body", "center", "font", "span", "li", "ul", "dl",
    )  # fmt: skip
    # The block grows into its parent while the parent's other children add more
    # than this share of the block's own counted text.
    ascend_gain: float = 0.25
    # Remove elements a browser does not show (display:none, hidden, aria-hidden) ...
    drop_hidden: bool = True
    # ... unless they hold all but this share of the page's text: such a page is shown by
    # its own scripts (segment.drop_hidden).
    shown_by_script_share: float = 0.1

    def validate(self) -> None:
        _check_range("improved.ascend_gain", self.ascend_gain, 0.0, 1000.0)
        _check_range("improved.shown_by_script_share", self.shown_by_script_share, 0.0, 1.0)
        if not self.block_tags:
            raise ConfigError("improved.block_tags must name at least one tag")


@dataclass(frozen=True)
class RegionConfig:
    """How method svm's block grows past the text beside it (region.py; Step 1, after
    improved.ascend_gain)."""

    wrapper_gain: float = 0.05  # an ancestor adding at most this share of the block's text is a wrapper: looked past
    continued: float = 2.0  # an ancestor holding this many times the block's text continues it ...
    beside_chars: int = 80  # ... past at most this many characters beside the block (a caption, a byline) ...
    alike_share: float = 0.5  # ... or past any, where siblings alike to the block's section add this share of its text
    far: float = 4.0  # a block grows into a far ancestor holding this many times its text ...
    far_beside: float = 0.1  # ... where the block's own branch adds at most this share of that ancestor's text ...
    far_min_chars: int = 200  # ... when the block holds this many counted characters at least

    def validate(self) -> None:
        for name in ("wrapper_gain", "continued", "far"):
            _check_range(f"region.{name}", getattr(self, name), 0.0, 1000.0)
        for name in ("alike_share", "far_beside"):
            _check_range(f"region.{name}", getattr(self, name), 0.0, 1.0)
        _check_range("region.beside_chars", self.beside_chars, 0, 10**7)
        _check_range("region.far_min_chars", self.far_min_chars, 0, 10**7)


@dataclass(frozen=True)
class ThreadsConfig:
    """A forum thread located as its posts (threads.py; method svm's Step 1)."""

    record_depth: int = 12  # a post's record lies at most this many levels above the block
    records: int = 3  # so many records alike make a list of posts
    post_chars: int = 100  # posts found by their texts alone hold this many counted characters

    def validate(self) -> None:
        _check_range("threads.record_depth", self.record_depth, 1, 1000)
        _check_range("threads.records", self.records, 2, 10**6)
        _check_range("threads.post_chars", self.post_chars, 0, 10**7)


@dataclass(frozen=True)
class LinesConfig:
    """Method svm's lines (segment.py) and what their features and passes call prose
    (line_features.py, passes.py)."""

    all_link: float = 0.999  # a line whose link ratio reaches this is all link (kind "link")
    long_line: int = 100  # a line of this many characters ...
    prose_link_ratio: float = 0.3  # ... and at most this link ratio is a paragraph of prose
    window: int = 2  # a line's neighbours: the lines up to this far on either side
    core_share: float = 0.7  # the box of the block's text holds this share of its prose ...
    core_prose_chars: int = 500  # ... in a block of this many characters of prose at least
    repeat_chars: int = 40  # a line this long is looked for again (a passage the layout shows twice)
    # A consent box or a form to type into is passed over unless it holds this share of the page.
    passed_max_share: float = 0.5
    story_paragraph_chars: int = 200  # a paragraph longer than this is prose: a box holding one holds the story
    related_name_chars: int = 30  # a line naming a box of related stories is at most this long

    def validate(self) -> None:
        for name in ("all_link", "prose_link_ratio", "core_share", "passed_max_share"):
            _check_range(f"lines.{name}", getattr(self, name), 0.0, 1.0)
        _check_range("lines.window", self.window, 1, 100)
        for name in ("long_line", "core_prose_chars", "repeat_chars", "story_paragraph_chars", "related_name_chars"):
            _check_range(f"lines.{name}", getattr(self, name), 0, 10**7)


@dataclass(frozen=True)
class ParseConfig:
    """Reading the page as a browser shows it (parse.py, extract.py; docs/method.md,
    "Reading the page")."""

    widget_form_chars: int = 200  # a form, or a control that swallowed boxes, with less text is a widget
    noscript_max_elements: int = 100  # a <noscript> of more elements may hold the page: parsed again without
    noscript_short: int = 200  # a page whose text is shorter is read again as a browser without scripts shows it ...
    noscript_gain: float = 3.0  # ... and that text taken when more than this many times as long

    def validate(self) -> None:
        _check_range("parse.widget_form_chars", self.widget_form_chars, 0, 10**7)
        _check_range("parse.noscript_max_elements", self.noscript_max_elements, 0, 10**9)
        _check_range("parse.noscript_short", self.noscript_short, 0, 10**9)
        _check_range("parse.noscript_gain", self.noscript_gain, 0.0, 10**6)


@dataclass(frozen=True)
class LexiconConfig:
    """Step 2: the noise lexicon (T) and the special punctuation (S)."""

    alpha: float = 0.8
    # A word seen fewer times than this is not evidence either way.
    min_count: int = 3
    max_words: int = 5000
    # Stop words (method svm): the most frequent words of main text, at least as often
    # in main text as in noise; a line's share of them is a feature.
    stopwords: int = 150
    # The line lexicon (method svm; lexicon.line_keys): a line key enters when its
    # n / (n + h) reaches ``line_alpha`` on the lines of at least ``line_sites`` sites,
    # the heaviest ``max_lines`` of them.
    line_alpha: float = 0.6
    line_sites: int = 3
    max_lines: int = 20000
    # A line of up to this many tokens is a key whole; a longer one by its first words only.
    # The keys of training and of extraction must be the same: a model's lexicon keeps the
    # value it was trained with (NoiseLexicon.line_key_tokens), and extraction reads that.
    line_key_tokens: int = 24

    def validate(self) -> None:
        _check_range("lexicon.alpha", self.alpha, 0.0, 1.0)
        _check_range("lexicon.line_key_tokens", self.line_key_tokens, 1, 10_000)
        _check_range("lexicon.line_alpha", self.line_alpha, 0.0, 1.0)
        _check_range("lexicon.line_sites", self.line_sites, 1, 10**6)
        _check_range("lexicon.max_lines", self.max_lines, 0, 10**7)
        _check_range("lexicon.min_count", self.min_count, 1, 10**9)
        _check_range("lexicon.max_words", self.max_words, 1, 10**7)
        _check_range("lexicon.stopwords", self.stopwords, 0, 10**6)


@dataclass(frozen=True)
class DenoiseConfig:
    """Step 4: the noise filter for long tags."""

    beta: int = 40
    # Method svm: keep the readers' comments under an article and a shop's reviews (its
    # pass ``comments`` off; passes.comment_boxes), for a corpus that wants the
    # discussion too.
    comments: bool = False
    # The pass ``comments`` drops a comment box's lines only where the page keeps this
    # many characters outside such boxes (or some, and a box to write a comment in).
    article_chars: int = 500
    # Method svm: a line is content where its decision value is above this (the
    # classifier's own boundary is 0).
    threshold: float = 0.0

    def validate(self) -> None:
        _check_range("denoise.beta", self.beta, 1, 10**6)
        _check_range("denoise.article_chars", self.article_chars, 0, 10**7)
        _check_range("denoise.threshold", self.threshold, -10.0, 10.0)


@dataclass(frozen=True)
class ItemsConfig:
    """Method svm's pass ``items`` (passes.items, passes.teaser_heads): a page of items
    keeps its located block."""

    lines: int = 10  # the block holds this many lines at least
    prose_share: float = 0.2  # ... under this share of its text in lines of prose
    kept_share: float = 0.05  # ... and the decisions keep under this share of it
    list_kept_share: float = 0.15  # ... or under this one, on a page that does not say it is one story
    bare_kept_share: float = 0.3  # ... or under this one, where the block holds no line of prose
    teasers: int = 3  # so many headlines over kept summaries, on a page that is no story, are kept
    teaser_head_chars: int = 25
    teaser_summary_chars: int = 80
    teaser_reach: int = 2  # lines from a headline to its summary

    def validate(self) -> None:
        _check_range("items.lines", self.lines, 1, 10**6)
        for name in ("prose_share", "kept_share", "list_kept_share", "bare_kept_share"):
            _check_range(f"items.{name}", getattr(self, name), 0.0, 1.0)
        _check_range("items.teasers", self.teasers, 1, 10**6)
        _check_range("items.teaser_head_chars", self.teaser_head_chars, 0, 10**6)
        _check_range("items.teaser_summary_chars", self.teaser_summary_chars, 0, 10**6)
        _check_range("items.teaser_reach", self.teaser_reach, 1, 100)


@dataclass(frozen=True)
class MetadataConfig:
    """The time of publication and the source of a page (metadata.py)."""

    scan_chars: int = 30_000  # the visible text searched for them: metadata sits near the top
    near_headline_chars: int = 1_500  # a date this close after the headline is the article's
    byline_chars: int = 300  # a longer line is running prose: its "Source:" names no source

    def validate(self) -> None:
        _check_range("metadata.scan_chars", self.scan_chars, 0, 10**9)
        _check_range("metadata.near_headline_chars", self.near_headline_chars, 0, 10**9)
        _check_range("metadata.byline_chars", self.byline_chars, 0, 10**9)


@dataclass(frozen=True)
class LanguageConfig:
    """The language detected in the extracted text (language.py)."""

    prefix_chars: int = 400  # detection reads at most this much of the text
    min_chars: int = 200  # a shorter text keeps the declared language

    def validate(self) -> None:
        _check_range("language.prefix_chars", self.prefix_chars, 1, 10**9)
        _check_range("language.min_chars", self.min_chars, 0, 10**9)


@dataclass(frozen=True)
class LimitsConfig:
    """What one page may cost; a page over a limit gets a status, not a crash."""

    max_bytes: int = 20_000_000
    max_depth: int = 400
    # The work and memory of a page grow with its elements (a few kB each past the parse);
    # real pages hold a few thousand, the largest about 100,000.
    max_elements: int = 250_000
    timeout_seconds: float = 20.0

    def validate(self) -> None:
        _check_range("limits.max_bytes", self.max_bytes, 1, 10**10)
        _check_range("limits.max_depth", self.max_depth, 8, 100_000)
        _check_range("limits.max_elements", self.max_elements, 100, 10**9)
        _check_range("limits.timeout_seconds", self.timeout_seconds, 0.0, 86_400.0)


@dataclass(frozen=True)
class InputConfig:
    """How the extract job shares its input out among tasks (webclean/spark/inputs.py)."""

    # A task reads about this many bytes: smaller files are packed together, and a larger
    # WARC is read in ranges of about this size, each by a task of its own (warc_ranges.py).
    task_bytes: int = 256 << 20

    def validate(self) -> None:
        _check_range("input.task_bytes", self.task_bytes, 4096, 1 << 50)


@dataclass(frozen=True)
class Config:
    # "svm": the paper's SVM method with the departures of docs/method.md (docs/quality.md);
    # "paper": the method exactly as published (method.md).
    method: str = "svm"
    locate: LocateConfig = field(default_factory=LocateConfig)
    improved: ImprovedConfig = field(default_factory=ImprovedConfig)
    region: RegionConfig = field(default_factory=RegionConfig)
    threads: ThreadsConfig = field(default_factory=ThreadsConfig)
    lines: LinesConfig = field(default_factory=LinesConfig)
    parse: ParseConfig = field(default_factory=ParseConfig)
    lexicon: LexiconConfig = field(default_factory=LexiconConfig)
    classifier: ClassifierConfig = field(default_factory=ClassifierConfig)
    denoise: DenoiseConfig = field(default_factory=DenoiseConfig)
    items: ItemsConfig = field(default_factory=ItemsConfig)
    page_type: PageTypeConfig = field(default_factory=PageTypeConfig)
    confidence: ConfidenceConfig = field(default_factory=ConfidenceConfig)
    metadata: MetadataConfig = field(default_factory=MetadataConfig)
    language: LanguageConfig = field(default_factory=LanguageConfig)
    limits: LimitsConfig = field(default_factory=LimitsConfig)
    input: InputConfig = field(default_factory=InputConfig)
    gold: GoldConfig = field(default_factory=GoldConfig)
    weak: WeakConfig = field(default_factory=WeakConfig)

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise ConfigError(f"method must be one of {', '.join(METHODS)}, not {self.method!r}")
        for f in fields(self):
            value = getattr(self, f.name)
            if dataclasses.is_dataclass(value) and not isinstance(value, type):
                value.validate()  # type: ignore[attr-defined]  # every section has one

    def to_dict(self) -> dict[str, Any]:
        return _jsonable(dataclasses.asdict(self))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Config:
        return _build(cls, data, prefix="")

    def with_overrides(self, overrides: Mapping[str, str] | list[str]) -> Config:
        """Apply ``section.key=value`` strings (values parsed as TOML)."""
        if not isinstance(overrides, Mapping):
            overrides = dict(_split_override(o) for o in overrides)
        data = self.to_dict()
        for dotted, raw in overrides.items():
            parts = dotted.split(".")
            target = data
            for part in parts[:-1]:
                if not isinstance(target.get(part), dict):
                    raise ConfigError(f"unknown configuration key {dotted!r}")
                target = target[part]
            if parts[-1] not in target:
                raise ConfigError(f"unknown configuration key {dotted!r}")
            target[parts[-1]] = _parse_value(raw)
        return Config.from_dict(data)


def load_config(path: str | Path | None = None, overrides: list[str] | None = None) -> Config:
    """Read a TOML file (or the defaults when ``path`` is None) and apply overrides."""
    config = Config()
    if path is not None:
        try:
            with open(path, "rb") as handle:
                config = Config.from_dict(tomllib.load(handle))
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: {exc}") from exc
        except OSError as exc:
            raise ConfigError(f"{path}: {exc.strerror or exc}") from exc
    if overrides:
        config = config.with_overrides(overrides)
    return config


def _build(cls: type, data: Mapping[str, Any], prefix: str) -> Any:
    if not isinstance(data, Mapping):
        raise ConfigError(f"{prefix.rstrip('.') or 'configuration'} must be a table")
    known = {f.name: f for f in fields(cls)}
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise ConfigError(f"unknown configuration key(s): {', '.join(prefix + k for k in unknown)}")
    kwargs: dict[str, Any] = {}
    for name, value in data.items():
        default = getattr(cls(), name) if name in known else None
        if dataclasses.is_dataclass(default):
            kwargs[name] = _build(type(default), value, prefix + name + ".")
        else:
            kwargs[name] = _coerce(prefix + name, value, default)
    return cls(**kwargs)


def _coerce(name: str, value: Any, default: Any) -> Any:
    if isinstance(default, tuple):
        if not isinstance(value, (list, tuple)):
            raise ConfigError(f"{name} must be a list")
        return tuple(value)
    if isinstance(default, bool) or isinstance(default, str):
        if type(value) is not type(default):
            raise ConfigError(f"{name} must be a {type(default).__name__}, not {value!r}")
        return value
    if isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if isinstance(default, int) and isinstance(value, float) and value.is_integer():
        return int(value)
    if type(value) is not type(default):
        raise ConfigError(f"{name} must be a {type(default).__name__}, not {value!r}")
    return value


def _split_override(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise ConfigError(f"an override reads section.key=value, not {text!r}")
    return key.strip(), value.strip()


def _parse_value(raw: Any) -> Any:
    if not isinstance(raw, str):
        return raw
    try:
        return tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        return raw  # a bare word such as  method=svm


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


__all__ = [
    "PAGE_TYPES",
    "ClassifierConfig",
    "ConfidenceConfig",
    "Config",
    "ConfigError",
    "DenoiseConfig",
    "GoldConfig",
    "ImprovedConfig",
    "InputConfig",
    "ItemsConfig",
    "LanguageConfig",
    "LexiconConfig",
    "LimitsConfig",
    "LinesConfig",
    "LocateConfig",
    "MetadataConfig",
    "PageTypeConfig",
    "ParseConfig",
    "RegionConfig",
    "ThreadsConfig",
    "WeakConfig",
    "load_config",
    "replace",
]
