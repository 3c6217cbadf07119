"""Where the time of an extraction goes: an optional timer of the recipe's stages.

In the spirit of datatrove's ``track_time``: the recipe wraps each named stage in
``timed(timer, name)``, which costs nothing without a timer. With one, the CPU time of
each stage adds up over the pages it times::

    timer = StageTimer()
    for page in pages:
        extract(page, timer=timer)
    timer.seconds  # {"decode": ..., "parse": ..., "segment": ..., ...}

A stage timed inside another (the classifier's features inside Step 4) is not counted
in it: each second goes to the innermost stage open.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext


class StageTimer:
    """Seconds per stage, summed over every call timed with it."""

    def __init__(self, clock: Callable[[], float] = time.process_time) -> None:
        self.clock = clock
        self.seconds: dict[str, float] = {}
        self._open: list[str] = []
        self._since = 0.0

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        """Count the time until the block ends to ``name``, less its inner stages'."""
        now = self.clock()
        if self._open:
            self._add(self._open[-1], now - self._since)
        self._open.append(name)
        self._since = now
        try:
            yield
        finally:
            now = self.clock()
            self._add(self._open.pop(), now - self._since)
            self._since = now

    def _add(self, name: str, seconds: float) -> None:
        self.seconds[name] = self.seconds.get(name, 0.0) + seconds

    def reset(self) -> None:
        self.seconds = {}


def timed(timer: StageTimer | None, name: str) -> AbstractContextManager[None]:
    """``timer.stage(name)``, or nothing when there is no timer."""
    return nullcontext() if timer is None else timer.stage(name)
