"""Why each line of a page was kept or dropped: ``webclean extract --explain``.

For the methods with a classifier (svm and paper): the block Step 1 located, then each
unit in document order with where it lies, its kind and length, the classifier's
decision value for the unit as a whole (above 0: content) and what became of it. The
units and their fate are those of :func:`webclean.extract.extract` on the same page:
the kept texts, joined, are its text.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from webclean.config import Config
from webclean.denoise import (
    TAIL_DECISION, denoise, is_credit, is_label, is_notice, is_see_also, is_spaced, last_paragraph, link_runs,
)
from webclean.extract import check_model, locate_page
from webclean.features import feature_matrix
from webclean.locate import text_length
from webclean.model import Model, default_model
from webclean.registry import method
from webclean.result import Extraction, Status

# What became of a unit.
KEPT = "kept"
PARTLY_KEPT = "partly kept"  # the noise filter dropped some of its sentences (Step 4)
DROPPED = "dropped"
LINK_RUN = "link run"  # dropped with a run of all-link lines, not classified
POST = "post"  # a thread's post text, kept whatever the classifier says (locate._records)
POST_REST = "post rest"  # the rest of a post's record (user panel, signature), dropped
CREDIT = "credit"  # a source or editor line, or a picture's credit, dropped (denoise.is_credit)
SEE_ALSO = "see also"  # a "read also" line, another story's headline, dropped (denoise.is_see_also)
NOTICE = "notice"  # the site's call to subscribe or follow, or its rights notice, dropped (denoise.is_notice)
EMPTY_HEADING = "empty heading"  # a heading over nothing kept, dropped (denoise.empty_headings)
UNSURE_TAIL = "unsure tail"  # after the text's last paragraph, kept with a decision under 1, dropped (denoise.tail_lines)
EMPTY_LABEL = "empty label"  # a "Tags:" label whose line is dropped, dropped (denoise.empty_labels)
AS_IS = "as is"  # not a sample: kept as it is (method paper's table cells)

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
    outcome: str  # KEPT, PARTLY_KEPT, DROPPED, LINK_RUN, POST, POST_REST, CREDIT, SEE_ALSO, NOTICE,
    # EMPTY_HEADING, EMPTY_LABEL, UNSURE_TAIL or AS_IS
    kept: str  # what the extraction keeps of it ("" when nothing)


@dataclass(frozen=True)
class Explanation:
    status: str
    error: str | None
    method: str
    block_path: str | None
    units: tuple[UnitReport, ...]

    @property
    def text(self) -> str:
        """The extraction's text: the kept parts, one unit a line."""
        return "\n".join(unit.kept for unit in self.units if unit.kept)

    def to_dict(self) -> dict[str, object]:
        return asdict(self)

    def table(self) -> str:
        """The explanation as plain text, a unit a line, for a terminal."""
        kept = sum(1 for unit in self.units if unit.kept)
        head = f"method {self.method} · status {self.status}"
        head += f" · block {self.block_path}" if self.block_path else f" · {self.error}"
        lines = [f"{head} · {len(self.units)} units, {kept} kept"]
        for unit in self.units:
            value = "     -" if unit.decision is None else f"{unit.decision:+6.2f}"
            preview = unit.text if len(unit.text) <= _PREVIEW else unit.text[: _PREVIEW - 1] + "…"
            lines.append(f"{unit.outcome:<11} {value} {unit.region:<6} {unit.kind:<7} {unit.length:>5}  {preview}")
        return "\n".join(lines)


def explain(
    html: str | bytes,
    *,
    config: Config | None = None,
    model: Model | None = None,
    http_charset: str | None = None,
) -> Explanation:
    """The extraction of one page, unit by unit (methods svm and paper only)."""
    config = config or Config()
    spec = method(config.method).classifier
    if spec is None:
        raise ValueError(f"--explain needs a method with a classifier (svm or paper), not {config.method!r}")
    model = model or default_model(config.method)
    check_model(model, config)
    page = locate_page(html, config, model, http_charset)
    if isinstance(page, Extraction):
        return Explanation(page.status, page.error, config.method, None, ())
    if page.block is None:
        return Explanation(Status.EMPTY, "no block holds text", config.method, None, ())
    beta, units, smoothing = config.denoise.beta, page.units, spec.smoothing
    kept = denoise(units, model.lexicon, model.svm, beta, model.feature_set, smoothing, page.title, spec.keep_whole)
    in_runs = link_runs(units, beta=beta, title=page.title) if "link_runs" in smoothing else [False] * len(units)
    # The units the extraction classifies: link runs are dropped unclassified.
    samples = [i for i, unit in enumerate(units) if unit.is_sample and not in_runs[i]]
    decisions: list[float | None] = [None] * len(units)
    if samples:
        values = model.svm.decision_function(feature_matrix([units[i] for i in samples], model.lexicon, model.feature_set))
        for i, value in zip(samples, np.asarray(values, dtype=float)):
            decisions[i] = float(value)
    # The text's last paragraph: tail_lines drops only shorter lines after it, so it is
    # the same before the pass and after.
    last = last_paragraph(kept)
    if last is None:
        last = len(units)
    reports = []
    for i, unit in enumerate(units):
        text = kept[i] or ""
        if not unit.is_sample:
            outcome = AS_IS
        elif unit.post:
            outcome = POST if unit.post > 0 else POST_REST
        elif in_runs[i]:
            outcome = LINK_RUN
        elif "credits" in smoothing and is_credit(unit):
            outcome = CREDIT
        elif "see_also" in smoothing and is_see_also(unit):
            outcome = SEE_ALSO
        elif "notices" in smoothing and is_notice(unit):
            outcome = NOTICE
        elif not text and "empty_headings" in smoothing and unit.kind == "heading" and (decisions[i] or 0.0) > 0:
            # A heading the classifier keeps goes whole (it is short): only the pass drops it.
            outcome = EMPTY_HEADING
        elif not text and "empty_labels" in smoothing and is_label(unit) and (decisions[i] or 0.0) > 0:
            outcome = EMPTY_LABEL
        elif not text and "tail_lines" in smoothing and i > last and 0 < (decisions[i] or 0.0) < TAIL_DECISION:
            outcome = UNSURE_TAIL if is_spaced(unit.text) else DROPPED
        elif not text:
            outcome = DROPPED
        else:
            outcome = KEPT if text == unit.text else PARTLY_KEPT
        kind = unit.kind if unit.tag == "line" else unit.tag
        reports.append(
            UnitReport(
                unit.text, _REGIONS[unit.region], kind, text_length(unit.text), unit.link_ratio, decisions[i], outcome, text
            )
        )
    status = Status.OK if any(r.kept for r in reports) else Status.EMPTY
    error = None if status == Status.OK else "every unit of the block was classified as noise"
    return Explanation(status, error, config.method, page.block.path, tuple(reports))
