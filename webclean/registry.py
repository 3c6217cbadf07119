"""The extraction methods, one frozen spec each, looked up by name.

A method is one value: the steps it takes from a parsed page to its text, whether it
needs a trained model and how it learns one. Two kinds:

- the SVM methods (``paper``, ``svm``) share the paper's four steps (docs/method.md)
  and differ by a :class:`ClassifierSpec`: the features the classifier reads, the
  units it classifies, the passes over its decisions and how it is trained;
- the methods of the other source documents (``blocks``, ``ladom``, ``mlp``;
  docs/methods.md) bring their own steps (a :data:`Pipeline`) and, if they learn a
  model, their own :data:`Trainer`.

Adding a method is a module for its steps (webclean/methods/) and an entry in
:data:`METHODS` (and its name in ``config.METHODS``, which the configuration checks).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from lxml import etree

from webclean.config import Config, ConfigError
from webclean.datasets import Page
from webclean.metadata import PageMetadata
from webclean.methods import blocks, ladom, mlp
from webclean.passes import PASSES
from webclean.sampling import TrainReport

# A method's own steps: (parsed page, its title, its metadata, the model or None) →
# (the main text's paragraphs, the title). It may edit the tree.
Pipeline = Callable[[etree._Element, str, PageMetadata, Any], tuple[list[str], str]]
# How such a method learns its model: (pages with a gold text, config, the files'
# names for the model's metadata) → (the model, the report).
Trainer = Callable[[Iterable[Page], Config, Sequence[str]], tuple[Any, TrainReport]]


@dataclass(frozen=True)
class ClassifierSpec:
    """What an SVM method makes of the paper's four steps.

    These are part of what a method is, not settings: a packaged model is trained and
    judged with its method's spec.
    """

    # The features the classifier reads (a key of features.FEATURE_SETS; the SVM reads
    # the first features.SVM_WIDTHS of them, the boosted trees all).
    feature_set: str
    # The units: the page's lines (segment.py), with Step 1 on them (region.py), or
    # the paper's <p>, <a> and <td> of the block that locate.locate_block finds.
    lines: bool
    # The lines before and after the located block that are classified too (None: all
    # of them; two of the features say where a line lies). Lines only.
    margins: tuple[int | None, int] = (0, 0)
    # The passes over the classifier's decisions (passes.py), in the order they run.
    passes: tuple[str, ...] = ()
    # Whether a long unit that the noise filter drops entirely is classified whole and
    # kept when that says content (denoise.decide).
    keep_whole: bool = False
    # Training, when the config says "auto": the sample balanced 1:1 by class, and C
    # and γ chosen by grid search (else the classes in their own proportion, and
    # classifier.fixed_c and fixed_gamma).
    balanced: bool = False
    grid_search: bool = False
    # Training, when classifier.samples_per_class is 0: the SVM's sample, a class.
    samples_per_class: int = 2500
    # Whether boosted trees join the SVM (when classifier.trees > 0).
    trees: bool = False
    # Whether a second stage decides each line again from the first stage's values of
    # it, its neighbours and its page (second_stage.py; when classifier.second_trees > 0).
    second_stage: bool = False


@dataclass(frozen=True)
class MethodSpec:
    name: str
    # The model_type of the model it needs (webclean/modeldir.py), packaged in
    # webclean/models/<name>/; None for a method without a model.
    model: str | None
    classifier: ClassifierSpec | None = None  # an SVM method's steps
    pipeline: Pipeline | None = None  # another method's own steps
    train: Trainer | None = None  # how another method learns its model

    def __post_init__(self) -> None:
        if (self.classifier is None) == (self.pipeline is None):
            raise ValueError(f"method {self.name!r}: give a classifier spec or a pipeline, not both or neither")


METHODS: dict[str, MethodSpec] = {
    # The method exactly as published (docs/method.md): each tag decided alone.
    "paper": MethodSpec(
        "paper",
        model="svm",
        classifier=ClassifierSpec(feature_set="paper", lines=False, balanced=True, grid_search=True),
    ),
    # The paper's method with the departures of docs/method.md ("Method svm"): the
    # page's lines as units, every line before the block classified too (its headline,
    # standfirst and lead paragraph often sit there), the lines' context and the page's
    # structure as features read by boosted trees beside the SVM, what the structure
    # decides alone (passes.py), and a long tag kept whole when the whole is content.
    "svm": MethodSpec(
        "svm",
        model="svm",
        classifier=ClassifierSpec(
            feature_set="rich",
            lines=True,
            margins=(None, 0),
            passes=PASSES,
            keep_whole=True,
            trees=True,
            second_stage=True,
            samples_per_class=1000,
        ),
    ),
    "blocks": MethodSpec("blocks", model=None, pipeline=blocks.run),
    "ladom": MethodSpec("ladom", model=None, pipeline=ladom.run),
    "mlp": MethodSpec("mlp", model=mlp.MODEL_TYPE, pipeline=mlp.run, train=mlp.train),
}


def method(name: str) -> MethodSpec:
    """The spec of the method named ``name``."""
    spec = METHODS.get(name)
    if spec is None:
        raise ConfigError(f"method must be one of {', '.join(METHODS)}, not {name!r}")
    return spec


def classifier_spec(name: str) -> ClassifierSpec:
    """The classifier spec of an SVM method."""
    spec = method(name).classifier
    if spec is None:
        raise ConfigError(f"method {name!r} has no classifier: the SVM methods are {', '.join(svm_methods())}")
    return spec


def svm_methods() -> tuple[str, ...]:
    """The names of the SVM methods, in the registry's order."""
    return tuple(name for name, spec in METHODS.items() if spec.classifier is not None)
