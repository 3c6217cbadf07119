"""The ``webclean`` command: extract, train and evaluate.

    webclean extract PAGE.html [...]          the main text of each page (- reads stdin)
    webclean extract --explain PAGE.html      why each of its lines was kept or dropped
    webclean train --input FILES --output DIR  a model from pages with a gold text
    webclean evaluate --input FILES            F1 and the paper's rates on such pages

``webclean extract`` exits with 0 when every page gave its text (``low_confidence`` under
``--min-confidence`` too), EXIT_NO_TEXT (3) when a page gave none (its status says why:
empty, not_html, too_large, timeout, ...), 1 when a file could not be read, and 2 on a
usage error.
"""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from webclean import __version__, core
from webclean.address import page_address
from webclean.confidence_output import mark_low_confidence, min_confidence
from webclean.config import Config, ConfigError, load_config
from webclean.datasets import DataError
from webclean.model import Model, ModelError, load_model, save_model
from webclean.result import Extraction, Status
from webclean.training_input import add_rejected_share

EXIT_UNREADABLE = 1
EXIT_USAGE = 2
EXIT_NO_TEXT = 3
# The statuses of a page that gave its text.
TEXT_STATUSES = frozenset({Status.OK, Status.LOW_CONFIDENCE})


def main(argv: Sequence[str] | None = None) -> int:
    _one_blas_thread()
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        config = _config(args)
        return args.run(args, config)
    except (ConfigError, ModelError, DataError) as exc:
        print(f"webclean: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        return 0


def _one_blas_thread() -> None:
    """The SVM's kernel is a small matrix product: a second BLAS thread only spins,
    and doubled the CPU time per page in benchmarks/speed.py."""
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="webclean", description="Main-text extraction from web pages.", formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--version", action="version", version=f"webclean {__version__}\ncore: {core.name()}", help="print the version and which core runs"
    )
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    extract = commands.add_parser("extract", help="print the main text of pages")
    extract.add_argument("pages", nargs="+", metavar="PAGE", help="HTML files; - reads standard input")
    extract.add_argument("--json", action="store_true", help="print the whole result, one JSON object a page")
    extract.add_argument(
        "--url", help="the page's address, when there is one page (default: its absolute canonical link, else the file's URI)"
    )
    extract.add_argument(
        "--explain", action="store_true", help="print each unit's decision value and fate instead (methods svm, paper)"
    )
    extract.add_argument(
        "--min-confidence",
        type=min_confidence,
        metavar="X",
        help="a page whose confidence is under X (in [0, 1]) gets status low_confidence, its text kept (exit code 0)",
    )
    _common(extract, model=True)
    extract.set_defaults(run=_run_extract)

    train = commands.add_parser("train", help="train a model on pages with a gold text")
    train.add_argument("--input", nargs="+", required=True, metavar="FILE", help="gzip JSON Lines of pages")
    train.add_argument("--output", required=True, type=Path, metavar="MODEL_DIR")
    add_rejected_share(train)
    _common(train, model=False)
    train.set_defaults(run=_run_train)

    evaluate = commands.add_parser("evaluate", help="score the extraction on pages with a gold text")
    evaluate.add_argument("--input", nargs="+", required=True, metavar="FILE", help="gzip JSON Lines of pages")
    evaluate.add_argument("--json", type=Path, metavar="FILE", help="also write the summary as JSON")
    held_out = evaluate.add_mutually_exclusive_group()
    held_out.add_argument(
        "--leave-one-set-out",
        action="store_true",
        help="for each input set, train on the other sets and score the one left out (the measure of generalisation)",
    )
    held_out.add_argument(
        "--cross-validate", type=int, metavar="K", help="train on K-1 folds of the pages and score the fold left out"
    )
    held_out.add_argument(
        "--judge",
        action="store_true",
        help="score the judge split's pages with a model trained on every other page (docs/quality.md)",
    )
    evaluate.add_argument(
        "--jobs",
        type=_processes,
        default=1,
        metavar="N",
        help="--leave-one-set-out and --cross-validate: train the held-out models in N processes side by side",
    )
    evaluate.add_argument(
        "--group",
        choices=("site", "page"),
        default="site",
        help="--cross-validate's folds hold whole sites (default) or single pages",
    )
    evaluate.add_argument(
        "--split",
        choices=("dev", "judge", "all"),
        default="dev",
        help="the pages scored: outside the judge split (dev, the default; every page of a set without one), "
        "the judge split, or all; held-out models never train on the judge split",
    )
    _common(evaluate, model=True)
    evaluate.set_defaults(run=_run_evaluate)
    return parser


def _common(parser: argparse.ArgumentParser, *, model: bool) -> None:
    parser.add_argument(
        "--config", type=Path, help="a TOML file (default: the built-in settings, which conf/webclean.toml spells out)"
    )
    parser.add_argument(
        "--set", action="append", default=[], metavar="SECTION.KEY=VALUE", help="override one setting; repeatable"
    )
    parser.add_argument("--method", help="the extraction method: svm, paper, blocks, ladom or mlp")
    if model:
        parser.add_argument("--model", type=Path, metavar="MODEL_DIR", help="a trained model (default: the packaged one)")


def _config(args: argparse.Namespace) -> Config:
    """The settings of ``--config`` only: a file that happens to lie in the working
    directory is not read, so that a command gives the same result wherever it runs."""
    overrides = list(args.set)
    if args.method:
        overrides.append(f"method={args.method}")
    return load_config(args.config, overrides)


def _model(args: argparse.Namespace, config: Config) -> Model:
    from webclean.extract import check_model

    model = load_model(args.model, config.method)
    check_model(model, config)
    return model


def _run_extract(args: argparse.Namespace, config: Config) -> int:
    from webclean.extract import extract

    model = _model(args, config)
    unreadable = without_text = 0
    max_bytes = config.limits.max_bytes
    for name in args.pages:
        try:
            data, size = read_page_bytes(name, max_bytes)
        except OSError as exc:
            print(f"webclean: {name}: {exc.strerror or exc}", file=sys.stderr)
            unreadable += 1
            continue
        source = source_file(name)
        url = args.url or page_address(data or b"", None if name == "-" else source)
        # As the job's reader of HTML files: a file over the cap is refused unread.
        too_large = f"file over limits.max_bytes = {max_bytes}"
        page = data if data is not None else Extraction.failed(Status.TOO_LARGE, too_large, method=config.method)
        if args.explain:
            status = _print_explanation(name, page, url, config, model, args.json, several=len(args.pages) > 1)
            without_text += status != Status.OK
            continue
        result = page if isinstance(page, Extraction) else extract(page, url, config=config, model=model)
        result = mark_low_confidence(result, args.min_confidence)
        without_text += result.status not in TEXT_STATUSES
        if args.json:
            print(json.dumps(page_row(result, source, url, size, model), ensure_ascii=False))
        else:
            if not result.ok:
                print(f"webclean: {name}: {result.status}: {result.error}", file=sys.stderr)
            if result.text:
                print(result.text)
    return EXIT_UNREADABLE if unreadable else EXIT_NO_TEXT if without_text else 0


def read_page_bytes(name: str, max_bytes: int) -> tuple[bytes | None, int]:
    """A page's bytes and their number; None for a page over ``max_bytes``, of which no
    more than one byte past the cap is read (a 3 GB file, ``/dev/zero``, an endless pipe)."""
    if name == "-":
        data = sys.stdin.buffer.read(max_bytes + 1)
        return (data, len(data)) if len(data) <= max_bytes else (None, len(data))
    with open(name, "rb") as stream:
        data = stream.read(max_bytes + 1)
        if len(data) <= max_bytes:
            return data, len(data)
        info = os.fstat(stream.fileno())
        return None, info.st_size if stat.S_ISREG(info.st_mode) else len(data)


def source_file(name: str) -> str:
    """A page argument as the extract job names its input file: the absolute path,
    symbolic links kept; ``-`` for standard input."""
    return name if name == "-" else os.path.abspath(name)


def page_row(result: Extraction, source_file: str, url: str | None, bytes_in: int, model: Model | None) -> dict[str, object]:
    """A page as ``--json`` prints it: the extract job's Parquet columns that a file has,
    under the same names (docs/output.md)."""
    return {
        "url": url,
        "source_file": source_file,
        **result.to_dict(),
        "bytes_in": bytes_in,
        "chars_out": len(result.text),
        "model_version": str(model.version) if model is not None else "none",
    }


def _print_explanation(
    name: str, page: bytes | Extraction, url: str | None, config: Config, model: Model, as_json: bool, several: bool
) -> str:
    """Print why each unit of the page was kept or dropped (``page``: its bytes, or the
    Extraction of a page refused unread); return the page's status."""
    from webclean.explain import Explanation, check_explainable, explain

    try:
        check_explainable(config)
        if isinstance(page, Extraction):
            explanation = Explanation.failed(page, config.method)
        else:
            explanation = explain(page, url, config=config, model=model)
    except ValueError as exc:
        raise ConfigError(str(exc)) from exc
    if as_json:
        print(json.dumps({**explanation.to_dict(), "source_file": source_file(name)}, ensure_ascii=False))
    else:
        if several:
            print(f"== {name}")
        print(explanation.table())
    return explanation.status


def _run_train(args: argparse.Namespace, config: Config) -> int:
    from webclean.datasets import input_files
    from webclean.training import train
    from webclean.training_input import check_file, checked_pages, judge_input

    start = time.monotonic()
    # Every row checked before any page is parsed, as jobs/train.py does (docs/output.md).
    files = [str(path) for path in input_files(args.input)]
    checked = judge_input([check_file(path) for path in files], args.max_rejected_share)
    if checked.rejected:
        print(f"webclean: {checked.describe()}", file=sys.stderr)
    model, report = train(checked_pages(files), config, sources=[Path(p).name for p in args.input], again=lambda: checked_pages(files))
    save_model(model, args.output)
    seconds = round(time.monotonic() - start, 1)
    print(json.dumps({"output": str(args.output), "seconds": seconds, **report.to_dict(), **checked.to_dict()}, indent=1))
    return 0


def _processes(value: str) -> int:
    """A count of processes, 1 or more (argparse's type)."""
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"a number of processes, 1 or more, not {value!r}")
    return int(value)


def _run_evaluate(args: argparse.Namespace, config: Config) -> int:
    from webclean.datasets import read_pages
    from webclean.evaluate import cross_validate, evaluate, judge, leave_one_set_out
    from webclean.splits import select

    if args.judge:
        evaluation = judge(read_pages(args.input), config)
    elif args.leave_one_set_out:
        evaluation = leave_one_set_out(read_pages(args.input), config, split=args.split, jobs=args.jobs)
    elif args.cross_validate:
        evaluation = cross_validate(read_pages(args.input), config, args.cross_validate, by=args.group, split=args.split, jobs=args.jobs)
    else:
        evaluation = evaluate(select(list(read_pages(args.input)), args.split), config, _model(args, config))
    print(evaluation.table())
    if args.json:
        summary = {by: evaluation.summary(by) for by in ("set", "lang", "page_type")}
        args.json.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
