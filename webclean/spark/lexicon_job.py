"""The lexicon job (jobs/lexicon.py): a model's noise lexicon rebuilt from new pages,
labelled and counted in executors as the training job does, and what it changed."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pyspark import StorageLevel
from pyspark.sql import SparkSession

from webclean.lexicon import NoiseLexicon
from webclean.model import Model
from webclean.spark.inputs import InputFile
from webclean.spark.train_job import fit_on_spark, label_index, labelled_pages, page_lexicon
from webclean.training import TrainReport

TOP_WORDS = 20
LEXICON_CHANGES_FILE = "lexicon-changes.json"


@dataclass(frozen=True)
class LexiconChanges:
    """What a rebuilt lexicon changed: terms added (new weight) and removed (old weight)."""

    derived_from: str
    refit: bool
    words_before: int
    words_after: int
    words_added: dict[str, float]
    words_removed: dict[str, float]
    marks_added: dict[str, float]
    marks_removed: dict[str, float]
    top_words: list[dict[str, Any]]  # word, weight, old_weight (None when new)
    # Stop words (method svm's stop-word density), sorted.
    stopwords_added: list[str] = field(default_factory=list)
    stopwords_removed: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_text(self) -> str:
        lines = [
            f"lexicon from model {self.derived_from}: {self.words_before} -> {self.words_after} words "
            f"(+{len(self.words_added)} -{len(self.words_removed)}), marks +{len(self.marks_added)} "
            f"-{len(self.marks_removed)}; classifier {'refitted' if self.refit else 'kept'}",
            "words added:   " + _terms_text(self.words_added),
            "words removed: " + _terms_text(self.words_removed),
            "marks added:   " + _terms_text(self.marks_added),
            "marks removed: " + _terms_text(self.marks_removed),
            "stop words added:   " + _words_text(self.stopwords_added),
            "stop words removed: " + _words_text(self.stopwords_removed),
            f"top {len(self.top_words)} words by weight:",
        ]
        for top in self.top_words:
            old = "new" if top["old_weight"] is None else f"was {top['old_weight']:.2f}"
            lines.append(f"  {top['word']:<24} {top['weight']:9.2f}  ({old})")
        return "\n".join(lines)


def compare_lexicons(
    old: NoiseLexicon, new: NoiseLexicon, derived_from: str, refit: bool, top: int = TOP_WORDS
) -> LexiconChanges:
    heaviest = sorted(new.words.items(), key=lambda item: (-item[1], item[0]))[:top]
    return LexiconChanges(
        derived_from=derived_from,
        refit=refit,
        words_before=len(old.words),
        words_after=len(new.words),
        words_added=_heaviest_first(new.words, set(new.words) - set(old.words)),
        words_removed=_heaviest_first(old.words, set(old.words) - set(new.words)),
        marks_added=_heaviest_first(new.marks, set(new.marks) - set(old.marks)),
        marks_removed=_heaviest_first(old.marks, set(old.marks) - set(new.marks)),
        top_words=[{"word": w, "weight": weight, "old_weight": old.words.get(w)} for w, weight in heaviest],
        stopwords_added=sorted(new.stopwords - old.stopwords),
        stopwords_removed=sorted(old.stopwords - new.stopwords),
    )


def _heaviest_first(weights: Mapping[str, float], terms: set[str]) -> dict[str, float]:
    return {t: weights[t] for t in sorted(terms, key=lambda t: (-weights[t], t))}


def _words_text(words: Sequence[str], shown: int = 30) -> str:
    more = len(words) - shown
    return (", ".join(words[:shown]) + (f", and {more} more" if more > 0 else "")) or "none"


def _terms_text(terms: Mapping[str, float], shown: int = 15) -> str:
    text = ", ".join(f"{t} ({w:.2f})" for t, w in list(terms.items())[:shown])
    more = len(terms) - shown
    return (text + (f", and {more} more" if more > 0 else "")) or "none"


def rebuild_lexicon(
    spark: SparkSession, files: Sequence[InputFile], model: Model, *, refit: bool = False, sources: Sequence[str] = ()
) -> tuple[Model, LexiconChanges]:
    """A new noise lexicon from ``files`` with the model's config; the classifier kept or refitted.

    A kept classifier keeps its scaling and support vectors, learned on the old lexicon's
    T and S; ``refit`` fits it again on these pages, which is training with the model's config.
    """
    config = model.config
    labelled = labelled_pages(spark, files, config).persist(StorageLevel.MEMORY_AND_DISK)
    try:
        lexicon = page_lexicon(labelled, config)
        if refit:
            fitted, report = fit_on_spark(labelled, lexicon, config)
            svm, second, page_types, trained_on = fitted.svm, fitted.second, fitted.page_types, list(sources)
        else:
            report = _kept_classifier_report(label_index(labelled, config).report(), model.metadata.get("report", {}), lexicon)
            svm, second, page_types = model.svm, model.second, model.page_types
            trained_on = list(model.metadata.get("trained_on", []))
    finally:
        labelled.unpersist()
    metadata = {
        "trained_on": trained_on,
        "lexicon_from": list(sources),
        "derived_from": model.version,
        "report": report.to_dict(),
    }
    new = Model(
        lexicon=lexicon, svm=svm, config=config, feature_set=model.feature_set, metadata=metadata, second=second, page_types=page_types
    )
    return new, compare_lexicons(model.lexicon, lexicon, model.version, refit)


def _kept_classifier_report(report: TrainReport, old: Mapping[str, Any], lexicon: NoiseLexicon) -> TrainReport:
    """Units counted on the new pages; the classifier's figures are those of the old fit."""
    for name in ("samples_per_class", "training_samples", "cv_accuracy", "best_params"):
        if name in old:
            setattr(report, name, old[name])
    report.lexicon_words = len(lexicon.words)
    report.lexicon_marks = len(lexicon.marks)
    return report


def write_lexicon_changes(changes: LexiconChanges, directory: str | Path) -> Path:
    """Write the changes beside the model; load_model reads only its own two files."""
    path = Path(directory) / LEXICON_CHANGES_FILE
    path.write_text(json.dumps(changes.to_dict(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return path
