"""The schedule worker's scan: ``run_once`` over one bounded batch of due schedules.

``run_once(now)`` asks the ``Materializer`` for the next due schedule (earliest
``next_fire_at`` first, through the due index), one claim and one transaction
per schedule, until a batch's worth were claimed or none is left, so a
sibling's failure can neither roll back nor block another. A schedule whose
materialization raises (a cadence that no longer reads, a database error) is
logged by schedule id and exception type only, never the message, which
could quote the instruction, and is left out of the claims until its backoff
ends; so is one that admission held. The backoff doubles per attempt within
bounds and lives in process memory only: losing it (a restart) costs one
early retry, never correctness, which rests on the table scan and the claim.
An error before anything was claimed (the database away) ends the scan with
it; the runtime logs it and scans again at its fallback poll.

Replicas scan the same table. The claim passes over schedules that another
worker holds (a second replica on PostgreSQL), so replicas split the due
schedules between them and none waits for, or retries, another's. When a scan
ends with schedules still due that it did not leave out itself, another
worker holds them: the scan asks to look again after the first backoff step,
so if that worker dies mid-way (its transaction rolls back, the schedule
stays due) this one materializes it a moment later, not at the fallback poll.
Once ``stopping`` is set, a scan claims nothing more: the materialization in
flight finishes and the scan returns.

A storage fault (``server/storage/faults.py``: the disk full, the database
read-only or away) is nobody's schedule's fault: it blames no schedule, ends
the scan, and the whole worker waits, doubling from ``Backoff.first`` to
``Backoff.longest`` while the fault lasts. It says so in the log once, when
the spell begins, and once more when a materialization commits again; never
a line per schedule or per retry. A committed materialization also ends the
store's fault spell, so ``/readyz`` turns ready again.

An idle scan (nothing due) also gives back journal space
(``Store.compact_journal``: SQLite's truncating WAL checkpoint), at most once
per ``COMPACT_INTERVAL``: under a steady read load the WAL would otherwise
only grow.

``next_wake`` says when the loop should scan again: the earliest future
``next_fire_at`` or the end of the earliest backoff, whichever comes first.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta
from uuid import UUID

from server.identity import IdentityProvider
from server.scheduling.admission import Admission
from server.scheduling.materializer import MaterializationFailed, Materializer, Result
from server.scheduling.observer import SILENT, WorkerObserver
from server.storage.faults import describe_fault, is_storage_fault
from server.storage.ports import Store

__all__ = ["Backoff", "ScanReport", "ScheduleWorker"]

_log = logging.getLogger(__name__)

DEFAULT_BATCH_SIZE = 100
COMPACT_INTERVAL = timedelta(seconds=5)


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
    ) -> None:
        self._store = store
        self._observer = observer
        self._fault_attempts = 0
        self._compacted_at: datetime | None = None
        self._stopping = stopping or threading.Event()
        self._materializer = Materializer(store, identity, admission or Admission())
        self._batch_size = batch_size
        self._backoff = backoff or Backoff()
        self._deferred: dict[UUID, _Deferral] = {}

    def run_once(self, now: datetime) -> ScanReport:
        """Materialize what is due at ``now``, at most one batch."""
        excluding = {i for i, d in self._deferred.items() if d.until > now}
        written = held = failed = claims = 0
        idle = not self._any_due(now, excluding)  # an idle scan takes no write lock
        if idle:
            self._compact(now)
        exhausted = idle
        while not exhausted and claims < self._batch_size and not self._stopping.is_set():
            try:
                claimed = self._materializer.materialize_next(now, excluding)
            except Exception as err:
                cause = err.__cause__ if isinstance(err, MaterializationFailed) else err
                if cause is not None and is_storage_fault(cause):
                    retry = self.storage_fault(cause, now)
                    return ScanReport(written, held, failed, False, retry, storage_fault=True)
                if not isinstance(err, MaterializationFailed):
                    raise
                self._observer.materialization_failed()
                _log.warning(
                    "schedule %s could not be materialized (%s); retrying later",
                    err.schedule_id,
                    type(err.__cause__).__name__,
                )
                claims += 1
                failed += 1
                self._defer(err.schedule_id, now)
                excluding.add(err.schedule_id)
                continue
            if claimed is None:
                exhausted = True
                break
            claims += 1
            if claimed.result is Result.HELD:
                held += 1
                self._defer(claimed.schedule_id, now)
                excluding.add(claimed.schedule_id)
            else:
                written += 1
                self._deferred.pop(claimed.schedule_id, None)
                if claimed.occurrence is not None:
                    self._observer.occurrence_recorded(claimed.occurrence)
        if written:
            self._storage_recovered()
        retries = [d.until for d in self._deferred.values()]
        if exhausted and not idle and self._any_due(now, excluding):  # another worker holds them
            retries.append(now + self._backoff.first)
        full = claims == self._batch_size
        return ScanReport(written, held, failed, full, min(retries, default=None))

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

    def _any_due(self, now: datetime, excluding: set[UUID]) -> bool:
        """Whether schedules are due that this worker does not leave out itself (a plain read)."""
        due = self._store.schedules.due(now, len(excluding) + 1)
        return any(schedule_id not in excluding for schedule_id in due)

    def _defer(self, schedule_id: UUID, now: datetime) -> None:
        previous = self._deferred.get(schedule_id)
        attempts = 1 if previous is None else previous.attempts + 1
        self._deferred[schedule_id] = _Deferral(attempts, now + self._backoff.after(attempts))
