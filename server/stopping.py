"""Stopping the stand-alone server on SIGTERM: say so, keep serving a while, drain, exit 0.

A load balancer learns that a replica is going from ``GET /readyz``, which it
asks every few seconds; a replica that stops listening at once makes the
requests sent in between fail. So SIGTERM first begins the ``Drain``:
``/readyz`` answers 503 ``draining`` at once while the listener keeps serving
everything for ``--drain-seconds`` (``DEFAULT_DRAIN_SECONDS``), long enough
for the balancer's next probe to take the replica out of rotation. A second
SIGTERM, or SIGINT, ends the drain early. Then the shutdown proper begins.

uvicorn already turns SIGTERM into a graceful shutdown: it closes the listening
socket (new connections are refused, so a load balancer moves on at once),
lets the requests in flight finish for at most the grace period, then cancels
what is left. Two things remain for the process, and this module does them:

- Once drained, uvicorn raises the caught signal again; under the default
  handler the process dies of it (status 143 in a shell). ``sigterm_raises_stopped``
  installs a handler that raises ``Stopped`` instead, which the command line
  turns into status 0. Before uvicorn takes over (while migrating or loading
  demo data) the same handler ends the start-up where it stands; PostgreSQL
  rolls back a half-done migration and the advisory lock goes with it.
- A request that outlives the grace period may still hold a worker thread (a
  query waiting on a lock, say): uvicorn cancels its task, but nothing can stop
  the thread, and Python waits for every such thread before it exits. So may
  the scheduler's transaction, when it outlives its own bound
  (``scheduling.runtime.running``). ``abandon_stuck_requests`` gives the
  threads a moment, then ends the process without them; the database rolls
  their transactions back when the connections drop, so nothing half-written
  remains.
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
