"""A per-page time limit that really interrupts, where the platform allows it.

The limit is a real-time interval timer (``SIGALRM``), so it interrupts a slow
regular expression or tree walk in Python code between bytecodes. Signals reach only
the main thread: elsewhere (a thread pool) the limit is not enforced, and the caller
should run pages in processes, as Spark's Python workers do.
"""

from __future__ import annotations

import gc
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager


class PageTimeout(Exception):
    """One page took longer than limits.timeout_seconds."""


def _can_interrupt() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    if seconds <= 0 or not _can_interrupt():
        yield
        return
    # A timer someone else set (an outer limit) fires first when it is sooner; a later
    # one is put back, less the time spent here, once this limit is done.
    outer, interval = signal.getitimer(signal.ITIMER_REAL)
    if 0 < outer <= seconds:
        yield
        return

    active = [True]

    def on_alarm(signum: int, frame: object) -> None:
        if active[0]:
            raise PageTimeout(f"over {seconds} s")

    started = time.monotonic()
    previous = signal.signal(signal.SIGALRM, on_alarm)
    # No cyclic garbage collection while the limit runs: a PageTimeout raised inside a
    # collector callback or a destructor it calls is printed as unraisable and lost, and
    # the repeated alarm then fires into whatever handles that report (a test runner's
    # hook among them). Cycles made by one page are collected after it.
    collecting = gc.isenabled()
    gc.disable()
    # The alarm repeats: a PageTimeout raised while Python runs a destructor that
    # reference counting calls is printed as unraisable and lost too, and a single
    # alarm would then let the page run to its end.
    signal.setitimer(signal.ITIMER_REAL, seconds, _REPEAT)
    try:
        yield
    finally:
        _disarm(active)
        if collecting:
            gc.enable()
        # None: a handler installed from C, which Python cannot reinstall; the default is the closest.
        signal.signal(signal.SIGALRM, previous if previous is not None else signal.SIG_DFL)
        if outer > 0:
            signal.setitimer(signal.ITIMER_REAL, max(outer - (time.monotonic() - started), 1e-3), interval)


_REPEAT = 0.05


def _disarm(active: list[bool]) -> None:
    """Stop the alarm, even if it fires once more while this runs."""
    while True:
        try:
            active[0] = False
            signal.setitimer(signal.ITIMER_REAL, 0)
            return
        except PageTimeout:
            continue
