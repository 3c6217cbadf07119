"""The systems of the other source documents, as selectable methods (docs/methods.md).

Each shares decoding, parsing and the result type with the SVM method; only the steps
from the parsed tree to the text differ. ``run_other_method`` dispatches on
``config.method``:

- ``blocks``: DOM block scoring, after a master's thesis, chapter 3 (methods/blocks.py);
- ``ladom``: link-noise marking on the LA-DOM tree and anchored extraction, after
  Chen, Li, Chen and Li, Journal of Yanshan University 31(6), 2007 (methods/ladom.py);
- ``mlp``: a multi-layer perceptron over the lines of the page, after a BP network
  over lines (methods/mlp.py), with its own trained model.

All three fill ``published`` and ``source`` from webclean/metadata.py, read before a
method edits the tree.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from webclean.config import Config
from webclean.metadata import page_metadata
from webclean.result import Extraction, Status

__all__ = ["run_other_method"]


def run_other_method(
    root: etree._Element, title: str, lang_declared: str | None, encoding: str | None, config: Config, model: Any
) -> Extraction:
    """The extraction of a parsed page by method ``config.method`` (not paper or svm)."""
    metadata = page_metadata(root)
    body = root.find("body")
    if body is None:  # parse_html always makes one; a tree from elsewhere may not have it
        body = root
    if config.method == "blocks":
        from webclean.methods.blocks import blocks_text

        paragraphs = blocks_text(body)
    elif config.method == "ladom":
        from webclean.methods.ladom import ladom_record

        record = ladom_record(root, title, metadata.published, metadata.source)
        paragraphs, title = list(record.body), record.title or title
    elif config.method == "mlp":
        from webclean.methods.mlp import mlp_lines

        paragraphs = mlp_lines(root, title, model)
    else:
        raise ValueError(f"method {config.method!r} is not one of the other methods")
    text = "\n".join(paragraphs)
    return Extraction(
        text=text,
        title=title,
        status=Status.OK if text else Status.EMPTY,
        error=None if text else f"method {config.method} kept no text",
        encoding=encoding,
        lang_declared=lang_declared,
        method=config.method,
        published=metadata.published,
        source=metadata.source,
    )
