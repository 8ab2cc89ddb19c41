"""The schedule worker's scan: ``run_once`` over one bounded batch of due schedules.

``run_once(now)`` reads one deterministic batch of due schedule ids (earliest
``next_fire_at`` first, through the due index) and hands each to the
``Materializer``, one transaction per schedule, so a sibling's failure can
neither roll back nor block another. A schedule whose materialization raises
(a cadence that no longer reads, a database error) is logged by schedule id
and exception type only, never the message, which could quote the
instruction, and is retried after a backoff; so is one that admission held.
The backoff doubles per attempt within bounds and lives in process memory
only: losing it (a restart) costs one early retry, never correctness, which
rests on the table scan and the claim.

Replicas scan the same table. A schedule another worker holds (a second
replica on PostgreSQL, which the claim skips instead of waiting for) comes
back ``UNCLAIMED``; the scan then asks to look again after the first backoff
step, so if that worker dies mid-way (its transaction rolls back, the
schedule stays due) this one materializes it a moment later, not at the
fallback poll. Once ``stopping`` is set, a scan starts no further
materialization: the one in flight finishes and the scan returns.

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
from server.scheduling.materializer import Materializer, Result
from server.storage.ports import Store

__all__ = ["Backoff", "ScanReport", "ScheduleWorker"]

_log = logging.getLogger(__name__)

DEFAULT_BATCH_SIZE = 100


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
    """What one scan did; ``full`` means the batch was full, so more may be due now.

    ``unclaimed`` counts schedules that were no longer due by the time of
    their claim, or that another worker held.
    """

    written: int
    held: int
    failed: int
    full: bool
    retry_at: datetime | None
    unclaimed: int = 0


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
    ) -> None:
        self._store = store
        self._stopping = stopping or threading.Event()
        self._materializer = Materializer(store, identity, admission or Admission())
        self._batch_size = batch_size
        self._backoff = backoff or Backoff()
        self._deferred: dict[UUID, _Deferral] = {}

    def run_once(self, now: datetime) -> ScanReport:
        """Materialize what is due at ``now``, at most one batch."""
        waiting = {i for i, d in self._deferred.items() if d.until > now}
        due = self._store.schedules.due(now, self._batch_size + len(waiting))
        batch = [schedule_id for schedule_id in due if schedule_id not in waiting]
        batch = batch[: self._batch_size]
        written = held = failed = unclaimed = 0
        for schedule_id in batch:
            if self._stopping.is_set():
                break
            try:
                result = self._materializer.materialize(schedule_id, now)
            except Exception as err:
                _log.warning(
                    "schedule %s could not be materialized (%s); retrying later",
                    schedule_id,
                    type(err).__name__,
                )
                failed += 1
                self._defer(schedule_id, now)
                continue
            if result is Result.HELD:
                held += 1
                self._defer(schedule_id, now)
            else:
                written += result is Result.WRITTEN
                unclaimed += result is Result.UNCLAIMED
                self._deferred.pop(schedule_id, None)
        retries = [d.until for d in self._deferred.values()]
        if unclaimed:
            retries.append(now + self._backoff.first)
        full = len(batch) == self._batch_size
        return ScanReport(written, held, failed, full, min(retries, default=None), unclaimed)

    def next_wake(self, now: datetime, report: ScanReport) -> datetime | None:
        """When to scan again after the scan at ``now``: the next firing or the earliest retry."""
        upcoming = self._store.schedules.next_fire_after(now)
        candidates = [at for at in (upcoming, report.retry_at) if at is not None]
        return min(candidates, default=None)

    def _defer(self, schedule_id: UUID, now: datetime) -> None:
        previous = self._deferred.get(schedule_id)
        attempts = 1 if previous is None else previous.attempts + 1
        self._deferred[schedule_id] = _Deferral(attempts, now + self._backoff.after(attempts))
