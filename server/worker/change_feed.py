"""The scheduler's in-process change signal: "something you may be showing has changed".

After each commit the worker or the run dispatcher makes (an occurrence
recorded, a run finished, a schedule advanced, paused or completed, a
terminal schedule purged), the runtime calls ``publish`` on its event loop,
and every subscriber's callback runs there, with no argument: a subscriber
re-reads what it shows through the API. It is a hint, not a log: a
subscriber that missed one still sees the change on its next read.
Callbacks must be quick and must not raise; one that raises is logged (by
exception type) and the others still run.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

__all__ = ["ChangeFeed"]

_log = logging.getLogger(__name__)


class ChangeFeed:
    """``subscribe(callback) -> unsubscribe``; ``publish()`` calls every callback."""

    def __init__(self) -> None:
        self._callbacks: list[Callable[[], None]] = []

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        self._callbacks.append(callback)

        def unsubscribe() -> None:
            if callback in self._callbacks:
                self._callbacks.remove(callback)

        return unsubscribe

    def publish(self) -> None:
        for callback in tuple(self._callbacks):
            try:
                callback()
            except Exception as err:
                _log.warning("a change subscriber failed (%s)", type(err).__name__)
