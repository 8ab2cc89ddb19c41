"""The tests' one way to wait for something another thread or process will do.

``eventually`` polls a condition up to a generous bound for a loaded machine
and fails loudly, naming what it waited for; ``eventually_found`` returns
the first truthy value a read gives. Neither guesses with a fixed sleep.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

WITHIN_SECONDS = 30.0

_Found = TypeVar("_Found")


def eventually_found(
    read: Callable[[], _Found],
    what: str,
    within: float = WITHIN_SECONDS,
    every: float = 0.02,
) -> _Found:
    """The first truthy ``read()``; fail naming ``what`` after ``within`` seconds."""
    deadline = time.monotonic() + within
    while not (found := read()):
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting ({within:.0f} s): {what}")
        time.sleep(every)
    return found


def eventually(
    condition: Callable[[], bool], what: str, within: float = WITHIN_SECONDS, every: float = 0.02
) -> None:
    """Return once ``condition()`` holds; fail naming ``what`` after ``within`` seconds."""
    eventually_found(condition, what, within, every)
