"""The configuration's sections of training: the classifier and its sample, the labels
from a gold text or from peers, and the page type model (part of config.Config)."""

from __future__ import annotations

from dataclasses import dataclass

from webclean.config_check import ConfigError
from webclean.config_check import check_range as _check_range

# The kinds of page the page type model tells apart (page_type.py), the seven of WCXB.
PAGE_TYPES = ("article", "listing", "forum", "product", "documentation", "service", "collection")


@dataclass(frozen=True)
class ClassifierConfig:
    """Step 3: min-max scaling and an RBF SVM, C and γ by k-fold CV."""

    kernel: str = "rbf"
    folds: int = 10
    c_grid: tuple[float, ...] = (0.1, 1.0, 10.0, 100.0, 1000.0)
    gamma_grid: tuple[float, ...] = (0.01, 0.1, 1.0, 10.0)
    # "grid": C and γ chosen from c_grid × gamma_grid by ``folds``-fold CV, as the paper;
    # "fixed": C = fixed_c and γ = fixed_gamma (the CV accuracy is still reported);
    # "auto": grid for method paper, fixed for svm, whose grid search picked another
    # pair at nearly every retrain (C from 1 to 1000, γ from 0.01 to 1, within 0.003 of
    # accuracy) and scored no better on unseen pages than C = 1, γ = 1.
    search: str = "auto"
    fixed_c: float = 1.0
    fixed_gamma: float = 1.0
    # The SVM's sample, a class; 0: the method's own (registry.ClassifierSpec): 2,500 for
    # method paper, 1,000 for svm, whose trees learn from every line and whose kernel's
    # cost a page grows with the sample (left one set out, 1,000 scored as 2,500 did).
    samples_per_class: int = 0
    # "balanced": 1:1 classes, as the paper; "natural": the classes as the data has
    # them (2 × samples_per_class in all); "auto": balanced for method paper,
    # natural for svm, which scores higher so on every dev set.
    class_balance: str = "auto"
    # The natural sample draws a line with weight 1 / (labelled lines of its page) ** this,
    # each source keeping its share: long pages do not fill it.
    # 0 draws every line alike.
    page_power: float = 0.5
    # Method svm: the sample's languages are the pages' languages of ``language_groups``
    # and "other" for the rest; each one's share is proportional to its labelled lines
    # to ``language_power`` (1: their own proportion; 0: alike), each set keeping its
    # share within its language: adding pages of one language never shrinks what the
    # model learns of another.
    language_groups: tuple[str, ...] = ("zh", "en")
    language_power: float = 0.0
    # Method svm: gradient-boosted trees on every labelled line, at most ``trees`` of
    # ``tree_leaves`` leaves and ``tree_depth`` levels at learning rate ``tree_rate``
    # (shallow trees: the walk costs a step a level), their log-odds times
    # ``tree_weight`` added to the SVM's decision value.
    # 0 trees: the SVM alone. Method paper never has them.
    trees: int = 150
    tree_leaves: int = 31
    tree_depth: int = 4  # at most this many levels a tree; 0: no limit but the leaves
    tree_rate: float = 0.2
    tree_weight: float = 0.3
    # Method svm: False fits no SVM; the trees' log-odds alone are a line's decision
    # value (tree_weight aside), and a page's classification costs no kernel.
    svm: bool = True
    # Method svm: the second stage (second_stage.py), at most ``second_trees`` trees of
    # the first stage's shape (0: the first stage decides), learned from first-stage
    # values of ``second_folds`` models, each fitted without a fold of whole sites. Off
    # by default: left one set out, it scored below the first stage alone on the sets
    # least like the training pages.
    second_trees: int = 0
    second_folds: int = 4
    random_state: int = 0

    def validate(self) -> None:
        _check_range("classifier.trees", self.trees, 0, 10_000)
        _check_range("classifier.tree_leaves", self.tree_leaves, 2, 1_000)
        _check_range("classifier.tree_depth", self.tree_depth, 0, 1_000)
        _check_range("classifier.tree_rate", self.tree_rate, 1e-6, 1.0)
        _check_range("classifier.tree_weight", self.tree_weight, 0.0, 100.0)
        _check_range("classifier.second_trees", self.second_trees, 0, 10_000)
        _check_range("classifier.second_folds", self.second_folds, 2, 100)
        if not self.svm and not self.trees:
            raise ConfigError("classifier.svm = false needs trees to decide: classifier.trees must be above 0")
        if self.class_balance not in ("auto", "balanced", "natural"):
            raise ConfigError(f"classifier.class_balance must be auto, balanced or natural, not {self.class_balance!r}")
        if self.kernel not in ("rbf", "linear", "poly"):
            raise ConfigError(f"classifier.kernel must be rbf, linear or poly, not {self.kernel!r}")
        _check_range("classifier.folds", self.folds, 2, 100)
        if self.samples_per_class:
            _check_range("classifier.samples_per_class", self.samples_per_class, 10, 10**7)
        _check_range("classifier.page_power", self.page_power, 0.0, 4.0)
        _check_range("classifier.language_power", self.language_power, 0.0, 1.0)
        for name in ("c_grid", "gamma_grid"):
            values = getattr(self, name)
            if not values or any(v <= 0 for v in values):
                raise ConfigError(f"classifier.{name} must hold positive numbers")
        if self.search not in ("auto", "grid", "fixed"):
            raise ConfigError(f"classifier.search must be auto, grid or fixed, not {self.search!r}")
        _check_range("classifier.fixed_c", self.fixed_c, 1e-6, 1e6)
        _check_range("classifier.fixed_gamma", self.fixed_gamma, 1e-6, 1e6)


@dataclass(frozen=True)
class WeakConfig:
    """Weak labels in training: units labelled by the agreement of other extractors.

    Only units that a page's gold does not decide get one, and only on pages that
    carry other extractors' texts (datasets.Page.peers; gold.PeerVotes).
    """

    min_peers: int = 3  # fewer texts on a page than this: no weak labels there
    content_votes: int = 3  # a unit found in at least this many texts is content
    noise_votes: int = 0  # ... in at most this many, noise; in between, left out
    # A unit is found in a text as one of its lines, or from this many characters as a part
    # of it (a short "Teilen" or "更多" occurs inside paragraphs by chance).
    match_chars: int = 15

    def validate(self) -> None:
        _check_range("weak.min_peers", self.min_peers, 1, 100)
        _check_range("weak.match_chars", self.match_chars, 0, 10**6)
        _check_range("weak.content_votes", self.content_votes, 1, 100)
        _check_range("weak.noise_votes", self.noise_votes, 0, 100)
        if self.noise_votes >= self.content_votes:
            raise ConfigError("weak.noise_votes must be below weak.content_votes")


@dataclass(frozen=True)
class GoldConfig:
    """Training labels from a page's gold text (gold.GoldMatcher)."""

    ngram: int = 4  # a unit is matched to the gold by its character n-grams of this length:
    content_share: float = 0.9  # this share of them in the gold: content;
    noise_share: float = 0.1  # at most this share: noise; in between, left out of training
    within_chars: int = 20  # a unit of this many characters that holds a whole gold text is content

    def validate(self) -> None:
        _check_range("gold.ngram", self.ngram, 1, 100)
        _check_range("gold.content_share", self.content_share, 0.0, 1.0)
        _check_range("gold.noise_share", self.noise_share, 0.0, 1.0)
        _check_range("gold.within_chars", self.within_chars, 0, 10**6)
        if self.noise_share >= self.content_share:
            raise ConfigError("gold.noise_share must be below gold.content_share")


@dataclass(frozen=True)
class PageTypeConfig:
    """The page type model (page_type.py), trained with the classifier of method svm."""

    trees: int = 200  # boosting rounds; 0 trains no page type model
    min_pages: int = 3  # a word of the type lexicon counts when so many training pages hold it
    unlabelled: str = "article"  # the type of a training page that names none ("" leaves it out)
    # Method svm's trees read the page's type probabilities beside each line's features,
    # learned from each training page's probabilities by a model of the other folds of sites.
    features: bool = False
    folds: int = 4
    item_levels: int = 3  # a repeated item starts at a line's owner or an ancestor so far above it ...
    run_items: int = 4  # ... and so many items of one tag and class in one box make a run
    sample_chars: int = 40  # the characters of each line that the share of CJK ideographs reads

    def validate(self) -> None:
        _check_range("page_type.trees", self.trees, 0, 10**4)
        _check_range("page_type.folds", self.folds, 2, 100)
        _check_range("page_type.item_levels", self.item_levels, 1, 100)
        _check_range("page_type.run_items", self.run_items, 2, 10**6)
        _check_range("page_type.sample_chars", self.sample_chars, 1, 10**6)
        _check_range("page_type.min_pages", self.min_pages, 1, 10**6)
        if self.unlabelled not in ("", *PAGE_TYPES):
            raise ConfigError(f"page_type.unlabelled must be one of {', '.join(PAGE_TYPES)} or empty, not {self.unlabelled!r}")


@dataclass(frozen=True)
class ConfidenceConfig:
    """The confidence model (confidence.py): the token F1 an extraction is expected to
    reach, learned by method svm's training from held-out extractions of its pages."""

    trees: int = 200  # boosting rounds; 0 trains no confidence model
    folds: int = 4  # folds of whole sites: each page is extracted by a model trained without its fold (and of rows, for the calibration)
    min_pages: int = 50  # fewer held-out extractions than this train no confidence model
    near: float = 0.5  # a decision value this close to the boundary is a line the classifier was unsure of

    def validate(self) -> None:
        _check_range("confidence.trees", self.trees, 0, 10**4)
        _check_range("confidence.folds", self.folds, 2, 100)
        _check_range("confidence.min_pages", self.min_pages, 1, 10**9)
        _check_range("confidence.near", self.near, 0.0, 100.0)
