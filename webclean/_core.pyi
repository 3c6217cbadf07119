# The compiled core's interface (webclean/_core.pyx), for mypy; webclean/core.py loads it.
from collections.abc import Callable
from typing import Any

from lxml import etree

from webclean.core import SegmentRules

def segment(
    container: etree._Element,
    rules: SegmentRules,
    passed_max_share: float,
    holds_story: Callable[[etree._Element], object],
    kind: Callable[[etree._Element, float], str],
) -> list[Any] | None: ...
def _is_space(cp: str | int) -> bool: ...
