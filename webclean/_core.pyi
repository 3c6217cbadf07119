# The compiled core's interface (webclean/_core.pyx), for mypy; webclean/core.py loads it.
from collections.abc import Callable
from typing import Any

from lxml import etree

from webclean.config import LinesConfig
from webclean.core import SegmentRules

def segment(container: etree._Element, rules: SegmentRules, settings: LinesConfig) -> list[Any] | None: ...
def _is_space(cp: str | int) -> bool: ...
def census(root: etree._Element, tags: tuple[str, ...], attribute: bytes) -> tuple[list[int], list[str]]: ...
def item_runs(owners: list[etree._Element], lengths: list[int], levels: int, run_items: int) -> tuple[int, int, int]: ...

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
        names_gallery: Callable[[str], bool],
    ) -> None: ...
    def __call__(self, attrs: str) -> tuple[bool, bool, int, bool, bool]: ...
