"""Rebuild a model's noise lexicon from new pages with a gold text, on Spark.

    scripts/submit jobs/lexicon.py \\
        --input data/new-pages.jsonl.gz --model models/mine --output models/mine-2 [--refit]

The words are counted in executors with the model's own configuration. The classifier
is kept as it is, or fitted again on the same pages with ``--refit``. The stop words
(method svm's stop-word density) are rebuilt with the lexicon; a kept classifier was
trained with the old ones. The new model goes to NEW_MODEL_DIR with
``lexicon-changes.json``: the words, marks and stop words added and removed and the
heaviest words, also printed.

A lexicon counted on few pages is small and says little: the job refuses to write one
built from fewer than ``--min-pages`` pages with a located block (default 200) unless
``--force``, and exits 3; it warns when the lexicon loses more than half its words.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

try:
    import webclean  # noqa: F401
except ImportError:  # run from a checkout: the package sits one folder up
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from webclean.datasets import DataError  # noqa: E402
from webclean.model import Model, ModelError, load_model, save_model  # noqa: E402
from webclean.policy import EXIT_OK, EXIT_POLICY  # noqa: E402
from webclean.registry import svm_methods  # noqa: E402
from webclean.spark.inputs import InputError, InputFile, list_inputs  # noqa: E402
from webclean.spark.job import Job, input_names  # noqa: E402
from webclean.spark.lexicon_job import LexiconChanges, rebuild_lexicon, write_lexicon_changes  # noqa: E402
from webclean.spark.train_job import check_training_input  # noqa: E402
from webclean.training_input import add_rejected_share  # noqa: E402

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

# A wrong argument, before the job, or pages too few to refit the classifier (DataError,
# raised on the driver): reported in one line.
JOB = Job("lexicon", usage_errors=(InputError, ModelError, DataError))
# The pages (with a located block) a lexicon is rebuilt from, at least, unless --force:
# the packaged svm model's 4,115 words came from about 1,200 pages; 10 pages gave 26.
MIN_PAGES = 200
# A lexicon left with fewer than this share of its words is worth a warning.
SHRINK_WARNING = 0.5


class LexiconRefused(Exception):
    """The rebuilt lexicon is below the job's minimum: nothing is written."""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = JOB.parser(__doc__, "JSON Lines of pages with gold, or folders")
    parser.add_argument("--model", required=True, type=Path, metavar="MODEL_DIR", help="the model whose lexicon is rebuilt")
    parser.add_argument("--output", required=True, type=Path, metavar="NEW_MODEL_DIR", help="folder for the new model")
    parser.add_argument("--refit", action="store_true", help="fit the classifier again (default: keep it)")
    parser.add_argument(
        "--min-pages", type=int, default=MIN_PAGES, metavar="N",
        help="refuse a lexicon counted on fewer pages with a located block (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument("--force", action="store_true", help="write the lexicon even below --min-pages (never from no page)")
    add_rejected_share(parser)
    return parser.parse_args(argv)


def run(spark: SparkSession, args: argparse.Namespace, model: Model, files: Sequence[InputFile]) -> LexiconChanges:
    """The job on a session: check the input, rebuild, check, save the new model and the changes beside it."""
    checked = check_training_input(spark, files, args.max_rejected_share)
    if checked.rejected:
        JOB.say("warning", f"{sum(checked.rejected.values())} of {checked.rows} rows rejected: {checked.rejected}")
    new, changes = rebuild_lexicon(spark, files, model, refit=args.refit, sources=input_names(args.input))
    pages = int(new.metadata["report"]["pages_with_block"])
    warning = shrink_warning(changes)
    if warning:
        JOB.say("warning", warning)
    if pages == 0:  # --force or not: a lexicon of no page is no lexicon
        raise LexiconRefused(f"no page with a located block: the lexicon would go from {changes.words_before} words to none")
    if pages < args.min_pages and not args.force:
        raise LexiconRefused(
            f"{pages} pages with a located block give a lexicon of {changes.words_after} words "
            f"(the model's has {changes.words_before}); at least --min-pages {args.min_pages} are needed, "
            "or --force: nothing was written"
        )
    save_model(new, args.output)
    write_lexicon_changes(changes, args.output)
    return changes


def shrink_warning(changes: LexiconChanges) -> str | None:
    if changes.words_after >= SHRINK_WARNING * changes.words_before:
        return None
    return f"the lexicon shrinks from {changes.words_before} to {changes.words_after} words"


def svm_model(directory: Path) -> Model:
    """The model at ``directory``, which must have a noise lexicon and an SVM."""
    model = load_model(directory)
    if not isinstance(model, Model) or model.config.method not in svm_methods():
        raise ModelError(f"{directory}: only a model of method {' or '.join(svm_methods())} has a noise lexicon to rebuild")
    return model


def main(argv: list[str] | None = None) -> int:
    return JOB.run(rebuild, parse_args(argv))


def rebuild(args: argparse.Namespace) -> int:
    if args.output.resolve() == args.model.resolve():
        raise InputError("--output must be a new folder, not the model's own")
    model, files = svm_model(args.model), list_inputs(args.input, "jsonl")
    with JOB.session() as spark:
        try:
            changes = run(spark, args, model, files)
        except LexiconRefused as exc:
            JOB.say("refused", exc)
            return EXIT_POLICY
    print(changes.to_text())
    print(f"output: {args.output}")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
