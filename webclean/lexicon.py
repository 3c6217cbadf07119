"""The noise lexicon (method.md, Step 2, α): words and marks frequent in noise, rare in text.

For a candidate term t_i with n_i occurrences in noise tags and h_i in main-text tags,
``p_i = n_i / (n_i + h_i)``; the term enters the lexicon when ``p_i >= α``, with the
weight ``n_i / (h_i + 1)`` (the +1 keeps a term never seen in main text finite).
Counting is a plain word count, so it merges across partitions (:meth:`TermCounts.merge`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from webclean.config import LexiconConfig
from webclean.tokenize import NO_SENTENCE_END, PSEUDO_WORDS


@dataclass
class TermCounts:
    """n_i and h_i for words and for special marks."""

    noise_words: Counter[str] = field(default_factory=Counter)
    content_words: Counter[str] = field(default_factory=Counter)
    noise_marks: Counter[str] = field(default_factory=Counter)
    content_marks: Counter[str] = field(default_factory=Counter)

    def add(self, words: Iterable[str], marks: Mapping[str, int], is_noise: bool) -> None:
        if is_noise:
            self.noise_words.update(words)
            self.noise_marks.update(marks)
        else:
            self.content_words.update(words)
            self.content_marks.update(marks)

    def merge(self, other: "TermCounts") -> "TermCounts":
        self.noise_words.update(other.noise_words)
        self.content_words.update(other.content_words)
        self.noise_marks.update(other.noise_marks)
        self.content_marks.update(other.content_marks)
        return self


@dataclass(frozen=True)
class NoiseLexicon:
    """Weights of noise words (T) and special marks (S)."""

    words: Mapping[str, float]
    marks: Mapping[str, float]

    def noise_word_index(self, words: Iterable[str]) -> float:
        """T = Σ f_i · n_i / h_i over the lexicon words of a tag."""
        weights = self.words
        return float(sum(weights.get(w, 0.0) for w in words))

    def special_punct_index(self, marks: Mapping[str, int]) -> float:
        """S = Σ f_i · n_i / h_i over the special marks of a tag."""
        weights = self.marks
        return float(sum(weights.get(m, 0.0) * f for m, f in marks.items()))

    def to_dict(self) -> dict[str, dict[str, float]]:
        return {"words": dict(sorted(self.words.items())), "marks": dict(sorted(self.marks.items()))}

    @classmethod
    def from_dict(cls, data: Mapping[str, Mapping[str, float]]) -> "NoiseLexicon":
        return cls(
            words={str(k): float(v) for k, v in data["words"].items()},
            marks={str(k): float(v) for k, v in data["marks"].items()},
        )


# Always in the lexicon (Step 2), with at least this weight when the data never showed them.
_ALWAYS_WEIGHT = 1.0


def build_lexicon(counts: TermCounts, config: LexiconConfig) -> NoiseLexicon:
    words = _select(counts.noise_words, counts.content_words, config)
    for pseudo in PSEUDO_WORDS:
        words[pseudo] = max(words.get(pseudo, 0.0), _weight(pseudo, counts.noise_words, counts.content_words), _ALWAYS_WEIGHT)
    marks = _select(counts.noise_marks, counts.content_marks, config)
    marks[NO_SENTENCE_END] = max(
        marks.get(NO_SENTENCE_END, 0.0),
        _weight(NO_SENTENCE_END, counts.noise_marks, counts.content_marks),
        _ALWAYS_WEIGHT,
    )
    return NoiseLexicon(words=words, marks=marks)


def _select(noise: Counter[str], content: Counter[str], config: LexiconConfig) -> dict[str, float]:
    chosen: list[tuple[float, str]] = []
    for term, n in noise.items():
        h = content.get(term, 0)
        if n + h < config.min_count or n / (n + h) < config.alpha:
            continue
        chosen.append((n / (h + 1), term))
    # The heaviest terms first; ties broken by the term so the result is deterministic.
    chosen.sort(key=lambda item: (-item[0], item[1]))
    return {term: weight for weight, term in chosen[: config.max_words]}


def _weight(term: str, noise: Counter[str], content: Counter[str]) -> float:
    return noise.get(term, 0) / (content.get(term, 0) + 1)
