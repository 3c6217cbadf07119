"""What the input arguments name: files, folders, globs and listing files expanded into
input files with a format, on the driver; large WARCs cut into byte ranges, and all of
it packed into partitions of similar size.

pyarrow's file systems only: no pyspark, so this runs and is tested without a JVM.
"""

from __future__ import annotations

import fnmatch
import gzip
import heapq
import logging
import math
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import PurePosixPath
from typing import NamedTuple

from pyarrow import fs

from webclean.storage import open_input, to_pyarrow_uri
from webclean.warc_ranges import byte_ranges

# The glue logs under one name, whichever of its modules speaks.
log = logging.getLogger("webclean.spark")

INPUT_FORMATS = ("auto", "warc", "html", "jsonl", "parquet")

EXTENSIONS = {
    "warc": (".warc", ".warc.gz", ".arc", ".arc.gz"),
    "html": (".html", ".htm", ".html.gz", ".htm.gz"),
    "jsonl": (".jsonl", ".jsonl.gz"),
    "parquet": (".parquet",),
}
# Never cut into ranges: the records of an ARC file cannot be found from any byte.
WHOLE_EXTENSIONS = (".arc", ".arc.gz")
# Text files that list inputs one per line, as cc-pyspark takes them (warc.paths.gz).
LISTING_EXTENSIONS = (".paths", ".paths.gz", ".txt", ".txt.gz")
GLOB_CHARS = frozenset("*?[")
# At least this many partitions a core, files permitting: Spark hands the next partition
# to whichever core is free, so a file slower to extract than its size says delays the
# run by a fraction of a core's share instead of the whole difference. A worker process
# runs its tasks one after another with the broadcast model already loaded.
TASKS_PER_CORE = 4
# The log names the first files skipped, and counts the rest.
SKIPPED_LOGGED = 20


class InputError(ValueError):
    """An input argument that names nothing readable: the job stops before it starts."""


@dataclass(frozen=True)
class InputFile:
    """A file to read, or the byte range ``[start, stop)`` of a WARC whose records that
    start in it a task reads (stop None: to the end; webclean.warc_ranges). ``size`` is
    the bytes to read: the file's, or the range's."""

    path: str
    format: str
    size: int = 0
    start: int = 0
    stop: int | None = None


class Skipped(NamedTuple):
    """A file of a folder or glob that is not of the format wanted."""

    path: str


@dataclass(frozen=True)
class InputListing:
    """What the input arguments name: the files to read, and the paths of those skipped."""

    files: list[InputFile]
    skipped: list[str]


def list_inputs(paths: Iterable[str], input_format: str = "auto") -> list[InputFile]:
    """Expand files, directories, globs and listing files into input files with a format."""
    return find_inputs(paths, input_format).files


def find_inputs(paths: Iterable[str], input_format: str = "auto") -> InputListing:
    """The input files, and the files of the folders and globs given that are not of the format wanted.

    Skipped files are logged, and counted in the run's summary. Hidden files (a name
    that starts with ``.`` or ``_``, as ``_SUCCESS``) are not inputs and not counted.
    """
    paths = list(paths)
    files: dict[str, InputFile] = {}
    skipped: dict[str, None] = {}  # in the order found
    for path in paths:
        for found in _expand(path, input_format):
            if isinstance(found, InputFile):
                files.setdefault(found.path, found)
            else:
                skipped[found.path] = None
    skipped_paths = [path for path in skipped if path not in files]
    if skipped_paths:
        shown = ", ".join(skipped_paths[:SKIPPED_LOGGED])
        more = f" and {len(skipped_paths) - SKIPPED_LOGGED} more" if len(skipped_paths) > SKIPPED_LOGGED else ""
        log.warning("skipped files that are not %s (%d): %s%s", _wanted(input_format), len(skipped_paths), shown, more)
    if not files:
        hint = f" ({len(skipped_paths)} other files skipped" if skipped_paths else ""
        hint += ("; --input-format html takes every file)" if input_format == "auto" else ")") if hint else ""
        raise InputError(f"no {_wanted(input_format)} in {', '.join(paths)}{hint}")
    return InputListing(list(files.values()), skipped_paths)


def _wanted(input_format: str) -> str:
    if input_format == "auto":
        return "input files (" + ", ".join(e for extensions in EXTENSIONS.values() for e in extensions) + ")"
    return f"{input_format} files ({', '.join(EXTENSIONS[input_format])})"


def _expand(path: str, input_format: str) -> Iterator[InputFile | Skipped]:
    """A path as given: a glob unless a file or directory of that very name exists."""
    path = absolute_path(path)
    if GLOB_CHARS & set(path) and not _exists(path):
        matches = list(_glob(path))
        if not matches:
            raise InputError(f"{path}: no file matches")
        for match in matches:
            # A match is a name, never a pattern: wget saves pages as index.php?id=3.
            yield from _expand_name(match, input_format, pattern=path)
        return
    yield from _expand_name(path, input_format)


def _exists(path: str) -> bool:
    filesystem, inner, _ = _locate(path)
    return filesystem.get_file_info(inner).type != fs.FileType.NotFound


def _expand_name(path: str, input_format: str, pattern: str | None = None) -> Iterator[InputFile | Skipped]:
    """A file, a directory or a listing file named by ``path``, taken literally.

    A file named as an argument or in a listing must be of a format it can be read as;
    a file that the glob ``pattern`` matched is skipped, as in a folder, when it is not,
    and is a listing only if the pattern names listings (``*.paths.gz``, not ``site/*``
    over a robots.txt).
    """
    filesystem, inner, prefix = _locate(path)
    info = filesystem.get_file_info(inner)
    if info.type == fs.FileType.NotFound:
        raise InputError(f"{path}: no such file or directory")
    if info.type == fs.FileType.Directory:
        yield from _directory(filesystem, inner, prefix, input_format)
    elif path.endswith(LISTING_EXTENSIONS) and (pattern or path).endswith(LISTING_EXTENSIONS):
        for line in _listing(path):
            yield from _expand(line, input_format)
    elif input_format != "auto":
        yield InputFile(path, input_format, info.size or 0)
    elif fmt := _detect_format(path):
        yield InputFile(path, fmt, info.size or 0)
    elif pattern is None:
        raise InputError(f"{path}: cannot tell the format from the name; pass --input-format")
    else:
        yield Skipped(path)


def _directory(
    filesystem: fs.FileSystem, inner: str, prefix: str, input_format: str
) -> Iterator[InputFile | Skipped]:
    """Every file of a folder and its subfolders in the format wanted: any file for ``html``."""
    selector = fs.FileSelector(inner, recursive=True)
    for info in sorted(filesystem.get_file_info(selector), key=lambda i: i.path):
        hidden = any(part.startswith((".", "_")) for part in PurePosixPath(info.path).relative_to(inner).parts)
        if info.type != fs.FileType.File or hidden:
            continue
        fmt = "html" if input_format == "html" else _detect_format(info.base_name)
        if fmt and input_format in ("auto", fmt):
            yield InputFile(prefix + info.path, fmt, info.size or 0)
        else:
            yield Skipped(prefix + info.path)


def _glob(pattern: str) -> Iterator[str]:
    """Shell-style matching, one path component at a time: ``*`` does not cross ``/``."""
    static = pattern[: min(pattern.index(c) for c in GLOB_CHARS if c in pattern)]
    base = static.rsplit("/", 1)[0]
    filesystem, inner, prefix = _locate(base)
    wanted = pattern.split("/")
    depth = pattern.count("/") - base.count("/")
    selector = fs.FileSelector(inner, recursive=depth > 1)
    for info in filesystem.get_file_info(selector):
        candidate = (prefix + info.path).split("/")
        if len(candidate) == len(wanted) and all(map(_matches, candidate, wanted)):
            yield "/".join(candidate)


def _matches(name: str, pattern: str) -> bool:
    """As the shell does it: a wildcard does not match a leading dot; a name matches itself."""
    if name == pattern:  # a folder named like a pattern (pages[1]) on the way to the wildcard
        return True
    return fnmatch.fnmatchcase(name, pattern) and (not name.startswith(".") or pattern.startswith("."))


def _listing(path: str) -> Iterator[str]:
    """The paths in a listing file; relative ones are taken from the listing's folder."""
    folder = path.rsplit("/", 1)[0]
    with open_input(path) as stream:
        raw = stream.read()
    text = gzip.decompress(raw) if path.endswith(".gz") else raw
    for line in text.decode("utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            yield line if "://" in line or line.startswith("/") else f"{folder}/{line}"


def _detect_format(name: str) -> str | None:
    lowered = name.lower()
    for fmt, extensions in EXTENSIONS.items():
        if lowered.endswith(extensions):
            return fmt
    return None


def absolute_path(path: str) -> str:
    if path.startswith("file://"):
        return path[len("file://") :]
    return path if "://" in path else os.path.abspath(path)


def filesystem_for(path: str) -> tuple[fs.FileSystem, str]:
    if "://" not in path:
        return fs.LocalFileSystem(), path
    return fs.FileSystem.from_uri(to_pyarrow_uri(path))


def _locate(path: str) -> tuple[fs.FileSystem, str, str]:
    """The file system, the path within it, and the prefix that turns the latter back into ``path``.

    pyarrow drops the scheme and, for S3, keeps the bucket: ``s3://b/k`` is ``b/k``
    with prefix ``s3://``, ``hdfs://nn:8020/d`` is ``/d`` with prefix ``hdfs://nn:8020``.
    """
    filesystem, inner = filesystem_for(path)
    if not path.endswith(inner):
        raise InputError(f"{path}: cannot list this location")
    return filesystem, inner, path[: len(path) - len(inner)]


def split_files(files: Sequence[InputFile], task_bytes: int) -> list[InputFile]:
    """Every WARC larger than ``task_bytes`` as byte ranges of about that size, each read by
    a task of its own, and the other files whole. Whether a file's records can be found
    from any byte is seen by the tasks that read it: a file that cannot is read whole by
    the task of its first range (webclean.warc_ranges)."""
    pieces = []
    for file in files:
        if file.format != "warc" or file.size <= task_bytes or file.path.lower().endswith(WHOLE_EXTENSIONS):
            pieces.append(file)
            continue
        for start, stop in byte_ranges(file.size, task_bytes):
            pieces.append(replace(file, size=(file.size if stop is None else stop) - start, start=start, stop=stop))
    return pieces


def pack_partitions(files: Sequence[InputFile], slots: int, task_bytes: int) -> list[list[InputFile]]:
    """Largest file first into the lightest partition: about ``task_bytes`` each, and at
    least TASKS_PER_CORE partitions for each of the ``slots`` cores when there are files
    (or ranges of files) enough."""
    total = sum(f.size for f in files)
    count = min(len(files), max(slots * TASKS_PER_CORE, math.ceil(total / task_bytes)))
    partitions: list[list[InputFile]] = [[] for _ in range(count)]
    loads = [(0, i) for i in range(count)]
    for file in sorted(files, key=lambda f: (-f.size, f.path, f.start)):
        load, index = heapq.heappop(loads)
        partitions[index].append(file)
        heapq.heappush(loads, (load + max(file.size, 1), index))
    return partitions
