"""The run dispatcher: takes queued runs, hands them to the executor, records the outcome.

``dispatch_once`` first fails every active run whose deadline has passed
(``deadline_exceeded``: a crash between taking and finishing a run must not
hold its schedule in overlap for ever), then goes through up to one batch of
QUEUED runs one at a time: take it (QUEUED -> RUNNING, a compare-and-set, so
of two dispatchers, in two replicas say, one takes it and the other moves
on), check it may still use its bound website sign-in
(``profile_check``: else it fails as ``browser_profile_unavailable`` without
reaching the executor), await the ``RunExecutor``, ``settle`` its result. Taking one run at a
time keeps at most one run RUNNING per dispatcher: a replica that dies
strands only that one (until its deadline), and it never holds runs that
another replica could be executing. Once ``stopping`` is set no further run
is taken; the one in flight is settled. Database work runs on worker threads
(``blocking.in_thread``); the executor runs on the loop.

``settle`` ends the run and accounts for its schedule in the same
transaction (``RunRepository.finish``), so the accounting happens once per
occurrence however often it is retried: COMPLETED resets the schedule's
failure count, FAILED adds one and may pause it (``failure_limit``), and a
``schedule.run_accounted`` event records the terminal status and count.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from uuid import UUID, uuid4

from server.domain.states import RunStatus
from server.identity import IdentityProvider
from server.storage.jsontext import load_object
from server.storage.ports import Store
from server.storage.records import ClaimedRun, MessageRecord, ScheduleChange, ScheduleView
from server.worker import accounting, occurrence_events
from server.worker.blocking import in_thread
from server.worker.executor import RunExecutor, RunFailure, RunResult
from server.worker.profile_check import browser_profile_refusal

__all__ = ["RunDispatcher"]

_log = logging.getLogger(__name__)

DEFAULT_RUN_BATCH = 20
_DEADLINE = RunFailure("deadline_exceeded", "DeadlineExceeded")
_TICK = timedelta(microseconds=1)


class RunDispatcher:
    """Feeds QUEUED runs to one executor and records what it answers."""

    def __init__(
        self,
        store: Store,
        executor: RunExecutor,
        clock: Callable[[], datetime],
        *,
        batch_size: int = DEFAULT_RUN_BATCH,
        stopping: threading.Event | None = None,
        identity: IdentityProvider | None = None,
    ) -> None:
        """``identity`` lets each run's bound profile be checked as it starts (None: not)."""
        self._store = store
        self._identity = identity
        self._stopping = stopping or threading.Event()
        self._executor = executor
        self._clock = clock
        self._batch_size = batch_size

    async def dispatch_once(self) -> int:
        """Expire overdue runs, then execute up to one batch, one run at a time; how many ended."""
        ended = await in_thread(self.expire_overdue, self._clock())
        for run_id in await in_thread(self._queued, self._clock()):
            if self._stopping.is_set():
                break
            run = await in_thread(self._store.runs.start, run_id, self._clock())
            if run is None:  # another dispatcher took it
                continue
            refusal = await in_thread(self.refusal, run)
            result = (
                RunResult(RunStatus.FAILED, (), refusal) if refusal else await self._execute(run)
            )
            ended += await in_thread(self.settle, run, result, self._clock())
        return ended

    def refusal(self, run: ClaimedRun) -> RunFailure | None:
        """Why a taken run must fail before its executor is called (``profile_check``)."""
        if self._identity is None:
            return None
        return browser_profile_refusal(self._store, self._identity, run)

    def expire_overdue(self, now: datetime) -> int:
        """Fail every active run past its deadline; how many were failed."""
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

    def _queued(self, now: datetime) -> list[UUID]:
        return self._store.runs.queued(now, self._batch_size)

    async def _execute(self, run: ClaimedRun) -> RunResult:
        try:
            return await self._executor.execute(run)
        except Exception as err:
            _log.warning("run %s failed in its executor (%s)", run.run_id, type(err).__name__)
            return RunResult.failed("executor_error", type(err).__name__)


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
        events = [
            occurrence_events.run_accounted(
                record, str(occurrence_id), result.status, failure, standing, now
            ),
            *occurrence_events.standing_changed(record, standing, limit, now),
        ]
        return accounting.change_to(record, standing, now, events)

    return account
