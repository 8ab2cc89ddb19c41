"""Stopping the stand-alone server on SIGTERM: say so, keep serving a while, drain, exit 0.

SIGTERM begins the ``Drain``: ``/readyz`` answers 503 ``draining`` while the
listener serves everything for ``--drain-seconds``, so a load balancer's next
probe takes the replica out of rotation before any request fails (a second
SIGTERM, or SIGINT, ends the drain early). uvicorn's graceful shutdown follows.
Two things remain for the process, and this module does them: once uvicorn
re-raises the signal, ``sigterm_raises_stopped`` turns it into ``Stopped``
(exit status 0, not 143), which also ends a start-up where it stands; and
``abandon_stuck_requests`` ends the process when a thread outlives the grace
period (a query waiting on a lock), since Python would wait for it for ever
and the database rolls its transaction back anyway.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

DEFAULT_GRACE_SECONDS = 30
DEFAULT_DRAIN_SECONDS = 5
THREAD_EXIT_WAIT_SECONDS = 1.0


class Drain:
    """Whether this process is draining: told to stop, still serving, no longer ready."""

    def __init__(self) -> None:
        self._begun = threading.Event()

    def begin(self) -> None:
        self._begun.set()

    @property
    def begun(self) -> bool:
        return self._begun.is_set()


class Stopped(BaseException):
    """SIGTERM arrived. Not an ``Exception``, so no generic handler mistakes it for a failure."""


def _raise_stopped(_signum: int, _frame: FrameType | None) -> None:
    raise Stopped


@contextmanager
def sigterm_raises_stopped() -> Iterator[None]:
    """Within the block SIGTERM raises ``Stopped`` (uvicorn swaps in its own while it serves)."""
    previous = signal.signal(signal.SIGTERM, _raise_stopped)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _unfinished_threads() -> list[threading.Thread]:
    current = threading.current_thread()
    return [t for t in threading.enumerate() if t is not current and not t.daemon and t.is_alive()]


def abandon_stuck_requests(wait_seconds: float = THREAD_EXIT_WAIT_SECONDS) -> None:
    """Return once every worker thread has ended; if some never do, exit the process now (0)."""
    deadline = time.monotonic() + wait_seconds
    for thread in _unfinished_threads():
        thread.join(max(0.0, deadline - time.monotonic()))
    stuck = _unfinished_threads()
    if not stuck:
        return
    print(
        f"schedule-server: {len(stuck)} request(s) or scheduler transaction(s) outlived the"
        " shutdown grace period and were abandoned; their transactions roll back.",
        file=sys.stderr,
        flush=True,
    )
    sys.stdout.flush()
    os._exit(0)
