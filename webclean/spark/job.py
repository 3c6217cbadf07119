"""What the three scripts of jobs/ share: their parser, their one-line errors, their session.

As cc-pyspark's jobs share ``CCSparkJob``, but with nothing to subclass: a script names
itself with a :class:`Job`, parses its own arguments, and hands :meth:`Job.run` the one
function that does its work.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from pyspark.sql import SparkSession

from webclean.policy import EXIT_USAGE
from webclean.spark.session import build_session, configure_logging


@dataclass(frozen=True)
class Job:
    """One script of jobs/: its name begins its lines on stderr and names its Spark application."""

    name: str
    # What a wrong argument, input or configuration raises: said in one line, exit code 2.
    usage_errors: tuple[type[Exception], ...]

    def parser(self, doc: str, input_help: str, **kwargs: Any) -> argparse.ArgumentParser:
        """Described by the first paragraph of the script's docstring, with the ``--input`` of every job."""
        parser = argparse.ArgumentParser(description=doc.split("\n\n")[0], **kwargs)
        parser.add_argument("--input", nargs="+", required=True, metavar="PATH", help=input_help)
        return parser

    def run(self, work: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
        """The exit code of ``work``, or EXIT_USAGE with one line when it raises a usage error."""
        route_stderr()
        configure_logging()
        try:
            return work(args)
        except self.usage_errors as exc:
            self.say("error", exc)
            return EXIT_USAGE

    @contextmanager
    def session(self) -> Iterator[SparkSession]:
        """A SparkSession named after the job, stopped however the block ends."""
        spark = build_session(f"webclean-{self.name}")
        try:
            yield spark
        finally:
            spark.stop()

    def say(self, verdict: str, message: object) -> None:
        """One line on stderr: ``extract: error: ...``, ``extract: failed: ...``, ``lexicon: refused: ...``."""
        print(f"{self.name}: {verdict}: {message}", file=sys.stderr)


# Where scripts/submit reads the driver's stderr (a named pipe it copies to its own stderr).
STDERR_VARIABLE = "WEBCLEAN_STDERR"


def route_stderr() -> None:
    """Send this process's stderr where scripts/submit reads it, when it says so.

    spark-submit runs a Python driver with its stderr merged into spark-submit's stdout,
    so that the log, the one-line errors and a crash's traceback would reach stdout: the
    driver's file descriptor 2 is pointed at the pipe instead, for Python and C alike.
    """
    target = os.environ.get(STDERR_VARIABLE)
    if not target:
        return
    sys.stderr.flush()
    descriptor = os.open(target, os.O_WRONLY)
    os.dup2(descriptor, 2)
    os.close(descriptor)


def input_names(paths: Sequence[str]) -> list[str]:
    """The names of the input arguments, as ``webclean train`` records them in a model."""
    return [PurePosixPath(p.rstrip("/")).name for p in paths]
