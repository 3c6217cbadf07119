"""The training job (jobs/train.py): webclean.training's stages with the per-page work in executors.

Pages are read, parsed, located and labelled in executors (training.label_page) and
kept cached for the three passes over them: the word count of n_i and h_i, the labels,
and the feature rows of the sample. The driver builds the lexicon, draws the sample and
fits the SVM with the library's own functions. A page is keyed by (input file index,
line number), the order in which datasets.read_pages reads it, so that the driver draws
exactly the sample that `webclean train` draws and the two give the same model for the
same input. The lexicon job (webclean.spark.lexicon_job) labels and counts the same way.
"""

from __future__ import annotations

import logging
import math
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import NamedTuple

import numpy as np
from pyspark import RDD, Broadcast, StorageLevel
from pyspark.sql import SparkSession

from webclean.confidence import ConfidenceModel
from webclean.config import Config
from webclean.datasets import Page
from webclean.features import feature_matrix
from webclean.lexicon import (
    LineCounts,
    NoiseLexicon,
    TermCounts,
    build_lexicon,
    is_stopword_candidate,
    line_keys,
)
from webclean.model import Model
from webclean.registry import classifier_spec
from webclean.spark.inputs import InputFile
from webclean.splits import site_of
from webclean.tokenize import special_marks, words
from webclean.training import (
    CONTENT,
    MIXED,
    NOISE,
    LabelledPage,
    TrainReport,
    choose_sample,
    confidence_row,
    fit_held_out,
    fit_sample,
    label_page,
    page_type_stage,
    sample_keys,
    site_fold,
    training_units,
    uses_confidence,
    with_metadata,
    with_page_rows,
    with_page_types,
    without_confidence,
)
from webclean.training_input import InputReport, check_file, file_pages, judge_input

# The glue logs under one name, whichever of its modules speaks.
log = logging.getLogger("webclean.spark")

PageKey = tuple[int, int]
WORD, MARK = "word", "mark"
# Reading a page costs far less than parsing and locating it, so the pages are spread
# over at least two slices per core, and more for large inputs (compressed bytes).
TRAIN_SLICE_BYTES = 8 << 20


def check_training_input(spark: SparkSession, files: Sequence[InputFile], max_rejected_share: float = 0.0) -> InputReport:
    """Every row of ``files`` checked against the schema (webclean.training_input), a file a task,
    before any page is parsed; DataError, in one line, past ``max_rejected_share``."""
    paths = [f.path for f in files]
    checks = spark.sparkContext.parallelize(paths, len(paths)).map(check_file).collect()
    report = judge_input(checks, max_rejected_share)
    if report.rejected:
        log.warning("%s", report.describe())
    return report


def read_training_file(index: int, path: str) -> Iterator[tuple[PageKey, Page]]:
    """The pages of one JSON Lines file of pages with gold, as ``webclean train`` reads
    them; the rows that check_training_input rejected (and counted) are left out."""
    for number, page in file_pages(path):
        yield (index, number), page


def labelled_pages(spark: SparkSession, files: Sequence[InputFile], config: Config) -> RDD:
    """(PageKey, LabelledPage) for every page of ``files``, labelled in executors."""
    sc = spark.sparkContext
    indexed = [(i, f.path) for i, f in enumerate(files)]
    slices = max(2 * sc.defaultParallelism, math.ceil(sum(f.size for f in files) / TRAIN_SLICE_BYTES))
    log.info("labelling the pages of %d files in %d slices", len(files), slices)
    return (
        sc.parallelize(indexed, len(indexed))
        .flatMap(lambda item: read_training_file(*item))
        .repartition(slices)
        .mapValues(partial(label_page, config=config))
    )


def _unit_terms(page: LabelledPage) -> Iterator[tuple[tuple[str, str], tuple[int, int]]]:
    """((kind, term), (n, h)) for each word and mark of each content or noise unit."""
    for item in page.units:
        if item.label == MIXED:
            continue
        noise = item.label == NOISE
        text = item.unit.text
        for kind, counts in ((WORD, Counter(words(text))), (MARK, special_marks(text))):
            for term, count in counts.items():
                yield (kind, term), ((count, 0) if noise else (0, count))


def _add_pairs(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    return a[0] + b[0], a[1] + b[1]


def _line_terms(page: LabelledPage, key_tokens: int) -> Iterator[tuple[tuple[str, str], tuple[int, int]]]:
    """((line key, site), (n, h)) for each key (of ``key_tokens``) of each content or noise unit."""
    site = page.site or page.page_id
    for item in page.units:
        if item.label == MIXED:
            continue
        pair = (1, 0) if item.label == NOISE else (0, 1)
        for key in line_keys(item.unit.text, key_tokens):
            yield (key, site), pair


def _key_sites(item: tuple[tuple[str, str], tuple[int, int]]) -> tuple[str, tuple[int, int, int]]:
    (key, _), (n, h) = item
    return key, (n, h, int(n > 0))


def _add_triples(a: tuple[int, int, int], b: tuple[int, int, int]) -> tuple[int, int, int]:
    return a[0] + b[0], a[1] + b[1], a[2] + b[2]


def line_counts(labelled: RDD, key_tokens: int) -> LineCounts:
    """The line lexicon's counts by two word counts, over (key, site) then key; the
    keys never seen in noise, which cannot enter it, stay in the executors. The line
    lexicon built from them is training.count_lines's."""
    terms = partial(_line_terms, key_tokens=key_tokens)
    per_key = labelled.values().flatMap(terms).reduceByKey(_add_pairs).map(_key_sites).reduceByKey(_add_triples)
    counts = LineCounts(key_tokens=key_tokens)
    for key, (n, h, sites) in per_key.filter(lambda item: item[1][0] > 0).collect():
        counts.noise[key], counts.noise_sites[key] = n, sites
        if h:
            counts.content[key] = h
    return counts


def page_lexicon(labelled: RDD, config: Config) -> NoiseLexicon:
    """The noise lexicon of the labelled pages, the line lexicon with it (method svm)."""
    lines = line_counts(labelled, config.lexicon.line_key_tokens) if classifier_spec(config.method).lines else None
    return build_lexicon(term_counts(labelled, stopwords=config.lexicon.stopwords), config.lexicon, lines)


def _may_be_stopword(item: tuple[tuple[str, str], tuple[int, int]]) -> bool:
    (kind, term), (n, h) = item
    return kind == WORD and is_stopword_candidate(term, n, h)


def _by_content_count(item: tuple[tuple[str, str], tuple[int, int]]) -> tuple[int, str]:
    return -item[1][1], item[0][1]


def term_counts(labelled: RDD, *, prune: bool = True, stopwords: int = 0) -> TermCounts:
    """n_i and h_i by a word count over (kind, term); equal to training.count_terms.

    With ``prune``, terms never seen in noise stay in the executors: their p_i is 0, so
    they cannot enter the lexicon, and they are most of a vocabulary; but the
    ``stopwords`` most frequent words of main text that can be stop words come back
    with them. The lexicon built from pruned counts is the same.
    """
    pairs = labelled.values().flatMap(_unit_terms).reduceByKey(_add_pairs)
    if prune:
        pairs = pairs.persist(StorageLevel.MEMORY_AND_DISK)
        frequent = pairs.filter(_may_be_stopword).takeOrdered(stopwords, key=_by_content_count) if stopwords else []
        collected = pairs.filter(lambda item: item[1][0] > 0).collect()
        pairs.unpersist()
        found = {term for term, _ in collected}
        collected += [item for item in frequent if item[0] not in found]
    else:
        collected = pairs.collect()
    counts = TermCounts()
    for (kind, term), (n, h) in collected:
        if kind == WORD:
            noise, content = counts.noise_words, counts.content_words
        else:
            noise, content = counts.noise_marks, counts.content_marks
        if n:
            noise[term] = n
        if h:
            content[term] = h
    return counts


@dataclass(frozen=True)
class LabelIndex:
    """The label of every unit in read order, and where each page's units start in it."""

    keys: list[PageKey]
    starts: np.ndarray  # starts[i]: position of page i's first unit in ``labels``
    labels: np.ndarray
    pages_with_block: int
    sources: list[str] = field(default_factory=list)  # of each page
    langs: list[str] = field(default_factory=list)  # of each page
    sites: list[str] = field(default_factory=list)  # of each page (the second stage's folds)
    draws: np.ndarray | None = None  # each unit's sample key (training.sample_keys), in read order
    # Of each page, what the page type model learns (training.LabelledPage).
    page_types: list[str] = field(default_factory=list)
    type_signals: list[tuple[float, ...]] = field(default_factory=list)
    type_words: list[tuple[str, ...]] = field(default_factory=list)

    def unit_pages(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Each unit's page (its number in read order), the page's source, language and site."""
        sizes = np.diff(np.append(self.starts, len(self.labels)))
        numbers = np.repeat(np.arange(len(self.keys)), sizes)
        sources, langs, sites = (np.asarray(values, dtype=object)[numbers] for values in (self.sources, self.langs, self.sites))
        return numbers, sources, langs, sites

    def locate(self, chosen: np.ndarray) -> dict[PageKey, list[tuple[int, int]]]:
        """For each page with units in ``chosen``: (unit within the page, row in the sample)."""
        pages = np.searchsorted(self.starts, chosen, side="right") - 1
        picks: dict[PageKey, list[tuple[int, int]]] = {}
        for row, (unit, page) in enumerate(zip(chosen, pages)):
            picks.setdefault(self.keys[page], []).append((int(unit - self.starts[page]), row))
        return picks

    def report(self) -> TrainReport:
        labels = self.labels
        return TrainReport(
            pages=len(self.keys),
            pages_with_block=self.pages_with_block,
            content_units=int((labels == CONTENT).sum()),
            noise_units=int((labels == NOISE).sum()),
            mixed_units=int((labels == MIXED).sum()),
        )


class _PageLabels(NamedTuple):
    """What the driver collects of one labelled page (label_index)."""

    key: PageKey
    block_found: bool
    labels: bytes  # one int8 per unit
    source: str
    lang: str
    draws: bytes  # one float64 per unit: its sample key
    site: str
    page_type: str
    type_signals: tuple[float, ...]
    type_words: tuple[str, ...]


def _page_labels(item: tuple[PageKey, LabelledPage], config: Config) -> _PageLabels:
    key, page = item
    labels = np.asarray([u.label for u in page.units], dtype=np.int8).tobytes()
    draws = sample_keys(page, config).tobytes()
    return _PageLabels(
        key, page.block_found, labels, page.source, page.lang, draws, page.site or page.page_id,
        page.page_type, page.type_signals, page.type_words,
    )  # fmt: skip


def label_index(labelled: RDD, config: Config) -> LabelIndex:
    """Collect one byte per unit and its sample key: the driver draws the sample from
    all the labels, as train does."""
    rows = sorted(labelled.map(partial(_page_labels, config=config)).collect(), key=lambda row: row.key)
    per_page = [np.frombuffer(row.labels, dtype=np.int8) for row in rows]
    sizes = np.asarray([len(p) for p in per_page], dtype=np.int64)
    draws = [np.frombuffer(row.draws, dtype=np.float64) for row in rows]
    return LabelIndex(
        keys=[row.key for row in rows],
        starts=np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64) if rows else np.zeros(0, np.int64),
        labels=np.concatenate(per_page).astype(np.int64) if per_page else np.zeros(0, np.int64),
        pages_with_block=sum(row.block_found for row in rows),
        sources=[row.source for row in rows],
        langs=[row.lang for row in rows],
        sites=[row.site for row in rows],
        draws=np.concatenate(draws) if draws else np.zeros(0),
        page_types=[row.page_type for row in rows],
        type_signals=[row.type_signals for row in rows],
        type_words=[row.type_words for row in rows],
    )


def _sample_rows(
    item: tuple[PageKey, LabelledPage], shared: Broadcast, feature_set: str
) -> list[tuple[int, list[float]]]:
    picks, lexicon = shared.value
    key, page = item
    chosen = picks.get(key)
    if not chosen:
        return []
    X = feature_matrix([page.units[unit].unit for unit, _ in chosen], lexicon, feature_set)
    return [(row, list(values)) for (_, row), values in zip(chosen, X.tolist())]


def sample_matrix(
    labelled: RDD, index: LabelIndex, chosen: np.ndarray, lexicon: NoiseLexicon, feature_set: str
) -> np.ndarray:
    """The feature rows of the sample ``chosen``, computed in executors, in sample order."""
    shared = labelled.context.broadcast((index.locate(chosen), lexicon))
    try:
        rows = labelled.flatMap(partial(_sample_rows, shared=shared, feature_set=feature_set)).collect()
    finally:
        shared.unpersist()
    if len(rows) != len(chosen):
        raise RuntimeError(f"the executors returned {len(rows)} sample rows for {len(chosen)} chosen units")
    return np.asarray([values for _, values in sorted(rows, key=lambda row: row[0])], dtype=np.float64)


def fit_on_spark(labelled: RDD, lexicon: NoiseLexicon, config: Config) -> tuple[Model, TrainReport]:
    """training.fit_on_units with the feature rows computed in executors."""
    index = label_index(labelled, config)
    pages, sets, langs, sites = index.unit_pages()
    chosen = choose_sample(index.labels, config, pages, sets, index.draws, langs=langs)
    units = training_units(index.labels, chosen, config)
    page_types, page_rows = page_type_stage(index.page_types, index.type_signals, index.type_words, index.sites, config)
    X = with_page_rows(sample_matrix(labelled, index, units, lexicon, classifier_spec(config.method).feature_set), page_rows, pages, units)
    log.info("train: %d units labelled, features of %d, the SVM on %d", len(index.labels), len(units), len(chosen))
    model, report = fit_sample(
        X, index.labels, chosen, lexicon, config, index.report(), units, pages, sets, index.draws, langs=langs, sites=sites
    )
    return with_page_types(model, report, page_types), report


def train_on_spark(
    spark: SparkSession, files: Sequence[InputFile], config: Config, sources: Sequence[str] = ()
) -> tuple[Model, TrainReport]:
    """training.train on a cluster: the same model for the same pages, with the same metadata."""
    labelled = labelled_pages(spark, files, config).persist(StorageLevel.MEMORY_AND_DISK)
    try:
        model, report = _fit_all(labelled, config)
        if uses_confidence(config):
            confidence = confidence_on_spark(spark, files, labelled, config)
            report.confidence_pages = 0 if confidence is None else confidence[1]
            model = replace(model, confidence=None if confidence is None else confidence[0])
    finally:
        labelled.unpersist()
    return with_metadata(model, report, sources), report


def _fit_all(labelled: RDD, config: Config) -> tuple[Model, TrainReport]:
    lexicon = page_lexicon(labelled, config)
    log.info("train: lexicon of %d words, %d marks and %d line keys", len(lexicon.words), len(lexicon.marks), len(lexicon.lines))
    return fit_on_spark(labelled, lexicon, config)


def _fold(item: tuple[PageKey, LabelledPage], folds: int) -> int:
    page = item[1]
    return site_fold(page.site or page.page_id, folds)


def _outside(item: tuple[PageKey, LabelledPage], fold: int, folds: int) -> bool:
    return _fold(item, folds) != fold


def _has_units(item: tuple[PageKey, LabelledPage]) -> bool:
    return bool(item[1].units)


def confidence_on_spark(
    spark: SparkSession, files: Sequence[InputFile], labelled: RDD, config: Config
) -> tuple[ConfidenceModel, int] | None:
    """training.confidence_stage on a cluster: each fold's model fitted as the model is,
    the held-out extractions made and scored in executors, the trees fitted on the driver."""
    folds, quiet = config.confidence.folds, without_confidence(config)
    if labelled.count() < config.confidence.min_pages:  # as train: too few pages to fold
        return None
    models = {}
    for k in sorted(labelled.map(partial(_fold, folds=folds)).distinct().collect()):
        rest = labelled.filter(partial(_outside, fold=k, folds=folds))
        if not rest.filter(_has_units).isEmpty():
            log.info("train: the model without fold %d of %d, for the confidence model", k, folds)
            models[k] = _fit_all(rest, quiet)[0]
    shared = spark.sparkContext.broadcast(models)
    try:
        indexed = [(i, f.path) for i, f in enumerate(files)]
        rows = (
            spark.sparkContext.parallelize(indexed, len(indexed))
            .flatMap(lambda item: read_training_file(*item))
            .map(partial(_held_out_row, shared=shared, config=config))
            .collect()
        )
    finally:
        shared.unpersist()
    return fit_held_out((row for _, row in sorted(rows, key=lambda item: item[0])), config)


def _held_out_row(
    item: tuple[PageKey, Page], shared: Broadcast, config: Config
) -> tuple[PageKey, tuple[np.ndarray, float, str] | None]:
    key, page = item
    model = shared.value.get(site_fold(site_of(page), config.confidence.folds))
    return key, None if model is None else confidence_row(page, model, config)
