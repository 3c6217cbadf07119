"""Score webclean and its peers on the same pages with the same measures.

    python benchmarks/quality.py --data ../shared/data/*.jsonl.gz \\
        [--extractors webclean,trafilatura,readability,resiliparse,justext] \\
        [--limit N] [--jobs 2] [--out benchmarks/results/] [--per-page NAME]

Every extractor gets the page's HTML as a ``str`` (and its URL where the peer takes
one); pages with a full gold text get token F1 and shingle F1, ``snippets`` pages get
snippet P/R/F1 (``webclean.metrics``). A peer that raises on a page scores an empty
output there and the failure is counted: a crash is the worst extraction, not a
page to leave out. Time is ``time.process_time`` around the extractor call alone
(CPU time, so a busy machine does not slow the numbers much), as pages per second.

Peers are optional (``pip install webclean[peers]`` and a few more): an extractor
whose package does not import is skipped with a message. The library never imports
them; only this script does.

Output: one Markdown table per set on stdout and in ``<out>/quality.md``, and every
per-page score in ``<out>/quality.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import logging
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

# Run as a script: use webclean as installed or on PYTHONPATH, else the tree above.
ROOT = Path(__file__).resolve().parents[1]
if importlib.util.find_spec("webclean") is None:
    sys.path.insert(0, str(ROOT))

from webclean.datasets import Page, read_pages  # noqa: E402
from webclean.metrics import PageScore, Scoreboard, Summary, score_page  # noqa: E402

Extract = Callable[[Page], "str | None"]

DEFAULT_EXTRACTORS = ("webclean", "trafilatura", "readability", "resiliparse", "justext")


# --- adapters ----------------------------------------------------------------
# Each builder imports its package and returns a function Page -> text; an
# ImportError means "not installed" and the extractor is skipped.


def _url(page: Page) -> str | None:
    """The page's address, or None for the placeholders that some sets put there."""
    return page.url if page.url and page.url.startswith(("http://", "https://")) else None


def _webclean(pages: Sequence[Page] = (), method: str = "svm") -> Extract:
    import webclean  # the package's extract() function, not the webclean.extract module
    from webclean.result import Status

    config = webclean.Config(method=method)

    def run(page: Page) -> str:
        result = webclean.extract(page.html, _url(page), config=config)
        if result.status not in (Status.OK, Status.EMPTY):
            raise ExtractorFailure(f"{result.status}: {result.error}")
        return result.text

    # One small page first: a library without its model (or half-written) should be
    # skipped with its error, not fail on every page.
    run(Page(id="smoke", source="", url=None, lang="en", html=_SMOKE_HTML, text=""))
    return run


_SMOKE_HTML = "<html><body><div><p>" + "A sentence of main text. " * 8 + "</p></div></body></html>"


def _webclean_paper(pages: Sequence[Page] = ()) -> Extract:
    return _webclean(pages, method="paper")


def _webclean_method(method: str) -> Callable[..., Extract]:
    """The seed documents' other systems (blocks, ladom, mlp), packaged as they are."""
    return lambda pages=(): _webclean(pages, method=method)


CV_FOLDS = 3


def _webclean_cv(pages: Sequence[Page] = (), method: str = "svm") -> Extract:
    """webclean with models that never saw the page they extract.

    The packaged model was trained on these very pages, so its scores here flatter it.
    This extractor trains CV_FOLDS models, each on the pages outside one fold (folds
    by page HTML, as `webclean evaluate --cross-validate`), and extracts each page with
    the model of its own fold: the honest figure to set beside the peers'.
    """
    import webclean
    from webclean.evaluate import fold_of
    from webclean.training import train

    config = webclean.Config(method=method).with_overrides([f"classifier.folds={CV_FOLDS}"])
    models = {}
    for fold in range(CV_FOLDS):
        models[fold], _ = train((p for p in pages if fold_of(p, CV_FOLDS) != fold), config)

    def run(page: Page) -> str:
        model = models[fold_of(page, CV_FOLDS)]
        return webclean.extract(page.html, _url(page), config=config, model=model).text

    return run


def _webclean_paper_cv(pages: Sequence[Page] = ()) -> Extract:
    return _webclean_cv(pages, method="paper")


def _trafilatura() -> Extract:
    import trafilatura

    # Its own benchmark's settings: defaults (fallbacks on, tables in) less comments,
    # which no gold text here includes.
    return lambda page: trafilatura.extract(page.html, url=_url(page), include_comments=False)


def _trafilatura_fast() -> Extract:
    import trafilatura

    return lambda page: trafilatura.extract(page.html, url=_url(page), include_comments=False, fast=True)


def _readability() -> Extract:
    from readability import Document

    return lambda page: html_text(Document(page.html, url=_url(page)).summary(html_partial=True))


def _resiliparse() -> Extract:
    from resiliparse.extract.html2text import extract_plain_text

    # The documented call for main content; everything else at its defaults.
    return lambda page: extract_plain_text(page.html, main_content=True)


def _resiliparse_nocomments() -> Extract:
    from resiliparse.extract.html2text import extract_plain_text

    # Like trafilatura's include_comments=False: resiliparse keeps comment sections
    # by default, which the gold texts leave out.
    return lambda page: extract_plain_text(page.html, main_content=True, comments=False, alt_texts=False)


# ISO 639-1 code -> jusText stop list, for the languages of the dev data and a few more.
JUSTEXT_STOPLISTS = {
    "an": "Aragonese", "ar": "Arabic", "cs": "Czech", "da": "Danish", "de": "German",
    "el": "Greek", "en": "English", "es": "Spanish", "fi": "Finnish", "fr": "French",
    "hu": "Hungarian", "id": "Indonesian", "it": "Italian", "ko": "Korean", "la": "Latin",
    "nl": "Dutch", "no": "Norwegian_Bokmal", "pl": "Polish", "pt": "Portuguese",
    "ro": "Romanian", "ru": "Russian", "sk": "Slovak", "sv": "Swedish", "tr": "Turkish",
    "uk": "Ukrainian", "vi": "Vietnamese",
}  # fmt: skip


# Languages written without spaces between words: jusText's stop-word density is
# zero on them whatever the list, so it would call every paragraph boilerplate.
UNSPACED_LANGS = frozenset({"zh", "ja", "th", "lo", "km", "my"})


def _justext() -> Extract:
    import justext

    @lru_cache(maxsize=None)
    def stoplist(lang: str) -> frozenset[str]:
        return justext.get_stoplist(JUSTEXT_STOPLISTS.get(lang, "English"))

    def run(page: Page) -> str:
        if page.lang in UNSPACED_LANGS:
            # jusText's language-independent mode (empty stop list, both thresholds
            # 0), what its own command line does without a stop list. The English
            # list would score token F1 = 0.000 on the Chinese sets.
            paragraphs = justext.justext(page.html, frozenset(), stopwords_low=0, stopwords_high=0)
        else:
            paragraphs = justext.justext(page.html, stoplist(page.lang))
        return "\n".join(p.text for p in paragraphs if not p.is_boilerplate)

    return run


def _boilerpy3() -> Extract:
    from boilerpy3 import extractors

    extractor = extractors.ArticleExtractor()
    return lambda page: extractor.get_content(page.html)


def _goose3() -> Extract:
    from goose3 import Goose
    from goose3.text import StopWordsArabic, StopWordsChinese, StopWordsKorean

    special = {"zh": StopWordsChinese, "ko": StopWordsKorean, "ar": StopWordsArabic}

    @lru_cache(maxsize=None)
    def goose(lang: str) -> Goose:
        config = {"enable_image_fetching": False, "use_meta_language": False, "target_language": lang}
        if lang in special:
            config["stopwords_class"] = special[lang]
        return Goose(config)

    # no URL: goose would try to fetch the page
    return lambda page: goose(page.lang or "en").extract(raw_html=page.html).cleaned_text


# Builders that need the benchmark's pages (to train on) take them as an argument.
NEEDS_PAGES = {
    "webclean", "webclean-paper", "webclean-cv", "webclean-paper-cv", "webclean-blocks", "webclean-ladom",
    "webclean-mlp", "webclean-mlp-cv",
}  # fmt: skip
BUILDERS: dict[str, Callable[..., Extract]] = {
    "webclean": _webclean,
    "webclean-paper": _webclean_paper,
    "webclean-cv": _webclean_cv,
    "webclean-paper-cv": _webclean_paper_cv,
    "webclean-blocks": _webclean_method("blocks"),
    "webclean-ladom": _webclean_method("ladom"),
    "webclean-mlp": _webclean_method("mlp"),
    "webclean-mlp-cv": lambda pages=(): _webclean_cv(pages, method="mlp"),
    "trafilatura": _trafilatura,
    "trafilatura-fast": _trafilatura_fast,
    "readability": _readability,
    "resiliparse": _resiliparse,
    "resiliparse-nocomments": _resiliparse_nocomments,
    "justext": _justext,
    "boilerpy3": _boilerpy3,
    "goose3": _goose3,
}


class ExtractorFailure(RuntimeError):
    """An extractor reported a failed page instead of raising."""


_BLOCK_TAGS = (
    "p", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "td",
    "th", "table", "blockquote", "pre", "section", "article", "header", "footer",
    "figcaption", "dd", "dt", "hr",
)  # fmt: skip


def html_text(markup: str) -> str:
    """Text of an HTML fragment with a newline at every block boundary.

    ``text_content()`` alone would glue "end.</p><p>Next" into one token, which
    would cost readability points that its real output (HTML) does not deserve.
    """
    import lxml.html

    if not markup.strip():
        return ""
    root = lxml.html.fromstring(markup)
    for element in root.iter(*_BLOCK_TAGS):
        element.tail = "\n" + (element.tail or "")
        element.text = "\n" + (element.text or "")
    lines = (" ".join(line.split()) for line in root.text_content().splitlines())
    return "\n".join(line for line in lines if line)


def available(names: Iterable[str]) -> list[str]:
    """The names that can be built; say on stderr why the others are skipped.

    Any error counts, not only ImportError: webclean is written while this script
    runs, and a half-written module (or a missing model) should cost its row, not
    the peers' rows.
    """
    usable = []
    for name in names:
        if name not in BUILDERS:
            raise SystemExit(f"unknown extractor {name!r}; known: {', '.join(BUILDERS)}")
        try:
            with quiet():
                if name.endswith("-cv"):
                    # These train on the benchmark's pages: building them here would train on none.
                    importlib.import_module("webclean.training")
                else:
                    BUILDERS[name]()
        except Exception as exc:  # noqa: BLE001 - reported, and the row is skipped
            print(f"skipping {name}: {type(exc).__name__}: {exc}", file=sys.stderr)
            continue
        usable.append(name)
    return usable


# --- running -----------------------------------------------------------------


@dataclass(frozen=True)
class PageRun:
    """One extractor on one page: its scores, its CPU time, and why it failed if it did."""

    extractor: str
    score: PageScore
    seconds: float
    chars: int
    error: str | None = None


def run_page(name: str, extract: Extract, page: Page) -> PageRun:
    start = time.process_time()
    try:
        text = extract(page) or ""
        error = None
    # A peer's bug on one page is a result to count, whatever its type.
    except Exception as exc:  # noqa: BLE001
        text, error = "", f"{type(exc).__name__}: {exc}"[:300]
    seconds = time.process_time() - start
    return PageRun(name, score_page(text, page), seconds, len(text), error)


def run_extractor(name: str, paths: Sequence[str], limit: int | None) -> list[PageRun]:
    """All pages through one extractor; runs in a worker process of its own."""
    pages = load_pages(paths, limit)
    with quiet():
        extract = BUILDERS[name](pages) if name in NEEDS_PAGES else BUILDERS[name]()
        return [run_page(name, extract, page) for page in pages]


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """Silence the peers' logging and send their prints to stderr.

    boilerpy3, goose3, jieba and trafilatura log thousands of warnings on these pages,
    which would bury the tables; a failure is counted from its exception instead.
    """
    logging.disable(logging.CRITICAL)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        logging.disable(logging.NOTSET)


def load_pages(paths: Sequence[str], limit: int | None) -> list[Page]:
    """The pages of every file, at most ``limit`` from each, so every set is in a short run."""
    pages: list[Page] = []
    for path in paths:
        pages.extend(page for _, page in zip(range(limit or sys.maxsize), read_pages([path])))
    return pages


def run_all(names: Sequence[str], paths: Sequence[str], limit: int | None, jobs: int) -> dict[str, list[PageRun]]:
    if jobs <= 1:
        return {name: run_extractor(name, paths, limit) for name in names}
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {name: pool.submit(run_extractor, name, paths, limit) for name in names}
        return {name: future.result() for name, future in futures.items()}


# --- reporting ---------------------------------------------------------------


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
    head += ["token F1", "shingle P", "shingle R", "shingle F1"] if full else []
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
    head = "| lang | full-gold pages | token F1 | shingle F1 | snippet pages | snippet F1 |"
    lines = [f"### {name} by language (all sets)", "", head, "|---|---|---|---|---|---|"]
    for lang, summary in board.by_lang().items():
        if summary.pages >= min_pages:
            shingle, snip = summary.shingle, summary.snippet
            cells = [lang, str(full[lang]), _fmt(summary.token_f1), _fmt(shingle and shingle.f1)]
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


def report(results: dict[str, list[PageRun]], by_lang: bool) -> str:
    sources = sorted({r.score.source for runs in results.values() for r in runs})
    parts = [set_table(source, results) for source in sources]
    if by_lang:
        parts += [lang_table(name, runs) for name, runs in results.items()]
    return "\n\n".join(parts) + "\n"


def write_outputs(out: Path, markdown: str, results: dict[str, list[PageRun]], args: argparse.Namespace) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "quality.md").write_text(markdown, encoding="utf-8")
    meta = {"data": args.data, "limit": args.limit, "extractors": list(results), "python": sys.version.split()[0]}
    pages = [_record(run) for runs in results.values() for run in runs]
    with open(out / "quality.json", "w", encoding="utf-8") as handle:
        json.dump({"meta": meta, "pages": pages}, handle, ensure_ascii=False)


def _record(run: PageRun) -> dict[str, object]:
    """One flat JSON object a page, with named fields (asdict would make tuples lists)."""
    score = run.score
    record: dict[str, object] = {"extractor": run.extractor, "id": score.page_id, "source": score.source}
    record.update(lang=score.lang, seconds=round(run.seconds, 6), chars=run.chars, error=run.error)
    if score.token is not None:
        record["token"] = asdict(score.token)
    if score.shingle is not None:
        record["shingle"] = score.shingle._asdict()
    if score.snippet is not None:
        record["snippet"] = score.snippet._asdict()
    return record


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", nargs="+", required=True, help="jsonl(.gz) files or directories")
    parser.add_argument("--extractors", default=",".join(DEFAULT_EXTRACTORS), help="comma-separated; known: " + ", ".join(BUILDERS))
    parser.add_argument("--limit", type=int, help="at most N pages from each file")
    parser.add_argument("--jobs", type=int, default=1, help="extractors run in parallel processes")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    parser.add_argument("--per-page", metavar="NAME", help="print the worst pages of this extractor")
    parser.add_argument("--worst", type=int, default=20, help="how many pages --per-page prints")
    parser.add_argument("--by-lang", action="store_true", help="add per-language tables")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    names = available(n.strip() for n in args.extractors.split(",") if n.strip())
    if not names:
        print("no extractor available", file=sys.stderr)
        return 1
    if args.per_page and args.per_page not in names:
        print(f"--per-page {args.per_page}: not among the extractors run ({', '.join(names)})", file=sys.stderr)
        return 1
    results = run_all(names, args.data, args.limit, args.jobs)
    markdown = report(results, args.by_lang)
    print(markdown)
    if args.per_page:
        print(f"### worst pages of {args.per_page}\n\n" + worst_pages(results[args.per_page], args.worst))
    write_outputs(args.out, markdown, results, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
