"""Step 2 of method.md: the tags of the located block and their features (T, S, L, P, R).

A *unit* is one ``<p>`` or ``<a>`` of the block (the samples of Step 2) or one ``<td>``
(whose own text Step 4 keeps as it is). Units come in document order; a ``<p>`` is
taken whole, so the ``<a>``s inside it are part of it, not units of their own.
Method svm's units and features are in line_features.py; the feature sets of the
methods and the matrix of a page's units are here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import numpy as np
from lxml import etree

from webclean.lexicon import NoiseLexicon
from webclean.line_features import RICH_FEATURE_NAMES, SVM_FEATURE_NAMES, rich_rows
from webclean.locate import link_ratio
from webclean.text import normalise_space, text_length
from webclean.tokenize import special_marks, words
from webclean.units import SAMPLE_TAGS, Unit

TABLE_CELL = "td"
FEATURE_NAMES = ("noise_word_index", "special_punct_index", "text_length", "relative_position", "link_ratio")


def block_units(block: etree._Element) -> list[Unit]:
    """The ``<p>``, ``<a>`` and ``<td>`` units of ``block`` in document order."""
    raw = list(_walk_units(block))
    samples = sum(1 for tag, _, _ in raw if tag in SAMPLE_TAGS)
    units: list[Unit] = []
    m = 0
    for tag, text, ratio in raw:
        position = 0.0
        if tag in SAMPLE_TAGS:
            m += 1
            position = m / samples
        units.append(Unit(tag=tag, text=text, length=text_length(text), link_ratio=ratio, position=position))
    return units


def _walk_units(block: etree._Element) -> Iterator[tuple[str, str, float]]:
    # An explicit stack, not recursion: a page's depth must never reach the stack.
    stack = [block]
    while stack:
        el = stack.pop()
        tag = el.tag if isinstance(el.tag, str) else ""
        if tag in SAMPLE_TAGS and el is not block:
            text = normalise_space("".join(el.itertext()))
            if text:
                # R (Step 2): La / Lp for a <p>; 1 for an <a>.
                yield tag, text, (1.0 if tag == "a" else link_ratio(el))
            continue
        if tag == TABLE_CELL:
            # One unit per run of the cell's own text: a unit or table nested in the
            # cell ends a run, so a unit's text is never joined across it.
            for run in _own_text(el):
                own = normalise_space(" ".join(run))
                if own:
                    yield tag, own, 0.0
        stack.extend(reversed(el))


def _own_text(cell: etree._Element) -> Iterator[list[str]]:
    """Runs of a cell's text outside the units and tables nested in it (those are walked
    on their own), in document order; each nested unit or table ends a run."""
    run: list[str] = []
    skipped = 0  # how many enclosing elements are skipped at this point of the walk
    for event, el in etree.iterwalk(cell, events=("start", "end")):
        tag = el.tag if isinstance(el.tag, str) else ""
        skip_here = el is not cell and (tag in SAMPLE_TAGS or tag in ("table", TABLE_CELL))
        if event == "start":
            if skip_here and not skipped and run:
                yield run
                run = []
            if skip_here or skipped:
                skipped += 1
            elif el.text:
                run.append(el.text)
            continue
        if skipped:
            skipped -= 1
        # A tail belongs to the parent: it is the cell's own text once nothing encloses it.
        if el is not cell and not skipped and el.tail:
            run.append(el.tail)
    if run:
        yield run


def paper_rows(units: Sequence[Unit], texts: Sequence[str], lexicon: NoiseLexicon) -> np.ndarray:
    """(T, S, L, P, R) of each text, the whole unit's or one of its sentences (Step 2),
    a row a unit, as float64."""
    noise_word_index, special_punct_index = lexicon.noise_word_index, lexicon.special_punct_index
    columns = (
        [noise_word_index(words(text)) for text in texts],
        [special_punct_index(special_marks(text)) for text in texts],
        list(map(text_length, texts)),
        [unit.position for unit in units],
        [unit.link_ratio for unit in units],
    )
    return np.ascontiguousarray(np.array(columns, dtype=np.float64).T)


# The feature sets of the packaged methods (registry.ClassifierSpec.feature_set): the
# paper's five (method paper) and method svm's. Each makes the rows of a page's units
# whose texts are given (the whole unit's or a sentence of it, Step 4), in one call.
FeatureRows = Callable[[Sequence[Unit], Sequence[str], NoiseLexicon], np.ndarray]
FEATURE_SETS: dict[str, FeatureRows] = {"paper": paper_rows, "rich": rich_rows}
FEATURE_WIDTHS = {"paper": len(FEATURE_NAMES), "rich": len(RICH_FEATURE_NAMES)}
# The columns of a row that the SVM reads, at its front: all but in the rich set,
# whose further columns only the boosted trees read.
SVM_WIDTHS = {"paper": len(FEATURE_NAMES), "rich": len(SVM_FEATURE_NAMES)}


def feature_matrix(units: Sequence[Unit], lexicon: NoiseLexicon, feature_set: str = "paper") -> np.ndarray:
    """The rows of ``units``, each of its whole text."""
    rows = FEATURE_SETS[feature_set](units, [u.text for u in units], lexicon)
    return np.asarray(rows, dtype=np.float64).reshape(len(units), FEATURE_WIDTHS[feature_set])
