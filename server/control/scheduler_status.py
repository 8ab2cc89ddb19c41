"""Whether firings are happening: the scheduler's state and an owner's overdue schedules.

``SchedulerWatch`` holds the thresholds (server options): a schedule whose
``next_fire_at`` passed more than ``overdue_after`` ago without a decision is
overdue; the scheduler is ``late`` when the newest heartbeat of any replica
is older than ``late_after``, ``stopped`` when older than ``stopped_after`` or
when no replica ever ticked. ``scheduler_status`` reads storage only, so a
``--no-worker`` replica answers for the whole cluster, and counts the due
backlog among the caller's own schedules: nothing names another principal's
work or a host.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from server.domain.states import SchedulerState
from server.storage.ports import Store
from server.storage.records import Owner, ReplicaTick

__all__ = ["OVERDUE_AFTER", "SchedulerStatus", "SchedulerWatch", "scheduler_status"]

OVERDUE_AFTER: Final = timedelta(seconds=60)
"""How long past its ``next_fire_at`` an undecided schedule is still on time, by default."""


@dataclass(frozen=True, slots=True)
class SchedulerWatch:
    """When a firing counts as overdue, and a quiet scheduler as late, then stopped."""

    overdue_after: timedelta = OVERDUE_AFTER
    late_after: timedelta = timedelta(seconds=30)
    stopped_after: timedelta = timedelta(minutes=2)

    def __post_init__(self) -> None:
        if min(self.overdue_after, self.late_after) <= timedelta(0):
            raise ValueError("the overdue and late thresholds must be positive")
        if self.stopped_after <= self.late_after:
            raise ValueError("the scheduler must be late before it counts as stopped")

    def overdue_before(self, now: datetime) -> datetime:
        """A schedule due before this instant, undecided at ``now``, is overdue."""
        return now - self.overdue_after

    def overdue_since(self, next_fire_at: datetime | None, now: datetime) -> datetime | None:
        """The due instant of an overdue firing, or None when ``next_fire_at`` is not overdue.

        ``next_fire_at`` is only ever set on an ACTIVE schedule, so it is the
        only fact needed.
        """
        if next_fire_at is None or next_fire_at >= self.overdue_before(now):
            return None
        return next_fire_at

    def state_of(self, last_tick_at: datetime | None, now: datetime) -> SchedulerState:
        if last_tick_at is None or now - last_tick_at > self.stopped_after:
            return SchedulerState.STOPPED
        if now - last_tick_at > self.late_after:
            return SchedulerState.LATE
        return SchedulerState.RUNNING

    def running(self, ticks: list[ReplicaTick], now: datetime) -> int:
        """The replicas whose own heartbeat is not late."""
        return sum(1 for tick in ticks if now - tick.last_tick_at <= self.late_after)


@dataclass(frozen=True, slots=True)
class SchedulerStatus:
    state: SchedulerState
    last_tick_at: datetime | None
    replicas_running: int
    oldest_due_at: datetime | None
    due_backlog: int


def scheduler_status(
    store: Store, owner: Owner, now: datetime, watch: SchedulerWatch
) -> SchedulerStatus:
    """The cluster's scheduler as storage shows it, with ``owner``'s due backlog."""
    ticks = store.replicas.ticks()
    newest = max((tick.last_tick_at for tick in ticks), default=None)
    backlog = store.schedules.due_backlog(owner, now)
    return SchedulerStatus(
        state=watch.state_of(newest, now),
        last_tick_at=newest,
        replicas_running=watch.running(ticks, now),
        oldest_due_at=backlog.oldest_due_at,
        due_backlog=backlog.count,
    )
