"""The extractors that benchmarks/quality.py scores, a builder a row name.

The rows: webclean with its packaged model or another method; webclean with held-out
models trained on the benchmark's pages (``-loso``, ``-sites``, ``-judge``, which take
a seed: ``webclean-loso@2``); and one adapter a peer, which imports its package and
returns a function of a page to its text, at the peer's documented settings.
scripts/peer_texts.py runs the same adapters for weak labels. ``quiet`` silences the
peers' logging while they run, here and in benchmarks/speed.py.
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache

from webclean.datasets import Page

Extract = Callable[[Page], "str | None"]

DEFAULT_EXTRACTORS = ("webclean", "trafilatura", "readability", "resiliparse", "justext")
# What "--extractors peers" stands for: every other tool, at its documented settings.
PEERS = ("trafilatura", "readability", "resiliparse", "justext", "boilerpy3", "goose3", "newspaper4k", "magic-html")


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

    Any error counts, not only ImportError: webclean is written while the benchmark
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
