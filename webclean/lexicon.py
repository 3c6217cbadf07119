"""The noise lexicon (method.md, Step 2, α): words and marks frequent in noise, rare in text.

For a candidate term t_i with n_i occurrences in noise tags and h_i in main-text tags,
``p_i = n_i / (n_i + h_i)``; the term enters the lexicon when ``p_i >= α``, with the
weight ``n_i / (h_i + 1)`` (the +1 keeps a term never seen in main text finite).
The same counts give method svm its stop words: the most frequent words of main text.
Counting is a plain word count, so it merges across partitions (:meth:`TermCounts.merge`).

The line lexicon is the same rule over whole lines and their first words (a departure,
method svm): a line ("Share this article", "责任编辑：王某") and its leading one to three
words or ideographs ("photo", "来源") are *line keys* (:func:`line_keys`), scored
``n / (n + h)`` over the training pages' noise and content lines, and entered when
``p >= lexicon.line_alpha`` on at least ``lexicon.line_sites`` sites, so that one site's template does
not pass for a language's habit. A line's ``line_noise`` feature is the weight of its
heaviest key: what phrase lists written by hand guessed, learned in every language
the training pages hold. Which keys a line has depends on ``lexicon.line_key_tokens``:
the line lexicon keeps the value its keys were counted with, and reads lines with it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import repeat
from typing import Any

from ahocorasick_rs import AhoCorasick, Implementation, MatchKind

from webclean import core
from webclean.config import LexiconConfig
from webclean.text import CJK_IDEOGRAPH_RANGES, CJK_IDEOGRAPHS
from webclean.tokenize import (
    NO_SENTENCE_END,
    PSEUDO_WORDS,
    cjk_chars,
    compiled_nfkc,
    has_cjk,
    latin_words,
    nfkc,
    split_pseudo_words,
    unicode_nfkc,
)


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

    def merge(self, other: TermCounts) -> TermCounts:
        self.noise_words.update(other.noise_words)
        self.content_words.update(other.content_words)
        self.noise_marks.update(other.noise_marks)
        self.content_marks.update(other.content_marks)
        return self


# The leading words (a CJK ideograph is one) that make a line's other keys.
LINE_LEADS = (1, 2, 3)
_KEY_TOKEN_RE = re.compile(f"[{CJK_IDEOGRAPHS}]|[^\\W\\d_{CJK_IDEOGRAPHS}]+|\\d+")


# line_keys cuts a line's first so many characters into tokens before the rest, and
# _opens_with_none_of looks for a line's first token in its first _HEAD_CHARS: bounds of
# the work on a long line, which give the same keys and weights whatever their values.
_KEYED_CHARS = 200
_HEAD_CHARS = 40


def _opens_with_none_of(text: str, heads: frozenset[str]) -> bool:
    """Whether the line's first token (line_keys) is surely none of ``heads``: found
    whole in the line's first _HEAD_CHARS characters and not among them, or none there
    in a line no longer than that."""
    head = nfkc(text[:_HEAD_CHARS]).lower()
    first = _KEY_TOKEN_RE.search(head)
    if first is None:
        return len(text) <= _HEAD_CHARS
    return first.end() < len(head) and _key_token(first.group()) not in heads


def _key_token(token: str) -> str:
    return "0" if token[0].isdigit() else token


def line_keys(text: str, key_tokens: int = LexiconConfig.line_key_tokens) -> list[str]:
    """The line's keys: its whole text (``=…``) when it holds at most ``key_tokens``
    tokens (lexicon.line_key_tokens: longer lines are prose, and do not recur), and its
    leading LINE_LEADS tokens (``1<…``), where a token is a word, a CJK ideograph or a
    number (every number is 0), lower-cased after NFKC; punctuation and spaces are no part."""
    # A long line is cut into its tokens as far as key_tokens + 1 of them at most: its
    # first _KEYED_CHARS characters hold more than that, or the line is read whole.
    found = _KEY_TOKEN_RE.findall(nfkc(text[:_KEYED_CHARS]).lower())
    if len(found) <= key_tokens + 1 and len(text) > _KEYED_CHARS:
        found = _KEY_TOKEN_RE.findall(nfkc(text).lower())
    tokens = [_key_token(token) for token in found[: key_tokens + 1]]
    keys = [f"={' '.join(tokens)}"] if 0 < len(tokens) <= key_tokens else []
    keys.extend(f"{k}<{' '.join(tokens[:k])}" for k in LINE_LEADS if len(tokens) > k)
    return keys


@dataclass
class LineCounts:
    """n and h of each line key (:func:`line_keys` of ``key_tokens``), and on how many
    sites it was noise."""

    noise: Counter[str] = field(default_factory=Counter)
    content: Counter[str] = field(default_factory=Counter)
    noise_sites: Counter[str] = field(default_factory=Counter)
    key_tokens: int = LexiconConfig.line_key_tokens

    def add_site(self, noise_texts: Iterable[str], content_texts: Iterable[str]) -> None:
        """The noise and content lines of one site's pages (a site counted once)."""
        noise = Counter(key for text in noise_texts for key in line_keys(text, self.key_tokens))
        self.noise.update(noise)
        self.content.update(key for text in content_texts for key in line_keys(text, self.key_tokens))
        self.noise_sites.update(noise.keys())


def build_line_lexicon(counts: LineCounts, config: LexiconConfig) -> dict[str, float]:
    """The line keys whose p = n / (n + h) reaches ``config.line_alpha``, seen as noise on at least
    ``config.line_sites`` sites, weighted n / (h + 1), the heaviest ``max_lines``."""
    if counts.key_tokens != config.line_key_tokens:
        raise ValueError(
            f"line keys counted with {counts.key_tokens} tokens, but lexicon.line_key_tokens = {config.line_key_tokens}"
        )
    chosen = [
        (n / (h + 1), key)
        for key, n in counts.noise.items()
        if counts.noise_sites[key] >= config.line_sites
        and n + (h := counts.content.get(key, 0)) >= config.min_count
        and n / (n + h) >= config.line_alpha
    ]
    chosen.sort(key=lambda item: (-item[0], item[1]))
    return {key: weight for weight, key in chosen[: config.max_lines]}


@dataclass(frozen=True)
class NoiseLexicon:
    """Weights of noise words (T) and special marks (S), and the stop words."""

    words: Mapping[str, float]
    marks: Mapping[str, float]
    stopwords: frozenset[str] = frozenset()
    lines: Mapping[str, float] = field(default_factory=dict)  # the line lexicon (line_keys)
    # The tokens of a whole line's key that ``lines`` was counted with: a line is read with them.
    line_key_tokens: int = LexiconConfig.line_key_tokens

    # Built on first use from the fields, and not sent with them: the Spark job
    # broadcasts the model, and an automaton does not pickle.
    _DERIVED = ("_latin_weights", "_cjk_matcher", "_line_heads", "core_tables")

    def __getstate__(self) -> dict[str, object]:
        # Unpickling puts the state back into __dict__, as a frozen dataclass needs.
        return {k: v for k, v in self.__dict__.items() if k not in self._DERIVED}

    def noise_word_index(self, words: Iterable[str]) -> float:
        """T = Σ f_i · n_i / h_i over the lexicon words of a tag."""
        weights = self.words
        return float(sum(weights.get(w, 0.0) for w in words))

    def special_punct_index(self, marks: Mapping[str, int]) -> float:
        """S = Σ f_i · n_i / h_i over the special marks of a tag."""
        weights = self.marks
        return float(sum(weights.get(m, 0.0) * f for m, f in marks.items()))

    def word_index(self, text: str) -> float:
        """T of ``text`` found without segmenting it (method svm; the paper's T is
        :meth:`noise_word_index` of jieba's words).

        The lexicon is known, so its words are looked up rather than the text cut
        into words: its e-mails, URLs and phones first, then its words without CJK
        ideographs among the text's runs of such characters, and its CJK words
        where they occur in the text (one regular expression, longest first). A CJK
        word inside a longer word jieba would not split counts here; the model is
        trained on the same T, and jieba, ~15 % of extraction time, stays out of it.
        """
        return self.indices((text,))[0][0]

    def indices(self, texts: Iterable[str]) -> list[tuple[float, float]]:
        """T of each text (:meth:`word_index`) and its stop-word density, in one pass.

        The density is the share of the text's words that are stop words, where a
        word is a run of word characters outside CJK ideographs or one ideograph:
        Chinese function words (的, 了, 在) are single characters, so Chinese text
        needs no segmenting for it. Prose is dense in them, whatever its language;
        labels, menus, names and captions are not (jusText's main cue). A language
        the training pages did not hold has none: every line's density is then 0.

        A page's texts at once: the lexicon's tables and methods are looked up once,
        not once a text.
        """
        if core.compiled is not None:  # one pass a text in C (webclean/_core_lexicon.pxi)
            texts = texts if isinstance(texts, list) else list(texts)
            found = self.core_tables.indices(texts)
            if found is not None:
                return found
        weights = self.words
        latin = self._latin_weights.get
        stop = self.stopwords.__contains__
        cjk = self._cjk_matcher
        out: list[tuple[float, float]] = []
        append = out.append
        for text in texts:
            pieces, pseudo = split_pseudo_words(text)
            total = sum(weights.get(w, 0.0) for w in pseudo) if pseudo else 0
            plain = " ".join(pieces).lower() if pseudo else pieces[0].lower()
            found = latin_words(plain)
            total += sum(map(latin, found, repeat(0.0)))
            hits, count = sum(map(stop, found)), len(found)
            if has_cjk(plain):
                if cjk is not None:
                    total += sum(weights[w] for w in cjk.find_matches_as_strings(plain))
                chars = cjk_chars(plain)
                hits += sum(map(stop, chars))
                count += len(chars)
            append((float(total), hits / count if count else 0.0))
        return out

    def line_indices(self, texts: Iterable[str]) -> list[float]:
        """The weight of each text's heaviest line key in the line lexicon (0 for none).

        Every key of a line opens with its first token: a line whose first token opens
        no key of the lexicon (most lines of prose) is not cut into its keys."""
        if core.compiled is not None:  # its tokens found in C (webclean/_core_lexicon.pxi)
            texts = texts if isinstance(texts, list) else list(texts)
            weights = self.core_tables.line_indices(texts)
            if weights is not None:
                return weights
        get, heads, key_tokens = self.lines.get, self._line_heads, self.line_key_tokens
        out: list[float] = []
        for text in texts:
            if not heads or _opens_with_none_of(text, heads):
                out.append(0.0)
            else:
                out.append(max((get(key, 0.0) for key in line_keys(text, key_tokens)), default=0.0))
        return out

    def mark_indices(self, marks: Iterable[Sequence[str]], ends_sentence: Iterable[bool]) -> list[float]:
        """S of each text whose marks (tokenize.marks_of) and sentence end are known."""
        get = self.marks.get
        no_end = get(NO_SENTENCE_END, 0.0)
        out: list[float] = []
        append = out.append
        for found, ends in zip(marks, ends_sentence):
            total = sum(map(get, found, repeat(0.0)))
            if not ends:
                total += no_end
            append(float(total))
        return out

    @cached_property
    def _line_heads(self) -> frozenset[str]:
        """The first tokens of the line lexicon's keys (``=a b`` and ``2<a b`` open with ``a``)."""
        return frozenset(key.partition("<")[2].split(" ")[0] if key[1:2] == "<" else key[1:].split(" ")[0] for key in self.lines)

    @cached_property
    def core_tables(self) -> Any:
        """The compiled core's tables of the lexicon (_core.Lexicon): its fields and
        what it derives from them, with the rules of its lookups. Only where the
        compiled core runs (core.compiled)."""
        assert core.compiled is not None
        return core.compiled.Lexicon(
            self.words, self._latin_weights, self.marks, self.stopwords, self._cjk_matcher, self.lines, self._line_heads,
            self.line_key_tokens, LINE_LEADS, _KEYED_CHARS, _HEAD_CHARS, CJK_IDEOGRAPH_RANGES, unicode_nfkc,
            split_pseudo_words, compiled_nfkc(),
        )  # fmt: skip

    @cached_property
    def _latin_weights(self) -> dict[str, float]:
        return {w: v for w, v in self.words.items() if w not in PSEUDO_WORDS and not has_cjk(w)}

    @cached_property
    def _cjk_matcher(self) -> AhoCorasick | None:
        """The lexicon's CJK words, found leftmost-longest and without overlap: what one
        regular expression of them, longest first, finds, in time that does not grow
        with the number of words (thousands, for a model trained on many sites)."""
        cjk = sorted(w for w in self.words if w not in PSEUDO_WORDS and has_cjk(w))
        if not cjk:
            return None
        # A DFA and the words kept: the fastest search, and the matches' strings not
        # made again, for a few megabytes once a process.
        return AhoCorasick(cjk, matchkind=MatchKind.LeftmostLongest, implementation=Implementation.DFA, store_patterns=True)

    def to_dict(self) -> dict[str, Any]:
        return {
            "words": dict(sorted(self.words.items())),
            "marks": dict(sorted(self.marks.items())),
            "stopwords": sorted(self.stopwords),
            # Only where there are some: a model without them keeps its version.
            **({"lines": dict(sorted(self.lines.items())), "line_key_tokens": self.line_key_tokens} if self.lines else {}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> NoiseLexicon:
        return cls(
            words={str(k): float(v) for k, v in data["words"].items()},
            marks={str(k): float(v) for k, v in data["marks"].items()},
            stopwords=frozenset(str(w) for w in data.get("stopwords", ())),
            lines={str(k): float(v) for k, v in data.get("lines", {}).items()},
            # A model saved before the key was kept read its lines with the default.
            line_key_tokens=int(data.get("line_key_tokens", LexiconConfig.line_key_tokens)),
        )


# Always in the lexicon (Step 2), with at least this weight when the data never showed them.
_ALWAYS_WEIGHT = 1.0


def build_lexicon(counts: TermCounts, config: LexiconConfig, lines: LineCounts | None = None) -> NoiseLexicon:
    words = _select(counts.noise_words, counts.content_words, config)
    for pseudo in PSEUDO_WORDS:
        words[pseudo] = max(words.get(pseudo, 0.0), _weight(pseudo, counts.noise_words, counts.content_words), _ALWAYS_WEIGHT)
    marks = _select(counts.noise_marks, counts.content_marks, config)
    marks[NO_SENTENCE_END] = max(
        marks.get(NO_SENTENCE_END, 0.0),
        _weight(NO_SENTENCE_END, counts.noise_marks, counts.content_marks),
        _ALWAYS_WEIGHT,
    )
    return NoiseLexicon(
        words=words,
        marks=marks,
        stopwords=select_stopwords(counts, config.stopwords),
        lines=build_line_lexicon(lines, config) if lines is not None else {},
        line_key_tokens=config.line_key_tokens,
    )


def is_stopword_candidate(word: str, noise: int, content: int) -> bool:
    """A word seen ``noise`` times in noise and ``content`` times in main text can be a
    stop word: found there at least as often as in noise, letters only, and one
    character if CJK (NoiseLexicon.indices looks ideographs up one by one)."""
    return content >= noise and word.isalpha() and (len(word) == 1 or not has_cjk(word))


def select_stopwords(counts: TermCounts, size: int) -> frozenset[str]:
    """The ``size`` words most frequent in main text among those found there at least
    as often as in noise (ties broken by the word)."""
    noise = counts.noise_words
    ranked = sorted(
        (-h, word)
        for word, h in counts.content_words.items()
        if is_stopword_candidate(word, noise.get(word, 0), h)
    )
    return frozenset(word for _, word in ranked[:size])


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
