"""Open an input for reading bytes, wherever it is: a local path, a ``file://`` URI, or
any URI that ``pyarrow.fs`` opens (``s3://``, Hadoop's ``s3a://``, ``hdfs://``).

Only remote paths need pyarrow: a plain local file is read without it.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any, BinaryIO, cast
from urllib.parse import unquote, urlparse

# Remote streams are read in blocks of this many bytes, not one request per small read.
BUFFER_BYTES = 1 << 20


def open_input(path: str) -> AbstractContextManager[BinaryIO]:
    """Open a local path, a ``file://`` URI or a pyarrow file-system URI for reading bytes."""
    local = _local_path(path)
    if local is not None:
        return open(local, "rb")
    filesystem, inner = _filesystem(path)
    # compression=None: the WARC reader must see the gzip members themselves, so that
    # offsets are those of the stored file and a broken member stops only that member.
    return filesystem.open_input_stream(inner, compression=None, buffer_size=BUFFER_BYTES)


def open_input_at(path: str, offset: int) -> AbstractContextManager[BinaryIO]:
    """Open ``path`` as :func:`open_input` does, to read from byte ``offset`` on without reading what is before."""
    local = _local_path(path)
    if local is not None:
        handle = open(local, "rb")
        handle.seek(offset)
        return handle
    import pyarrow as pa

    filesystem, inner = _filesystem(path)
    remote = filesystem.open_input_file(inner)
    remote.seek(offset)
    # Closing the buffered stream closes the file under it.
    return cast(AbstractContextManager[BinaryIO], pa.BufferedInputStream(remote, BUFFER_BYTES))


def to_pyarrow_uri(path: str) -> str:
    """Hadoop's ``s3a://`` and ``s3n://`` name what pyarrow calls ``s3://``."""
    for prefix in ("s3a://", "s3n://"):
        if path.startswith(prefix):
            return "s3://" + path[len(prefix) :]
    return path


def _local_path(path: str) -> str | None:
    scheme = urlparse(path).scheme
    if scheme == "file":
        return unquote(urlparse(path).path)
    if len(scheme) <= 1:  # no scheme, or a Windows drive letter
        return path
    return None


def _filesystem(path: str) -> tuple[Any, str]:
    from pyarrow import fs

    return fs.FileSystem.from_uri(to_pyarrow_uri(path))
