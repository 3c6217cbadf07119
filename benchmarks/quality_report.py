"""What benchmarks/quality.py reports of its runs: Markdown tables, and every score as JSON.

A table per set (a row per extractor), token F1 by page type, the pages a webclean row
loses and wins against the peers, each held-out row's F1 per seed, and on demand per
language and the worst pages of one extractor; ``quality.json`` holds the same
figures and every page's scores.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict
from pathlib import Path

from benchmarks.extractors import split_seed
from benchmarks.quality_runs import ACCURATE_F1, PageRun
from webclean.evaluate import figures, share
from webclean.metrics import PageScore, Scoreboard, Summary


def _fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _speed(runs: Sequence[PageRun]) -> str:
    seconds = sum(r.seconds for r in runs)
    return f"{len(runs) / seconds:.1f}" if seconds > 0 else "–"


def set_table(source: str, results: dict[str, list[PageRun]]) -> str:
    """Markdown table of one set: a row per extractor."""
    rows = {name: [r for r in runs if r.score.source == source] for name, runs in results.items()}
    snippets = any(r.score.snippet is not None for runs in rows.values() for r in runs)
    full = any(r.score.token is not None for runs in rows.values() for r in runs)
    head = ["extractor", "pages"]
    head += ["token F1", "shingle P", "shingle R", "shingle F1", "located", "denoised accurately"] if full else []
    head += ["snippet P", "snippet R", "snippet F1"] if snippets else []
    head += ["pages/s", "failures"]
    lines = [f"### {source}", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, runs in rows.items():
        lines.append("| " + " | ".join(_row(name, runs, full, snippets)) + " |")
    return "\n".join(lines)


def _row(name: str, runs: Sequence[PageRun], full: bool, snippets: bool) -> list[str]:
    summary = Summary.of(r.score for r in runs)
    cells = [name, str(summary.pages)]
    if full:
        shingle = summary.shingle
        cells += [_fmt(summary.token_f1)]
        cells += [_fmt(shingle and shingle.precision), _fmt(shingle and shingle.recall), _fmt(shingle and shingle.f1)]
        cells += [_fmt(share(r.located for r in runs)), _fmt(share(r.accurate for r in runs))]
    if snippets:
        snip = summary.snippet
        cells += [_fmt(snip and snip.precision), _fmt(snip and snip.recall), _fmt(snip and snip.f1)]
    cells += [_speed(runs), str(sum(r.error is not None for r in runs))]
    return cells


def lang_table(name: str, runs: Sequence[PageRun], min_pages: int = 5) -> str:
    """Per-language scores of one extractor, for languages with enough pages to mean something."""
    board = Scoreboard()
    for run in runs:
        board.add(run.score)
    full = Counter(run.score.lang for run in runs if run.score.token is not None)
    head = "| lang | full-gold pages | token F1 | shingle F1 | located | denoised accurately | snippet pages | snippet F1 |"
    lines = [f"### {name} by language (all sets)", "", head, "|" + "---|" * 8]
    for lang, summary in board.by_lang().items():
        if summary.pages >= min_pages:
            shingle, snip = summary.shingle, summary.snippet
            in_lang = [run for run in runs if run.score.lang == lang]
            cells = [lang, str(full[lang]), _fmt(summary.token_f1), _fmt(shingle and shingle.f1)]
            cells += [_fmt(share(r.located for r in in_lang)), _fmt(share(r.accurate for r in in_lang))]
            cells += [str(summary.pages - full[lang]), _fmt(snip and snip.f1)]
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def worst_pages(runs: Sequence[PageRun], count: int) -> str:
    """The pages where an extractor scores lowest, to read them and see why."""
    lines = ["| id | source | lang | F1 | chars | error |", "|---|---|---|---|---|---|"]
    for run in sorted(runs, key=lambda r: r.score.main_f1)[:count]:
        s = run.score
        lines.append(f"| {s.page_id} | {s.source} | {s.lang} | {s.main_f1:.3f} | {run.chars} | {run.error or ''} |")
    return "\n".join(lines)


def page_type_table(results: dict[str, list[PageRun]]) -> str:
    """Token F1 per page type (on the sets that name one, WCXB), a row per extractor."""
    kinds = sorted({r.score.page_type for runs in results.values() for r in runs if r.score.page_type})
    if not kinds:
        return ""
    lines = ["### token F1 by page type", "", "| extractor | " + " | ".join(kinds) + " |", "|" + "---|" * (len(kinds) + 1)]
    for name, runs in results.items():
        cells = [name]
        for kind in kinds:
            summary = Summary.of(r.score for r in runs if r.score.page_type == kind)
            cells.append(f"{_fmt(summary.token_f1)} ({summary.pages})")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


LOSS_BELOW, PEER_ABOVE = 0.5, 0.8


def loss_table(results: dict[str, list[PageRun]], ours: str) -> str:
    """Per set, the pages where ``ours`` scores below LOSS_BELOW while some other
    extractor reaches PEER_ABOVE (its worst failures), and the other way round."""
    others = [name for name in results if name != ours and not name.startswith("webclean")]
    if ours not in results or not others:
        return ""
    by_page = {name: {(r.score.source, r.score.page_id): r.score.main_f1 for r in runs} for name, runs in results.items()}
    lost: Counter[str] = Counter()
    won: Counter[str] = Counter()
    pages: Counter[str] = Counter()
    for (source, page_id), f1 in by_page[ours].items():
        best = max(by_page[name].get((source, page_id), 0.0) for name in others)
        pages[source] += 1
        lost[source] += f1 < LOSS_BELOW and best >= PEER_ABOVE
        won[source] += best < LOSS_BELOW and f1 >= PEER_ABOVE
    head = f"| set | pages | {ours} < {LOSS_BELOW}, a peer ≥ {PEER_ABOVE} | every peer < {LOSS_BELOW}, {ours} ≥ {PEER_ABOVE} |"
    lines = [f"### pages lost and won by {ours} (peers: {', '.join(others)})", "", head, "|---|---|---|---|"]
    for source in sorted(pages):
        lines.append(f"| {source} | {pages[source]} | {lost[source]} | {won[source]} |")
    return "\n".join(lines)


def seeds_table(results: dict[str, list[PageRun]]) -> str:
    """For each held-out row run with several seeds: each set's and each page type's
    F1 (as the set tables give it) per seed, its mean over the seeds and its range,
    beside the best peer's."""
    rows: dict[str, list[str]] = {}
    for name in results:
        base, seed = split_seed(name)
        if seed is not None:
            rows.setdefault(base, []).append(name)
    peers = [name for name in results if not name.startswith("webclean")]
    parts = []
    for base, names in rows.items():
        if len(names) < 2:
            continue
        seeds = [str(split_seed(name)[1]) for name in names]
        groups: dict[str, Callable[[PageScore], bool]] = {
            source: (lambda score, source=source: score.source == source) for source in sorted({r.score.source for r in results[names[0]]})
        }
        kinds = sorted({r.score.page_type for r in results[names[0]] if r.score.page_type})
        groups.update({f"type {kind}": (lambda score, kind=kind: score.page_type == kind) for kind in kinds})
        head = f"| set | pages | {' | '.join(f'seed {s}' for s in seeds)} | mean | range | best peer | mean − best peer |"
        lines = [f"### {base}: F1 per seed", "", head, "|---|---|" + "---|" * (len(seeds) + 4)]
        for label, holds in groups.items():
            means = [_mean_f1(r for r in results[name] if holds(r.score)) for name in names]
            pages = sum(holds(r.score) for r in results[names[0]])
            if None in means:
                continue
            mean = sum(means) / len(means)
            best = max(((_mean_f1(r for r in results[peer] if holds(r.score)), peer) for peer in peers), default=(None, ""))
            peer_cells = ["–", "–"] if best[0] is None else [f"{best[1]} {best[0]:.4f}", f"{mean - best[0]:+.4f}"]
            cells = [label, str(pages), *(f"{m:.4f}" for m in means), f"{mean:.4f}", f"{max(means) - min(means):.4f}", *peer_cells]
            lines.append("| " + " | ".join(cells) + " |")
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def _mean_f1(runs: Iterable[PageRun]) -> float | None:
    """The figure of the set tables: the pages' mean token F1, or on snippet pages the
    snippet F1 of their summed counts."""
    summary = Summary.of(r.score for r in runs)
    if summary.token_f1 is not None:
        return summary.token_f1
    return summary.snippet.f1 if summary.snippet is not None else None


def report(results: dict[str, list[PageRun]], by_lang: bool) -> str:
    sources = sorted({r.score.source for runs in results.values() for r in runs})
    parts = [set_table(source, results) for source in sources]
    parts += [page_type_table(results), seeds_table(results)]
    parts += [loss_table(results, name) for name in results if name.startswith("webclean")]
    if by_lang:
        parts += [lang_table(name, runs) for name, runs in results.items()]
    return "\n\n".join(part for part in parts if part) + "\n"


def summaries(results: dict[str, list[PageRun]]) -> dict[str, dict[str, dict[str, float | int | None]]]:
    """The figures of the tables as data: extractor -> set (and "all") -> measure -> value."""
    out: dict[str, dict[str, dict[str, float | int | None]]] = {}
    for name, runs in results.items():
        groups: dict[str, list[PageRun]] = {}
        for run in runs:
            groups.setdefault(run.score.source, []).append(run)
        groups["all"] = list(runs)
        out[name] = {source: _figures(group) for source, group in groups.items()}
    return out


def _figures(runs: Sequence[PageRun]) -> dict[str, float | int | None]:
    summary = Summary.of(r.score for r in runs)
    seconds = sum(r.seconds for r in runs)
    return {
        **figures(summary, (r.located for r in runs), (r.accurate for r in runs), seconds, len(runs)),
        "failures": sum(r.error is not None for r in runs),
    }


def write_outputs(out: Path, markdown: str, results: dict[str, list[PageRun]], args: argparse.Namespace) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "quality.md").write_text(markdown, encoding="utf-8")
    meta = {"data": args.data, "limit": args.limit, "split": args.split, "extractors": list(results), "python": sys.version.split()[0]}
    meta["accurate_f1"] = ACCURATE_F1
    pages = [_record(run) for runs in results.values() for run in runs]
    with open(out / "quality.json", "w", encoding="utf-8") as handle:
        json.dump({"meta": meta, "summary": summaries(results), "pages": pages}, handle, ensure_ascii=False)


def _record(run: PageRun) -> dict[str, object]:
    """One flat JSON object a page, with named fields (asdict would make tuples lists)."""
    score = run.score
    record: dict[str, object] = {"extractor": run.extractor, "id": score.page_id, "source": score.source}
    record.update(lang=score.lang, page_type=score.page_type, seconds=round(run.seconds, 6), chars=run.chars, error=run.error)
    if run.block_recall is not None:
        record.update(block_recall=run.block_recall, located=run.located)
    if score.token is not None:
        record["token"] = asdict(score.token)
    if score.shingle is not None:
        record["shingle"] = score.shingle._asdict()
    if score.snippet is not None:
        record["snippet"] = score.snippet._asdict()
    return record
