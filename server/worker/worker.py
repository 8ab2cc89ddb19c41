"""The schedule worker's scan: ``run_once`` over one batch of due schedules.

``run_once(now)`` has the ``Materializer`` claim, decide and write one batch
(``server/storage/sql/batch_claims.py``). A schedule that fails, or that
admission held, is logged by id and exception type only (never the message,
which could quote the instruction) and backed off in memory; after
``GIVE_UP_AFTER`` failures that no retry can cure its due instant is recorded
CONFIGURATION_FAILED (``unmaterializable``). Schedules another replica holds
are passed over and looked at again soon. A storage fault blames no schedule:
the whole worker backs off and says so once per spell. An idle scan compacts
the journal now and then. Each scan ticks the replica's heartbeat when its
``Pulse`` says one is due: in the batch's transaction, or on its own when
idle (``server/worker/heartbeat.py``). ``next_wake`` says when to scan again,
and ``repair_missing_next_fire`` runs once at start.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from uuid import UUID

from sqlalchemy.exc import DataError

from server.firing.admission import Admission
from server.firing.observer import SILENT, WorkerObserver
from server.firing.plan import repair_missing_next, settle_due, unmaterializable
from server.identity import IdentityProvider
from server.storage.faults import describe_fault, is_storage_fault
from server.storage.ports import BatchFailed, Store
from server.storage.records import DueSchedule, OccurrencePlan, ScheduleChange
from server.worker.heartbeat import Pulse
from server.worker.materializer import Materializer

__all__ = ["Backoff", "ScanReport", "ScheduleWorker", "default_batch_size"]

_log = logging.getLogger(__name__)

DEFAULT_BATCH_SIZE = 300
REPLICA_BATCH_SIZE = 150
"""PostgreSQL's default: a batch holds its principals' admission turns until it commits.
Claims take each instant's schedules owner by owner, so replicas' batches share at
most the owner at their boundary, and a batch this size still lets them work side by
side while one worker pays a transaction's round trips a third as often as at 50."""
PASSED_OVER_RETRY = timedelta(milliseconds=25)
"""When to look again at schedules passed over for another replica's admission turn. That
replica's batch commits within a few tenths of a millisecond per schedule; the passed-over
ones are few (its owner at the batches' boundary), so an early look costs one small claim."""
GIVE_UP_AFTER = 3
"""Failed attempts (a few seconds of backoff) before a definition is recorded as failing."""
_INCURABLE = (DataError, ValueError, KeyError, TypeError)
"""Failures that the same definition meets again on every retry."""
COMPACT_INTERVAL = timedelta(seconds=5)


def default_batch_size(database: str) -> int:
    """Schedules per transaction for a database (``sqlite``, ``postgresql``): SQLite has
    one writer, so larger batches spread its commit wider; replicas share PostgreSQL."""
    return DEFAULT_BATCH_SIZE if database == "sqlite" else REPLICA_BATCH_SIZE


@dataclass(frozen=True, slots=True)
class Backoff:
    """How long a held or failing schedule waits before its next attempt."""

    first: timedelta = timedelta(seconds=1)
    longest: timedelta = timedelta(seconds=60)

    def after(self, attempts: int) -> timedelta:
        """The wait after ``attempts`` consecutive holds or failures (1 or more)."""
        return min(self.first * (1 << min(attempts - 1, 32)), self.longest)


@dataclass(frozen=True, slots=True)
class ScanReport:
    """What one scan did; ``full`` means the batch was full, so more may be due now."""

    written: int
    held: int
    failed: int
    full: bool
    retry_at: datetime | None
    passed_over: int = 0
    """Left due because another replica held their principal's admission turn."""
    storage_fault: bool = False
    """The scan ended on a storage fault; ``retry_at`` is the worker's backoff."""


@dataclass(frozen=True, slots=True)
class _Deferral:
    attempts: int
    until: datetime


class ScheduleWorker:
    """Scans for due schedules and materializes each on its own; one instance per thread."""

    def __init__(
        self,
        store: Store,
        identity: IdentityProvider,
        *,
        admission: Admission | None = None,
        batch_size: int = DEFAULT_BATCH_SIZE,
        backoff: Backoff | None = None,
        stopping: threading.Event | None = None,
        observer: WorkerObserver = SILENT,
        pulse: Pulse | None = None,
    ) -> None:
        self._store = store
        self._pulse = pulse
        self._identity = identity
        self._admission = admission or Admission()
        self._observer = observer
        self._fault_attempts = 0
        self._compacted_at: datetime | None = None
        self._stopping = stopping or threading.Event()
        self._materializer = Materializer(store, identity, self._admission)
        self._batch_size = batch_size
        self._backoff = backoff or Backoff()
        self._deferred: dict[UUID, _Deferral] = {}
        self._more_due = False
        self._passed_over: set[UUID] = set()

    def run_once(self, now: datetime) -> ScanReport:
        """Materialize what is due at ``now``: one batch, one transaction."""
        deferred = {i for i, d in self._deferred.items() if d.until > now}
        # Passed over by a full scan before: this one claims past them, not them again.
        passed_before = self._passed_over if self._more_due else set()
        self._passed_over = set()
        excluding = deferred | passed_before
        # An idle scan takes no write lock: it looks first, unless the scan
        # before filled its batch (a herd is being drained, more is due).
        idle = not self._more_due and not self._any_due(now, excluding)
        self._more_due = False
        if idle:
            self._compact(now)
            self._tick_alone(now)
        if idle or self._stopping.is_set():
            return ScanReport(0, 0, 0, False, self._earliest_retry())
        beat = None if self._pulse is None else self._pulse.due(now)
        try:
            outcome = self._materializer.materialize_batch(now, excluding, self._batch_size, beat)
        except Exception as err:
            cause = err.__cause__ if isinstance(err, BatchFailed) else err
            if cause is not None and is_storage_fault(cause):
                retry = self.storage_fault(cause, now)
                return ScanReport(0, 0, 0, False, retry, storage_fault=True)
            if not isinstance(err, BatchFailed):
                raise
            self._met_due(err.claimed)
            _log.warning(
                "a batch of %d schedules rolled back (%s); retrying later",
                len(err.claimed),
                type(err.__cause__).__name__,
            )
            for schedule_id in err.claimed:
                self._observer.materialization_failed()
                self._defer(schedule_id, now)
            return ScanReport(0, 0, len(err.claimed), False, self._earliest_retry())
        if beat is not None and self._pulse is not None:
            self._pulse.written(beat)
        passed = set(outcome.passed_over)
        self._met_due([i for i in outcome.claimed if i not in passed])
        for schedule_id in outcome.held:
            self._defer(schedule_id, now)
        for schedule_id, cause in outcome.failed:
            self._failed(schedule_id, cause, now)
        for schedule_id in outcome.written:
            self._deferred.pop(schedule_id, None)
        for occurrence in outcome.occurrences:
            self._observer.occurrence_recorded(occurrence)
        if outcome.written:
            self._storage_recovered()
        retries = [d.until for d in self._deferred.values()]
        decided = len(outcome.claimed) - len(outcome.passed_over)
        self._passed_over = set(outcome.passed_over)
        # A full claim means more may be due now, past what it passed over; but
        # a second claim that decides nothing waits for the other replica.
        full = len(outcome.claimed) == self._batch_size and (decided > 0 or not passed_before)
        passed_over = self._passed_over | passed_before
        if passed_over:  # that replica's batch commits in a moment
            retries.append(now + PASSED_OVER_RETRY)
        elif not full:
            left_out = deferred | set(outcome.held) | {i for i, _ in outcome.failed}
            if self._any_due(now, left_out):  # another worker holds them
                retries.append(now + self._backoff.first)
        self._more_due = full
        return ScanReport(
            len(outcome.written),
            len(outcome.held),
            len(outcome.failed),
            full,
            min(retries, default=None),
            len(passed_over),
        )

    def _failed(self, schedule_id: UUID, cause: BaseException, now: datetime) -> None:
        self._observer.materialization_failed()
        _log.warning(
            "schedule %s could not be materialized (%s); retrying later",
            schedule_id,
            type(cause).__name__,
        )
        self._defer(schedule_id, now)
        self._give_up_if_incurable(schedule_id, cause, now)

    def _earliest_retry(self) -> datetime | None:
        return min((d.until for d in self._deferred.values()), default=None)

    def storage_fault(self, err: BaseException, now: datetime) -> datetime:
        """The worker met a storage fault at ``now``: log it if it begins a spell; retry when."""
        self._fault_attempts += 1
        if self._fault_attempts == 1:
            _log.warning(
                "storage fault (%s): the worker backs off and retries until the database"
                " takes writes again",
                describe_fault(err),
            )
        return now + self._backoff.after(self._fault_attempts)

    def _storage_recovered(self) -> None:
        self._store.faults.clear()
        if self._fault_attempts:
            _log.warning("the database takes writes again; the worker goes on")
            self._fault_attempts = 0

    def _met_due(self, claimed: Collection[UUID]) -> None:
        """Count the due instants met for the first time: a retried one was counted before."""
        first = sum(1 for schedule_id in claimed if schedule_id not in self._deferred)
        if first:
            self._observer.firings_due(first)

    def _tick_alone(self, now: datetime) -> None:
        """An idle scan's heartbeat, when due: one upsert, forgetting silent replicas."""
        beat = None if self._pulse is None else self._pulse.due(now, forget=True)
        if beat is None or self._pulse is None:
            return
        try:
            self._store.replicas.tick(beat)
        except Exception as err:
            if not is_storage_fault(err):
                raise
            return  # the next scan tries again; meanwhile the heartbeat ages, as it should
        self._pulse.written(beat)

    def _compact(self, now: datetime) -> None:
        if self._compacted_at is not None and abs(now - self._compacted_at) < COMPACT_INTERVAL:
            return
        self._compacted_at = now
        try:
            self._store.compact_journal()
        except Exception as err:
            if not is_storage_fault(err):
                raise
            # Busy readers or a fault: the next idle scan tries again.

    def next_wake(self, now: datetime, report: ScanReport) -> datetime | None:
        """When to scan again after the scan at ``now``: the next firing or the earliest retry."""
        if report.storage_fault:
            return report.retry_at
        upcoming = self._store.schedules.next_fire_after(now)
        candidates = [at for at in (upcoming, report.retry_at) if at is not None]
        return min(candidates, default=None)

    def repair_missing_next_fire(self, now: datetime, limit: int = DEFAULT_BATCH_SIZE) -> int:
        """Give each ACTIVE schedule lacking a ``next_fire_at`` one; returns how many."""
        repaired = 0
        for schedule_id in self._store.schedules.lacking_next_fire(limit):

            def repair(due: DueSchedule) -> ScheduleChange | None:
                return repair_missing_next(due, now)

            self._store.occurrences.settle_then_apply(
                None, schedule_id, now, self._settle(now), repair
            )
            repaired += 1
        if repaired:
            _log.warning("repaired the next firing of %d active schedule(s)", repaired)
        return repaired

    def _settle(self, now: datetime) -> Callable[[DueSchedule], OccurrencePlan]:
        def settle(due: DueSchedule) -> OccurrencePlan:
            return settle_due(due, now, self._identity, self._admission)

        return settle

    def _give_up_if_incurable(self, schedule_id: UUID, cause: BaseException, now: datetime) -> None:
        """After ``GIVE_UP_AFTER`` incurable failures, record the due instant as failing."""
        deferral = self._deferred.get(schedule_id)
        if not isinstance(cause, _INCURABLE) or deferral is None:
            return
        if deferral.attempts < GIVE_UP_AFTER:
            return

        recorded: list[OccurrencePlan] = []

        def record(due: DueSchedule) -> OccurrencePlan:
            plan = unmaterializable(due, now)
            recorded.append(plan)
            return plan

        try:
            self._store.occurrences.settle_then_apply(
                None, schedule_id, now, record, lambda _: None
            )
        except Exception as failure:
            _log.warning(
                "schedule %s: its failure could not be recorded either (%s)",
                schedule_id,
                type(failure).__name__,
            )
            return
        for plan in recorded:
            if plan.materialization is not None:
                self._observer.occurrence_recorded(plan.materialization.occurrence)
        _log.warning(
            "schedule %s recorded CONFIGURATION_FAILED after %d failed attempts",
            schedule_id,
            deferral.attempts,
        )
        self._deferred.pop(schedule_id, None)

    def _any_due(self, now: datetime, excluding: set[UUID]) -> bool:
        """Whether schedules are due that this worker does not leave out itself (a plain read)."""
        due = self._store.schedules.due(now, len(excluding) + 1)
        return any(schedule_id not in excluding for schedule_id in due)

    def _defer(self, schedule_id: UUID, now: datetime) -> None:
        previous = self._deferred.get(schedule_id)
        attempts = 1 if previous is None else previous.attempts + 1
        self._deferred[schedule_id] = _Deferral(attempts, now + self._backoff.after(attempts))
