"""Labels from a gold text: whether a unit's text is content, noise or mixed (Step 3).

A unit is *content* when its text is in the page's gold main text, *noise* when it is
not, and *mixed* (left out of training) in between. On pages whose gold is partial
(snippets) or absent, the units it does not decide may be labelled by the agreement of
other extractors' texts of the page (weak labels, :class:`PeerVotes`). Every method
that learns labels its units here: the SVM methods their block's units, method mlp its
lines.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from webclean.classifier import CONTENT, NOISE
from webclean.config import GoldConfig, WeakConfig
from webclean.datasets import Page

MIXED = -1
_GOLD = GoldConfig()
_NON_WORD_RE = re.compile(r"[\W_]+", re.UNICODE)


def normalise_for_match(text: str) -> str:
    """Lower-cased word characters only: matching ignores spacing and punctuation."""
    return _NON_WORD_RE.sub("", unicodedata.normalize("NFKC", text)).lower()


class PeerVotes:
    """In how many of other extractors' texts of a page a unit is found (weak labels)."""

    def __init__(self, texts: Iterable[str], match_chars: int = WeakConfig.match_chars) -> None:
        texts = list(texts)
        self._match_chars = match_chars
        self._texts = [normalise_for_match(text) for text in texts]
        self._lines = [{normalise_for_match(line) for line in text.splitlines()} for text in texts]

    def __len__(self) -> int:
        return len(self._texts)

    def count(self, norm: str) -> int:
        """The texts that hold ``norm`` (a text normalised by normalise_for_match): as one
        of their lines, or, from ``match_chars`` normalised characters (weak.match_chars),
        as a part of one."""
        return sum(
            1
            for lines, text in zip(self._lines, self._texts)
            if norm in lines or (len(norm) >= self._match_chars and norm in text)
        )


class GoldMatcher:
    """Decides whether a unit's text is content, noise or mixed against one page's gold.

    With a ``weak`` configuration, a unit the gold leaves undecided on a page without
    a full gold is labelled by the page's peer texts, when it carries enough of them.
    ``gold``: how much of a unit the gold must hold (config.GoldConfig).
    """

    def __init__(self, page: Page, weak: WeakConfig | None = None, gold: GoldConfig = _GOLD) -> None:
        if page.has_full_gold:
            self._gold = [normalise_for_match(page.text)]
            self._negative: list[str] = []
        else:
            self._gold = [normalise_for_match(s) for s in page.with_snippets]
            self._negative = [normalise_for_match(s) for s in page.without_snippets]
        self._full = page.has_full_gold
        self._weak = weak
        self._settings = gold
        self._votes = None
        if weak is not None and not self._full and len(page.peers) >= weak.min_peers:
            self._votes = PeerVotes((text for _, text in page.peers), weak.match_chars)
        self._grams = {g for text in self._gold for g in _ngrams(text, gold.ngram)}

    def label(self, text: str) -> int:
        """CONTENT when the gold holds the unit's text (or, from ``gold.within_chars``, the
        text holds a whole gold text), or ``gold.content_share`` of its n-grams; NOISE at
        most ``gold.noise_share`` of them; MIXED in between."""
        settings = self._settings
        norm = normalise_for_match(text)
        if not norm:
            return MIXED
        if any(norm in gold or (len(norm) >= settings.within_chars and gold and gold in norm) for gold in self._gold):
            return CONTENT
        if not self._full:
            # Snippet pages: only what a snippet names is known, and what the peers agree on.
            if any(neg and (norm in neg or neg in norm) for neg in self._negative):
                return NOISE
            return self._weak_label(norm)
        grams = _ngrams(norm, settings.ngram)
        if not grams:
            return NOISE
        share = sum(1 for g in grams if g in self._grams) / len(grams)
        if share >= settings.content_share:
            return CONTENT
        if share <= settings.noise_share:
            return NOISE
        return MIXED

    def _weak_label(self, norm: str) -> int:
        if self._votes is None or self._weak is None:
            return MIXED
        votes = self._votes.count(norm)
        if votes >= self._weak.content_votes:
            return CONTENT
        return NOISE if votes <= self._weak.noise_votes else MIXED


def _ngrams(text: str, n: int) -> list[str]:
    return [text[i : i + n] for i in range(len(text) - n + 1)]
