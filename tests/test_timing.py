"""webclean.timing: the stage timer the recipe takes."""

from __future__ import annotations

import pytest

from webclean.extract import extract
from webclean.timing import StageTimer, timed


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_each_second_goes_to_the_innermost_stage_open():
    clock = _Clock()
    timer = StageTimer(clock)
    with timer.stage("denoise"):
        clock.now += 1.0
        with timer.stage("classify"):
            clock.now += 2.0
        clock.now += 0.5
    with timer.stage("classify"):
        clock.now += 0.25
    assert timer.seconds == {"denoise": 1.5, "classify": 2.25}
    timer.reset()
    assert timer.seconds == {}


def test_a_stage_that_raises_is_counted_and_closed():
    clock = _Clock()
    timer = StageTimer(clock)
    with pytest.raises(KeyError), timer.stage("outer"), timer.stage("inner"):
        clock.now += 1.0
        raise KeyError("x")
    with timer.stage("after"):
        clock.now += 1.0
    assert timer.seconds == {"inner": 1.0, "outer": 0.0, "after": 1.0}


def test_without_a_timer_nothing_is_timed():
    with timed(None, "parse"):
        pass


@pytest.mark.parametrize("method", ["svm", "paper", "blocks"])
def test_the_recipe_times_its_stages_and_extracts_the_same(method):
    from webclean.config import Config

    page = (
        b"<html><head><title>Bridge</title></head><body><div><p>"
        + b"The council met on Monday to discuss the new bridge over the river, and voted to fund it. " * 3
        + b"</p><p><a href='/'>Home</a></p></div></body></html>"
    )
    config = Config(method=method)
    timer = StageTimer()
    assert extract(page, config=config, timer=timer) == extract(page, config=config)
    expected = {
        "svm": {
            "decode", "parse", "title", "segment", "locate", "page_type", "features", "classify", "denoise", "metadata", "confidence",
            "language",
        },
        "paper": {"decode", "parse", "title", "locate", "features", "classify", "denoise", "metadata", "language"},
        "blocks": {"decode", "parse", "title", "metadata", "method", "language"},
    }[method]
    assert set(timer.seconds) == expected
    assert all(seconds >= 0 for seconds in timer.seconds.values())
