"""Where the scheduler runs: the worker, the run dispatcher and the purge, as asyncio tasks.

``SchedulingRuntime.run`` runs three loops on the caller's event loop, every
database call on a thread: materialize (``ScheduleWorker.run_once``, then
sleep until the next firing, a backoff or the fallback poll; a ``WakeSignal``
cuts it short), dispatch (``RunDispatcher.take_ready`` after queued runs and
at least once a lease or poll) and purge (hourly). A failing iteration is
logged by exception type and retried; a storage fault once per spell. The
``ChangeFeed`` is published after each commit. The materialize loop wakes at
least every heartbeat interval, and its scans tick this replica's heartbeat
(``server/worker/heartbeat.py``). ``stop`` lets the work in flight finish and
commit; ``running`` starts ``run`` and, on the way out,
stops it and waits (at most ``stop_within`` seconds).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from server.firing.admission import Admission
from server.firing.observer import SILENT, WorkerObserver
from server.identity import IdentityProvider
from server.storage.faults import describe_fault, is_storage_fault
from server.storage.ports import Store
from server.worker.blocking import in_thread
from server.worker.change_feed import ChangeFeed
from server.worker.embedded_executor import EmbeddedExecutor
from server.worker.executor import RunExecutor
from server.worker.heartbeat import HEARTBEAT_INTERVAL, SILENT_RETENTION, Pulse, this_replica
from server.worker.retention import PURGE_INTERVAL, purge_expired
from server.worker.run_dispatch import DEFAULT_RUN_LEASE, RunDispatcher
from server.worker.wake import WakeSignal
from server.worker.worker import DEFAULT_BATCH_SIZE, ScheduleWorker

__all__ = ["DEFAULT_RUN_SLOTS", "SchedulingRuntime", "SchedulingSettings", "running"]

_log = logging.getLogger(__name__)


DEFAULT_RUN_SLOTS = 64
"""Runs one process executes at once: above the default active-run cap, and cheap
(an executor's run waits on its runtime, not on this process)."""


@dataclass(frozen=True, slots=True)
class SchedulingSettings:
    """The runtime's knobs; the defaults suit the embedded server and a small team.

    ``run_slots`` must exceed the admission's active-run cap, so one owner's
    runs never fill every slot; ``run_lease`` bounds how long a run held by a
    stopped replica waits before another takes it over.
    """

    admission: Admission = field(default_factory=Admission)
    batch_size: int = DEFAULT_BATCH_SIZE
    fallback_poll: timedelta = timedelta(seconds=30)
    purge_interval: timedelta = PURGE_INTERVAL
    run_slots: int = DEFAULT_RUN_SLOTS
    run_lease: timedelta = DEFAULT_RUN_LEASE
    heartbeat: timedelta = HEARTBEAT_INTERVAL
    heartbeat_retention: timedelta = SILENT_RETENTION

    def __post_init__(self) -> None:
        if self.run_slots <= self.admission.max_active_runs:
            raise ValueError(
                f"run slots ({self.run_slots}) must exceed the active-run cap"
                f" ({self.admission.max_active_runs}), so one owner's runs never fill them"
            )
        if self.run_lease <= timedelta(0):
            raise ValueError("the run lease must be positive")


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
        observer: WorkerObserver = SILENT,
    ) -> None:
        self._settings = settings or SchedulingSettings()
        self._store = store
        self._clock = clock
        self._stopping = threading.Event()
        self.replica = this_replica(clock())
        self._worker = ScheduleWorker(
            store,
            identity,
            admission=self._settings.admission,
            batch_size=self._settings.batch_size,
            stopping=self._stopping,
            observer=observer,
            pulse=Pulse(self.replica, self._settings.heartbeat, self._settings.heartbeat_retention),
        )
        self._executor = executor or EmbeddedExecutor()
        self.wake = wake or WakeSignal()
        self.changes = changes or ChangeFeed()
        self._dispatcher = RunDispatcher(
            store,
            self._executor,
            clock,
            slots=self._settings.run_slots,
            lease=self._settings.run_lease,
            stopping=self._stopping,
            identity=identity,
            on_ended=self.changes.publish,
        )
        self._runs_queued = WakeSignal()
        self._purge_wake = WakeSignal()
        self._quiet: set[str] = set()

    def stop(self) -> None:
        """Start no new work; each loop returns once the work it is in has ended."""
        self._stopping.set()
        for sleeping in (self.wake, self._runs_queued, self._purge_wake):
            sleeping.notify()

    async def run(self) -> None:
        """Run the three loops until stopped."""
        try:
            async with asyncio.TaskGroup() as group:
                group.create_task(self._materialize_forever(), name="schedule worker")
                group.create_task(self._dispatch_forever(), name="run dispatcher")
                group.create_task(self._purge_forever(), name="retention purge")
        finally:
            closing = getattr(self._executor, "aclose", None)
            if closing is not None:  # an HTTP executor keeps connections to its runtime
                await closing()

    async def _materialize_forever(self) -> None:
        poll = min(self._settings.fallback_poll, self._settings.heartbeat)
        try:
            await in_thread(self._worker.repair_missing_next_fire, self._clock())
        except Exception as err:
            _log.warning("next-firing repair failed (%s); scanning anyway", type(err).__name__)
        while not self._stopping.is_set():
            wake_at: datetime | None = None
            now = self._clock()
            try:
                report = await in_thread(self._worker.run_once, now)
                if report.written:
                    self.changes.publish()
                # Even when this scan wrote nothing: the change that nudged it may
                # have decided a due instant itself and queued its run.
                self._runs_queued.notify()
                if report.full:
                    await asyncio.sleep(0)  # let the loop breathe, then scan again
                    continue
                # From the scan's own instant: a firing that came due since is not skipped.
                wake_at = await in_thread(self._worker.next_wake, now, report)
            except Exception as err:
                if is_storage_fault(err):
                    wake_at = self._worker.storage_fault(err, now)
                else:
                    _log.warning("schedule scan failed (%s); retrying", type(err).__name__)
            await self.wake.wait(self._seconds_until(wake_at, poll))

    async def _dispatch_forever(self) -> None:
        # At least once a lease: a stopped replica's runs are taken over soon after theirs lapse.
        every = min(self._settings.fallback_poll, self._settings.run_lease).total_seconds()
        async with self._dispatcher.executing():  # leaving waits for the runs executing
            while not self._stopping.is_set():
                try:
                    while await self._dispatcher.take_ready():
                        self.changes.publish()
                        if self._stopping.is_set():
                            break
                    self._quiet.discard("run dispatch")
                except Exception as err:
                    self._failed("run dispatch", err)
                await self._runs_queued.wait(every)

    async def _purge_forever(self) -> None:
        while not self._stopping.is_set():
            try:
                if await in_thread(purge_expired, self._store, self._clock(), self._stopping):
                    self.changes.publish()
                self._quiet.discard("retention purge")
            except Exception as err:
                self._failed("retention purge", err)
            await self._purge_wake.wait(self._settings.purge_interval.total_seconds())

    def _failed(self, loop: str, err: Exception) -> None:
        if not is_storage_fault(err):
            _log.warning("%s failed (%s); retrying", loop, type(err).__name__)
        elif loop not in self._quiet:
            self._quiet.add(loop)
            _log.warning("%s met a storage fault (%s); retrying quietly", loop, describe_fault(err))

    def _seconds_until(self, wake_at: datetime | None, poll: timedelta) -> float:
        if wake_at is None:
            return poll.total_seconds()
        delay = (wake_at - self._clock()).total_seconds()
        return min(max(delay, 0.0), poll.total_seconds())


@asynccontextmanager
async def running(
    runtime: SchedulingRuntime, *, stop_within: float | None = None
) -> AsyncIterator[SchedulingRuntime]:
    """``runtime`` running as a task for the body; stopped and awaited on the way out.

    Without ``stop_within`` the wait lasts until the work in flight is done;
    with it, at most that many seconds, after which what is still in flight
    is abandoned and logged.
    """
    task = asyncio.create_task(runtime.run(), name="scheduling")
    try:
        yield runtime
    finally:
        runtime.stop()
        loop = asyncio.get_running_loop()
        deadline = None if stop_within is None else loop.time() + stop_within
        interrupted = False
        while not task.done():  # even when we are cancelled meanwhile (a second Ctrl+C)
            left = None if deadline is None else deadline - loop.time()
            if left is not None and left <= 0:
                _log.warning(
                    "the scheduler's work in flight outlived the %s s stop bound and was"
                    " abandoned; its transaction rolls back",
                    stop_within,
                )
                task.cancel()  # its threads are abandoned, so this ends at once
                await asyncio.wait({task})
                break
            try:
                await asyncio.wait({task}, timeout=left)
            except asyncio.CancelledError:
                interrupted = True
        if not task.cancelled() and task.exception() is not None:
            _log.warning("the scheduler had stopped (%s)", type(task.exception()).__name__)
        if interrupted:
            raise asyncio.CancelledError
