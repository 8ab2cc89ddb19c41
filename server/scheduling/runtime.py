"""Where the scheduler runs: the worker, the run dispatcher and the purge, as asyncio tasks.

``SchedulingRuntime.run`` runs three loops on the caller's event loop until
cancelled; every database call goes to a worker thread
(``anyio.to_thread.run_sync``, which on cancellation waits for the thread to
return, so once ``run`` has ended nothing touches the store any more):

- materialize: ``ScheduleWorker.run_once``, then sleep until the next firing,
  the earliest backoff or the fallback poll, whichever is first; a
  ``WakeSignal`` nudge (create, update, resume) cuts the sleep short;
- dispatch: ``RunDispatcher.dispatch_once`` whenever the worker queued runs,
  and at the fallback poll (runs queued by another process, deadlines);
- purge: ``retention.purge_expired`` at start and every hour.

A loop iteration that fails is logged by exception type and retried at the
fallback poll; only cancellation ends the loops. After every committed change
the ``ChangeFeed`` is published, on this loop.

``running`` starts ``run`` as a task and, on the way out (Ctrl+C and
cancellation included), cancels it and waits until it has stopped: the
caller may then close the store.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from anyio import to_thread

from server.identity import IdentityProvider
from server.scheduling.admission import Admission
from server.scheduling.change_feed import ChangeFeed
from server.scheduling.embedded_executor import EmbeddedExecutor
from server.scheduling.executor import RunExecutor
from server.scheduling.retention import PURGE_INTERVAL, purge_expired
from server.scheduling.run_dispatch import RunDispatcher
from server.scheduling.wake import WakeSignal
from server.scheduling.worker import DEFAULT_BATCH_SIZE, ScheduleWorker
from server.storage.ports import Store

__all__ = ["SchedulingRuntime", "SchedulingSettings", "running"]

_log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SchedulingSettings:
    """The runtime's knobs; the defaults suit the embedded server and a small team."""

    admission: Admission = field(default_factory=Admission)
    batch_size: int = DEFAULT_BATCH_SIZE
    fallback_poll: timedelta = timedelta(seconds=30)
    purge_interval: timedelta = PURGE_INTERVAL


class SchedulingRuntime:
    """The scheduler of one server process."""

    def __init__(
        self,
        store: Store,
        identity: IdentityProvider,
        clock: Callable[[], datetime],
        *,
        executor: RunExecutor | None = None,
        settings: SchedulingSettings | None = None,
        wake: WakeSignal | None = None,
        changes: ChangeFeed | None = None,
    ) -> None:
        self._settings = settings or SchedulingSettings()
        self._store = store
        self._clock = clock
        self._worker = ScheduleWorker(
            store,
            identity,
            admission=self._settings.admission,
            batch_size=self._settings.batch_size,
        )
        self._dispatcher = RunDispatcher(store, executor or EmbeddedExecutor(), clock)
        self.wake = wake or WakeSignal()
        self.changes = changes or ChangeFeed()
        self._runs_queued = WakeSignal()

    async def run(self) -> None:
        """Run the three loops until cancelled."""
        async with asyncio.TaskGroup() as group:
            group.create_task(self._materialize_forever(), name="schedule worker")
            group.create_task(self._dispatch_forever(), name="run dispatcher")
            group.create_task(self._purge_forever(), name="retention purge")

    async def _materialize_forever(self) -> None:
        poll = self._settings.fallback_poll
        while True:
            wake_at: datetime | None = None
            try:
                now = self._clock()
                report = await to_thread.run_sync(self._worker.run_once, now)
                if report.written:
                    self.changes.publish()
                    self._runs_queued.notify()
                if report.full:
                    await asyncio.sleep(0)  # let the loop breathe, then scan again
                    continue
                # From the scan's own instant: a firing that came due since is not skipped.
                wake_at = await to_thread.run_sync(self._worker.next_wake, now, report)
            except Exception as err:
                _log.warning("schedule scan failed (%s); retrying", type(err).__name__)
            await self.wake.wait(self._seconds_until(wake_at, poll))

    async def _dispatch_forever(self) -> None:
        poll = self._settings.fallback_poll
        while True:
            try:
                while await self._dispatcher.dispatch_once():
                    self.changes.publish()
            except Exception as err:
                _log.warning("run dispatch failed (%s); retrying", type(err).__name__)
            await self._runs_queued.wait(poll.total_seconds())

    async def _purge_forever(self) -> None:
        while True:
            try:
                if await to_thread.run_sync(purge_expired, self._store, self._clock()):
                    self.changes.publish()
            except Exception as err:
                _log.warning("retention purge failed (%s); retrying", type(err).__name__)
            await asyncio.sleep(self._settings.purge_interval.total_seconds())

    def _seconds_until(self, wake_at: datetime | None, poll: timedelta) -> float:
        if wake_at is None:
            return poll.total_seconds()
        delay = (wake_at - self._clock()).total_seconds()
        return min(max(delay, 0.0), poll.total_seconds())


@asynccontextmanager
async def running(runtime: SchedulingRuntime) -> AsyncIterator[SchedulingRuntime]:
    """``runtime`` running as a task for the body; stopped and awaited on the way out."""
    task = asyncio.create_task(runtime.run(), name="scheduling")
    try:
        yield runtime
    finally:
        task.cancel()
        interrupted = False
        while not task.done():  # even when we are cancelled meanwhile (a second Ctrl+C)
            try:
                await asyncio.wait({task})
            except asyncio.CancelledError:
                interrupted = True
        if not task.cancelled() and task.exception() is not None:
            _log.warning("the scheduler had stopped (%s)", type(task.exception()).__name__)
        if interrupted:
            raise asyncio.CancelledError
