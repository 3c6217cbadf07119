"""What kind of page a page is: article, listing, forum, product, documentation,
service or collection (the seven types of WCXB), learned.

No rule names a page's type. :func:`page_signals` measures what the page's structure
says of it — how its text falls into lines of prose, links, headings, lists and cells;
items of one form repeated; forms, code and prices; what the page declares of itself
(schema.org and Open Graph types); the shape of its address — and
:class:`PageTypeModel`, boosted trees fitted on labelled pages (one ensemble a type,
scikit-learn's multinomial HistGradientBoostingClassifier as arrays), gives each type
its probability.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple
from urllib.parse import urlsplit

import numpy as np
from lxml import etree

from webclean import core
from webclean.classifier import TreeEnsemble
from webclean.config import PAGE_TYPES, Config, LinesConfig, PageTypeConfig
from webclean.line_features import is_prose
from webclean.metadata import is_forum
from webclean.parse import meta_values
from webclean.segment import GROUP_BIT, Line
from webclean.text import CJK_IDEOGRAPH_RANGES, CJK_IDEOGRAPHS, CJK_RE
from webclean.tokenize import latin_words, nfkc
from webclean.vocabulary import DECLARED_TYPES

# The elements counted, each a column (log(1 + count)).
COUNTED_TAGS = (
    "a", "p", "li", "h1", "h2", "h3", "table", "tr", "form", "input", "textarea", "pre", "code",
    "img", "article", "time", "nav", "aside", "figure", "blockquote", "dl", "label", "video",
)  # fmt: skip
_PRE = COUNTED_TAGS.index("pre")
# A price: a currency sign by a number.
_PRICE_BEFORE = "$€£¥₹"  # signs written before the number ...
_PRICE_AFTER = "€元"  # ... and after it
_PRICE = re.compile(rf"[{re.escape(_PRICE_BEFORE)}]\s?\d|\d\s?[{_PRICE_AFTER}]")
_PRICE_SIGNS = _PRICE_BEFORE + _PRICE_AFTER  # a text without any of them holds no price
# A type that a page's JSON-LD declares ("@type": "NewsArticle", or the first of a list).
_LD_TYPE = re.compile(rb'"@type"\s*:\s*\[?\s*"([A-Za-z]+)"')
_LD_TYPE_TEXT = re.compile(_LD_TYPE.pattern.decode("ascii"))

# A word of an address's path.
_PATH_WORD = re.compile(r"[^\W\d_]{2,}")
# A run of CJK ideographs (title_words).
_IDEOGRAPH_RUN = re.compile(f"[{CJK_IDEOGRAPHS}]{{2,}}")

_LINE_KINDS = ("p", "heading", "list", "cell", "link", "text")
SIGNAL_NAMES = (
    *(f"count_{tag}" for tag in COUNTED_TAGS),
    "lines", "chars", "cjk_share", "mean_line", "long_lines",
    *(f"kind_{kind}_share" for kind in _LINE_KINDS),
    "link_share", "prose_share", "furniture_share", "comment_box_share", "form_box_share",
    "item_runs", "largest_run", "items_share", "prices", "code_share",
    *(f"declared_{kind}" for kind in PAGE_TYPES), "declared_other",
    "url_depth", "url_digits", "url_last_chars", "url_last_words", "url_query", "url_slash", "url_file",
    "url_forum", "url_root",
)  # fmt: skip


def page_signals(root: etree._Element, html: str | bytes, url: str | None, lines: Sequence[Line], config: Config) -> np.ndarray:
    """The page's row of SIGNAL_NAMES, from its tree, its markup (the JSON-LD types,
    which the parse drops with the scripts), its address and its lines (segment.py);
    ``config``: what a line of prose is (``lines``, line_features.is_prose) and what
    makes items and the CJK share (``page_type``)."""
    counts, item_types, metas = element_census(root)
    totals = line_totals(lines, config.lines, config.page_type.sample_chars)
    chars = totals.chars or 1
    runs, largest, covered = item_runs(lines, config.page_type)
    code = sum(len("".join(pre.itertext())) for pre in root.iter("pre")) if counts[_PRE] else 0
    row = [math.log1p(count) for count in counts]
    row += _line_signals(totals, len(lines))
    row += [math.log1p(runs), math.log1p(largest), covered / chars]
    row += [math.log1p(totals.prices), min(1.0, code / chars)]
    row += _declared(html, item_types, metas)
    row += _address(url)
    return np.asarray(row, dtype=np.float64)


def element_census(root: etree._Element) -> tuple[list[int], list[str], list[etree._Element]]:
    """How many elements of each of COUNTED_TAGS the tree of ``root`` holds (root
    included), the values of its ``itemtype`` attributes (microdata) and those of its
    ``<meta>`` elements that may declare an ``og:type`` (_may_name), in document order."""
    if core.compiled is not None:  # one walk over libxml2's nodes (webclean/_core_page.pxi)
        return core.compiled.census(root, COUNTED_TAGS, b"itemtype", b"meta", _META_NAME_BYTES, _OG_TYPE_BYTES)
    counts = dict.fromkeys(COUNTED_TAGS, 0)
    for element in root.iter(*COUNTED_TAGS):
        counts[element.tag] += 1
    item_types = [str(value) for value in root.xpath("descendant-or-self::*/@itemtype")]
    return [counts[tag] for tag in COUNTED_TAGS], item_types, [meta for meta in root.iter("meta") if _may_name(meta)]


# The attributes that name a <meta>'s key (parse.meta_values), and the key of the type it
# declares; as the compiled census reads them, in bytes.
_META_NAMES = ("property", "name")
_OG_TYPE = "og:type"
_META_NAME_BYTES, _OG_TYPE_BYTES = tuple(name.encode("ascii") for name in _META_NAMES), _OG_TYPE.encode("ascii")


def _may_name(meta: etree._Element) -> bool:
    """Whether a ``<meta>`` may declare the page's ``og:type``: one of its _META_NAMES
    holds it, in any case. parse.meta_values reads those exactly; the most a page's
    ``<meta>`` elements are read so is a few."""
    return any(_OG_TYPE in (meta.get(name) or "").lower() for name in _META_NAMES)


class LineTotals(NamedTuple):
    """What the page type reads of a page's lines, summed over them."""

    chars: int
    by_kind: list[int]  # the characters of the lines of each of _LINE_KINDS
    long_lines: int  # lines of lines.long_line characters or more
    linked: float  # the characters in links (each line's length times its link ratio)
    prose: int  # the characters of prose (line_features.is_prose)
    furniture: int
    in_comments: int  # in a box of comments, and in a form (segment.GROUP_BIT)
    in_forms: int
    sample: int  # the characters of each line's first page_type.sample_chars ...
    sample_cjk: int  # ... and the CJK ideographs among them
    prices: int  # _PRICE's matches in the lines' text, a line break between lines


# Where line_totals and item_runs find a Line's fields in its tuple (the compiled core reads them so).
_LINE_AT = tuple(Line._fields.index(name) for name in ("text", "kind", "link_ratio", "groups", "length", "furniture"))
_OWNER_AT, _LENGTH_AT = Line._fields.index("owner"), Line._fields.index("length")


def line_totals(lines: Sequence[Line], settings: LinesConfig, sample_chars: int) -> LineTotals:
    """The page's :class:`LineTotals`: ``settings`` say what a long line and a line of
    prose are, ``sample_chars`` how much of each line the CJK share reads."""
    comment, form = GROUP_BIT["comment"], GROUP_BIT["form"]
    if core.compiled is not None:  # one loop over the lines (webclean/_core_sums.pxi)
        found = core.compiled.line_totals(
            lines if isinstance(lines, list) else list(lines), _LINE_AT, _LINE_KINDS, comment, form, settings,
            sample_chars, CJK_IDEOGRAPH_RANGES, _PRICE_BEFORE, _PRICE_AFTER,
        )  # fmt: skip
        if found is not None:
            return LineTotals(*found)
    by_kind = dict.fromkeys(_LINE_KINDS, 0)
    chars = long = prose = furniture = in_comments = in_forms = 0
    linked = 0.0
    for line in lines:
        length = line.length
        chars += length
        by_kind[line.kind] = by_kind.get(line.kind, 0) + length
        long += length >= settings.long_line
        linked += length * line.link_ratio
        prose += length if is_prose(length, line.link_ratio, settings) else 0
        furniture += length if line.furniture else 0
        in_comments += length if line.groups & comment else 0
        in_forms += length if line.groups & form else 0
    sample = "".join(line.text[:sample_chars] for line in lines)
    text = "\n".join(line.text for line in lines)
    prices = len(_PRICE.findall(text)) if any(sign in text for sign in _PRICE_SIGNS) else 0
    return LineTotals(
        chars, [by_kind[kind] for kind in _LINE_KINDS], long, linked, prose, furniture, in_comments, in_forms,
        len(sample), len(CJK_RE.findall(sample)), prices,
    )  # fmt: skip


def _line_signals(totals: LineTotals, lines: int) -> list[float]:
    total = totals.chars or 1
    return [
        math.log1p(lines),
        math.log1p(totals.chars),
        totals.sample_cjk / (totals.sample or 1),
        math.log1p(totals.chars / max(1, lines)),
        math.log1p(totals.long_lines),
        *(chars / total for chars in totals.by_kind),
        totals.linked / total,
        totals.prose / total,
        totals.furniture / total,
        totals.in_comments / total,
        totals.in_forms / total,
    ]


def item_runs(lines: Sequence[Line], settings: PageTypeConfig) -> tuple[int, int, int]:
    """Items of one form, repeated in one box: for each line, its owner and the owner's
    ancestors up to ``item_levels`` above are candidate items, keyed by their box, tag
    and class; a box of ``run_items`` items of a key or more is a run. The runs, the
    items of the largest, and the characters of the largest by text. The lines come
    in document order, so an item's lines come one after the other: an item counts
    when it differs from the last item of its key. Each element's box and key are
    found once (``steps``)."""
    if core.compiled is not None:  # the same runs over libxml2's nodes (webclean/_core_page.pxi)
        found = core.compiled.item_runs(
            lines if isinstance(lines, list) else list(lines), _OWNER_AT, _LENGTH_AT, settings.item_levels, settings.run_items
        )
        if found is not None:
            return found
    entries: dict[tuple[etree._Element, str, str], list[Any]] = {}  # key: [items, last item, characters]
    steps: dict[etree._Element, tuple[tuple[etree._Element, str, str], etree._Element] | None] = {}
    for line in lines:
        item = line.owner
        for _ in range(settings.item_levels):
            if item in steps:
                step = steps[item]
            else:
                box = item.getparent()
                step = steps[item] = None if box is None else ((box, item.tag, item.get("class") or ""), box)
            if step is None:
                break
            key, box = step
            entry = entries.get(key)
            if entry is None:
                entries[key] = [1, item, line.length]
            else:
                if entry[1] is not item:
                    entry[0] += 1
                    entry[1] = item
                entry[2] += line.length
            item = box
    runs = [entry for entry in entries.values() if entry[0] >= settings.run_items]
    largest = max((entry[0] for entry in runs), default=0)
    covered = max((entry[2] for entry in runs), default=0)
    return len(runs), largest, covered


def _declared(html: str | bytes, item_types: Sequence[str], metas: Iterable[etree._Element]) -> list[float]:
    """How many of the page's declared types (JSON-LD, microdata ``itemtype``: its
    ``item_types``, Open Graph ``og:type`` of its ``<meta>`` elements, ``metas``) fall
    to each page type (vocabulary.DECLARED_TYPES), and to none."""
    declared = _ld_types(html)
    names = [name.lower() for name in declared]
    names += [value.rstrip("/").rsplit("/", 1)[-1].lower() for value in item_types]
    names += [kind.lower() for kind in meta_values(metas, _OG_TYPE)]
    found = dict.fromkeys((*PAGE_TYPES, None), 0)
    for name in names:
        found[DECLARED_TYPES.get(name)] += 1
    return [math.log1p(found[kind]) for kind in (*PAGE_TYPES, None)]


def _ld_types(html: str | bytes) -> list[str]:
    """The types the page's JSON-LD declares (_LD_TYPE's matches, in order): each match
    starts at a ``"@type"``, found by a plain search, which is much faster than the
    pattern's over the whole markup (in the compiled core, a search for its rare "@")."""
    found = []
    pattern, key = (_LD_TYPE_TEXT, '"@type"') if isinstance(html, str) else (_LD_TYPE, b'"@type"')
    if core.compiled is not None:
        starts: Iterable[int] = core.compiled.occurrences(html, key, 1)
    else:
        starts = _starts(html, key)
    after = 0  # where the last match ended: a start before it is inside that match
    for at in starts:
        if at < after:
            continue
        match = pattern.match(html, at)  # type: ignore[arg-type]
        if match:
            name = match.group(1)
            found.append(name if isinstance(name, str) else name.decode("ascii"))
            after = match.end()
    return found


def _starts(text: str | bytes, key: str | bytes) -> Iterator[int]:
    """Where ``key`` occurs in ``text``, every start in order, overlapping ones too."""
    at = text.find(key)  # type: ignore[arg-type]
    while at >= 0:
        yield at
        at = text.find(key, at + 1)  # type: ignore[arg-type]


def _address(url: str | None) -> list[float]:
    try:
        parts = urlsplit(url or "")
    except ValueError:
        parts = urlsplit("")
    segments = [segment for segment in parts.path.split("/") if segment]
    last = segments[-1] if segments else ""
    return [
        float(len(segments)),
        float(sum(c.isdigit() for c in parts.path)),
        float(len(last)),
        float(len([word for word in re.split(r"[-_.]", last) if word])),
        float(bool(parts.query)),
        float(parts.path.endswith("/")),
        float("." in last),
        float(is_forum(url)),
        float(not segments and not parts.query),
    ]


def most_probable(probabilities: np.ndarray) -> tuple[str, float]:
    """The most probable of PAGE_TYPES by a row of their probabilities, and its probability."""
    best = int(np.argmax(probabilities))
    return PAGE_TYPES[best], float(probabilities[best])


def type_words(url: str | None, title: str) -> tuple[str, ...]:
    """The words the type lexicon reads: those of the address's path (``u:``) and of
    the title (``t:``, :func:`title_words`), each once."""
    try:
        path = urlsplit(url or "").path
    except ValueError:
        path = ""
    found = {"u:" + word.lower() for word in _PATH_WORD.findall(path)}
    found.update("t:" + word for word in title_words(title))
    return tuple(sorted(found))


def title_words(title: str) -> list[str]:
    """The words of a title that the type lexicon reads, lower-cased: its runs of two or
    more letters and digits other than CJK ideographs, and each two ideographs side by
    side in a run of them. A word of a type ("论坛", "产品", "列表") is two ideographs
    or holds them, and the bigrams need no segmenter: a page's title is read at the
    cost of a pattern, not of a dictionary's lookups."""
    text = nfkc(title).lower()
    found = [word for word in latin_words(text) if len(word) > 1]
    for run in _IDEOGRAPH_RUN.findall(text):
        found.extend(run[k : k + 2] for k in range(len(run) - 1))
    return found


def _log_ratios(n: np.ndarray, pages: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each word's score for each type, from ``n``, the pages of each type that hold it
    (a row a word), and ``pages``, the pages of each type: the log-ratio of its share of
    that type's pages to its share of the other types' pages (smoothed); and the pages
    that hold each word."""
    held = n.sum(axis=1)
    share = (n + 0.5) / (pages + 1)
    rest = (held[:, None] - n + 0.5) / (pages.sum() - pages + 1)
    return np.log(share / rest), held


@dataclass(frozen=True)
class TypeLexicon:
    """Words of pages' addresses and titles (type_words), each with the training pages
    of each type that hold it: a word's score for a type is the log-ratio of its share
    of that type's pages to its share of the other types' pages (smoothed), and a
    page's score for a type sums its words' (those held by ``min_pages`` pages or more)."""

    words: tuple[str, ...]
    counts: np.ndarray  # (words, types): the pages of each type that hold each word
    pages: np.ndarray  # (types,): the pages of each type
    min_pages: int

    @cached_property
    def _index(self) -> dict[str, int]:
        return {word: i for i, word in enumerate(self.words)}

    @cached_property
    def _word_scores(self) -> tuple[np.ndarray, list[bool]]:
        """Each word's scores for the types, as :meth:`scores` computes them without
        ``own`` counts, and whether the word counts (``min_pages``)."""
        logs, held = _log_ratios(self.counts.astype(np.float64), self.pages.astype(np.float64))
        return logs, (held >= self.min_pages).tolist()

    def scored_rows(self, found: Sequence[str]) -> list[int]:
        """The rows of :attr:`_word_scores` of the words of ``found`` that count."""
        index = self._index
        counts = self._word_scores[1]
        return [row for row in (index[word] for word in found if word in index) if counts[row]]

    def scores(self, found: Sequence[str], own: np.ndarray | None = None, own_pages: np.ndarray | None = None) -> np.ndarray:
        """A page's score for each type; ``own`` and ``own_pages``: counts to take out
        first (the page's own site, for the rows the trees are fitted on)."""
        if own is None or own_pages is None:  # each word's scores computed once
            rows = self.scored_rows(found)
            logs = self._word_scores[0]
            return logs[rows].sum(axis=0) if rows else np.zeros(len(PAGE_TYPES))
        index = self._index
        rows = [index[word] for word in found if word in index]
        logs, held = _log_ratios(self.counts[rows].astype(np.float64) - own[rows], self.pages.astype(np.float64) - own_pages)
        logs = logs[held >= self.min_pages]
        return logs.sum(axis=0) if len(logs) else np.zeros(len(PAGE_TYPES))

    @classmethod
    def count(cls, found: Sequence[Sequence[str]], labels: Sequence[int], min_pages: int) -> TypeLexicon:
        """The pages of each type that hold each word, for the words that ``min_pages``
        pages hold at least (no other word ever scores)."""
        words = sorted({word for page in found for word in page})
        index = {word: i for i, word in enumerate(words)}
        counts = np.zeros((len(words), len(PAGE_TYPES)), dtype=np.int64)
        for page, label in zip(found, labels):
            counts[[index[word] for word in page], label] += 1
        pages = np.bincount(np.asarray(labels, dtype=np.int64), minlength=len(PAGE_TYPES))
        kept = np.flatnonzero(counts.sum(axis=1) >= min_pages)
        return cls(tuple(words[i] for i in kept), counts[kept], pages, min_pages)


def _row_softmax(scores: Sequence[float]) -> np.ndarray:
    """One page's scores made probabilities, as :func:`_softmax` makes a row of them, on
    a handful of floats: NumPy's calls would cost more than their arithmetic."""
    top = max(scores)
    odds = [math.exp(score - top) for score in scores]
    total = 0.0
    for odd in odds:  # in order, as NumPy sums fewer than eight numbers
        total += odd
    return np.array([odd / total for odd in odds])


def _softmax(scores: np.ndarray) -> np.ndarray:
    """Each row of ``scores`` made probabilities."""
    # The ufuncs' reductions, which ndarray.max and sum call (through Python wrappers)
    scores -= np.maximum.reduce(scores, axis=1, keepdims=True)
    odds = np.exp(scores)
    return odds / np.add.reduce(odds, axis=1, keepdims=True)


@dataclass(frozen=True)
class PageTypeModel:
    """The type lexicon and one tree ensemble a page type (PAGE_TYPES order), over a
    page's signals and its lexicon scores: their scores, made probabilities by a softmax."""

    lexicon: TypeLexicon
    ensembles: tuple[TreeEnsemble, ...]

    @cached_property
    def _joined(self) -> tuple[TreeEnsemble, np.ndarray, np.ndarray]:
        """Every type's trees in one ensemble (one walk a page), where each type's trees
        start, and the types' baselines."""
        starts = np.cumsum([0, *(len(e.roots) for e in self.ensembles)])[:-1]
        return TreeEnsemble.joined(self.ensembles), starts, np.asarray([e.baseline for e in self.ensembles])

    def probabilities(self, rows: np.ndarray) -> np.ndarray:
        """A row of PAGE_TYPES' probabilities for each row of signals and lexicon scores."""
        return _softmax(self._scores(rows))

    def _scores(self, rows: np.ndarray) -> np.ndarray:
        """A row of PAGE_TYPES' scores (their log-odds) for each row of signals and lexicon scores."""
        joined, starts, baselines = self._joined
        return np.add.reduceat(joined.leaf_values(np.atleast_2d(rows)), starts, axis=1) + baselines

    def page_probabilities(self, signals: np.ndarray, found: Sequence[str]) -> np.ndarray:
        """PAGE_TYPES' probabilities for a page: its signals and type_words."""
        joined, starts, baselines = self._joined
        if core.compiled is not None and (walk := joined._compiled) is not None:
            # the lexicon's sums, the walk and each type's sum in one call (webclean/_core_pagetype.pxi)
            lexicon = self.lexicon
            signals = np.ascontiguousarray(signals, dtype=np.float64)
            scores = core.compiled.type_scores(walk, signals, lexicon._word_scores[0], lexicon.scored_rows(found), starts, baselines)
        else:
            scores = self._scores(np.concatenate([signals, self.lexicon.scores(found)]))[0].tolist()
        return _row_softmax(scores)

    def predict(self, signals: np.ndarray, found: Sequence[str]) -> tuple[str, float]:
        """The most probable type of a page (its signals and type_words), and its probability."""
        return most_probable(self.page_probabilities(signals, found))

    def to_data(self, prefix: str = "type_") -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        """The model's scalars (JSON) and arrays, the arrays' names after ``prefix``."""
        scalars = {
            "baselines": [ensemble.baseline for ensemble in self.ensembles],
            "words": list(self.lexicon.words),
            "min_pages": self.lexicon.min_pages,
        }
        arrays = {f"{prefix}counts": self.lexicon.counts, f"{prefix}pages": self.lexicon.pages}
        for kind, ensemble in zip(PAGE_TYPES, self.ensembles):
            arrays.update(ensemble.arrays(f"{prefix}{kind}_"))
        return scalars, arrays

    @classmethod
    def from_data(cls, scalars: Mapping[str, Any], arrays: Mapping[str, np.ndarray], prefix: str = "type_") -> PageTypeModel:
        """From :meth:`to_data`'s scalars and arrays, checked."""
        baselines = list(scalars["baselines"])
        words = tuple(str(word) for word in scalars["words"])
        counts = np.asarray(arrays[f"{prefix}counts"], dtype=np.int64)
        pages = np.asarray(arrays[f"{prefix}pages"], dtype=np.int64)
        if len(baselines) != len(PAGE_TYPES) or counts.shape != (len(words), len(PAGE_TYPES)) or pages.shape != (len(PAGE_TYPES),):
            raise ValueError("the page type model's arrays do not match its types and words")
        width = len(SIGNAL_NAMES) + len(PAGE_TYPES)
        ensembles = tuple(
            TreeEnsemble.from_data(baseline, arrays, width, prefix=f"{prefix}{kind}_") for kind, baseline in zip(PAGE_TYPES, baselines)
        )
        return cls(TypeLexicon(words, counts, pages, int(scalars["min_pages"])), ensembles)


def fit_page_types(
    signals: np.ndarray,
    found: Sequence[Sequence[str]],
    labels: Sequence[str],
    sites: Sequence[str],
    settings: PageTypeConfig,
    random_state: int = 0,
) -> PageTypeModel:
    """The page type model of pages: their signals (rows of SIGNAL_NAMES), type_words,
    types and sites. Each type weighs alike. The lexicon scores the trees are fitted on
    leave each page's own site out of the counts, as a page of a new site meets them."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    unknown = set(labels) - set(PAGE_TYPES)
    if unknown:
        raise ValueError(f"unknown page types {sorted(unknown)}: choose among {PAGE_TYPES}")
    y = np.asarray([PAGE_TYPES.index(label) for label in labels], dtype=np.int64)
    if len(set(y.tolist())) < 3:
        raise ValueError("a page type model needs pages of three types or more")
    lexicon = TypeLexicon.count(found, y.tolist(), settings.min_pages)
    per_site: dict[str, list[int]] = {}
    for i, site in enumerate(sites):
        per_site.setdefault(site, []).append(i)
    rows = np.zeros((len(y), len(PAGE_TYPES)))
    index = lexicon._index
    for members in per_site.values():
        own = TypeLexicon.count([found[i] for i in members], y[members].tolist(), 1)
        own_counts = np.zeros_like(lexicon.counts)
        shared = [k for k, word in enumerate(own.words) if word in index]
        own_counts[[index[own.words[k]] for k in shared]] = own.counts[shared]
        for i in members:
            rows[i] = lexicon.scores(found[i], own_counts, own.pages)
    X = np.hstack([np.asarray(signals, dtype=np.float64), rows])
    share = np.bincount(y, minlength=len(PAGE_TYPES)).astype(np.float64)
    weight = len(y) / (len(set(y.tolist())) * share[y])
    model = HistGradientBoostingClassifier(
        max_iter=settings.trees, max_leaf_nodes=15, max_depth=4, learning_rate=0.1, l2_regularization=1.0,
        random_state=random_state, early_stopping=False,
    )  # fmt: skip
    model.fit(X, y, sample_weight=weight)
    present = [int(k) for k in model.classes_]
    ensembles = tuple(
        TreeEnsemble.from_sklearn(model, column=present.index(k)) if k in present else _never(X.shape[1]) for k in range(len(PAGE_TYPES))
    )
    return PageTypeModel(lexicon, ensembles)


def train_page_types(
    labels: Sequence[str], signals: Sequence[Sequence[float]], found: Sequence[Sequence[str]], sites: Sequence[str], config: Config
) -> PageTypeModel | None:
    """The page type model of training pages (their types, "" where a page names none;
    signals; type_words; sites), or None where ``config.page_type`` trains none or the
    pages show fewer than three types. A page that names no type is of type
    ``page_type.unlabelled``, or left out where that is empty."""
    settings = config.page_type
    if not settings.trees:
        return None
    chosen = [i for i, label in enumerate(labels) if (label or settings.unlabelled) and len(signals[i])]
    named = [labels[i] or settings.unlabelled for i in chosen]
    if len(set(named)) < 3:
        return None
    return fit_page_types(
        np.asarray([signals[i] for i in chosen], dtype=np.float64),
        [found[i] for i in chosen], named, [sites[i] for i in chosen], settings, config.classifier.random_state,
    )  # fmt: skip


def _never(width: int) -> TreeEnsemble:
    """The trees of a type no training page showed: a score that never wins."""
    one = np.zeros(1, dtype=np.intp)
    return TreeEnsemble(
        feature=one, threshold=np.full(1, np.inf), left=one, right=one, value=np.zeros(1), roots=one, baseline=-1e9, width=width
    )
