"""Scores of an extracted text against a gold text (``shared/data/README.md``, Scoring).

Three measures, each in the form in which other people report it, so that our
numbers can be put next to theirs:

- **Token F1** (:func:`token_prf`): NFKC, lowercase, one token per CJK character and
  per other run of word characters; precision and recall over token *multisets*;
  F1 per page, then the plain mean over pages.
- **Shingle F1** (:func:`shingle_counts`, :func:`shingle_prf`): the ScrapingHub
  article-extraction-benchmark's measure (its ``evaluate.py``): 4-token shingles with
  case kept; precision and recall per page; each averaged over the pages where it is
  defined; F1 of the two averages.
- **Snippet P/R/F1** (:func:`snippet_counts`, :func:`snippet_prf`) for the
  ``snippets`` pages of the trafilatura set: a ``with`` snippet found in the output is
  a true positive, one not found a false negative; a ``without`` snippet found is a
  false positive. As trafilatura's own evaluation does, the counts are summed over the
  corpus before P/R/F1 are computed (micro average).

:class:`Scoreboard` gathers per-page :class:`PageScore` values and summarises them per
set (``source``) and per language. Nothing here imports an extractor or a parser: the
scores must not depend on the code that they judge.
"""

from __future__ import annotations

import re
import statistics
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from webclean.text import normalise_space
from webclean.tokenize import nfkc

if TYPE_CHECKING:  # only for the annotation: metrics must not need the dataset code
    from webclean.datasets import Page

# Characters that are one token each (the data README's "every CJK character").
# Chinese and Japanese are written without spaces, so a \w+ run of them is a phrase
# or a sentence, not a word; one token per character needs no segmenter, whose own
# errors would otherwise enter the score. Hangul syllables count as CJK too,
# although Korean puts spaces between words: Korean pages score on syllables.
# Not included: CJK punctuation (not word characters), Bopomofo, Yi, and Kanbun.
CJK_RANGES: tuple[tuple[int, int], ...] = (
    (0x3005, 0x3007),  # 々 〆 〇: iteration mark, closing mark, ideographic zero
    (0x3040, 0x309F),  # Hiragana
    (0x30A0, 0x30FF),  # Katakana (half-width forms become these under NFKC)
    (0x31F0, 0x31FF),  # Katakana Phonetic Extensions
    (0x3400, 0x4DBF),  # CJK Unified Ideographs Extension A
    (0x4E00, 0x9FFF),  # CJK Unified Ideographs
    (0xAC00, 0xD7AF),  # Hangul Syllables
    (0xF900, 0xFAFF),  # CJK Compatibility Ideographs (kept for un-normalised text)
    (0x20000, 0x2EBEF),  # Extensions B to F (rare characters, names, old texts)
    (0x30000, 0x3134F),  # Extension G
)

_CJK_CLASS = "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in CJK_RANGES)
# A CJK character that is also a word character (the lookahead drops the
# punctuation that shares the blocks, such as ・ U+30FB), or a run of other word
# characters.
_TOKEN_RE = re.compile(rf"(?:(?=\w)[{_CJK_CLASS}])|[^\W{_CJK_CLASS}]+")

SHINGLE_SIZE = 4


@dataclass(frozen=True)
class PRF:
    """Precision, recall and their harmonic mean."""

    precision: float
    recall: float
    f1: float

    @classmethod
    def from_pr(cls, precision: float, recall: float) -> PRF:
        total = precision + recall
        return cls(precision, recall, 2 * precision * recall / total if total else 0.0)


# --- token F1 ----------------------------------------------------------------


def is_cjk(char: str) -> bool:
    """True for a character that :func:`tokens` makes a token on its own."""
    code = ord(char)
    return any(lo <= code <= hi for lo, hi in CJK_RANGES)


def _split(text: str) -> list[str]:
    return _TOKEN_RE.findall(text)


def tokens(text: str) -> list[str]:
    """Tokens for token F1: NFKC, lowercase, CJK characters one by one, other words whole.

    NFKC first so that full-width Latin letters and digits, common on Chinese pages,
    match their ASCII forms in the gold text.
    """
    return _split(nfkc(text).lower())


def token_prf(output: str, gold: str) -> PRF:
    """Precision, recall and F1 of the output's tokens against the gold's, as multisets.

    A repeated paragraph counts twice, so an extractor that duplicates text loses
    precision. Both empty: a perfect score (nothing to find, nothing wrongly found);
    only one empty: zero.
    """
    out, ref = Counter(tokens(output)), Counter(tokens(gold))
    if not out and not ref:
        return PRF(1.0, 1.0, 1.0)
    if not out or not ref:
        return PRF(0.0, 0.0, 0.0)
    common = sum((out & ref).values())
    return PRF.from_pr(common / sum(out.values()), common / sum(ref.values()))


# --- shingle F1 (ScrapingHub article-extraction-benchmark) -------------------


def shingle_tokens(text: str) -> list[str]:
    """Tokens for shingle F1: the benchmark's ``re.findall(r'\\w+', text)``, case kept.

    Departure: the benchmark would make a whole run of Chinese characters (often a
    whole sentence) one token, so a page would have a handful of shingles and one
    changed character would spoil a sentence. Here CJK characters are one token
    each, as in :func:`tokens`; on text without CJK the tokens are the benchmark's.
    No NFKC and no lowercasing, as in the benchmark.
    """
    return _split(text)


def shingles(text: str, size: int = SHINGLE_SIZE) -> Counter[str]:
    """The text's shingles (``size`` consecutive tokens joined by a space), with counts.

    As in the benchmark, a text shorter than ``size`` tokens has one shingle, all of
    its tokens; an empty text has none. The benchmark counts shingles as a multiset
    (a ``Counter``), not a set, so a repeated passage counts twice: kept.
    """
    words = shingle_tokens(text)
    grams = (" ".join(words[i : i + size]) for i in range(max(1, len(words) - size + 1)))
    return Counter(gram for gram in grams if gram)


def precision_score(tp: float, fp: float, fn: float) -> float:
    """The benchmark's ``precision_score``: 1 when nothing is wrong either way."""
    if fp == fn == 0:
        return 1.0
    if tp == fp == 0:
        return 0.0
    return tp / (tp + fp)


def recall_score(tp: float, fp: float, fn: float) -> float:
    """The benchmark's ``recall_score``: 1 when nothing is wrong either way."""
    if fp == fn == 0:
        return 1.0
    if tp == fn == 0:
        return 0.0
    return tp / (tp + fn)


class ShingleCounts(NamedTuple):
    """Shingle matches of one page: true positives, false positives, false negatives."""

    tp: int
    fp: int
    fn: int

    @property
    def precision(self) -> float:
        return precision_score(self.tp, self.fp, self.fn)

    @property
    def recall(self) -> float:
        return recall_score(self.tp, self.fp, self.fn)

    @property
    def has_output(self) -> bool:
        """Whether precision enters the corpus mean (the benchmark's ``tp + fp > 0``)."""
        return self.tp + self.fp > 0

    @property
    def has_gold(self) -> bool:
        """Whether recall enters the corpus mean (the benchmark's ``tp + fn > 0``)."""
        return self.tp + self.fn > 0


def shingle_counts(output: str, gold: str, size: int = SHINGLE_SIZE) -> ShingleCounts:
    """Multiset matches between the output's shingles and the gold's.

    The benchmark divides the three counts by their sum so that long articles do not
    weigh more; that leaves precision and recall unchanged, and integers are easier
    to check, so the raw counts are kept.
    """
    out, ref = shingles(output, size), shingles(gold, size)
    tp = sum((out & ref).values())
    return ShingleCounts(tp=tp, fp=sum(out.values()) - tp, fn=sum(ref.values()) - tp)


def shingle_pr(output: str, gold: str) -> tuple[float, float]:
    """Per-page shingle precision and recall (both empty: 1 and 1)."""
    counts = shingle_counts(output, gold)
    return counts.precision, counts.recall


def shingle_prf(pages: Iterable[ShingleCounts]) -> PRF:
    """Corpus shingle score: mean precision, mean recall, F1 of those two means.

    As in the benchmark, precision is averaged only over pages with output shingles
    and recall only over pages with gold shingles: an empty output lowers recall but
    not precision, and a page where both are empty counts in neither. A mean over no
    page is 0 here (the benchmark would raise).
    """
    counts = list(pages)
    precision = _mean(c.precision for c in counts if c.has_output)
    recall = _mean(c.recall for c in counts if c.has_gold)
    return PRF.from_pr(precision, recall)


# --- snippets (trafilatura's evaluation) -------------------------------------


def normalise_snippet(text: str) -> str:
    """NFKC and runs of whitespace made one space, for substring tests.

    Extractors differ in how they lay out text (a newline or a space between inline
    elements, non-breaking spaces), which is not what the snippets test.
    """
    return normalise_space(unicodedata.normalize("NFKC", text))


class SnippetCounts(NamedTuple):
    """Snippet outcomes of one page, or summed over a corpus with :func:`sum_snippets`."""

    tp: int  # ``with`` snippets found
    fn: int  # ``with`` snippets missed
    fp: int  # ``without`` snippets found


def snippet_counts(output: str, with_snippets: Iterable[str], without_snippets: Iterable[str]) -> SnippetCounts:
    """Count the ``with`` snippets found and missed and the ``without`` snippets found.

    A snippet that is empty after normalisation is skipped: it would be "found" in
    any output and so measure nothing (the dev data has none).
    """
    text = normalise_snippet(output)
    wanted = [s for s in map(normalise_snippet, with_snippets) if s]
    unwanted = [s for s in map(normalise_snippet, without_snippets) if s]
    tp = sum(1 for s in wanted if s in text)
    fp = sum(1 for s in unwanted if s in text)
    return SnippetCounts(tp=tp, fn=len(wanted) - tp, fp=fp)


def sum_snippets(pages: Iterable[SnippetCounts]) -> SnippetCounts:
    """Add counts over pages, for the micro average."""
    tp = fn = fp = 0
    for counts in pages:
        tp, fn, fp = tp + counts.tp, fn + counts.fn, fp + counts.fp
    return SnippetCounts(tp, fn, fp)


def snippet_prf(counts: SnippetCounts) -> PRF:
    """P/R/F1 from snippet counts: of one page, or of a corpus after :func:`sum_snippets`.

    trafilatura's evaluation divides by zero where nothing was found; here, as for
    shingles, no error either way scores 1 and no true positive scores 0.
    """
    return PRF.from_pr(
        precision_score(counts.tp, counts.fp, counts.fn), recall_score(counts.tp, counts.fp, counts.fn)
    )


# --- per page and per corpus -------------------------------------------------


@dataclass(frozen=True)
class PageScore:
    """All scores of one output on one page; the measures that do not apply are None."""

    page_id: str
    source: str
    lang: str
    page_type: str = ""
    token: PRF | None = None
    shingle: ShingleCounts | None = None
    snippet: SnippetCounts | None = None

    @property
    def main_f1(self) -> float:
        """The one number to sort pages by: token F1, or snippet F1 on snippet pages."""
        if self.token is not None:
            return self.token.f1
        return snippet_prf(self.snippet).f1 if self.snippet is not None else 0.0


def score_page(output: str, page: Page) -> PageScore:
    """Score an output with the measures that the page's gold supports."""
    base: dict[str, Any] = {"page_id": page.id, "source": page.source, "lang": page.lang, "page_type": page.page_type}
    if page.has_full_gold:
        return PageScore(**base, token=token_prf(output, page.text), shingle=shingle_counts(output, page.text))
    return PageScore(**base, snippet=snippet_counts(output, page.with_snippets, page.without_snippets))


@dataclass(frozen=True)
class Summary:
    """The scores of a group of pages. A measure with no page to stand on is None."""

    pages: int
    token_f1: float | None  # mean of per-page token F1
    shingle: PRF | None  # benchmark aggregation, see shingle_prf
    snippet: PRF | None  # micro average over the summed counts

    @classmethod
    def of(cls, scores: Iterable[PageScore]) -> Summary:
        scores = list(scores)
        token = [s.token.f1 for s in scores if s.token is not None]
        shingle = [s.shingle for s in scores if s.shingle is not None]
        snippet = [s.snippet for s in scores if s.snippet is not None]
        return cls(
            pages=len(scores),
            token_f1=statistics.fmean(token) if token else None,
            shingle=shingle_prf(shingle) if shingle else None,
            snippet=snippet_prf(sum_snippets(snippet)) if snippet else None,
        )


class Scoreboard:
    """Per-page scores of one extractor, summarised overall, per set and per language."""

    def __init__(self) -> None:
        self.scores: list[PageScore] = []

    def add(self, score: PageScore) -> None:
        self.scores.append(score)

    def overall(self) -> Summary:
        return Summary.of(self.scores)

    def by_source(self) -> dict[str, Summary]:
        return self._grouped(lambda s: s.source)

    def by_lang(self) -> dict[str, Summary]:
        return self._grouped(lambda s: s.lang)

    def by_page_type(self) -> dict[str, Summary]:
        """Per page type, for the pages whose set names one."""
        return {kind: summary for kind, summary in self._grouped(lambda s: s.page_type).items() if kind}

    def _grouped(self, key: Callable[[PageScore], str]) -> dict[str, Summary]:
        groups: dict[str, list[PageScore]] = defaultdict(list)
        for score in self.scores:
            groups[key(score)].append(score)
        return {name: Summary.of(group) for name, group in sorted(groups.items())}


def _mean(values: Iterable[float]) -> float:
    values = list(values)
    return statistics.fmean(values) if values else 0.0
