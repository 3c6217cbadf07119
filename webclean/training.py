"""Training from pages with a gold main text (method.md, Step 3).

Each page's block is located as at extraction time; each of its ``<p>``/``<a>``
units is labelled against the gold text (webclean/gold.py): content, noise, or mixed
and left out. Words and marks are counted per label (n_i, h_i), the lexicon is built
from the counts, the classes are sampled (webclean/sampling.py: balanced 1:1 for method
paper, in their own proportion and by page and language for svm), and the SVM is fitted
(C and γ by k-fold cross-validation for paper; boosted trees beside it for svm).

Every stage is a plain function over values, so the Spark training job runs the
per-page stages in executors and the rest on the driver.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from lxml import etree

from webclean.classifier import CONTENT, NOISE, SVMParams, TagClassifier, TreeEnsemble, fit_trees
from webclean.confidence import ConfidenceModel, fit_confidence
from webclean.config import PAGE_TYPES, Config, ConfigError, LexiconConfig
from webclean.datasets import DataError, Page
from webclean.extract import classify_page, locate_units, page_confidence_signals, page_lines
from webclean.features import FEATURE_WIDTHS, SVM_WIDTHS, feature_matrix
from webclean.gold import MIXED, GoldMatcher
from webclean.lexicon import LineCounts, NoiseLexicon, TermCounts, build_lexicon
from webclean.metrics import token_prf
from webclean.model import Model
from webclean.page_type import PageTypeModel, page_signals, train_page_types, type_words
from webclean.parse import ParseError, page_title, parse_html
from webclean.registry import classifier_spec, method
from webclean.result import Extraction
from webclean.sampling import (
    TrainReport,
    balanced_sample,
    held_out_rows,
    keyed_sample,
    language_shares,
    page_weights,
    unit_keys,
)
from webclean.second_stage import stage_rows
from webclean.splits import site_of
from webclean.tokenize import special_marks, words
from webclean.units import Unit


@dataclass(frozen=True)
class LabelledUnit:
    unit: Unit
    label: int  # CONTENT, NOISE or MIXED


@dataclass(frozen=True)
class LabelledPage:
    page_id: str
    block_found: bool
    units: tuple[LabelledUnit, ...]
    source: str = ""  # the page's set: the sample keeps each set's share (choose_sample)
    site: str = ""  # the page's site (splits.site_of): the line lexicon counts sites
    lang: str = ""  # the page's language: the sample weighs languages (choose_sample)
    # What the page type model learns of the page (page_type.py): its type ("" where it
    # names none), signals and type words; empty where the method has no lines.
    page_type: str = ""
    type_signals: tuple[float, ...] = ()
    type_words: tuple[str, ...] = ()


def label_page(page: Page, config: Config) -> LabelledPage:
    """Locate the block of a training page and label its units."""
    site, lang = site_of(page), page.lang or ""
    try:
        root = parse_html(page.html, max_depth=config.limits.max_depth, settings=config.parse)
    except (ParseError, etree.LxmlError):
        return LabelledPage(page.id, False, (), page.source, site, lang)
    found = LabelledPage(page.id, False, (), page.source, site, lang)
    lines = page_lines(root, config) if classifier_spec(config.method).lines else None
    if lines is not None:
        signals = page_signals(root, page.html, page.url, lines, config)
        found = replace(
            found, page_type=page.page_type, type_signals=tuple(signals.tolist()), type_words=type_words(page.url, page_title(root))
        )
    block, units = locate_units(root, config, lines)
    if block is None:
        return found
    matcher = GoldMatcher(page, config.weak, config.gold)
    return replace(found, block_found=True, units=tuple(LabelledUnit(u, matcher.label(u.text)) for u in units if u.is_sample))


def count_lines(pages: Iterable[LabelledPage], key_tokens: int = LexiconConfig.line_key_tokens) -> LineCounts:
    """The line lexicon's counts (lexicon.LineCounts, keys of ``key_tokens``) over
    labelled pages, a site at a time."""
    by_site: dict[str, tuple[list[str], list[str]]] = {}
    for page in pages:
        noise, content = by_site.setdefault(page.site or page.page_id, ([], []))
        for item in page.units:
            if item.label != MIXED:
                (noise if item.label == NOISE else content).append(item.unit.text)
    counts = LineCounts(key_tokens=key_tokens)
    for site in sorted(by_site):
        counts.add_site(*by_site[site])
    return counts


def count_terms(units: Iterable[LabelledUnit]) -> TermCounts:
    """n_i and h_i over the labelled units (mixed ones are not evidence)."""
    counts = TermCounts()
    for item in units:
        if item.label != MIXED:
            counts.add(words(item.unit.text), special_marks(item.unit.text), is_noise=item.label == NOISE)
    return counts


def is_balanced(config: Config) -> bool:
    balance = config.classifier.class_balance
    return balance == "balanced" or (balance == "auto" and classifier_spec(config.method).balanced)


def searches_grid(config: Config) -> bool:
    search = config.classifier.search
    return search == "grid" or (search == "auto" and classifier_spec(config.method).grid_search)


def fit_classifier(X: np.ndarray, y: np.ndarray, config: Config) -> TagClassifier:
    c = config.classifier
    grid = searches_grid(config)
    return TagClassifier(
        kernel=c.kernel,
        c_grid=c.c_grid if grid else (c.fixed_c,),
        gamma_grid=c.gamma_grid if grid else (c.fixed_gamma,),
        folds=c.folds,
        random_state=c.random_state,
        class_weight="balanced" if is_balanced(config) else None,
    ).fit(X, y)


def train(
    pages: Iterable[Page], config: Config, *, sources: Sequence[str] = (), again: Callable[[], Iterable[Page]] | None = None
) -> tuple[Model | Any, TrainReport]:
    """Train a model of the configured method on pages with a gold text; deterministic
    for a fixed random_state. A method with its own steps trains as it says.

    The confidence model (:func:`confidence_stage`) reads the pages a second time:
    ``again`` gives them once more, in the same order; without it they are kept in memory.
    """
    spec = method(config.method)
    if spec.classifier is not None:
        if not uses_confidence(config):
            return train_labelled((label_page(page, config) for page in pages), config, sources=sources)
        if again is None:
            kept = list(pages)
            pages, again = kept, lambda: kept
        labelled = [label_page(page, config) for page in pages]
        model, report = train_labelled(labelled, config, sources=sources)
        if len(labelled) < config.confidence.min_pages:
            return model, report
        confidence = confidence_stage(labelled, confidence_fold_models(labelled, config), again(), config)
        report.confidence_pages = 0 if confidence is None else confidence[1]
        return with_metadata(replace(model, confidence=None if confidence is None else confidence[0]), report, sources), report
    if spec.train is None:
        raise ConfigError(f"method {spec.name} has no model to train")
    return spec.train(pages, config, sources)


def train_labelled(
    pages: Iterable[LabelledPage], config: Config, *, sources: Sequence[str] = ()
) -> tuple[Model, TrainReport]:
    """:func:`train` on pages already labelled by :func:`label_page` with the same
    ``config``: held-out evaluation labels each page once and trains many models."""
    report = TrainReport()
    labelled: list[LabelledUnit] = []
    pages_of: list[int] = []
    sets: list[str] = []
    langs: list[str] = []
    sites: list[str] = []
    drawn_by: list[np.ndarray] = []  # each page's sample keys
    read: list[LabelledPage] = []
    for number, result in enumerate(pages):
        report.pages += 1
        report.pages_with_block += result.block_found
        read.append(result)
        labelled.extend(result.units)
        pages_of.extend([number] * len(result.units))
        sets.extend([result.source] * len(result.units))
        langs.extend([result.lang] * len(result.units))
        sites.extend([result.site or result.page_id] * len(result.units))
        drawn_by.append(sample_keys(result, config))
    lines = count_lines(read, config.lexicon.line_key_tokens) if classifier_spec(config.method).lines else None
    lexicon = build_lexicon(count_terms(labelled), config.lexicon, lines)
    keys = np.concatenate(drawn_by) if drawn_by else np.zeros(0)
    types = [page.page_type for page in read], [page.type_signals for page in read], [page.type_words for page in read]
    page_types, page_rows = page_type_stage(*types, [page.site or page.page_id for page in read], config)
    model, report = fit_on_units(
        labelled, lexicon, config, report, np.asarray(pages_of), np.asarray(sets), keys, langs=np.asarray(langs),
        sites=np.asarray(sites), page_rows=page_rows,
    )  # fmt: skip
    return with_metadata(with_page_types(model, report, page_types), report, sources), report


def uses_confidence(config: Config) -> bool:
    return classifier_spec(config.method).lines and config.confidence.trees > 0


def confidence_folds(labelled: Sequence[LabelledPage], config: Config) -> np.ndarray:
    """Each training page's fold for the confidence model's held-out extractions: folds
    of whole sites (:func:`site_folds`)."""
    sites = np.asarray([page.site or page.page_id for page in labelled], dtype=object)
    return site_folds(np.arange(len(labelled)), None, sites, config.confidence.folds)


def without_confidence(config: Config) -> Config:
    """The configuration of the models whose extractions the confidence model learns from."""
    return replace(config, confidence=replace(config.confidence, trees=0))


def confidence_fold_models(labelled: Sequence[LabelledPage], config: Config) -> dict[int, Model]:
    """For each fold of :func:`confidence_folds` that holds pages, the model trained on
    the pages of the other folds (without a confidence model of its own)."""
    fold = confidence_folds(labelled, config)
    quiet = without_confidence(config)
    models = {}
    for k in sorted(set(fold.tolist())):
        rest = [page for page, f in zip(labelled, fold) if f != k]
        if any(page.units for page in rest):
            models[k] = train_labelled(rest, quiet)[0]
    return models


def confidence_row(page: Page, model: Model, config: Config) -> tuple[np.ndarray, float, str] | None:
    """A held-out extraction of a training page: its row of confidence.SIGNAL_NAMES, its
    token F1 against the gold and the page's set (its collection, confidence.fit_confidence);
    None for a page whose gold is not its whole main text (snippets: no token F1 to
    learn) and for a page that fails before Step 1."""
    if not page.has_full_gold:
        return None
    classified = classify_page(page.html, config, model, url=page.url)
    if isinstance(classified, Extraction):
        return None
    return page_confidence_signals(classified, config), token_prf(classified.text, page.text).f1, page.source


def confidence_stage(
    labelled: Sequence[LabelledPage], models: Mapping[int, Model], pages: Iterable[Page], config: Config
) -> tuple[ConfidenceModel, int] | None:
    """The confidence model (confidence.py) of the training pages — ``labelled`` and
    ``pages``, the same pages in the same order — fitted on each page's extraction by
    the model of ``models`` trained without its fold (:func:`confidence_fold_models`), with the
    number of extractions it learned from; None where there are too few."""
    fold = confidence_folds(labelled, config)
    found = [confidence_row(page, models[k], config) if k in models else None for page, k in zip(pages, fold.tolist())]
    return fit_held_out(found, config)


def fit_held_out(found: Iterable[tuple[np.ndarray, float, str] | None], config: Config) -> tuple[ConfidenceModel, int] | None:
    """The confidence model of the held-out extractions ``found`` (confidence_row, in
    the pages' order), with their number; None where there are too few."""
    rows = [each for each in found if each is not None]
    if not rows:  # no fold trained a model, or no page has a whole gold
        return None
    X, scores, sets = zip(*rows)
    fitted = fit_confidence(np.asarray(X), np.asarray(scores), config.confidence, config.classifier.random_state, sets)
    return None if fitted is None else (fitted, len(rows))


def page_type_stage(
    labels: Sequence[str], signals: Sequence[Sequence[float]], found: Sequence[Sequence[str]], sites: Sequence[str], config: Config
) -> tuple[PageTypeModel | None, np.ndarray | None]:
    """The page type model of the training pages (page_type.train_page_types), and the
    columns the trees read of each page (:func:`held_out_probabilities`), where
    ``[page_type] features`` says so and the pages train a page type model."""
    page_types = train_page_types(labels, signals, found, sites, config)
    if page_types is None or not config.page_type.features:
        return page_types, None
    return page_types, held_out_probabilities(labels, signals, found, sites, config)


def held_out_probabilities(
    labels: Sequence[str], signals: Sequence[Sequence[float]], found: Sequence[Sequence[str]], sites: Sequence[str], config: Config
) -> np.ndarray:
    """Each training page's type probabilities (a row of PAGE_TYPES' a page) by a page
    type model trained without the fold of whole sites that holds it (``page_type.folds``
    folds of whole sites, :func:`site_folds`), as a page of a new site gets them; a page without
    signals (it did not parse) gets zeros, and the pages of a fold whose others train no
    model (fewer than three types) the probabilities of the model of all pages."""
    rows = np.zeros((len(labels), len(PAGE_TYPES)))
    fold = site_folds(np.arange(len(labels)), None, np.asarray(sites, dtype=object), config.page_type.folds)
    everyone = None
    for k in range(config.page_type.folds):
        held = [i for i in range(len(labels)) if fold[i] == k and len(signals[i])]
        if not held:
            continue
        rest = [i for i in range(len(labels)) if fold[i] != k]
        model = train_page_types(
            [labels[i] for i in rest], [signals[i] for i in rest], [found[i] for i in rest], [sites[i] for i in rest], config
        )
        if model is None:
            everyone = everyone or train_page_types(labels, signals, found, sites, config)
            model = everyone
        if model is not None:
            for i in held:
                rows[i] = model.page_probabilities(np.asarray(signals[i], dtype=np.float64), found[i])
    return rows


def with_page_types(model: Model, report: TrainReport, page_types: PageTypeModel | None) -> Model:
    """The model with its page type model, and the report with the model's words."""
    if page_types is not None:
        report.page_type_words = len(page_types.lexicon.words)
    return replace(model, page_types=page_types)


def sample_keys(page: LabelledPage, config: Config) -> np.ndarray:
    """The keys by which the units of ``page`` are drawn into the sample (sampling.unit_keys)."""
    return unit_keys(page.source, page.page_id, [u.unit.text for u in page.units], config.classifier.random_state)


def fit_on_units(
    labelled: Sequence[LabelledUnit],
    lexicon: NoiseLexicon,
    config: Config,
    report: TrainReport,
    pages: np.ndarray | None = None,
    sets: np.ndarray | None = None,
    keys: np.ndarray | None = None,
    *,
    langs: np.ndarray | None = None,
    sites: np.ndarray | None = None,
    page_rows: np.ndarray | None = None,
) -> tuple[Model, TrainReport]:
    """Balance the labelled units, compute their features, fit the SVM (and the trees,
    and the second stage). ``page_rows``: the columns of each page (by ``pages``) that
    the trees read after a unit's own (page_type_stage)."""
    labels = np.asarray([u.label for u in labelled], dtype=np.int64)
    chosen = choose_sample(labels, config, pages, sets, keys, langs=langs)
    needed = training_units(labels, chosen, config)
    X = feature_matrix([labelled[i].unit for i in needed], lexicon, classifier_spec(config.method).feature_set)
    X = with_page_rows(X, page_rows, pages, needed)
    return fit_sample(X, labels, chosen, lexicon, config, report, needed, pages, sets, keys, langs=langs, sites=sites)


def with_page_rows(X: np.ndarray, page_rows: np.ndarray | None, pages: np.ndarray | None, units: np.ndarray) -> np.ndarray:
    """The rows X of ``units`` with the columns of each unit's page after them, where given."""
    if page_rows is None:
        return X
    if pages is None:
        raise ValueError("the columns of the pages need each unit's page")
    return np.hstack([X, page_rows[pages[units]]])


def _unit_weights(
    labels: np.ndarray, pages: np.ndarray | None, sets: np.ndarray | None, config: Config, langs: np.ndarray | None
) -> np.ndarray | None:
    """Each unit's weight by its page and language (:func:`page_weights`), or None when
    the pages are not given or ``classifier.page_power`` is 0."""
    c = config.classifier
    if pages is None or sets is None or c.page_power <= 0:
        return None
    return page_weights(labels, pages, sets, c.page_power, language_groups(langs, config), c.language_power)


def language_groups(langs: np.ndarray | None, config: Config) -> np.ndarray | None:
    """Each unit's language as the sample weighs it: its page's, if one of
    ``classifier.language_groups``, else "other"."""
    if langs is None:
        return None
    return np.where(np.isin(langs, config.classifier.language_groups), langs, "other")


def choose_sample(
    labels: np.ndarray,
    config: Config,
    pages: np.ndarray | None = None,
    sets: np.ndarray | None = None,
    keys: np.ndarray | None = None,
    *,
    langs: np.ndarray | None = None,
) -> np.ndarray:
    """Sorted indices of the training sample among all ``labels`` (Step 3), fixed by the seed.

    ``pages`` and ``sets`` give each unit's page (any key) and the page's source: with
    them, method svm's sample weighs pages as :func:`page_weights` says. ``keys`` (one
    per unit, :func:`sample_keys`) fix each unit's draw; without them the seed draws them.
    None where the trees alone decide (:func:`trees_alone`): they read every labelled unit.
    """
    per_class, seed = samples_per_class(config), config.classifier.random_state
    if trees_alone(config):
        chosen = np.zeros(0, dtype=np.intp)
    elif is_balanced(config):
        chosen = balanced_sample(labels, per_class, seed)
    else:
        # Departure (method svm): content lines outnumber noise lines several times in a
        # block, and a 1:1 sample teaches the SVM a prior that drops too much content.
        if keys is None:
            keys = np.random.default_rng(seed).random(len(labels))
        chosen = keyed_sample(labels, 2 * per_class, keys, _unit_weights(labels, pages, sets, config, langs))
    content, noise = int((labels == CONTENT).sum()), int((labels == NOISE).sum())
    # The trees need both classes; the SVM, a sample its folds can split.
    too_few = not (content and noise) if trees_alone(config) else len(chosen) < 2 * config.classifier.folds
    if too_few:
        raise DataError(f"too few labelled units to train: {content} content, {noise} noise")
    return chosen


def samples_per_class(config: Config) -> int:
    """The SVM's sample, a class: classifier.samples_per_class, or the method's own."""
    return config.classifier.samples_per_class or classifier_spec(config.method).samples_per_class


def uses_trees(config: Config) -> bool:
    return classifier_spec(config.method).trees and config.classifier.trees > 0


def training_units(labels: np.ndarray, chosen: np.ndarray, config: Config) -> np.ndarray:
    """The units whose feature rows training needs, sorted: the SVM's sample
    ``chosen``; when boosted trees learn too, every labelled unit (a superset); and
    with the second stage, every unit, which it reads as the neighbours of others."""
    if uses_second(config):
        return np.arange(len(labels))
    return np.flatnonzero(labels != MIXED) if uses_trees(config) else chosen


def fit_sample(
    X: np.ndarray,
    labels: np.ndarray,
    chosen: np.ndarray,
    lexicon: NoiseLexicon,
    config: Config,
    report: TrainReport,
    units: np.ndarray | None = None,
    pages: np.ndarray | None = None,
    sets: np.ndarray | None = None,
    keys: np.ndarray | None = None,
    *,
    langs: np.ndarray | None = None,
    sites: np.ndarray | None = None,
) -> tuple[Model, TrainReport]:
    """Fit the SVM on the sample ``chosen`` and fill in the report; ``X`` holds the
    feature rows of ``units`` (by default ``chosen``), as :func:`training_units` says.

    Method svm also fits boosted trees on every labelled unit, weighted as its sample
    is drawn (``pages``, ``sets``: :func:`page_weights`; ``keys``, as :func:`choose_sample`
    takes them, also choose the rows their early stopping scores), and adds their log-odds to
    the SVM's decision value: the SVM learns from a sample of 2,000 lines, which the
    kernel's cost limits; trees learn from all of them. With the second stage
    (second_stage.py), ``X`` holds every unit's row, and ``sites`` (each unit's page's
    site) groups the folds whose first-stage models give its values.

    Apart from fit_on_units so that the Spark job, which computes the rows in
    executors, ends in the same code.
    """
    report.content_units = int((labels == CONTENT).sum())
    report.noise_units = int((labels == NOISE).sum())
    report.mixed_units = int((labels == MIXED).sum())
    units = chosen if units is None else units
    feature_set = classifier_spec(config.method).feature_set
    weights = _unit_weights(labels, pages, sets, config, langs) if uses_trees(config) else None
    if weights is not None:
        groups = language_groups(langs, config)
        if groups is not None:
            report.language_shares = language_shares(weights, groups)
        weights = weights[units]
    if uses_trees(config) and not np.array_equal(units, training_units(labels, chosen, config)):
        raise ValueError("the boosted trees need the feature rows of every labelled unit")
    held_out = None if keys is None else held_out_rows(keys[units])
    # Per row of X: its label, and the rows of the SVM's sample.
    row_labels, sample_rows = labels[units], np.searchsorted(units, chosen)
    classifier, params = _fit_first(X, row_labels, sample_rows, np.ones(len(units), dtype=bool), weights, held_out, config)
    if params.trees is not None:
        report.tree_rows = int((row_labels != MIXED).sum())
        report.trees = len(params.trees.roots)
    second = None
    if uses_second(config):
        folds = site_folds(units, pages, sites, config.classifier.second_folds)
        first = np.empty(len(units))
        for fold in range(config.classifier.second_folds):
            out = folds == fold
            if out.any() and not out.all():
                _, fold_params = _fit_first(X, row_labels, sample_rows, ~out, weights, held_out, config)
                first[out] = fold_params.decision_function(X[out])
            elif out.any():
                first[out] = params.decision_function(X[out])
        own = X[:, : FEATURE_WIDTHS[feature_set]]  # the second stage reads a row's own columns
        second = fit_second(own, first, row_labels, None if pages is None else pages[units], weights, held_out, config)
        report.second_trees = len(second.roots)
    if classifier is not None:  # the SVM's sample; the trees alone learned from none
        report.samples_per_class = len(chosen) // 2
        report.training_samples = len(chosen)
        report.cv_accuracy = classifier.cv_accuracy_
        report.best_params = classifier.best_params_
    report.lexicon_words = len(lexicon.words)
    report.lexicon_marks = len(lexicon.marks)
    report.line_keys = len(lexicon.lines)
    return Model(lexicon=lexicon, svm=params, config=config, feature_set=feature_set, second=second), report


def _fit_first(
    X: np.ndarray,
    labels: np.ndarray,
    chosen: np.ndarray,
    rows: np.ndarray,
    weights: np.ndarray | None,
    held_out: np.ndarray | None,
    config: Config,
) -> tuple[TagClassifier | None, SVMParams]:
    """The first stage fitted on the ``rows`` of X (a boolean per row; ``labels``,
    ``weights`` and ``held_out`` are per row too): the SVM on the rows of the sample
    ``chosen`` (row numbers) among them, and, for method svm, the trees on their
    labelled rows; where the trees decide alone (:func:`trees_alone`), no SVM and no
    classifier to report on."""
    feature_set = classifier_spec(config.method).feature_set
    if trees_alone(config):
        classifier, params = None, no_svm(SVM_WIDTHS[feature_set], config)
    else:
        picked = chosen[rows[chosen]]
        classifier = fit_classifier(X[picked, : SVM_WIDTHS[feature_set]], labels[picked], config)
        params = classifier.params_
    if uses_trees(config):
        trees = _fit_trees_on(X, labels, rows & (labels != MIXED), weights, held_out, config.classifier.trees, config)
        page_columns = X.shape[1] - FEATURE_WIDTHS[feature_set]
        weight = 1.0 if classifier is None else config.classifier.tree_weight
        params = replace(params, trees=trees, tree_weight=weight, page_columns=page_columns)
    return classifier, params


def trees_alone(config: Config) -> bool:
    """Whether the trees alone decide (classifier.svm off, method svm with trees)."""
    return not config.classifier.svm and uses_trees(config)


def no_svm(width: int, config: Config) -> SVMParams:
    """An SVM of no support vectors over ``width`` columns: its decision value is 0."""
    return SVMParams(
        kernel=config.classifier.kernel, scale_min=np.zeros(width), scale_factor=np.ones(width),
        support_vectors=np.zeros((0, width)), dual_coef=np.zeros(0), intercept=0.0, gamma=config.classifier.fixed_gamma,
    )  # fmt: skip


def _fit_trees_on(
    X: np.ndarray,
    labels: np.ndarray,
    rows: np.ndarray,
    weights: np.ndarray | None,
    held_out: np.ndarray | None,
    trees: int,
    config: Config,
) -> TreeEnsemble:
    """At most ``trees`` boosted trees of ``[classifier]``'s shape on the ``rows`` of X
    (a boolean per row; ``labels``, ``weights`` and ``held_out`` are per row too)."""
    c = config.classifier
    return fit_trees(
        X[rows], labels[rows], None if weights is None else weights[rows], trees, c.tree_leaves,
        c.tree_rate, c.random_state, c.tree_depth, None if held_out is None else held_out[rows],
    )  # fmt: skip


def uses_second(config: Config) -> bool:
    return uses_trees(config) and classifier_spec(config.method).second_stage and config.classifier.second_trees > 0


def site_folds(units: np.ndarray, pages: np.ndarray | None, sites: np.ndarray | None, folds: int) -> np.ndarray:
    """Each unit's fold for the second stage's first-stage values: by a hash of its
    page's site, so that a fold holds whole sites (by its page where no site is given)."""
    if sites is not None:
        return np.asarray([site_fold(site, folds) for site in sites[units]], dtype=np.int64)
    if pages is not None:
        return np.asarray(pages[units], dtype=np.int64) % folds
    return np.arange(len(units)) % folds


def site_fold(site: str, folds: int) -> int:
    """The fold of a site, of ``folds`` (:func:`site_folds`)."""
    return zlib.crc32(str(site).encode()) % folds


def fit_second(
    X: np.ndarray,
    first: np.ndarray,
    labels: np.ndarray,
    pages: np.ndarray | None,
    weights: np.ndarray | None,
    held_out: np.ndarray | None,
    config: Config,
) -> TreeEnsemble:
    """The second stage (second_stage.py) on the rows X of every unit of the pages, in
    document order, with the first stage's held-out decision values ``first``: trees
    on the labelled rows, weighted as the first stage's."""
    rows = stage_rows(X, first, pages)
    return _fit_trees_on(rows, labels, labels != MIXED, weights, held_out, config.classifier.second_trees, config)


def with_metadata(model: Model, report: TrainReport, sources: Sequence[str]) -> Model:
    """The model with what it was trained on and its report, as `webclean train` saves it."""
    return replace(model, metadata={"trained_on": list(sources), "report": report.to_dict()})
