"""Extract the main text of every page of a crawl into Parquet, one run_date at a time.

    make extract INPUT=samples/sample.warc.gz OUTPUT=out/sample RUN_DATE=2024-01-15

which runs (README.md, "The Spark jobs")

    scripts/submit jobs/extract.py --input samples/sample.warc.gz --output out/sample --run-date 2024-01-15

Inputs are files, folders, globs (a name that exists is taken as it is), or text files
that list them one per line (as cc-pyspark's warc.paths.gz). The rows go to
OUTPUT/run_date=YYYY-MM-DD/, replacing only that date; the run's summary goes to
OUTPUT/_summary/run_date=.../. A run that passes its failure policy gets
OUTPUT/run_date=YYYY-MM-DD/_SUCCESS.

Exit codes: 0 the run passed; 1 the job crashed (a traceback); 2 a usage error (one
line, before the job); 3 the run failed its policy (rows and summary written, no
_SUCCESS). docs/output.md gives the summary's fields.
"""

from __future__ import annotations

import argparse
import sys
from datetime import date, datetime, timezone
from pathlib import Path

try:
    import webclean  # noqa: F401
except ImportError:  # run from a checkout: the package sits one folder up
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from webclean.confidence_output import min_confidence  # noqa: E402
from webclean.config import ConfigError, load_config  # noqa: E402
from webclean.model import ModelError  # noqa: E402
from webclean.policy import ERROR_STATUSES, EXIT_OK, EXIT_POLICY, FailurePolicy, share  # noqa: E402
from webclean.spark.extract_job import ExtractJob, run_extract  # noqa: E402
from webclean.spark.inputs import INPUT_FORMATS, InputError  # noqa: E402
from webclean.spark.job import Job  # noqa: E402

INPUT_SCHEMA = """\
input formats (auto: by the name's ending; other files of folders and globs are
skipped, logged and counted in the summary's files_skipped):
  warc     .warc .warc.gz .arc .arc.gz: a row per response or resource record;
           url = WARC-Target-URI, offset = the record's byte offset
  html     .html .htm (.gz); --input-format html takes every file (gunzipped if gzip):
           a row per file; url = its <link rel=canonical> if absolute, else the
           file's URI; offset 0
  jsonl    .jsonl .jsonl.gz: a JSON object a line, {"url": ..., "html": "..."};
           a row per line, offset = line number
  parquet  .parquet with an html column (string or binary) and an optional url
           column; a row per row, offset = row number
"""

# A wrong argument is reported in one line, before or instead of the job.
JOB = Job("extract", usage_errors=(ConfigError, InputError, ModelError))


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = JOB.parser(
        __doc__,
        "files, folders, globs or listing files",
        epilog=INPUT_SCHEMA,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--output", required=True, metavar="DIR", help="Parquet output folder (local, file://, s3a://, hdfs://)")
    parser.add_argument("--input-format", choices=INPUT_FORMATS, default="auto")
    parser.add_argument("--model", metavar="DIR", help="model folder (default: the model packaged for the method)")
    parser.add_argument("--config", metavar="FILE", help="TOML configuration, e.g. conf/webclean.toml")
    parser.add_argument("--run-date", type=date.fromisoformat, metavar="YYYY-MM-DD", help="partition to write (default: today, UTC)")
    parser.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE", help="override one configuration value")
    parser.add_argument(
        "--min-confidence", type=min_confidence, metavar="X",
        help="an ok page whose confidence is under X (in [0, 1]) gets status low_confidence, its text kept; "
        "pages without a confidence are left as they are",
    )  # fmt: skip
    policy = parser.add_argument_group("failure policy", "a run that fails exits with 3 and gets no _SUCCESS marker")
    policy.add_argument(
        "--max-error-share", type=share, default=FailurePolicy.max_error_share, metavar="SHARE",
        help=f"fail when more than this share of pages has an error status ({', '.join(sorted(ERROR_STATUSES))}; "
        "default: %(default)s; 1 never fails)",
    )  # fmt: skip
    policy.add_argument(
        "--fail-on-file-errors", action="store_true",
        help="fail when an input file cannot be read to its end or has a damaged record",
    )
    policy.add_argument("--fail-on-empty", action="store_true", help="fail when the input holds no page to extract")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    return JOB.run(extract_pages, parse_args(argv))


def extract_pages(args: argparse.Namespace) -> int:
    job = ExtractJob(
        inputs=tuple(args.input),
        output=args.output,
        run_date=(args.run_date or datetime.now(timezone.utc).date()).isoformat(),
        input_format=args.input_format,
        config=load_config(args.config, args.set),
        model_path=args.model,
        policy=FailurePolicy(args.max_error_share, args.fail_on_file_errors, args.fail_on_empty),
        min_confidence=args.min_confidence,
    )
    with JOB.session() as spark:
        summary = run_extract(spark, job)
    print(summary.to_text())
    if not summary.passed:
        for failure in summary.failures:
            JOB.say("failed", failure)
        return EXIT_POLICY
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
