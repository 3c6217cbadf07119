"""webclean.context: the second stage's rows, read from a page's first-stage decisions."""

from __future__ import annotations

import math

import numpy as np
import pytest

from webclean.context import CONTEXT_FEATURE_NAMES, EDGE, INPUT_NAMES, context_rows, page_starts, unit_inputs
from webclean.units import Unit

COLUMN = {name: k for k, name in enumerate(CONTEXT_FEATURE_NAMES)}


def _inputs(lengths, links=None, headings=()):
    links = links or [0.0] * len(lengths)
    return np.array([(math.log1p(n), r, k in headings, 0.0, 0.0) for k, (n, r) in enumerate(zip(lengths, links))])


def test_a_line_reads_its_neighbours_decisions_within_its_page():
    values = np.array([2.0, -1.0, 3.0, 0.5, -2.0])
    rows = context_rows(values, _inputs([200, 10, 300, 20, 5]), starts=[0, 3])
    assert list(rows[:, COLUMN["decision"]]) == list(values)
    # Line 2 ends the first page: its next neighbour is the page's edge, not line 3.
    assert rows[2, COLUMN["next_decision"]] == EDGE
    assert rows[3, COLUMN["prev_decision"]] == EDGE and rows[3, COLUMN["next_decision"]] == -2.0
    assert rows[0, COLUMN["next2_decision"]] == 3.0 and rows[2, COLUMN["prev2_decision"]] == 2.0
    # The window holds the page's lines only: the mean of the first page's three.
    assert rows[1, COLUMN["window_mean"]] == pytest.approx(4.0 / 3)
    assert rows[1, COLUMN["max_before"]] == 2.0 and rows[1, COLUMN["max_after"]] == 3.0
    assert rows[0, COLUMN["max_before"]] == EDGE and rows[2, COLUMN["max_after"]] == EDGE
    # Kept: two of the first page's three lines, 500 of its 510 characters.
    assert rows[0, COLUMN["kept_share"]] == pytest.approx(2 / 3)
    assert rows[0, COLUMN["kept_text_share"]] == pytest.approx(500 / 510)
    np.testing.assert_array_equal(rows[:, -len(INPUT_NAMES) :], _inputs([200, 10, 300, 20, 5]))


def test_a_heading_reads_what_it_heads_and_a_line_how_far_the_confident_prose_is():
    values = np.array([3.0, 2.0, 0.5, -1.0, -2.0, 1.5])
    rows = context_rows(values, _inputs([9, 400, 40, 8, 30, 300], headings={0, 3}))
    # The heading of line 0 heads lines 1 and 2; the one of line 3, line 4 and 5.
    assert rows[0, COLUMN["section_max"]] == 2.0
    assert rows[3, COLUMN["section_max"]] == 1.5
    assert rows[5, COLUMN["section_max"]] == EDGE
    # Confident prose: lines 1 and 5 (a heading is none, and line 2 is unsure).
    assert rows[1, COLUMN["log_since_prose"]] == 0.0
    assert rows[4, COLUMN["log_since_prose"]] == pytest.approx(math.log1p(3))
    assert rows[2, COLUMN["log_until_prose"]] == pytest.approx(math.log1p(3))
    assert rows[0, COLUMN["log_since_prose"]] == pytest.approx(math.log1p(7))  # none before: past the page


def test_runs_of_links_are_measured_and_units_give_the_first_stage_inputs():
    rows = context_rows(np.zeros(5), _inputs([10] * 5, links=[1.0, 1.0, 0.2, 1.0, 0.0]))
    assert list(np.expm1(rows[:, COLUMN["log_link_run"]]).round()) == [2, 2, 0, 1, 0]
    units = [Unit("line", "A heading", 8, 0.0, 0.1, kind="heading", region=-1), Unit("line", "text", 4, 0.5, 0.2)]
    np.testing.assert_allclose(unit_inputs(units), [[math.log1p(8), 0.0, 1.0, 1.0, 0.0], [math.log1p(4), 0.5, 0.0, 0.0, 0.0]])
    assert unit_inputs([]).shape == (0, len(INPUT_NAMES))
    assert page_starts(np.array([0, 0, 3, 3, 3, 7])) == [0, 2, 5]
