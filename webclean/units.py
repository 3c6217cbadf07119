"""The unit of Steps 2 to 4: one tag of the located block (method paper) or one line of
the page (method svm), with what the features and the noise filter need of it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from webclean import core

SAMPLE_TAGS = frozenset({"p", "a"})
# The tags of the samples (Unit.is_sample): method svm's lines, the paper's <p> and <a>.
SAMPLE_UNIT_TAGS = SAMPLE_TAGS | {"line"}


class Unit(NamedTuple):
    """One tag of the located block, with what Step 2 and Step 4 need of it.

    A named tuple: a page makes one per line, and a tuple is made several times
    faster than a frozen dataclass.
    """

    tag: str
    text: str
    length: int  # characters other than white space (text.text_length of the text)
    link_ratio: float
    position: float  # m / n among the block's samples; 0 for table cells, which are not samples
    # The line's context, read by method svm's features (the "rich" set) only.
    kind: str = "p"
    noise_attr: bool = False
    content_attr: bool = False
    prev_length: int = 0
    next_length: int = 0
    neighbour_link_ratio: float = 0.0
    # More of its place (method svm); see line_features.rich_rows.
    depth: int = 0  # block-level elements between the block and the line's owner
    depth_offset: int = 0  # |depth - the depth that holds most of the block's prose|
    span: int = 0  # -1 before the block's first long paragraph, 1 after its last one, 0 between
    window_length: float = 0.0  # mean log(1 + length) of the lines up to lines.window away
    # -1 for a line of the margin before the located block, 1 of the margin after
    # it, 0 in it (registry.ClassifierSpec.margins).
    region: int = 0
    # In a thread located as its posts (threads.find_records): 1 for a line of a post's
    # text, -1 for one elsewhere in a post's record (its panel, signature, links) or
    # after the last record (reply box, pager, who is online: a thread ends with its last
    # post), 0 for any other line. A feature, and denoise keeps and drops these lines as such.
    post: int = 0
    # The segment.ANCESTOR_GROUPS its ancestors name, as bits (the "rich" features), and
    # segment.REVIEWS_BIT (no feature: the pass comments reads it).
    groups: int = 0
    # Inside the page's footer, navigation or banner, an article's footer or an aside
    # (segment.Line.furniture). A feature, and the pass "furniture" (passes.py) drops
    # such a line wherever the classifier keeps it.
    furniture: bool = False
    # segment.RELATED_NAME for a line that names a box of other stories ("Related",
    # "相关推荐"), segment.IN_RELATED for a line of the box it names (segment.related_boxes).
    # A feature of the trees.
    related: int = 0
    # How many lines back the line's text was shown already, in a passage shown again
    # in a box of another kind (a shop's description again in its tabs, a copy for
    # another screen size); 0 for none (line_features.repeats). A feature, and the pass
    # "repeats" drops the copy when both are kept.
    copy: int = 0
    # For a line of a <pre> (code, a console's session, a file's lines), its text as the
    # page sets it out, line breaks and indents kept (text.code_text); "" for any other
    # line. A feature (line_features: is_code), and the page's text shows a kept line so.
    code: str = ""
    # After the box that holds most of the located block's prose, outside it
    # (lines.core_share; False in the margins and in a thread's block). A
    # feature of the trees.
    past_core: bool = False
    # How many short all-link lines in a row the line is one of (a menu, a list of
    # related stories, tags); 0 for a line that is none (line_features.link_runs).
    link_run: int = 0
    # The characters outside links of the lines under the same heading as the line
    # (its section: from a heading to the next; line_features.section_text): a heading
    # over a list of links heads little text, one over paragraphs much.
    section_text: int = 0

    @property
    def is_sample(self) -> bool:
        return self.tag in SAMPLE_UNIT_TAGS


def units_from_columns(**columns: Iterable[Any]) -> list[Unit]:
    """Units made from one column per field of :class:`Unit`, each given by its name
    (every field, none twice): a page's units are built a column at a time, and the
    tuples at C speed."""
    missing, unknown = set(Unit._fields) - columns.keys(), columns.keys() - set(Unit._fields)
    if missing or unknown:
        raise TypeError(f"units_from_columns: fields missing {sorted(missing)}, unknown {sorted(unknown)}")
    if core.compiled is not None:
        made = core.compiled.units(Unit, [columns[name] for name in Unit._fields])
        if made is not None:
            return made
    return list(map(Unit, *(columns[name] for name in Unit._fields)))
