"""Which core does the per-element work: the compiled extension, or the Python reference.

``webclean/_core.pyx``, built with the package where a C compiler is at hand (setup.py),
walks libxml2's nodes through lxml's public C API. Each of its functions gives exactly
what a function of the Python modules gives, and is called from that function when
:data:`compiled` is loaded; tests/test_core.py runs both on the same inputs. What it
compiles:

- ``_core.segment``: segment.segment's walk, the page's lines;
- ``_core.AttrMarks``: segment._attr_marks, what an element's class and id words name;
- ``_core.item_runs``: page_type.item_runs, the runs of repeated items;
- ``_core.census``: page_type.element_census, the page's counted tags, microdata types
  and ``<meta>`` elements;
- ``_core.occurrences``: where page_type._ld_types finds ``"@type"`` in a page's bytes
  or text;
- ``_core.holds_key``: whether a page's bytes hold a key, as parse._holds asks;
- ``_core.line_totals``: page_type.line_totals, what the page type sums over the lines;
- ``_core.half_width``: tokenize.half_width, the full-width forms that NFKC makes ASCII;
- ``_core.Trees``: classifier.TreeEnsemble.leaf_values, the walk of boosted trees;
- ``_core.tree_value``: classifier.TreeEnsemble.row_value, one row's walk and sum (the
  confidence's trees);
- ``_core.type_scores``: page_type.PageTypeModel.page_probabilities up to the softmax,
  the lexicon's scores, the walk of every type's trees and each type's sum;
- ``_core.confidence_signals``: confidence.confidence_signals, the confidence's row
  (its sums of expected characters within rounding of the Python path's, which
  leaves them to BLAS; every output the same);
- ``_core.Lexicon``: lexicon.NoiseLexicon's lookups over a page's texts, its
  ``indices`` (T and the stop-word density) and ``line_indices`` (the line lexicon's
  weights);
- ``_core.text_columns`` and ``_core.unit_columns``: line_features._text_columns and
  _unit_columns, the columns of method svm's features, which line_features.rich_rows
  has them write into its rows.
- ``_core.counted_text``: region.counted_text, Step 1's count on the lines (each line's
  nearest block, and the text counted below each element);
- ``_core.lines_inside``: region.lines_inside, the lines inside the located block;
- ``_core.aside_furniture``: segment.aside_furniture's walk of the lines, the asides,
  dialogs and galleries that are furniture marked;
- ``_core.related_names``: segment.related_names, the lines that name a box of other
  stories;
- ``_core.neighbour_means``, ``_core.link_runs``, ``_core.section_text``,
  ``_core.prose_lines``, ``_core.log_lengths``, ``_core.main_depth``, ``_core.repeats``,
  ``_core.past_core`` and ``_core.no_code``: line_features._neighbour_means,
  link_runs, section_text, prose_lines, log_lengths, _main_depth, repeats, _past_core
  and _code (where no line is code), what line_units reads and makes of the lines;
- ``_core.units``: units.units_from_columns, the units made of their columns (they
  and segment's lines are made as tuple.__new__ makes a named tuple, in C:
  ``_core_tuples.pxi``);
- ``_core.split_sentences``: tokenize.split_sentences, the noise filter's sentences;
- ``_core.decisions``: denoise.decisions, what became of each unit;
- ``_core.hidden_elements``: segment._hidden_elements, the elements a browser does not
  show, those that segment.drop_hidden removes, and the text they and the page hold;
- ``_core.holds_bytes``, ``_core.reopened``, ``_core.nowhere_links``,
  ``_core.holds_named`` and ``_core.visible_chars``: whether parse._markup's
  translation changes the page, parse._reopen_document, _NOWHERE_LINKS, _holds_boxes
  and _has_visible_chars, the parse's clean-up after libxml2's parse (its edits of the
  tree stay Python's); ``_core.holds_reference``: parse._holds_reference, whether the
  page references a control character; ``_core.tree_census``: parse._census, the
  page's elements counted, those at the depth limit and those the clean-up edits, in
  one walk; ``_core.elements_at_level``: depth.elements_at_level;
- ``_core.metadata_elements``: metadata._metadata_elements, the elements that may
  carry the page's date and source and those its headline is read from;
  ``_core.element_names``: the distinct ids and classes that
  metadata._names_an_element asks about.

The Python functions stay: they are the reference, and they run where the extension
is not built (the library says so once, a logging warning) or where
``WEBCLEAN_PURE=1`` is set when webclean is imported.
"""

from __future__ import annotations

import importlib
import logging
import os
from collections.abc import Callable, Collection, Container, Mapping
from types import ModuleType
from typing import Any, NamedTuple

__all__ = ["PURE_VARIABLE", "HiddenRules", "SegmentRules", "TextRules", "UnitRules", "compiled", "name"]

# Set (to anything but "" or "0") when webclean is imported: the Python path runs.
PURE_VARIABLE = "WEBCLEAN_PURE"

log = logging.getLogger(__name__)


def _load() -> ModuleType | None:
    if os.environ.get(PURE_VARIABLE, "") not in ("", "0"):
        return None
    try:
        # By name: webclean's __init__ is still running, and a from-import of a missing
        # submodule would blame a circular import.
        return importlib.import_module("webclean._core")
    except ImportError as exc:
        log.warning(
            "webclean's compiled core is not available (%s): it runs its Python path, which gives the same "
            "results more slowly. Installing webclean with a C compiler at hand builds it (README, The compiled core).",
            exc,
        )
        return None


# The extension, or None where the Python path runs.
compiled: ModuleType | None = _load()


def name() -> str:
    """``compiled`` or ``python``: which core runs (``webclean --version`` prints it)."""
    return "python" if compiled is None else "compiled"


class SegmentRules(NamedTuple):
    """What the compiled segment reads of segment.py's rules, in this order: its tag
    sets and the functions it asks about an element, handed over, not copied. Its
    thresholds it reads from the settings that segment.segment is given
    (config.LinesConfig), as the Python walk does: ``holds_story`` is called with
    ``chars=settings.story_paragraph_chars``, and a line whose link ratio is at least
    ``settings.all_link`` is of ``link_kind``, any other of its owner's tag's kind in
    ``tag_kinds`` (``other_kind`` for a tag not there). ``line`` is the named tuple of
    a line, made of its fields in order."""

    block_level: Container[str]
    line_breaks: Container[str]
    noise_tags: Container[str]
    tag_groups: Mapping[str, int]
    furniture_tags: Container[str]
    furniture_roles: Container[str]
    beside_tags: Container[str]
    beside_roles: Container[str]
    story_tags: Container[str]
    attr_marks: Callable[[str], tuple[bool, bool, int, bool, bool]]
    takes_entry: Callable[[Any], object]
    text_size: Callable[[Any], object]
    line: type[tuple[Any, ...]]
    holds_story: Callable[..., object]
    tag_kinds: Mapping[str, str]
    other_kind: str
    link_kind: str


class TextRules(NamedTuple):
    """What the compiled text_columns reads of line_features.py's and tokenize.py's
    rules, in this order, handed over, not copied: how tokenize.marks_of asks whether a
    character is a mark (its cache, then the function that fills it), the marks of
    tokenize.ends_sentence, those of tokenize.sentence_ends that end a sentence wherever
    they stand and those that end one before white space, line_features' classes of ASCII
    bytes (a translation table and the byte of each class), its address pattern's
    search and the parts one of which each of its matches holds (the search runs only
    on a text that holds one), the endings of a label and of a teaser cut short, the
    bars, and the lexicon's key of a text that does not end like a sentence."""

    is_mark: Mapping[str, bool]
    learn_mark: Callable[[str], bool]
    closers: Collection[str]
    sentence_final: Collection[str]
    end_anywhere: str
    end_before_space: str
    byte_classes: bytes
    capital: bytes
    small: bytes
    digit: bytes
    address: Callable[[str], object]
    address_parts: tuple[str, ...]
    label_ends: tuple[str, ...]
    cut_short_ends: tuple[str, ...]
    bars: tuple[str, ...]
    no_end: str


class UnitRules(NamedTuple):
    """What the compiled unit_columns reads of line_features.py's and segment.py's
    rules, in this order: the places in a units.Unit of the fields it reads (its
    docstring names them), the row of each kind in the kinds' one-hot rows, the row of
    any other kind, those rows, the groups' rows, and segment's RELATED_NAME and
    IN_RELATED."""

    places: tuple[int, ...]
    kind_index: Mapping[str, int]
    other_kind: int
    kind_rows: Any
    group_rows: Any
    related_name: int
    in_related: int


class HiddenRules(NamedTuple):
    """What the compiled hidden_elements reads of segment.py's rules of hidden elements,
    in this order, handed over, not copied: the attributes that hide an element whatever
    their value, those that hide it when they say ``truth``, the (property, value) pairs
    of a style that hides it, the tags never hidden, and segment._is_hidden, which it
    asks about an element whose values it does not read itself (not ASCII)."""

    shown_not: tuple[str, ...]
    said_hidden: tuple[str, ...]
    styles: tuple[tuple[str, str], ...]
    truth: str
    never: tuple[str, ...]
    is_hidden: Callable[[Any], bool]
