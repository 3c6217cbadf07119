"""Train a model (noise lexicon and SVM) from pages with a gold text, on Spark.

    scripts/submit jobs/train.py \\
        --input data/cwced_modern.jsonl.gz data/readability.jsonl.gz --output models/mine

The same training as ``webclean train`` (webclean.training.train), with pages parsed,
located and labelled and the lexicon's words counted in executors; the lexicon and the
SVM are built on the driver. The same input gives the same model. The model folder is
written by the driver, so on a cluster run it in client mode or give a shared path;
``jobs/extract.py --model MODEL_DIR`` takes it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

try:
    import webclean  # noqa: F401
except ImportError:  # run from a checkout: the package sits one folder up
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from webclean.config import Config, ConfigError, load_config  # noqa: E402
from webclean.datasets import DataError  # noqa: E402
from webclean.model import save_model  # noqa: E402
from webclean.policy import EXIT_OK  # noqa: E402
from webclean.registry import svm_methods  # noqa: E402
from webclean.spark.inputs import InputError, list_inputs  # noqa: E402
from webclean.spark.job import Job, input_names  # noqa: E402
from webclean.spark.train_job import check_training_input, train_on_spark  # noqa: E402
from webclean.training_input import add_rejected_share  # noqa: E402

# A wrong argument, before the job, or pages that cannot train a model (DataError, raised
# on the driver: rows that do not fit the schema, too few labelled units): reported in one line.
JOB = Job("train", usage_errors=(ConfigError, InputError, DataError))
# The methods trained here: those with a noise lexicon and an SVM.
SVM_METHODS = svm_methods()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = JOB.parser(__doc__, "JSON Lines of pages with gold, or folders")
    parser.add_argument("--output", required=True, type=Path, metavar="MODEL_DIR", help="folder for the model")
    parser.add_argument("--config", metavar="FILE", help="TOML configuration, e.g. conf/webclean.toml")
    parser.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE", help="override one setting")
    parser.add_argument("--method", choices=SVM_METHODS, help="the method to train for (default: the config's)")
    add_rejected_share(parser)
    return parser.parse_args(argv)



def svm_config(args: argparse.Namespace) -> Config:
    config = load_config(args.config, [*args.set, *([f"method={args.method}"] if args.method else [])])
    if config.method not in SVM_METHODS:
        raise ConfigError(f"this job trains the methods {' and '.join(SVM_METHODS)}, not {config.method!r}")
    return config


def main(argv: list[str] | None = None) -> int:
    return JOB.run(train, parse_args(argv))


def train(args: argparse.Namespace) -> int:
    started = time.monotonic()
    config = svm_config(args)
    files = list_inputs(args.input, "jsonl")
    with JOB.session() as spark:
        checked = check_training_input(spark, files, args.max_rejected_share)
        model, report = train_on_spark(spark, files, config, input_names(args.input))
    save_model(model, args.output)
    seconds = round(time.monotonic() - started, 1)
    print(json.dumps({"output": str(args.output), "seconds": seconds, **report.to_dict(), **checked.to_dict()}, indent=1))
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
