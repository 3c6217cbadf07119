"""Why each line of a page was kept or dropped: ``webclean extract --explain``.

For the methods with a classifier (svm and paper): the block Step 1 located, then each
unit in document order with where it lies, its kind and length, the classifier's
decision value for the unit as a whole (above 0: content) and what became of it. The
units and their fate are those of :func:`webclean.extract.extract` on the same page:
the kept texts, joined, are its text.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from webclean.config import Config
from webclean.denoise import AS_IS, DROPPED, KEPT, PARTLY_KEPT, POST, POST_REST
from webclean.extract import check_model, classify_page, extract, oversized, within_limits
from webclean.model import Model, default_model
from webclean.passes import COMMENT, FURNITURE, ITEM, REPEAT
from webclean.registry import method
from webclean.result import Extraction, Status
from webclean.text import text_length

# The outcomes of a unit (webclean/denoise.py, webclean/passes.py), named here too for the callers of explain.
__all__ = [
    "AS_IS", "COMMENT", "DROPPED", "FURNITURE", "ITEM", "KEPT", "PARTLY_KEPT", "POST", "POST_REST", "REPEAT", "Explanation",
    "UnitReport", "explain",
]  # fmt: skip

_REGIONS = {-1: "before", 0: "block", 1: "after"}
_PREVIEW = 72


@dataclass(frozen=True)
class UnitReport:
    text: str
    region: str  # "before" the located block, in the "block", or "after" it
    kind: str  # the line's kind (method svm) or the tag (paper)
    length: int  # characters other than white space
    link_ratio: float
    decision: float | None  # the classifier's value for the whole unit; None where not classified
    outcome: str  # KEPT, PARTLY_KEPT, DROPPED, POST, POST_REST, REPEAT, FURNITURE, COMMENT, ITEM or AS_IS
    kept: str  # what the extraction keeps of it ("" when nothing)


@dataclass(frozen=True)
class Explanation:
    status: str
    error: str | None
    method: str
    block_path: str | None
    units: tuple[UnitReport, ...]
    page_type: str | None = None  # as Extraction.page_type
    page_type_probability: float | None = None
    confidence: float | None = None  # as Extraction.confidence

    @property
    def text(self) -> str:
        """The extraction's text: the kept parts, one unit a line."""
        return "\n".join(unit.kept for unit in self.units if unit.kept)

    @classmethod
    def failed(cls, extraction: Extraction, method: str) -> Explanation:
        """A page that failed before its units were classified: no units, the reason."""
        return cls(extraction.status, extraction.error, method, None, ())

    def to_dict(self) -> dict[str, object]:
        return asdict(self)

    def table(self) -> str:
        """The explanation as plain text, a unit a line, for a terminal."""
        kept = sum(1 for unit in self.units if unit.kept)
        head = f"method {self.method} · status {self.status}"
        head += f" · block {self.block_path}" if self.block_path else f" · {self.error}"
        if self.page_type is not None:
            head += f" · page type {self.page_type} ({self.page_type_probability:.2f})"
        if self.confidence is not None:
            head += f" · confidence {self.confidence:.2f}"
        lines = [f"{head} · {len(self.units)} units, {kept} kept"]
        for unit in self.units:
            value = "     -" if unit.decision is None else f"{unit.decision:+6.2f}"
            preview = unit.text if len(unit.text) <= _PREVIEW else unit.text[: _PREVIEW - 1] + "…"
            lines.append(f"{unit.outcome:<11} {value} {unit.region:<6} {unit.kind:<7} {unit.length:>5}  {preview}")
        return "\n".join(lines)


def check_explainable(config: Config) -> None:
    """Raise ValueError for a method without a classifier: it has no units to explain."""
    if method(config.method).classifier is None:
        raise ValueError(f"--explain needs a method with a classifier (svm or paper), not {config.method!r}")


def explain(
    html: str | bytes,
    url: str | None = None,
    *,
    config: Config | None = None,
    model: Model | None = None,
    http_charset: str | None = None,
) -> Explanation:
    """The extraction of one page, unit by unit (methods svm and paper only), under the
    same limits as :func:`webclean.extract.extract`."""
    config = config or Config()
    check_explainable(config)
    refused = oversized(html, config)
    if refused is not None:
        return Explanation.failed(refused, config.method)
    model = model or default_model(config.method)
    check_model(model, config)
    page = within_limits(config, lambda: classify_page(html, config, model, http_charset, url=url, values=True))
    if isinstance(page, Extraction):
        return Explanation.failed(page, config.method)
    block = page.located.block
    typed = page.page_type or (None, None)
    # The confidence of the extraction as extract gives it: its signals read the decision
    # values that the extraction has on the way, not every value asked for here.
    confidence = None if model.confidence is None else extract(html, url, config=config, model=model, http_charset=http_charset).confidence
    if block is None:
        return Explanation(Status.EMPTY, "no block holds text", config.method, None, (), typed[0], typed[1], confidence)
    reports = tuple(
        UnitReport(
            unit.text,
            _REGIONS[unit.region],
            unit.kind if unit.tag == "line" else unit.tag,
            text_length(unit.text),
            unit.link_ratio,
            decision.value,
            decision.outcome,
            decision.text,
        )
        for unit, decision in zip(page.located.units, page.decisions)
    )
    status = Status.OK if page.text else Status.EMPTY
    error = None if status == Status.OK else "every unit of the block was classified as noise"
    return Explanation(status, error, config.method, block.path, reports, typed[0], typed[1], confidence)
