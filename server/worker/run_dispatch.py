"""The run dispatcher: takes runs, executes them side by side, records each outcome.

Up to ``slots`` runs execute at once. A pass (``take_ready``) fails RUNNING
runs past their deadline (``deadline_exceeded``), then takes runs into free
slots: stranded ones (their lease lapsed) first, then QUEUED ones, each by a
compare-and-set, so of two dispatchers one takes a run. A taken run is checked
(``profile_check``), handed to the ``RunExecutor`` until its deadline, and its
result ``settle``d together with its schedule's accounting, once per
occurrence however often it is retried. Leases are renewed every third of a
lease while runs execute, so another replica delivers a run again (same
``run_id``) only when this one stopped.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from typing import Final
from uuid import UUID, uuid4

from server.domain.states import ReasonCode, RunStatus
from server.firing import accounting, events
from server.identity import IdentityProvider
from server.storage.jsontext import load_object
from server.storage.ports import Store
from server.storage.records import (
    ClaimedRun,
    MessageRecord,
    RunLease,
    ScheduleChange,
    ScheduleView,
)
from server.worker.blocking import in_thread
from server.worker.executor import RunExecutor, RunFailure, RunResult
from server.worker.profile_check import browser_profile_refusal

__all__ = ["DEFAULT_RUN_BATCH", "DEFAULT_RUN_LEASE", "RunDispatcher"]

_log = logging.getLogger(__name__)

DEFAULT_RUN_BATCH: Final = 20
DEFAULT_RUN_LEASE: Final = timedelta(seconds=30)
"""How long a run stays its dispatcher's without a renewal; renewed every third of it."""
_DEADLINE = RunFailure(ReasonCode.DEADLINE_EXCEEDED, "DeadlineExceeded")
_TICK = timedelta(microseconds=1)

_Take = Callable[[UUID, datetime, RunLease], ClaimedRun | None]


class RunDispatcher:
    """Feeds runs to one executor, up to ``slots`` at once, and records what it answers."""

    def __init__(
        self,
        store: Store,
        executor: RunExecutor,
        clock: Callable[[], datetime],
        *,
        batch_size: int = DEFAULT_RUN_BATCH,
        slots: int = 1,
        lease: timedelta = DEFAULT_RUN_LEASE,
        stopping: threading.Event | None = None,
        identity: IdentityProvider | None = None,
        on_ended: Callable[[], None] = lambda: None,
    ) -> None:
        """``identity`` lets each run's bound profile be checked as it starts (None: not).

        ``on_ended`` is called on the loop after each run's outcome commits.
        """
        if slots < 1:
            raise ValueError("a dispatcher needs at least one slot")
        self._store = store
        self._identity = identity
        self._stopping = stopping or threading.Event()
        self._executor = executor
        self._clock = clock
        self._batch_size = batch_size
        self._slots = slots
        self._lease = lease
        self._on_ended = on_ended
        self.holder = uuid4().hex
        """This dispatcher's name on the leases it holds."""
        self._held: set[UUID] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._group: asyncio.TaskGroup | None = None
        self._free = asyncio.Semaphore(slots)
        self._ended = 0

    async def dispatch_once(self) -> int:
        """One pass, then wait for the runs it took to end; how many runs ended."""
        before = self._ended
        async with self.executing():
            await self.take_ready()
        return self._ended - before

    @asynccontextmanager
    async def executing(self) -> AsyncIterator[None]:
        """Runs taken in the block execute as tasks, leases renewed; leaving waits for them."""
        self._free = asyncio.Semaphore(self._slots)
        async with asyncio.TaskGroup() as group:
            self._group = group
            renewing = group.create_task(self._keep_leases(), name="run leases")
            try:
                yield
                while self._tasks:
                    await asyncio.wait(set(self._tasks))
            finally:
                renewing.cancel()
                self._group = None

    async def take_ready(self) -> int:
        """Fail overdue runs, then take stranded and queued runs into free slots; how many."""
        group = self._group
        if group is None:
            raise RuntimeError("runs are taken within executing()")
        expired = await in_thread(self.expire_overdue, self._clock())
        self._ended += expired
        taken = 0
        for run_id, take in await in_thread(self._candidates, self._clock()):
            if self._stopping.is_set():
                break
            if run_id in self._held:  # ours, though its lease lapsed: still executing here
                continue
            await self._free.acquire()  # a run is taken only when it can execute at once
            run = None
            try:
                if not self._stopping.is_set():
                    run = await in_thread(take, run_id, self._clock(), self._next_lease())
            finally:
                if run is None:  # stopping, another dispatcher took it, or the take failed
                    self._free.release()
            if run is None:
                continue
            taken += 1
            self._held.add(run_id)
            task = group.create_task(self._carry_out(run), name=f"run {run_id}")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return expired + taken

    async def renew_leases(self) -> int:
        """Extend the lease of every run this dispatcher is executing; how many were renewed."""
        if not self._held:
            return 0
        return await in_thread(self._store.runs.renew, frozenset(self._held), self._next_lease())

    def refusal(self, run: ClaimedRun) -> RunFailure | None:
        """Why a taken run must fail before its executor is called (``profile_check``)."""
        if self._identity is None:
            return None
        return browser_profile_refusal(self._store, self._identity, run)

    def expire_overdue(self, now: datetime) -> int:
        """Fail every RUNNING run past its deadline; how many were failed."""
        overdue = self._store.runs.overdue(now, self._batch_size)
        result = RunResult(RunStatus.FAILED, (), _DEADLINE)
        account = _accounting(result, now)
        return sum(
            self._store.runs.finish(
                i, RunStatus.FAILED, (), now, account, failure_reason=_DEADLINE.reason
            )
            for i in overdue
        )

    def settle(self, run: ClaimedRun, result: RunResult, now: datetime) -> bool:
        """Record ``result`` for a taken run; False when it had already ended.

        Answers are a microsecond apart, so the transcript (oldest first, by
        time) shows them in the order the executor gave them.
        """
        messages = [
            MessageRecord(uuid4(), run.session_id, "assistant", text, False, now + _TICK * index)
            for index, text in enumerate(result.answers)
        ]
        return self._store.runs.finish(
            run.run_id,
            result.status,
            messages,
            now,
            _accounting(result, now),
            failure_reason=None if result.failure is None else result.failure.reason,
        )

    def _candidates(self, now: datetime) -> list[tuple[UUID, _Take]]:
        """Stranded runs (taken over) first, then queued ones (started)."""
        runs = self._store.runs
        stranded: list[tuple[UUID, _Take]] = [
            (i, runs.take_over) for i in runs.stranded(now, self._batch_size)
        ]
        return stranded + [(i, runs.start) for i in runs.queued(now, self._batch_size)]

    def _next_lease(self) -> RunLease:
        return RunLease(self.holder, self._clock() + self._lease)

    async def _carry_out(self, run: ClaimedRun) -> None:
        try:
            # Only a run bound to a website sign-in has anything to check (no thread hop else).
            refusal = None if run.browser_profile_id is None else await in_thread(self.refusal, run)
            result = (
                RunResult(RunStatus.FAILED, (), refusal) if refusal else await self._execute(run)
            )
            if await in_thread(self.settle, run, result, self._clock()):
                self._ended += 1
                self._on_ended()
        except Exception as err:  # its lease lapses, and the run is taken over and delivered again
            _log.warning("run %s could not be settled (%s)", run.run_id, type(err).__name__)
        finally:
            self._held.discard(run.run_id)
            self._free.release()

    async def _execute(self, run: ClaimedRun) -> RunResult:
        """The executor's result, or ``deadline_exceeded`` once the deadline frees the slot."""
        budget = (run.deadline_at - self._clock()).total_seconds()
        try:
            async with asyncio.timeout(max(budget, 0.0)) as bound:
                return await self._executor.execute(run)
        except TimeoutError as err:
            if not bound.expired():
                return _raised(run, err)
            _log.warning("run %s outlived its deadline in its executor", run.run_id)
            return RunResult(RunStatus.FAILED, (), _DEADLINE)
        except Exception as err:
            return _raised(run, err)

    async def _keep_leases(self) -> None:
        every = self._lease.total_seconds() / 3
        while True:
            await asyncio.sleep(every)
            try:
                await self.renew_leases()
            except Exception as err:  # tried again a third of a lease later
                _log.warning("run leases could not be renewed (%s)", type(err).__name__)


def _raised(run: ClaimedRun, err: Exception) -> RunResult:
    _log.warning("run %s failed in its executor (%s)", run.run_id, type(err).__name__)
    return RunResult.failed(ReasonCode.EXECUTOR_ERROR, type(err).__name__)


def _accounting(result: RunResult, now: datetime) -> Callable[[ScheduleView, UUID], ScheduleChange]:
    failure = (
        None
        if result.failure is None
        else {"reason": result.failure.reason, "error_class": result.failure.error_class}
    )

    def account(view: ScheduleView, occurrence_id: UUID) -> ScheduleChange:
        record = view.schedule
        limit = accounting.max_failures(load_object(view.revision.definition))
        standing = accounting.after_outcome(
            accounting.Standing.of(record), accounting.outcome_of_run(result.status), limit
        )
        audit = [
            events.run_accounted(record, str(occurrence_id), result.status, failure, standing, now),
            *events.standing_changed(record, standing, limit, now),
        ]
        return accounting.change_to(record, standing, now, audit)

    return account
