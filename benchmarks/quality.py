"""Score webclean and its peers on the same pages with the same measures.

    python benchmarks/quality.py --data ../shared/data/*.jsonl.gz \\
        [--extractors webclean,trafilatura,readability,resiliparse,justext | peers,webclean-loso] \\
        [--limit N] [--jobs 2] [--out benchmarks/results/] [--plots DIR | --no-plots] \\
        [--per-page NAME] [--by-lang] [--seeds 0,1,2,3]

Every extractor gets the page's HTML as a ``str`` (and its URL where the peer takes
one); pages with a full gold text get token F1 and shingle F1, ``snippets`` pages get
snippet P/R/F1 (``webclean.metrics``). A peer that raises on a page scores an empty
output there and the failure is counted: a crash is the worst extraction, not a
page to leave out. Time is ``time.process_time`` around the extractor call alone
(CPU time, so a busy machine does not slow the numbers much), as pages per second.

The paper's two rates, on full-gold pages (``webclean.evaluate``):

- *located* (C2 / C1): the share of pages whose located block holds at least 95 % of
  the gold's tokens. Only webclean's methods svm and paper locate a block, so only
  their rows (``webclean``, ``webclean-loso``, ``webclean-sites``, ``webclean-paper``,
  ``webclean-paper-loso``) have it; the block does not depend on the model, so a
  held-out row has the same.
- *denoised accurately* (C3 / C1): the share of pages with token F1 >= ACCURATE_F1,
  for every extractor.

Held out: ``webclean-loso`` extracts each set with a model trained on the other sets
(leave one set out, the primary measure), ``webclean-sites`` each page with a model
trained on the sites of the other folds (webclean.evaluate.held_out_models),
``webclean-judge`` the judge split with a model trained on every other page. The pages
scored are those of ``--split``: by default the pages outside the judge split
(webclean/splits.py), which development may read; ``--split judge`` scores the judge
split alone, whose pages are reported and never read one by one; the
report adds token F1 per page type (WCXB's ``page_type``) and, for each webclean row,
the pages it scores below 0.5 where a peer reaches 0.8, and the other way round.

A held-out row's models depend on their seed (``classifier.random_state``: the SVM's
sample of lines, the trees' early stopping): retrained on a slightly different set of
lines, they move a set's F1 by 0.001 to 0.004, about as much as another seed does.
``--seeds 0,1,2,3`` runs each held-out row once per seed (rows ``webclean-loso@0``,
``webclean-loso@1`` …; one row may also be asked for as ``webclean-loso@2``) and adds a
table of each set's and page type's F1 per seed and over the seeds, beside the best
peer's.

Peers are optional (``pip install webclean[peers]``): an extractor whose package does
not import is skipped with a message. The library never imports them; only this
script does. ``--extractors peers`` stands for all of them.

Output: one Markdown table per set on stdout and in ``<out>/quality.md``, every
per-page score and the per-set figures in ``<out>/quality.json``, and with matplotlib
installed (it is in the ``peers`` extra) a figure per set, ``quality-<set>.png``: mean
F1 per extractor beside the distribution of its per-page F1, and
``quality-overview.png`` with every set, next to quality.md or in ``--plots DIR``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import logging
import multiprocessing
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

# Run as a script: use webclean as installed or on PYTHONPATH, else the tree above.
ROOT = Path(__file__).resolve().parents[1]
if importlib.util.find_spec("webclean") is None:
    sys.path.insert(0, str(ROOT))

from webclean.datasets import Page, read_pages  # noqa: E402
from webclean.evaluate import figures, share  # noqa: E402
from webclean.metrics import PageScore, Scoreboard, Summary, score_page  # noqa: E402

if TYPE_CHECKING:  # only for annotations: matplotlib is optional
    from matplotlib.figure import Figure

Extract = Callable[[Page], "str | None"]

DEFAULT_EXTRACTORS = ("webclean", "trafilatura", "readability", "resiliparse", "justext")
# What "--extractors peers" stands for: every other tool, at its documented settings.
PEERS = ("trafilatura", "readability", "resiliparse", "justext", "boilerpy3", "goose3", "newspaper4k", "magic-html")

# The paper's "denoised accurately" (C3 / C1): token F1 of at least this much. The value
# of webclean.evaluate.ACCURATE_F1, not imported: that module loads the whole library,
# and a peer's row must not depend on a library half-way through a change.
ACCURATE_F1 = 0.9


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
    """The other source documents' systems (blocks, ladom, mlp), packaged as they are."""
    return lambda pages=(): _webclean(pages, method=method)


SITE_FOLDS = 5


def _webclean_held_out(pages: Sequence[Page] = (), method: str = "svm", by: str = "set", seed: int = 0) -> Extract:
    """webclean with models that never saw the page they extract, nor its set or site.

    The packaged model was trained on these very pages, so its scores here flatter it.
    ``by="set"`` (the ``-loso`` rows) trains a model per set on every other set and
    extracts the set's pages with it; ``by="site"`` (``-sites``) trains SITE_FOLDS
    models, each on the sites outside one fold (webclean.evaluate.held_out_models);
    ``by="judge"`` (``-judge``, with ``--split judge``) one model on every page outside
    the judge split: the honest figures to set beside the peers'. No model trains on
    the judge split (webclean/splits.py). ``seed``: the models'
    ``classifier.random_state``.
    """
    import webclean
    from webclean.evaluate import held_out_models

    config = webclean.Config(method=method).with_overrides([f"classifier.random_state={seed}"])
    models = {}
    for held, model in held_out_models(pages, config, by=by, folds=SITE_FOLDS):
        models.update((_key(page), model) for page in held)

    def run(page: Page) -> str:
        model = models.get(_key(page))
        if model is None:  # only -judge: its one model extracts the judge split alone
            raise ExtractorFailure("no held-out model: the page is outside the judge split (--split judge)")
        return webclean.extract(page.html, _url(page), config=config, model=model).text

    return run


def _key(page: Page) -> tuple[str, str]:
    return page.source, page.id


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

    @cache
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

    @cache
    def goose(lang: str) -> Goose:
        config = {"enable_image_fetching": False, "use_meta_language": False, "target_language": lang}
        if lang in special:
            config["stopwords_class"] = special[lang]
        return Goose(config)

    # no URL: goose would try to fetch the page
    return lambda page: goose(page.lang or "en").extract(raw_html=page.html).cleaned_text


# ISO 639-1 codes whose stop words newspaper4k applies with what the extra installs; other
# languages get its English ones. Left out: ja, ko and ar, which raise ImportError without
# tinysegmenter or nltk (newspaper4k's optional extras).
NEWSPAPER_LANGS = frozenset({"da", "de", "el", "en", "es", "fi", "fr", "hu", "id", "it", "nl", "no", "pl", "pt", "ro",
                             "ru", "sv", "tr", "uk", "vi", "zh"})  # fmt: skip


def _newspaper4k() -> Extract:
    from newspaper import Article

    def run(page: Page) -> str:
        lang = page.lang if page.lang in NEWSPAPER_LANGS else "en"
        # input_html: parse the page given, fetch nothing; its own URL or a placeholder.
        article = Article(_url(page) or "http://localhost/", language=lang, fetch_images=False)
        article.download(input_html=page.html)
        article.parse()
        return article.text

    return run


MAGIC_HTML_PYTHON = (3, 12)


def _magic_html() -> Extract:
    if sys.version_info < MAGIC_HTML_PYTHON and importlib.util.find_spec("magic_html") is None:
        # Its only release on PyPI (0.1.8) says Requires-Python >= 3.12, so pip refuses it here.
        raise ImportError(
            f"magic-html needs Python >= 3.12 (its only release, 0.1.8, requires it) and this is "
            f"{sys.version.split()[0]}: run the benchmark with Python 3.12 or later to include it"
        )
    from magic_html import GeneralExtractor

    extractor = GeneralExtractor()
    # Its article extractor (the default, used on its own benchmark); it returns HTML.
    return lambda page: html_text(extractor.extract(page.html, base_url=_url(page) or "")["html"])


# Builders that need the benchmark's pages (to train on) take them as an argument.
NEEDS_PAGES = {
    "webclean", "webclean-paper", "webclean-loso", "webclean-sites", "webclean-judge", "webclean-paper-loso", "webclean-blocks",
    "webclean-ladom", "webclean-mlp", "webclean-mlp-loso",
}  # fmt: skip
BUILDERS: dict[str, Callable[..., Extract]] = {
    "webclean": _webclean,
    "webclean-paper": _webclean_paper,
    "webclean-loso": _webclean_held_out,
    "webclean-sites": lambda pages=(), seed=0: _webclean_held_out(pages, by="site", seed=seed),
    "webclean-judge": lambda pages=(), seed=0: _webclean_held_out(pages, by="judge", seed=seed),
    "webclean-paper-loso": lambda pages=(), seed=0: _webclean_held_out(pages, method="paper", seed=seed),
    "webclean-blocks": _webclean_method("blocks"),
    "webclean-ladom": _webclean_method("ladom"),
    "webclean-mlp": _webclean_method("mlp"),
    "webclean-mlp-loso": lambda pages=(), seed=0: _webclean_held_out(pages, method="mlp", seed=seed),
    "trafilatura": _trafilatura,
    "trafilatura-fast": _trafilatura_fast,
    "readability": _readability,
    "resiliparse": _resiliparse,
    "resiliparse-nocomments": _resiliparse_nocomments,
    "justext": _justext,
    "boilerpy3": _boilerpy3,
    "goose3": _goose3,
    "newspaper4k": _newspaper4k,
    "magic-html": _magic_html,
}
# The rows whose located block is measured (the paper's C2 / C1), by the method that locates it.
LOCATING = {
    "webclean": "svm", "webclean-loso": "svm", "webclean-sites": "svm", "webclean-judge": "svm",
    "webclean-paper": "paper", "webclean-paper-loso": "paper",
}  # fmt: skip


# The rows whose models are trained on the benchmark's pages, and so take a seed.
HELD_OUT_SUFFIXES = ("-loso", "-sites", "-judge")


def split_seed(name: str) -> tuple[str, int | None]:
    """``"webclean-loso@2"`` → ``("webclean-loso", 2)``; a name without a seed → (name, None)."""
    base, at, seed = name.partition("@")
    if not at:
        return name, None
    if not base.endswith(HELD_OUT_SUFFIXES) or not seed.isdigit():
        raise SystemExit(f"{name!r}: only a held-out row ({', '.join(HELD_OUT_SUFFIXES)}) takes a seed, as a number: webclean-loso@1")
    return base, int(seed)


def build(name: str, pages: Sequence[Page] = ()) -> Extract:
    """The extractor a row names, a held-out row's with its seed."""
    base, seed = split_seed(name)
    if base not in NEEDS_PAGES:
        return BUILDERS[base]()
    return BUILDERS[base](pages) if seed is None else BUILDERS[base](pages, seed=seed)


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


def expand(names: Iterable[str], seeds: Sequence[int] = ()) -> list[str]:
    """The names asked for, with "peers" replaced by every peer and each held-out row
    by one row a seed (``webclean-loso@1``) when ``seeds`` are given, each name once."""
    out: list[str] = []
    for name in names:
        if name == "peers":
            ones: Sequence[str] = PEERS
        elif seeds and name.endswith(HELD_OUT_SUFFIXES):
            ones = [f"{name}@{seed}" for seed in seeds]
        else:
            ones = (name,)
        for one in ones:
            if one not in out:
                out.append(one)
    return out


def available(names: Iterable[str]) -> list[str]:
    """The names that can be built; say on stderr why the others are skipped.

    Any error counts, not only ImportError: webclean is written while this script
    runs, and a half-written module (or a missing model) should cost its row, not
    the peers' rows.
    """
    usable = []
    for name in names:
        base, _ = split_seed(name)
        if base not in BUILDERS:
            raise SystemExit(f"unknown extractor {name!r}; known: {', '.join(BUILDERS)}")
        try:
            with quiet():
                if base.endswith(HELD_OUT_SUFFIXES):
                    # These train on the benchmark's pages: building them here would train on none.
                    importlib.import_module("webclean.training")
                else:
                    build(name)
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
    # Token recall of the located block against the gold, and whether it reaches
    # webclean.evaluate.LOCATED_RECALL; None for rows without a block and snippet pages.
    block_recall: float | None = None
    located: bool | None = None

    @property
    def accurate(self) -> bool | None:
        """The paper's "denoised accurately": token F1 >= ACCURATE_F1 (None without a full gold)."""
        return None if self.score.token is None else self.score.token.f1 >= ACCURATE_F1


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


def run_extractor(name: str, paths: Sequence[str], limit: int | None, split: str = "dev") -> list[PageRun]:
    """The pages of ``split`` through one extractor; runs in a worker process of its own."""
    from webclean.splits import select

    pages = load_pages(paths, limit)
    return run_pages(name, pages, select(pages, split))


def run_pages(name: str, pages: Sequence[Page], scored: Sequence[Page] | None = None) -> list[PageRun]:
    """Pages already loaded through one extractor: ``scored`` (default: all of them)
    extracted and scored; a held-out row trains on ``pages`` outside the judge split."""
    scored = pages if scored is None else scored
    with quiet():
        extract = build(name, pages)
        runs = [run_page(name, extract, page) for page in scored]
        base, _ = split_seed(name)
        if base in LOCATING:
            runs = with_located(runs, scored, LOCATING[base])
    return runs


def with_located(runs: Sequence[PageRun], pages: Sequence[Page], method: str) -> list[PageRun]:
    """The runs with the recall of the block that ``method`` locates (not timed)."""
    import webclean
    from webclean.evaluate import LOCATED_RECALL, block_recall

    config = webclean.Config(method=method)
    out = []
    for run, page in zip(runs, pages):
        if page.has_full_gold:
            recall = block_recall(page, config)
            run = replace(run, block_recall=recall, located=recall >= LOCATED_RECALL)
        out.append(run)
    return out


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


def run_all(names: Sequence[str], paths: Sequence[str], limit: int | None, jobs: int, split: str = "dev") -> dict[str, list[PageRun]]:
    if jobs <= 1:
        return {name: run_extractor(name, paths, limit, split) for name in names}
    # Fresh interpreters, not forks: a caller with threads (a notebook's kernel) would
    # leave a forked worker waiting forever on a lock another thread held at the fork.
    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = {name: pool.submit(run_extractor, name, paths, limit, split) for name in names}
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
            source: (lambda score, source=source: score.source == source)
            for source in sorted({r.score.source for r in results[names[0]]})
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


# --- plots ---------------------------------------------------------------------
# matplotlib is imported in these functions only: without it the tables and the JSON
# are written all the same.


def page_f1(runs: Sequence[PageRun], source: str) -> list[float]:
    """Per-page F1 of one set: token F1, or the page's own snippet F1 on snippet pages."""
    return [r.score.main_f1 for r in runs if r.score.source == source]


def mean_f1(runs: Sequence[PageRun], source: str) -> dict[str, float]:
    """The set's headline figures as the tables report them, by measure."""
    summary = Summary.of(r.score for r in runs if r.score.source == source)
    figures = {"token F1": summary.token_f1, "shingle F1": summary.shingle and summary.shingle.f1}
    figures["snippet F1"] = summary.snippet and summary.snippet.f1
    return {measure: value for measure, value in figures.items() if value is not None}


def set_figure(source: str, results: dict[str, list[PageRun]]) -> Figure:
    """Mean F1 per extractor (bars) beside the distribution of its per-page F1 (boxes)."""
    from matplotlib.figure import Figure

    names = [name for name, runs in results.items() if page_f1(runs, source)]
    fig = Figure(figsize=(max(8.0, 1.1 * len(names) + 5), 4.2), layout="constrained")
    bars, boxes = fig.subplots(1, 2, width_ratios=(1, 1.3))
    measures = [m for m in ("token F1", "shingle F1", "snippet F1") if any(m in mean_f1(results[n], source) for n in names)]
    width = 0.8 / max(1, len(measures))
    for k, measure in enumerate(measures):
        values = [mean_f1(results[n], source).get(measure, 0.0) for n in names]
        xs = [i + (k - (len(measures) - 1) / 2) * width for i in range(len(names))]
        drawn = bars.bar(xs, values, width, label=measure)
        bars.bar_label(drawn, fmt="%.3f", fontsize=6, rotation=90, padding=2)
    bars.set_xticks(range(len(names)), names, rotation=40, ha="right", fontsize=8)
    bars.set_ylim(0, 1.12)
    bars.set_ylabel("F1 (mean over pages; snippet F1: micro)")
    bars.set_title(f"{source}: F1")
    bars.legend(fontsize=7, loc="lower right")
    data = [page_f1(results[n], source) for n in names]
    boxes.boxplot(data, showmeans=True, meanprops={"markersize": 4}, flierprops={"markersize": 2})
    boxes.set_xticks(range(1, len(names) + 1), names, rotation=40, ha="right", fontsize=8)
    boxes.set_ylim(-0.03, 1.03)
    kind = "snippet F1" if "snippet F1" in measures and "token F1" not in measures else "token F1"
    boxes.set_ylabel(f"per-page {kind}")
    boxes.set_title(f"{source}: per-page {kind}, {len(data[0]) if data else 0} pages (▲ mean)")
    return fig


def overview_figure(results: dict[str, list[PageRun]]) -> Figure:
    """Every set side by side: token F1, or snippet F1 on the snippet set, per extractor."""
    from matplotlib.figure import Figure

    sources = sorted({r.score.source for runs in results.values() for r in runs})
    names = list(results)
    fig = Figure(figsize=(max(7.0, 0.25 * len(sources) * len(names) + 4.5), 4.2), layout="constrained")
    ax = fig.subplots()
    width = 0.8 / max(1, len(names))
    for k, name in enumerate(names):
        values = []
        for source in sources:
            figures = mean_f1(results[name], source)
            values.append(figures.get("token F1", figures.get("snippet F1", 0.0)))
        xs = [i + (k - (len(names) - 1) / 2) * width for i in range(len(sources))]
        ax.bar(xs, values, width, label=name)
    labels = [s + (" (snippet F1)" if _is_snippet_set(results, s) else "") for s in sources]
    ax.set_xticks(range(len(sources)), labels, fontsize=8)
    ax.set_ylim(0, 1.0)
    ax.set_ylabel("mean token F1 / snippet F1")
    ax.grid(axis="y", alpha=0.3)
    fig.legend(fontsize=7, loc="outside right upper")
    ax.set_title("F1 per set and extractor")
    return fig


def _is_snippet_set(results: dict[str, list[PageRun]], source: str) -> bool:
    return any(r.score.snippet is not None for runs in results.values() for r in runs if r.score.source == source)


def write_plots(directory: Path, results: dict[str, list[PageRun]]) -> list[Path]:
    """One PNG per set and an overview; nothing, with a message, without matplotlib."""
    if importlib.util.find_spec("matplotlib") is None:
        print("plots skipped: matplotlib is not installed (pip install 'webclean[peers]')", file=sys.stderr)
        return []
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    sources = sorted({r.score.source for runs in results.values() for r in runs})
    figures = [(f"quality-{source}.png", set_figure(source, results)) for source in sources]
    figures.append(("quality-overview.png", overview_figure(results)))
    for filename, figure in figures:
        figure.savefig(directory / filename, dpi=110)
        written.append(directory / filename)
    return written


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", nargs="+", required=True, help="jsonl(.gz) files or directories")
    parser.add_argument(
        "--extractors", default=",".join(DEFAULT_EXTRACTORS), help="comma-separated; peers = all peers; known: " + ", ".join(BUILDERS)
    )
    parser.add_argument("--limit", type=int, help="at most N pages from each file")
    parser.add_argument(
        "--split", choices=("dev", "judge", "all"), default="dev",
        help="the pages scored (webclean/splits.py): outside the judge split (default), the judge split, or all",
    )  # fmt: skip
    parser.add_argument("--jobs", type=int, default=1, help="extractors run in parallel processes")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    parser.add_argument("--per-page", metavar="NAME", help="print the worst pages of this extractor")
    parser.add_argument("--worst", type=int, default=20, help="how many pages --per-page prints")
    parser.add_argument("--by-lang", action="store_true", help="add per-language tables")
    parser.add_argument("--plots", type=Path, metavar="DIR", help="where the PNG figures go (default: --out)")
    parser.add_argument("--no-plots", action="store_true", help="write no figures")
    parser.add_argument(
        "--seeds", type=lambda value: [int(v) for v in value.split(",")], default=[],
        help="comma-separated: each held-out row once per seed (webclean-loso@0 …), and a table over the seeds",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    names = available(expand((n.strip() for n in args.extractors.split(",") if n.strip()), args.seeds))
    if not names:
        print("no extractor available", file=sys.stderr)
        return 1
    if args.per_page and args.per_page not in names:
        print(f"--per-page {args.per_page}: not among the extractors run ({', '.join(names)})", file=sys.stderr)
        return 1
    results = run_all(names, args.data, args.limit, args.jobs, args.split)
    markdown = report(results, args.by_lang)
    print(markdown)
    if args.per_page:
        print(f"### worst pages of {args.per_page}\n\n" + worst_pages(results[args.per_page], args.worst))
    write_outputs(args.out, markdown, results, args)
    if not args.no_plots:
        for path in write_plots(args.plots or args.out, results):
            print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
