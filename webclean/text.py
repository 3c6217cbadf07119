"""What counts as text, defined once for every step: where a line of text ends, how
long a text is, and the patterns that find words, CJK ideographs and sentence ends.

Two copies of a rule drift apart; each rule here has one home, and the modules that
parse, segment, measure and tokenize import it.
"""

from __future__ import annotations

import re
import textwrap

__all__ = [
    "BLOCK_LEVEL",
    "CJK_IDEOGRAPHS",
    "CJK_IDEOGRAPH_RANGES",
    "CJK_RE",
    "LATIN_WORD_RE",
    "LINE_BREAKS",
    "LINE_ENDING_TAGS",
    "NOT_XML_CHAR_RE",
    "SENTENCE_END_MARK_RE",
    "WORD_RE",
    "code_text",
    "normalise_space",
    "text_length",
    "xml_safe",
]

# --- where a line ends ---------------------------------------------------------------

# Block-level elements: a browser starts a new line where one starts or ends.
BLOCK_LEVEL = frozenset(
    "address article aside blockquote body caption center dd details dialog dir div dl dt "
    "fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr html li legend main menu "
    "nav ol p pre section summary table tbody td tfoot th thead tr ul".split()
)
# Elements that end the line they stand in without holding any text.
LINE_BREAKS = frozenset({"br", "hr"})
# Every tag at which a line ends.
LINE_ENDING_TAGS = BLOCK_LEVEL | LINE_BREAKS

# --- lengths ---------------------------------------------------------------------------


def text_length(text: str) -> int:
    """Characters that are not white space: the paper measures text by its characters."""
    # A printable text has no white space but " " (every other white space character is
    # a separator or a control), so counting spaces will do; lines and their sentences
    # are such texts. str.split() treats the same characters as white space as the regex \s.
    if text.isprintable():
        return len(text) - text.count(" ")
    return sum(map(len, text.split()))


def normalise_space(text: str) -> str:
    """Runs of white space made one space, and none at either end."""
    return " ".join(text.split())


# --- what lxml refuses ----------------------------------------------------------------

# What lxml refuses in a text it sets, and libxml2 may still put into a tree (from
# &#1; or &#xffff;): a step that sets a text it read from the tree removes them.
NOT_XML_CHAR_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def xml_safe(text: str | None) -> str | None:
    """``text`` without the characters lxml refuses to set (NOT_XML_CHAR_RE)."""
    return None if text is None else NOT_XML_CHAR_RE.sub("", text)


def code_text(text: str) -> str:
    """A ``<pre>``'s text as the page sets it out: its line breaks and the indents
    within kept (any line ending made a newline), the indent all its lines share,
    white space at the ends of lines and blank lines at either end taken away."""
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    start = next((i for i, line in enumerate(lines) if line), len(lines))
    return textwrap.dedent("\n".join(lines[start:]))


# --- patterns --------------------------------------------------------------------------

# CJK ideographs: Extension A, the Unified Ideographs and the Compatibility Ideographs,
# as ranges of code points (which the compiled core counts in) and as a character
# class's content. Kana, Hangul and CJK punctuation are not in it.
# (metrics.CJK_RANGES is wider on purpose: scoring counts every CJK character.)
CJK_IDEOGRAPH_RANGES = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF))
CJK_IDEOGRAPHS = "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in CJK_IDEOGRAPH_RANGES)
CJK_RE = re.compile(f"[{CJK_IDEOGRAPHS}]")
# A run of letters and digits ("_" is punctuation here, not a word character).
WORD_RE = re.compile(r"[^\W_]+")
# A run of letters and digits other than CJK ideographs.
LATIN_WORD_RE = re.compile(f"[^\\W_{CJK_IDEOGRAPHS}]+")
# A mark that ends a sentence, as the methods of webclean/methods/ count them: 。！？!?
# anywhere, "." before white space or at the end. (Methods svm and paper count by
# tokenize.sentence_ends, the sentences of Step 4's split.)
SENTENCE_END_MARK_RE = re.compile(r"[。！？!?]|\.(?=\s|$)")
