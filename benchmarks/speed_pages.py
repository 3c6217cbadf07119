"""The pages a speed benchmark times, each as str and as bytes: the first ones of each file.

A data file given as ``path`` gives its first ``limit`` pages, ``path:N`` its first N;
always the first ones, so that two runs time the same pages (benchmarks/speed.py,
benchmarks/compare.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from webclean.datasets import read_pages


@dataclass(frozen=True)
class BenchPage:
    id: str
    source: str
    html: str  # as the data file has it: what the str-taking extractors get
    data: bytes  # its UTF-8 bytes: what webclean-bytes gets, as from a crawl


def load_pages(specs: Sequence[str], limit: int) -> list[BenchPage]:
    """The first pages of each file: ``path`` takes ``limit`` of them, ``path:N`` N."""
    pages: list[BenchPage] = []
    for spec in specs:
        path, count = _split_spec(spec, limit)
        for _, page in zip(range(count), read_pages([path])):
            # "replace": a lone surrogate from the JSON cannot be in a response body.
            data = page.html.encode("utf-8", "replace")
            pages.append(BenchPage(page.id, page.source, page.html, data))
    return pages


def _split_spec(spec: str, limit: int) -> tuple[str, int]:
    path, _, count = spec.rpartition(":")
    if path and count.isdigit():
        return path, int(count)
    return spec, limit
