"""The machine a benchmark ran on, for its report: CPU, memory, versions, load and BLAS.

What a figure of speed depends on beyond the code: the CPU and the cores this process
may use, the versions of Python, webclean (and its commit), lxml and the peers, which
core webclean runs, numpy's BLAS threads, and the load average and peak memory of the
run (benchmarks/speed.py).
"""

from __future__ import annotations

import contextlib
import os
import platform
import resource
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path


def machine() -> dict[str, str]:
    import lxml
    import numpy
    from lxml import etree

    cpu = "unknown"
    with contextlib.suppress(OSError), open("/proc/cpuinfo", encoding="utf-8") as handle:
        cpu = next((line.split(":", 1)[1].strip() for line in handle if line.startswith("model name")), cpu)
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {
        "CPU": cpu,
        "cores": f"{os.cpu_count()} ({usable} usable by this process)",
        "memory": _memory_total(),
        "OS": f"{platform.system()} {platform.release()}",
        "Python": f"{platform.python_implementation()} {platform.python_version()}",
        "webclean": _webclean_version(),
        "webclean core": _webclean_core(),
        "lxml": f"{lxml.__version__} (libxml2 {'.'.join(map(str, etree.LIBXML_VERSION))})",
        "numpy": numpy.__version__,
        "BLAS": _blas_threads(),
        "peers": ", ".join(_versions(("trafilatura", "resiliparse", "readability-lxml", "jieba"))),
    }


def _webclean_version() -> str:
    """The package version and, for a checkout, its commit (``-dirty``: edited since)."""
    import webclean

    where = Path(webclean.__file__).resolve().parents[1]
    try:
        described = subprocess.run(
            ["git", "-C", str(where), "describe", "--always", "--dirty"], capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        described = "not a git checkout"
    return f"{webclean.__version__} ({described})"


def _webclean_core() -> str:
    """Which core webclean-bytes and webclean-str run (webclean-python: the Python path)."""
    from webclean import core

    if core.compiled is not None:
        return "compiled (webclean/_core.pyx)"
    chosen = os.environ.get(core.PURE_VARIABLE, "") not in ("", "0")
    return f"python ({core.PURE_VARIABLE}={os.environ[core.PURE_VARIABLE]})" if chosen else "python (the extension is not built)"


def _blas_threads() -> str:
    """numpy's BLAS may run a product on several threads, and process time adds them up."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return "unknown (no threadpoolctl); OPENBLAS_NUM_THREADS=" + os.environ.get("OPENBLAS_NUM_THREADS", "unset")
    pools = [
        f"{pool['internal_api']} {pool.get('architecture', '')} kernels, threads {pool['num_threads']}"
        for pool in threadpool_info()
        if pool.get("user_api") == "blas"
    ]
    coretype = os.environ.get("OPENBLAS_CORETYPE")
    return ", ".join(pools + ([f"OPENBLAS_CORETYPE={coretype}"] if coretype else [])) or "none loaded"


def _memory_total() -> str:
    with contextlib.suppress(OSError, ValueError), open("/proc/meminfo", encoding="utf-8") as handle:
        kib = int(handle.readline().split()[1])
        return f"{kib / 2**20:.1f} GiB"
    return "unknown"


def _versions(packages: Sequence[str]) -> Iterator[str]:
    from importlib.metadata import PackageNotFoundError, version

    for package in packages:
        with contextlib.suppress(PackageNotFoundError):
            yield f"{package} {version(package)}"


def load_average() -> str:
    return " / ".join(f"{x:.2f}" for x in os.getloadavg()) + " (1 / 5 / 15 min)"


def maxrss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def machine_table(info: dict[str, str]) -> str:
    return "\n".join(["| | |", "|---|---|", *(f"| {key} | {value} |" for key, value in info.items())])
