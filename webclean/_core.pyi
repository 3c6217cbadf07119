# The compiled core's interface (webclean/_core.pyx), for mypy; webclean/core.py loads it.
from collections.abc import Callable, Container, Mapping, Sequence
from typing import Any

import numpy as np
from lxml import etree

from webclean.config import LinesConfig
from webclean.core import HiddenRules, SegmentRules, TextRules, UnitRules

def segment(container: etree._Element, rules: SegmentRules, settings: LinesConfig) -> list[Any] | None: ...
def _is_space(cp: str | int) -> bool: ...
def _is_alnum(cp: str | int) -> bool: ...
def _is_decimal(cp: str | int) -> bool: ...
def census(
    root: etree._Element, tags: tuple[str, ...], attribute: bytes, kept: bytes
) -> tuple[list[int], list[str], list[etree._Element]]: ...
def item_runs(lines: list[Any], owner_at: int, length_at: int, levels: int, run_items: int) -> tuple[int, int, int] | None: ...
def occurrences(data: bytes | str, key: bytes | str, anchor: int) -> list[int]: ...
def line_totals(
    lines: list[Any],
    at: tuple[int, ...],
    kinds: tuple[str, ...],
    comment_bit: int,
    form_bit: int,
    settings: LinesConfig,
    sample_chars: int,
    cjk_ranges: tuple[tuple[int, int], ...],
    before: str,
    after: str,
) -> tuple[int, list[int], int, float, int, int, int, int, int, int, int] | None: ...
def half_width(text: str, first: int, last: int, shift: int, space: int) -> str: ...

class Trees:
    def __init__(
        self,
        feature: np.ndarray,
        threshold: np.ndarray,
        left: np.ndarray,
        right: np.ndarray,
        value: np.ndarray,
        roots: np.ndarray,
    ) -> None: ...
    def leaf_values(self, rows: np.ndarray, out: np.ndarray) -> None: ...

def pairwise_sum(values: np.ndarray) -> float: ...
def tree_value(trees: Trees, row: np.ndarray) -> float: ...
def type_scores(
    trees: Trees, signals: np.ndarray, logs: np.ndarray, rows: list[int], starts: np.ndarray, baselines: np.ndarray
) -> list[float]: ...
def confidence_signals(
    units: list[Any],
    decisions: tuple[Any, ...],
    tag_at: int,
    length_at: int,
    samples: frozenset[str],
    text_at: int,
    value_at: int,
    sentence_at: int,
    slopes: tuple[float, ...],
    near: float,
    out: np.ndarray,
) -> bool: ...

class AttrMarks:
    def __init__(
        self,
        word_bits: dict[str, int],
        groups_mask: int,
        noise_bit: int,
        content_bit: int,
        reviews_bit: int,
        names_reviews: Callable[[str], bool],
        consent_cues: tuple[str, ...],
        names_consent: Callable[[str], bool],
        gallery_cues: tuple[str, ...],
        names_gallery: Callable[[str], bool],
    ) -> None: ...
    def __call__(self, attrs: str) -> tuple[bool, bool, int, bool, bool]: ...

class Lexicon:
    def __init__(
        self,
        words: Mapping[str, float],
        latin: Mapping[str, float],
        marks: Mapping[str, float],
        stopwords: frozenset[str],
        cjk_matcher: Any,
        lines: Mapping[str, float],
        heads: frozenset[str],
        key_tokens: int,
        leads: tuple[int, ...],
        keyed_chars: int,
        head_chars: int,
        ideographs: tuple[tuple[int, int], ...],
        nfkc: Callable[[str], str],
        split_pseudo_words: Callable[[str], tuple[list[str], list[str]]],
    ) -> None: ...
    def indices(self, texts: list[str]) -> list[tuple[float, float]] | None: ...
    def line_indices(self, texts: list[str]) -> list[float] | None: ...

def text_columns(texts: list[str], lexicon: Lexicon, rules: TextRules, out: np.ndarray, columns: tuple[int, ...]) -> np.ndarray | None: ...
def unit_columns(units: list[Any], rules: UnitRules, out: np.ndarray, columns: tuple[int, ...]) -> np.ndarray | None: ...
def counted_text(
    lines: list[Any], at: tuple[int, int, int], theta: float, tags: Container[str]
) -> tuple[etree._Element | None, dict[etree._Element, int]] | None: ...
def related_names(
    lines: Sequence[Any], at: tuple[int, int], name_chars: int, names: Container[str], lead: str, trail: str
) -> list[int] | None: ...
def neighbour_means(values: Sequence[Any], window: int) -> list[float] | None: ...
def link_runs(kinds: Sequence[str], lengths: Sequence[int], long_line: int, link: str) -> list[int] | None: ...
def section_text(kinds: Sequence[str], lengths: Sequence[int], ratios: Sequence[float], heading: str) -> list[int] | None: ...
def units(cls: type, columns: list[Any]) -> list[Any] | None: ...
def split_sentences(value: str, anywhere: str, before_space: str, closers: str) -> list[str] | None: ...
def lines_inside(lines: Sequence[Any], owner_at: int, element: etree._Element) -> list[int] | None: ...
def prose_lines(lengths: Sequence[int], ratios: Sequence[float], long_line: int, prose_link_ratio: float) -> list[int] | None: ...
def log_lengths(lengths: Sequence[int]) -> list[float] | None: ...
def main_depth(depths: Sequence[int], lengths: Sequence[int], ratios: Sequence[float], prose_link_ratio: float) -> int | None: ...
def decisions(
    units: Sequence[Any],
    kept: Sequence[str | None],
    by_pass: Sequence[str | None],
    values: Sequence[float | None],
    sentence_values: Sequence[float | None],
    at: tuple[int, ...],
    samples: Container[str],
    outcomes: tuple[str, ...],
    make: type,
) -> list[Any] | None: ...
def aside_furniture(lines: Sequence[Any], at: tuple[int, int], furniture: Callable[[Any], object]) -> list[Any] | None: ...
def no_code(owners: Sequence[etree._Element], texts: Sequence[str], tag: str) -> list[str] | None: ...
def repeats(
    texts: Sequence[str],
    owners: Sequence[etree._Element],
    lengths: Sequence[int],
    min_chars: int,
    in_passage: Callable[[Sequence[str], int, int], bool],
    box: Callable[[etree._Element], object],
) -> list[int] | None: ...
def hidden_elements(root: etree._Element, rules: HiddenRules) -> tuple[int, list[etree._Element], float, float] | None: ...
def reopened(data: bytes, names: tuple[bytes, ...]) -> bytes: ...
def elements_at_level(root: etree._Element, level: int) -> list[etree._Element]: ...
def nowhere_links(root: etree._Element, scheme: bytes, boxes: tuple[str, ...]) -> list[etree._Element] | None: ...
def holds_named(element: etree._Element, tags: tuple[str, ...]) -> bool: ...
def visible_chars(element: etree._Element, count: int) -> bool | None: ...
