"""Method svm's units and features (departures from the paper's Step 2): every line of
the page is a unit, and its features add to the paper's five the line's kind, its
class/id marks, its neighbours, signs of prose, its place in the block and the boxes
its ancestors name (feature set "rich")."""

from __future__ import annotations

import math
import re
import string
from collections.abc import Sequence
from itertools import accumulate, islice

import numpy as np
from lxml import etree

from webclean import core, tokenize
from webclean.config import LinesConfig
from webclean.lexicon import NoiseLexicon
from webclean.segment import ANCESTOR_GROUPS, CELLS, IN_RELATED, LIST_ITEMS, RELATED_NAME, REVIEWS_BIT, Line, related_boxes
from webclean.text import code_text, normalise_space, text_length
from webclean.tokenize import NO_SENTENCE_END, ends_sentence, marks_of, sentence_ends
from webclean.units import Unit, units_from_columns

_KINDS = ("heading", "list", "cell", "link", "text")
# A line's kind one-hot, as the features read it: the row of its index in _KINDS ("p"
# and unknown kinds: the last row, all zero).
_KIND_INDEX = {kind: k for k, kind in enumerate(_KINDS)}
_KIND_ONE_HOT = np.eye(len(_KINDS) + 1, len(_KINDS))
# Method svm's features (feature set "rich"), column by column. The SVM reads them up to
# the line lexicon's weight (SVM_WIDTHS); the boosted trees read them all.
SVM_FEATURE_NAMES = (
    # The paper's five, T, S and L as log(1 + x).
    "log_noise_word_index",
    "log_special_punct_index",
    "log_text_length",
    "relative_position",
    "link_ratio",
    # The line's kind, its class/id marks and its neighbours.
    *(f"kind_{k}" for k in _KINDS),
    "noise_attr",
    "content_attr",
    "log_prev_length",
    "log_next_length",
    "neighbour_link_ratio",
    # Signs of prose and the line's place among the block's lines.
    "sentence_ends",
    "punct_density",
    "log_depth",
    "log_depth_offset",
    "before_span",
    "after_span",
    "window_length",
    # Whether the line lies in a margin of the located block.
    "before_block",
    "after_block",
    "stopword_density",
    # The line lexicon's weight of the line's text (lexicon.line_keys).
    "log_line_noise",
)


# The shape of the line's text, and the boxes its ancestors name (rich_rows).
_SHAPE_NAMES = ("upper_share", "digit_share", "ends_colon", "has_address", "ends_ellipsis", "starts_mark", "log_words", "has_bar")
_GROUP_NAMES = tuple(f"in_{name}" for name, _ in ANCESTOR_GROUPS)
# What the page's structure says of the line (the Unit fields of the same names): signs
# that rules once decided on alone, read by the trees beside the rest.
_STRUCTURE_NAMES = (
    "furniture", "names_related_box", "in_related_box", "is_copy", "is_code", "past_core", "post_text", "post_rest",
    "log_link_run", "log_section_text",
)  # fmt: skip
RICH_FEATURE_NAMES = (*SVM_FEATURE_NAMES, *_SHAPE_NAMES, *_GROUP_NAMES, *_STRUCTURE_NAMES)


_ADDRESS_RE = re.compile(r"www\.|https?:|@|\.com\b|\.org\b")
# What every match of _ADDRESS_RE holds, one of them at least: a text without any holds no address.
_ADDRESS_PARTS = ("@", "www.", "http", ".com", ".org")
# The endings of a label ("Release Date:") and of a teaser cut short, and the bars of a
# share bar or a breadcrumb, as _SHAPE_NAMES reads them.
_LABEL_ENDS = (":", "：")
_CUT_SHORT_ENDS = ("...", "…")
_BARS = ("|", "·")
# ASCII capitals, small letters and digits (a CJK line has none of them), counted in the
# text's UTF-8 bytes: bytes.translate maps each to its class's byte in C (any other
# byte is none of these), and bytes.count counts a class.
_CAPITAL, _SMALL, _DIGIT = b"A", b"a", b"0"
_BYTE_CLASSES = bytes.maketrans(
    (string.ascii_uppercase + string.ascii_lowercase + string.digits).encode(),
    _CAPITAL * 26 + _SMALL * 26 + _DIGIT * 10,
)
# The in_* columns of every value of Unit.groups, a row each (segment.REVIEWS_BIT, the
# bit after the groups', is none of them).
_GROUP_COLUMNS = np.array(
    [[groups >> k & 1 for k in range(len(ANCESTOR_GROUPS))] for groups in range(REVIEWS_BIT << 1)], dtype=np.float64
)
# The columns rich_rows finds from the rows' texts, and those it finds from their units,
# in the order each computes them; together they are every column once.
_TEXT_COLUMN_NAMES = (
    "log_noise_word_index",
    "log_special_punct_index",
    "log_text_length",
    "sentence_ends",
    "punct_density",
    "stopword_density",
    *_SHAPE_NAMES,
    "log_line_noise",
)
_UNIT_COLUMN_NAMES = (
    "relative_position",
    "link_ratio",
    "noise_attr",
    "content_attr",
    "log_prev_length",
    "log_next_length",
    "neighbour_link_ratio",
    "log_depth",
    "log_depth_offset",
    "window_length",
    *(f"kind_{k}" for k in _KINDS),
    "before_span",
    "before_block",
    "after_span",
    "after_block",
    *_GROUP_NAMES,
    *_STRUCTURE_NAMES,
)
_TEXT_COLUMNS = [RICH_FEATURE_NAMES.index(name) for name in _TEXT_COLUMN_NAMES]
_UNIT_COLUMNS = [RICH_FEATURE_NAMES.index(name) for name in _UNIT_COLUMN_NAMES]
# The columns that the compiled text_columns and unit_columns write: in rich_rows' rows,
# and in _text_columns' and _unit_columns' own.
_TEXT_AT, _UNIT_AT = tuple(_TEXT_COLUMNS), tuple(_UNIT_COLUMNS)
_TEXT_OWN, _UNIT_OWN = tuple(range(len(_TEXT_COLUMN_NAMES))), tuple(range(len(_UNIT_COLUMN_NAMES)))
# What the compiled _unit_columns reads of units.Unit and of the rules of this module and of segment's.
_UNIT_RULES = core.UnitRules(
    tuple(Unit._fields.index(name) for name in (
        "position", "link_ratio", "noise_attr", "content_attr", "prev_length", "next_length", "neighbour_link_ratio", "depth",
        "depth_offset", "window_length", "kind", "span", "region", "groups", "furniture", "related", "copy", "code", "past_core",
        "post", "link_run", "section_text",
    )),
    _KIND_INDEX, len(_KINDS), _KIND_ONE_HOT, _GROUP_COLUMNS, RELATED_NAME, IN_RELATED,
)  # fmt: skip
# What the compiled _text_columns reads of the rules of this module and of tokenize's.
_TEXT_RULES = core.TextRules(
    tokenize._IS_MARK, tokenize._learn_mark, tokenize._CLOSERS, tokenize.SENTENCE_FINAL, tokenize._END_ANYWHERE,
    tokenize._CUT_BEFORE_SPACE, _BYTE_CLASSES, _CAPITAL, _SMALL, _DIGIT, _ADDRESS_RE.search, _ADDRESS_PARTS, _LABEL_ENDS,
    _CUT_SHORT_ENDS, _BARS, NO_SENTENCE_END,
)  # fmt: skip


def rich_rows(units: Sequence[Unit], texts: Sequence[str], lexicon: NoiseLexicon) -> np.ndarray:
    """The rows of RICH_FEATURE_NAMES (method svm) for ``units`` whose texts (the whole
    unit's or one of its sentences) are ``texts``: one row a unit, as float64, C order.

    The paper's five and the line's context (up to ``window_length``). Departures
    from the paper: T, S and L enter as log(1 + x); their raw values span four orders
    of magnitude, and min-max scaling then squeezes almost every tag into a corner of
    the RBF kernel's space. The five features and the line's kind say little about a
    line of prose in a comment or a one-word label between paragraphs: language-agnostic
    signs of prose (how many sentences end in the text, how dense its punctuation is), how deep the line
    sits below the block, whether it comes before the first or after the last long
    paragraph of the block (content clusters between them) and the length of the lines
    around it add that context. Comments and boxes nest deeper (or shallower) than the
    article's paragraphs: the depth offset says so. Unlike the paper's T, this T
    matches the lexicon in the text (NoiseLexicon.word_index) instead of counting
    jieba's words: the same signal at a fraction of the cost.

    Then the columns up to ``log_line_noise`` (docs/method.md, "Step 2: the
    features"): the lines just before and after the block are classified too, so
    that a headline or a lead paragraph that Step 1 left out can be kept, and two
    columns let the classifier ask more of them than of the block's own lines; the
    share of the line's words that are the training pages' most frequent main-text
    words (NoiseLexicon.indices): prose of any language is dense in its function words;
    labels, menus and names are not; and the weight of the line's heaviest key in the
    line lexicon (NoiseLexicon.line_indices), the lines the training pages hold as
    noise ("Advertisement", "责任编辑"). T comes from the same pass over the text. The SVM
    reads these columns (:data:`SVM_WIDTHS`).

    The rest, the shape of the line's text and the boxes its ancestors name, only the
    boosted trees read: they learn from every labelled line and afford more columns: a label ("Release Date:"), a
    call in capitals, an address or a handle, a teaser cut short ("…"), a line inside
    an author's box, a caption, a share bar, a newsletter box, a list of related
    stories, the comments, a quote, a form or a header.

    Column by column over the page's rows: per-row calls and lists were most of the
    cost. Each column is the float of the expression that computes it.
    """
    n = len(units)
    out = np.empty((n, len(RICH_FEATURE_NAMES)))
    if n and core.compiled is not None:  # written into the rows in C (webclean/_core_text.pxi, _core_units.pxi)
        compiled = core.compiled
        if (
            compiled.text_columns(list(texts), lexicon.core_tables, _TEXT_RULES, out, _TEXT_AT) is not None
            and compiled.unit_columns(list(units), _UNIT_RULES, out, _UNIT_AT) is not None
        ):
            return out
    if n:
        out[:, _TEXT_COLUMNS] = _text_columns(texts, lexicon)
        out[:, _UNIT_COLUMNS] = _unit_columns(units)
    return out


def _text_columns(texts: Sequence[str], lexicon: NoiseLexicon) -> np.ndarray:
    """The columns of _TEXT_COLUMN_NAMES: what the text of each row says."""
    if core.compiled is not None:  # one pass a text in C (webclean/_core_text.pxi)
        out = np.empty((len(texts), len(_TEXT_COLUMN_NAMES)))
        if core.compiled.text_columns(list(texts), lexicon.core_tables, _TEXT_RULES, out, _TEXT_OWN) is not None:
            return out
    log1p = math.log1p
    t, density = zip(*lexicon.indices(texts))
    marks = list(map(marks_of, texts))
    ends_here = list(map(ends_sentence, texts))
    lengths = list(map(text_length, texts))
    classes = [text.encode().translate(_BYTE_CLASSES) for text in texts]
    capitals = [found.count(_CAPITAL) for found in classes]
    letters = [found.count(_SMALL) + k for found, k in zip(classes, capitals)]
    stripped = list(map(str.rstrip, texts))
    search = _ADDRESS_RE.search
    columns = (
        list(map(log1p, t)),
        list(map(log1p, lexicon.mark_indices(marks, ends_here))),
        list(map(log1p, lengths)),
        [log1p(sentence_ends(text)) if found else 0.0 for text, found in zip(texts, marks)],
        [(len(found) + (not end)) / length if length else 0.0 for found, end, length in zip(marks, ends_here, lengths)],
        density,
        [k / total if total else 0.0 for k, total in zip(capitals, letters)],
        [found.count(_DIGIT) / (len(text) or 1) for found, text in zip(classes, texts)],
        [text.endswith(_LABEL_ENDS) for text in stripped],
        [search(text) is not None for text in texts],
        [text.endswith(_CUT_SHORT_ENDS) for text in stripped],
        [bool(text) and not text[0].isalnum() for text in texts],
        [log1p(text.count(" ") + 1) for text in texts],
        [any(bar in text for bar in _BARS) for text in texts],
        list(map(log1p, lexicon.line_indices(texts))),
    )
    return np.array(columns, dtype=np.float64).T


def _unit_columns(units: Sequence[Unit]) -> np.ndarray:
    """The columns of _UNIT_COLUMN_NAMES: the line's place and context, from its unit."""
    if core.compiled is not None:  # one pass a unit in C (webclean/_core_units.pxi)
        out = np.empty((len(units), len(_UNIT_COLUMN_NAMES)))
        if core.compiled.unit_columns(list(units), _UNIT_RULES, out, _UNIT_OWN) is not None:
            return out
    log1p = math.log1p
    fields = dict(zip(Unit._fields, zip(*units)))
    kinds = _KIND_ONE_HOT[[_KIND_INDEX.get(kind, len(_KINDS)) for kind in fields["kind"]]]
    signs = np.array((fields["span"], fields["region"]))
    related, posts = fields["related"], fields["post"]
    structure = np.array(
        (
            fields["furniture"],
            [r == RELATED_NAME for r in related],
            [r == IN_RELATED for r in related],
            [c > 0 for c in fields["copy"]],
            [bool(c) for c in fields["code"]],
            fields["past_core"],
            [p > 0 for p in posts],
            [p < 0 for p in posts],
            list(map(log1p, fields["link_run"])),
            list(map(log1p, fields["section_text"])),
        ),
        dtype=np.float64,
    )
    columns = np.array(
        (
            fields["position"],
            fields["link_ratio"],
            fields["noise_attr"],
            fields["content_attr"],
            list(map(log1p, fields["prev_length"])),
            list(map(log1p, fields["next_length"])),
            fields["neighbour_link_ratio"],
            list(map(log1p, fields["depth"])),
            list(map(log1p, fields["depth_offset"])),
            fields["window_length"],
        ),
        dtype=np.float64,
    )
    groups = _GROUP_COLUMNS[list(fields["groups"])]
    return np.concatenate((columns.T, kinds, (signs < 0).T, (signs > 0).T, groups, structure.T), axis=1)


# The thresholds of the lines' features (config.LinesConfig), the defaults where none are given.
_LINES = LinesConfig()


def is_prose(length: int, link_ratio: float, settings: LinesConfig = _LINES) -> bool:
    """Whether a line of this length (non-space characters) and link ratio is a paragraph
    of prose: ``settings.long_line`` characters at least, a link ratio of at most
    ``prose_link_ratio``. The content of a block lies between its first and its last such line."""
    return length >= settings.long_line and link_ratio <= settings.prose_link_ratio


def prose_lines(lengths: Sequence[int], ratios: Sequence[float], settings: LinesConfig = _LINES) -> list[int]:
    """The places of the lines of prose (:func:`is_prose`) among lines of these lengths
    and link ratios."""
    if core.compiled is not None:
        prose = core.compiled.prose_lines(lengths, ratios, settings.long_line, settings.prose_link_ratio)
        if prose is not None:
            return prose
    return [m for m in range(len(lengths)) if is_prose(lengths[m], ratios[m], settings)]


def log_lengths(lengths: Sequence[int]) -> list[float]:
    """log(1 + length) of each length."""
    if core.compiled is not None:
        logs = core.compiled.log_lengths(lengths)
        if logs is not None:
            return logs
    return [math.log1p(length) for length in lengths]


def line_units(
    lines: Sequence[Line],
    block: etree._Element | None = None,
    region: int = 0,
    posts: tuple[set[etree._Element], set[etree._Element]] | None = None,
    settings: LinesConfig = _LINES,
) -> list[Unit]:
    """Units of the improved method: every line is a sample; ``block``, when given,
    holds every line (its owner is the block or inside it); ``region`` says where the
    lines lie (:attr:`Unit.region`); ``posts``, the elements of a thread's posts' texts
    and of their records, set :attr:`Unit.post`; ``settings``, the thresholds of the
    features (lines.*).

    Built column by column, each in one comprehension: a page has hundreds of lines,
    and per-line Python calls were most of the cost.
    """
    n = len(lines)
    if not n:
        return []
    texts, owners, kinds, ratios, noise, content, groups, lengths, levels, furniture, _ = zip(*lines)
    logs = log_lengths(lengths)
    long_lines = prose_lines(lengths, ratios, settings)
    first, last = (long_lines[0], long_lines[-1]) if long_lines else (0, n - 1)
    depths = _depths(levels, block)
    main_depth = _main_depth(depths, lengths, ratios, settings.prose_link_ratio)
    neighbour_ratios = _neighbour_means(ratios, settings.window)
    windows = _neighbour_means(logs, settings.window)
    return units_from_columns(
        tag=["line"] * n,
        text=texts,
        length=lengths,
        link_ratio=ratios,
        position=[(m + 1) / n for m in range(n)],
        kind=kinds,
        noise_attr=noise,
        content_attr=content,
        prev_length=[0, *lengths[:-1]],
        next_length=[*lengths[1:], 0],
        neighbour_link_ratio=neighbour_ratios,
        depth=depths,
        depth_offset=[abs(depth - main_depth) for depth in depths],
        span=[-1] * first + [0] * (last - first + 1) + [1] * (n - 1 - last),
        window_length=windows,
        region=[region] * n,
        post=[0] * n if posts is None else _thread_posts(owners, lengths, long_lines, *posts),
        groups=groups,
        furniture=furniture,
        related=related_boxes(lines, settings.related_name_chars),
        copy=repeats(texts, owners, lengths, settings.repeat_chars),
        code=_code(owners, texts),
        past_core=(
            [False] * n if region or block is None or posts is not None else _past_core(owners, lengths, long_lines, settings)
        ),
        link_run=link_runs(kinds, lengths, settings.long_line),
        section_text=section_text(kinds, lengths, ratios),
    )


def link_runs(kinds: Sequence[str], lengths: Sequence[int], long_line: int = _LINES.long_line) -> list[int]:
    """Unit.link_run of each line: the length of the run of all-link lines shorter than
    ``long_line`` (lines.long_line) that it is one of, 0 for any other line."""
    if core.compiled is not None:
        runs = core.compiled.link_runs(kinds, lengths, long_line, "link")
        if runs is not None:
            return runs
    column = [0] * len(kinds)
    start = 0
    for m in range(len(kinds) + 1):
        if m < len(kinds) and kinds[m] == "link" and lengths[m] < long_line:
            continue
        column[start:m] = [m - start] * (m - start)
        start = m + 1
    return column


def section_text(kinds: Sequence[str], lengths: Sequence[int], ratios: Sequence[float]) -> list[int]:
    """Unit.section_text of each line: the characters outside links of the lines other
    than headings from the heading that opens its section (the page's first line when
    none does) to the next heading."""
    if core.compiled is not None:
        texts = core.compiled.section_text(kinds, lengths, ratios, "heading")
        if texts is not None:
            return texts
    column = [0] * len(kinds)
    start, total = 0, 0.0
    for m in range(len(kinds) + 1):
        if m == len(kinds) or kinds[m] == "heading":
            column[start:m] = [round(total)] * (m - start)
            start, total = m, 0.0
        else:
            total += lengths[m] * (1.0 - ratios[m])
    return column


# The box that holds the block's text (_past_core): the deepest element holding
# ``core_share`` of the characters of the block's lines of prose, on a block with
# ``core_prose_chars`` of them at least (lines.*). A table's or a list's parts are not
# such boxes: a table of films holds most of an article's prose, and its references follow it.
_PARTS = frozenset({"table", "thead", "tbody", "tfoot", "tr", "ul", "ol", "dl"}) | CELLS | LIST_ITEMS
_PART_TAGS = tuple(sorted(_PARTS))  # as the compiled core reads them


def _past_core(
    owners: Sequence[etree._Element], lengths: Sequence[int], prose: Sequence[int], settings: LinesConfig
) -> list[bool]:
    """Unit.past_core of each line of the block: whether it lies after the box that
    holds most of the block's prose, outside it."""
    if core.compiled is not None:  # over libxml2's nodes (webclean/_core_columns.pxi)
        found = core.compiled.past_core(owners, lengths, prose, settings.core_prose_chars, settings.core_share, _PART_TAGS)
        if found is not None:
            return found
    total = sum(lengths[m] for m in prose)
    if total < settings.core_prose_chars:
        return [False] * len(owners)
    # An element's lines follow one another, so the lines of prose outside the box
    # hold at most 1 - core_share of the characters before it and as much after: the
    # line at which half of them is reached lies inside, and the box is one of the
    # elements around that line (its chain, innermost first).
    middle = next(m for m, reached in zip(prose, accumulate(lengths[m] for m in prose)) if 2 * reached >= total)
    around = [owners[middle], *owners[middle].iterancestors()]
    place = {element: k for k, element in enumerate(around)}
    # Each line of prose counts for the innermost element of the chain around it; an
    # element of the chain holds what counts for it and for those inside it.
    innermost = [0] * len(prose)
    counted = [0] * len(around)
    for i, m in enumerate(prose):
        k = place.get(owners[m])
        if k is None:
            k = next(place[a] for a in owners[m].iterancestors() if a in place)
        innermost[i] = k
        counted[k] += lengths[m]
    core_place = next(k for k, held in enumerate(accumulate(counted)) if held >= settings.core_share * total)
    while around[core_place].tag in _PARTS and core_place + 1 < len(around):
        core_place += 1
    box = around[core_place]

    def inside(owner: etree._Element) -> bool:
        return owner is box or any(ancestor is box for ancestor in owner.iterancestors())

    # The box's lines follow one another: the last is found walking on from its last
    # line of prose, and every line after it lies outside.
    last = max(m for m, k in zip(prose, innermost) if k <= core_place)
    while last + 1 < len(owners) and inside(owners[last + 1]):
        last += 1
    return [m > last for m in range(len(owners))]


_CODE_TAG = "pre"  # the element of a line of code (Unit.code)


def _code(owners: Sequence[etree._Element], texts: Sequence[str]) -> list[str]:
    """For each line of a ``<pre>``, its text as the page sets it out (text.code_text),
    or the line itself where the ``<pre>`` holds more than the line (a ``<br>`` cut
    it); "" for any other line. Each ``<pre>``'s text is read once, however many
    lines it holds."""
    if core.compiled is not None:
        none = core.compiled.no_code(owners, texts, _CODE_TAG)
        if none is not None:
            return none
    wholes: dict[etree._Element, tuple[str, str]] = {}
    code = []
    for owner, line in zip(owners, texts):
        if owner.tag != _CODE_TAG:
            code.append("")
            continue
        if owner not in wholes:
            whole = "".join(owner.itertext())
            wholes[owner] = whole, normalise_space(whole)
        whole, normalised = wholes[owner]
        code.append(code_text(whole) if normalised == line else line)
    return code


def _neighbour_means(values: Sequence[float], window: int = _LINES.window) -> list[float]:
    """For each value, the mean of the values up to ``window`` places before and after it
    (0 where it has none; lines.window).

    In NumPy, column by column: the neighbours are added in order, the missing ones as
    0 (an exact addition), so each mean is the very float that summing the list of the
    neighbours within reach gives.
    """
    if core.compiled is not None:
        means = core.compiled.neighbour_means(values, window)
        if means is not None:
            return means
    n = len(values)
    padded = np.zeros(n + 2 * window)
    padded[window : window + n] = values
    total = padded[0:n].copy()
    for offset in (*range(1, window), *range(window + 1, 2 * window + 1)):  # the line itself, at ``window``, left out
        total += padded[offset : offset + n]
    places = np.arange(n)
    count = np.minimum(places, window) + np.minimum(n - 1 - places, window)
    return np.divide(total, count, out=np.zeros(n), where=count > 0).tolist()


def repeats(
    texts: Sequence[str], owners: Sequence[etree._Element], lengths: Sequence[int], min_chars: int = _LINES.repeat_chars
) -> list[int]:
    """Unit.copy of each line: how many lines back the first line of the same text is,
    when that line's element sits in a box of another kind and a line beside the two
    is the same too (a passage shown again: a shop's description in its tabs); 0 for a
    line met first, shorter than ``min_chars`` (lines.repeat_chars: "Share", "Read
    more", a price recur on every page by design), repeated alone (each card's fine
    print, a refrain), or in a box of the same kind (a plan's features in each of a
    pricing table's columns, a paragraph written twice)."""
    if core.compiled is not None:
        found = core.compiled.repeats(texts, owners, lengths, min_chars, _in_passage, _box)
        if found is not None:
            return found
    n = len(texts)
    first: dict[str, int] = {}
    column = [0] * n
    for m, text in enumerate(texts):
        if lengths[m] >= min_chars:
            k = first.setdefault(text, m)
            if k != m and _in_passage(texts, k, m) and _box(owners[k]) != _box(owners[m]):
                column[m] = m - k
    return column


def _box(owner: etree._Element) -> tuple[tuple[str, str], ...]:
    """The tags and classes of the two elements above a line's element."""
    return tuple((str(box.tag), box.get("class") or "") for box in islice(owner.iterancestors(), 2))


def _in_passage(texts: Sequence[str], k: int, m: int) -> bool:
    """Whether the line before line ``m``, or the one after it, is the same as the one
    beside line ``k`` on that side."""
    before = k > 0 and m - 1 != k and texts[k - 1] == texts[m - 1]
    return before or (m + 1 < len(texts) and texts[k + 1] == texts[m + 1])


def _thread_posts(
    owners: Sequence[etree._Element],
    lengths: Sequence[int],
    prose: Sequence[int],
    texts: set[etree._Element],
    records: set[etree._Element],
) -> list[int]:
    """Unit.post of each line of a thread's block: a thread ends with its last post.

    Records whose other lines hold more text in lines of prose (``prose``: their
    indices, is_prose) than their posts' texts are not a thread's posts but a manual's
    sections or a shop's cards, alike as posts are: every line is then 0, left to the
    classifier.
    """
    column = [1 if owner in texts else -1 if owner in records else 0 for owner in owners]
    last = max((i for i, post in enumerate(column) if post), default=len(column) - 1)
    column[last + 1 :] = [-1] * (len(column) - last - 1)
    in_posts = sum(lengths[m] for m in prose if column[m] > 0)
    in_rest = sum(lengths[m] for m in prose if column[m] < 0)
    return [0] * len(column) if in_rest > in_posts else column


def _main_depth(depths: Sequence[int], lengths: Sequence[int], ratios: Sequence[float], prose_link_ratio: float) -> int:
    """The depth whose lines hold the most text outside links (a link ratio of at most
    ``prose_link_ratio``): where the prose sits."""
    if core.compiled is not None:
        depth = core.compiled.main_depth(depths, lengths, ratios, prose_link_ratio)
        if depth is not None:
            return depth
    text_at: dict[int, int] = {}
    for depth, length, ratio in zip(depths, lengths, ratios):
        if ratio <= prose_link_ratio:
            text_at[depth] = text_at.get(depth, 0) + length
    return max(text_at, key=lambda d: (text_at[d], -d)) if text_at else 0


def _depths(levels: Sequence[int], block: etree._Element | None) -> list[int]:
    """Unit.depth of each line: the elements between the block and the line's owner
    (0 for the block's own lines), from the owners' levels."""
    if block is None:
        return [0] * len(levels)
    below = sum(1 for _ in block.iterancestors()) + 1  # the level of the block's children
    return [max(0, level - below) for level in levels]
