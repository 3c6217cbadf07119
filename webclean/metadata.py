"""Time of publication and source of a page: the structured fields of Chen et al. (2007).

Chen et al. (Journal of Yanshan University, 2007) turn a news page into a record
(title, time, source, body); every method fills the last two the same way, from here:

- ``published``: the page's own machine-readable date first (``<meta
  property="article:published_time">``, ``pubdate``, ``itemprop="datePublished"``,
  ``<time datetime>``), else the first visible date near the headline, in Chinese
  or English forms (``2005-6-12 21:37:05``, ``2022年3月5日 08:30``, ``March 5, 2022``).
  Always returned as ISO 8601 (``2022-03-05T08:30:00``, or ``2022-03-05`` without a
  time); a meta value that carries a zone keeps it.
- ``source``: a visible "来源：新华社" / "Source: Reuters" (the agency the story is
  from, which is what Chen et al. mean by 信息来源), else ``og:site_name``, else the
  ``author`` meta.

And :func:`is_story`: whether the page says it is one story (an article, a post),
which the ``items`` pass of method svm reads.

Nothing here edits the tree.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from urllib.parse import urlsplit

from ahocorasick_rs import AhoCorasick
from lxml import etree

from webclean import core
from webclean.config import MetadataConfig
from webclean.parse import meta_contents
from webclean.vocabulary import (
    COMMENT_FORM_NAMES,
    COMMENT_NAMES,
    FORUM_WORDS,
    MONTHS,
    SOURCE_LABELS_EN,
    SOURCE_LABELS_ZH,
    SOURCE_TAIL_LABELS,
    STORY_TYPES,
)

__all__ = ["PageMetadata", "find_date", "find_source", "is_story", "page_metadata", "visible_lines"]

# <meta> keys (name, property or itemprop, lower-cased) that hold the publication time.
_DATE_META_KEYS = (
    "article:published_time",
    "og:published_time",
    "datepublished",
    "pubdate",
    "publishdate",
    "publish_date",
    "publication_date",
    "date",
    "dc.date.issued",
    "dc.date",
    "sailthru.date",
    "parsely-pub-date",
)
_SOURCE_META_KEYS = ("og:site_name", "author")

_TIME = r"(?:\s*(?:[T\s]|日\s*)?(?P<H>[0-2]?\d)[:：时](?P<M>[0-5]\d)(?:[:：分](?P<S>[0-5]\d))?\s*(?P<ampm>[AaPp]\.?[Mm]\.?)?)?"
# The English pattern opens with a look-ahead for the characters a match can start with:
# the same matches, and most positions are passed over on one character test.
# The numeric pattern opens with its year's first two digits and only then looks behind
# them for another digit: a pattern that opens with characters is searched for them in
# C, without being tried at every position.
_NUMERIC_DATE_RE = re.compile(
    r"(?P<y>(?:19|20)(?<!\d(?:19|20))\d\d)\s*(?:[-/.]|年)\s*(?P<m>[01]?\d)\s*(?:[-/.]|月)\s*(?P<d>[0-3]?\d)(?!\d)\s*日?" + _TIME
)
_ENGLISH_DATE_RE = re.compile(
    r"\b(?=[adfjmnos0-9])(?:(?P<mon1>[a-z]{3,9})\.?\s+(?P<d1>[0-3]?\d)(?:st|nd|rd|th)?,?\s+(?P<y1>(?:19|20)\d\d)"
    r"|(?P<d2>[0-3]?\d)(?:st|nd|rd|th)?\s+(?P<mon2>[a-z]{3,9})\.?,?\s+(?P<y2>(?:19|20)\d\d))\b"
    r"(?:,?\s*(?:at\s+)?(?P<H>[0-2]?\d):(?P<M>[0-5]\d)(?::(?P<S>[0-5]\d))?\s*(?P<ampm>[AaPp]\.?[Mm]\.?)?)?",
    re.IGNORECASE,
)
# A source names a short run of non-space text after the label; it ends at a space,
# a separator or the next label (来源：新华社 作者：… / 来源：新华社|编辑：…).
_SOURCE_RE = re.compile(
    r"(?P<zhlabel>[\u4e00-\u9fff]{2,4})\s*[:：]\s*(?P<zh>[^\s:：|｜/,，;；。()（）\[\]【】]{1,30})"
    r"|\b(?P<enlabel>[A-Z][a-z]{2,6})\s*:\s*(?P<en>[A-Z][\w&.'’-]*(?:[ \t][A-Z][\w&.'’-]*){0,4})"
)
# How much visible text is searched (``scan_chars``: metadata sits near the top of an
# article), how close after the headline a visible date is the article's
# (``near_headline_chars``), how long a line naming a source may be (``byline_chars``):
# config.MetadataConfig.
_DEFAULT = MetadataConfig()


@dataclass(frozen=True)
class PageMetadata:
    published: str | None
    source: str | None


def page_metadata(
    root: etree._Element, headline: str | None = None, lines: Sequence[str] | None = None, settings: MetadataConfig = _DEFAULT
) -> PageMetadata:
    """The page's time of publication (ISO 8601) and source, None where not found.

    ``headline`` (the page title when not given) is where visible dates are looked
    for first: a date just below the headline is the article's, while the first
    date of the page is often today's date in the site header. ``lines`` is the
    page's visible text in order, when a method has it already (segment.py's
    lines, whitespace collapsed); else the body's text nodes are read, up to
    ``settings.scan_chars``.
    """
    lines = visible_lines(root, settings.scan_chars) if lines is None else _first_chars(lines, settings.scan_chars)
    text = "\n".join(lines)
    dated, headings = _metadata_elements(root)
    dates, sources = _meta_values(dated)
    published = _meta_date(dates)
    if published is None:
        published = _visible_date(text, headline if headline is not None else _title(headings), settings.near_headline_chars)
    return PageMetadata(published, _source(sources, lines, text, settings.byline_chars))


def _first_chars(lines: Sequence[str], scan_chars: int) -> list[str]:
    """The lines up to the one that passes ``scan_chars``, as visible_lines cuts them."""
    seen = 0
    for count, line in enumerate(lines, 1):
        seen += len(line)
        if seen > scan_chars:
            return list(lines[:count])
    return list(lines)


def visible_lines(root: etree._Element, scan_chars: int = _DEFAULT.scan_chars) -> list[str]:
    """The body's text nodes in document order, whitespace collapsed, up to ``scan_chars``."""
    body = root.find("body")
    lines: list[str] = []
    seen = 0
    for piece in (body if body is not None else root).itertext():
        text = " ".join(piece.split())
        if text:
            lines.append(text)
            seen += len(text)
            if seen > scan_chars:
                break
    return lines


def find_date(text: str) -> str | None:
    """The first valid date (and time) written in ``text``, as ISO 8601."""
    # The first valid match of the two patterns by position, numeric first on a tie:
    # the first valid numeric one, unless a valid English one starts before it. Each
    # pattern's matches come in order of position, so the English ones are read only
    # up to the numeric one (most pages that have a date write it in numbers).
    numeric = next(((match.start(), iso) for match in _NUMERIC_DATE_RE.finditer(text) if (iso := _iso(match))), None)
    limit = len(text) if numeric is None else numeric[0]
    for match in _english_dates(text, limit):
        iso = _iso(match)
        if iso:
            return iso
    return None if numeric is None else numeric[1]


# Every English date has a year after white space; before the year, a day and a month
# (with ".", "," or "st" at most 11 characters, "September.,") and white space before each.
_YEAR_AFTER_SPACE_RE = re.compile(r"(?:19|20)(?<=\s(?:19|20))\d\d")  # opens with its digits, as above
_DATE_WORD_CHARS = 12


def _english_dates(text: str, limit: int) -> Iterator[re.Match[str]]:
    """``_ENGLISH_DATE_RE.finditer(text)``, without trying the pattern everywhere, up to
    the first match that starts at ``limit`` or later.

    The pattern cannot start at a character test (it opens with a word boundary), so
    finditer tries it at every position of the text, the cost of find_date. A match
    ends its date with a year after white space, and starts at most two words and
    their white space before it; no other year lies in between. So the pattern is
    searched only from there to just past each such year (the character after it
    decides the word boundary), and the match found is made again on the whole text,
    where the time after the year may continue.
    """
    done = 0  # finditer's matches do not overlap: the next one starts after the last
    previous = 0  # the end of the year before: no date reaches back past it
    for year in _YEAR_AFTER_SPACE_RE.finditer(text):
        start = _words_before(text, max(done, previous), year.start())
        if start >= limit:  # a match starts at start or later; so do the next years'
            return
        previous = end = year.end()
        if end <= done:
            continue
        found = _ENGLISH_DATE_RE.search(text, start, end + 1)
        while found is not None and (found["mon1"] or found["mon2"]).lower() not in MONTHS:
            found = _ENGLISH_DATE_RE.search(text, found.start() + 1, end + 1)  # a word that is no month
        if found is not None:
            match = _ENGLISH_DATE_RE.match(text, found.start())
            if match is not None:  # always: the longer text only lets the time continue
                if match.start() >= limit:
                    return
                done = match.end()
                yield match


def _words_before(text: str, floor: int, position: int) -> int:
    """Where a date that ends its day and month just before ``position`` can start, not
    before ``floor``: back over white space, a word of at most _DATE_WORD_CHARS, white
    space, a word. In C on the text since ``floor``, which each year starts after the last."""
    head = text[floor:position]
    for _ in range(2):
        head = head.rstrip()
        if head:
            head = head[: -len(head[-_DATE_WORD_CHARS:].split()[-1])]
    return floor + len(head)


def find_source(text: str) -> str | None:
    """The source named by a 来源：/ Source: label in ``text``."""
    match = _SOURCE_RE.search(text)
    while match is not None:
        if match["zhlabel"]:
            labelled = match["zhlabel"].endswith(SOURCE_LABELS_ZH)
        else:
            labelled = match["enlabel"] in SOURCE_LABELS_EN
        if not labelled:  # another label: a source's may follow in what it would name
            match = _SOURCE_RE.search(text, match.start("zh") if match["zhlabel"] else match.start("en"))
            continue
        value = _before_labels(match["zh"] or match["en"]).strip(" -—·.")
        if value and not _NUMERIC_DATE_RE.match(value):
            return value
        match = _SOURCE_RE.search(text, match.end())
    return None


def _before_labels(value: str) -> str:
    """``value`` up to the first label that may follow a source without a space."""
    cut = min((k for k in map(value.find, SOURCE_TAIL_LABELS) if k >= 0), default=len(value))
    return value[:cut]


# --- published -----------------------------------------------------------------------


# The elements that can carry a machine-readable date, found in C in document order
# (through their attributes: faster in libxml2 than a predicate tested on every element).
_DATED_ELEMENTS = etree.XPath("//meta | //@itemprop/.. | //time/@datetime/..")
# Where _title looks for the headline, in this order.
_HEADING_TAGS = ("h1", "title")


def _metadata_elements(root: etree._Element) -> tuple[list[etree._Element], Iterable[etree._Element]]:
    """``_DATED_ELEMENTS(root)``, and the elements of _HEADING_TAGS in root's tree (each
    tag's in document order, in turn); the compiled core finds both in one walk."""
    if core.compiled is not None:
        return core.compiled.metadata_elements(root, ("meta",), "itemprop", "time", "datetime", _HEADING_TAGS)
    return _DATED_ELEMENTS(root), itertools.chain.from_iterable(root.iter(tag) for tag in _HEADING_TAGS)


def _meta_values(dated: list[etree._Element]) -> tuple[dict[str, str], dict[str, str]]:
    """What the dated elements say, read once: the first date of each key (_DATE_META_KEYS,
    "time"), and the first source of each of _SOURCE_META_KEYS, whitespace collapsed."""
    dates: dict[str, str] = {}
    sources: dict[str, str] = {}
    for element in dated:
        value = None
        if element.tag == "meta":
            named = element.get("property") or element.get("name")
            key = (named or element.get("itemprop") or "").strip().lower()
            if key in _DATE_META_KEYS:
                value = element.get("content")
            source_key = key if named else ""  # a source's key is its property or name only
            if source_key in _SOURCE_META_KEYS and source_key not in sources:
                content = " ".join((element.get("content") or "").split())
                if content:
                    sources[source_key] = content
        elif (element.get("itemprop") or "").strip().lower() == "datepublished":
            key = "datepublished"
            value = element.get("datetime") or element.get("content") or " ".join("".join(element.itertext()).split())
        elif element.tag == "time" and element.get("datetime"):
            key, value = "time", element.get("datetime")
        if value and key not in dates:
            dates[key] = value.strip()
    return dates, sources


def _meta_date(candidates: dict[str, str]) -> str | None:
    for key in (*_DATE_META_KEYS, "time"):
        iso = _normalise_date(candidates.get(key))
        if iso:
            return iso
    return None


def _normalise_date(value: str | None) -> str | None:
    """An ISO 8601 date-time kept as it is (normalised); anything else read as text."""
    if not value:
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return find_date(value)
    if not 1990 <= parsed.year <= 2100:
        return None
    return parsed.date().isoformat() if re.fullmatch(r"\d{4}-\d\d-\d\d", value) else parsed.isoformat()


def _visible_date(text: str, headline: str, near_chars: int) -> str | None:
    """The first date within ``near_chars`` after the headline, else the text's first."""
    start = text.find(headline) if headline else -1
    if start >= 0:
        near = find_date(text[start : start + len(headline) + near_chars])
        if near:
            return near
    return find_date(text)


def _iso(match: re.Match[str]) -> str | None:
    groups = match.groupdict()
    try:
        if groups.get("y") is not None:
            year, month, day = int(groups["y"]), int(groups["m"]), int(groups["d"])
        else:
            year = int(groups["y1"] or groups["y2"])
            month = MONTHS[(groups["mon1"] or groups["mon2"]).lower()]
            day = int(groups["d1"] or groups["d2"])
        day_iso = date(year, month, day).isoformat()
    except (ValueError, KeyError):
        return None
    if groups.get("H") is None:
        return day_iso
    hour, minute, second = int(groups["H"]), int(groups["M"]), int(groups["S"] or 0)
    ampm = (groups.get("ampm") or "").lower().replace(".", "")
    if ampm == "pm" and hour < 12:
        hour += 12
    elif ampm == "am" and hour == 12:
        hour = 0
    if hour > 23:
        return day_iso
    return f"{day_iso}T{hour:02d}:{minute:02d}:{second:02d}"


# --- source --------------------------------------------------------------------------


# The labels find_source looks for, found in C: only the lines that hold one are searched.
_SOURCE_HINTS = AhoCorasick([*SOURCE_LABELS_ZH, *sorted(SOURCE_LABELS_EN)])


def _source(metas: dict[str, str], lines: list[str], text: str, byline_chars: int) -> str | None:
    """The first line's source label, else a source <meta> (``metas``, _meta_values);
    ``text`` is the lines joined by newlines. Only the lines that hold a label can name
    a source, and only those of at most ``byline_chars``: a label in running prose
    ("the source: …") is not a byline."""
    starts: list[int] = []
    searched = -1
    for _, hint, _ in _SOURCE_HINTS.find_matches_as_indexes(text):
        starts = starts or list(itertools.accumulate((len(line) + 1 for line in lines[:-1]), initial=0))
        k = bisect.bisect_right(starts, hint) - 1  # the line that holds it
        if k == searched:
            continue
        searched = k
        line = lines[k]
        if len(line) <= byline_chars:
            found = find_source(line)
            if found:
                return found
    return next((metas[key] for key in _SOURCE_META_KEYS if key in metas), None)


def _title(headings: Iterable[etree._Element]) -> str:
    """The first of the headings (_metadata_elements) with text, whitespace collapsed."""
    for element in headings:
        text = " ".join("".join(element.itertext()).split())
        if text:
            return text
    return ""


# A page of one story says so: its Open Graph type, or the readers' comments under it.


_WORD_BREAK_RE = re.compile(r"[-_.]")
# The words of a class or id value (is_story): runs of word characters.
_NAME_WORD_RE = re.compile(r"\w+")


def is_forum(url: str | None) -> bool:
    """Whether the page's web address says it is a forum's: a label of its host or a
    segment of its path starts with a word of FORUM_WORDS (``forum.example.org``,
    ``/t/some-topic/123``, ``/thread-4321-1-1.html``, ``/questions/42/``). A file's
    path names the directories of a machine, not the page: no."""
    if not url:
        return False
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
    except ValueError:  # a malformed address names nothing
        return False
    if parts.scheme not in ("http", "https"):
        return False
    tokens = (*host.split("."), *parts.path.split("/"))
    return any(_WORD_BREAK_RE.split(token.lower(), maxsplit=1)[0] in FORUM_WORDS for token in tokens)


def holds_comment_form(root: etree._Element) -> bool:
    """Whether the page holds the box where a reader writes a comment: an element whose
    class or id names it (WordPress's ``respond`` and ``comment-form``, Blogger's
    ``comment-form``), left in place when its form is dropped as a widget."""
    return _names_an_element(root, _names_comment_form, _COMMENT_FORM_WORDS)


def _names_comment_form(name: str) -> bool:
    return any("respond" in word or word in COMMENT_FORM_NAMES for word in name.lower().split())


def _names_comments(name: str) -> bool:
    return any(word in COMMENT_NAMES for word in _NAME_WORD_RE.findall(name.lower()))


# What a lower-cased id or class holds where _names_comment_form or _names_comments
# says yes: one of its words is one of these, or holds "respond".
_COMMENT_FORM_WORDS = ("respond", *sorted(COMMENT_FORM_NAMES))
_COMMENT_WORDS = tuple(sorted(COMMENT_NAMES))


def _names_an_element(root: etree._Element, names: Callable[[str], bool], words: Sequence[str]) -> bool:
    """Whether the id or the class of an element of the page ``names`` something;
    ``words``: what the lower-cased id or class holds where ``names`` says yes. The
    compiled core reads the distinct names in one walk, and a page none of whose names
    holds a word needs no test of each."""
    if core.compiled is not None:
        values = core.compiled.element_names(root, ("id", "class"))
        lowered = "\n".join(values).lower()  # as each lower-cased alone: lower() keeps the newlines, no word holds one
        return any(word in lowered for word in words) and any(map(names, values))
    for element in root.iter():
        for name in element.get("id"), element.get("class"):
            if name and names(name):
                return True
    return False


def is_story(root: etree._Element) -> bool:
    """Whether the page says it is one story rather than a page of items: its
    ``og:type`` is article, blog or news, or it holds the readers' comments or the
    form to write one (an element whose id or class names comments, ``respond``,
    ``disqus_thread``)."""
    if any(kind.lower() in STORY_TYPES for kind in meta_contents(root, "og:type")):
        return True
    return _names_an_element(root, _names_comments, _COMMENT_WORDS)
