"""One schedule's calendar over a window: what will fire, what never can, what already ran.

The answer of ``GET /v1/schedules/{id}/projection`` for ``[start, end)``, at
most ``MAX_WINDOW`` long: ``firings`` after the later of ``start`` and now
(ACTIVE: what the worker will materialize; PAUSED: what it would if resumed
now, ``as_if_resumed``; terminal states list none), each with the agenda's
``may_overlap`` (one rule, ``projection.may_overlap``), ``notices`` for selected
local dates that do not fire, ``past``, the ledger's occurrences in the
window, oldest first, each with its run's status (a failed run is not a
success), and ``expected``: the nominal instants of the schedule's last ACTIVE
span (from its creation, last resume or last edit, read from the audit log, to
now less ``overdue_after`` or to when it stopped) that have no record.
Everything is computed from the stored current revision and the store: the
client computes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Final
from zoneinfo import ZoneInfo

from server.control.scheduler_status import OVERDUE_AFTER
from server.domain.cadence import Cadence
from server.domain.projection import (
    Notice,
    ProjectedFiring,
    expected_between,
    firings_between,
    may_overlap,
    notices_between,
    run_limit_of,
)
from server.domain.states import AuditEventKind, ScheduleState
from server.storage.jsontext import load_object
from server.storage.ports import Store
from server.storage.records import PastOccurrence, ScheduleView

__all__ = ["MAX_WINDOW", "Projection", "project"]

MAX_WINDOW: Final = timedelta(days=92)
_TICK: Final = timedelta(microseconds=1)
_FIRING_STATES: Final = frozenset({ScheduleState.ACTIVE, ScheduleState.PAUSED})
_STOPS: Final = frozenset(
    {
        AuditEventKind.SCHEDULE_PAUSED,
        AuditEventKind.SCHEDULE_AUTO_PAUSED,
        AuditEventKind.SCHEDULE_CANCELLED,
        AuditEventKind.SCHEDULE_COMPLETED,
    }
)


@dataclass(frozen=True, slots=True)
class Projection:
    view: ScheduleView
    zone: str
    start: datetime
    end: datetime
    as_if_resumed: bool
    firings: tuple[ProjectedFiring, ...]
    may_overlap: tuple[bool, ...]
    """For each of ``firings``: its previous firing is closer than the run-time limit."""
    notices: tuple[Notice, ...]
    past: tuple[PastOccurrence, ...]
    expected: tuple[datetime, ...]
    """Instants the scheduler should have recorded but did not, oldest first."""


def project(
    store: Store,
    view: ScheduleView,
    cadence: Cadence,
    start: datetime,
    end: datetime,
    now: datetime,
    overdue_after: timedelta = OVERDUE_AFTER,
) -> Projection:
    """The calendar of ``view`` (whose current cadence is ``cadence``) over ``[start, end)``."""
    state = view.schedule.state
    firings: list[ProjectedFiring] = []
    notices: list[Notice] = []
    if state in _FIRING_STATES:
        # Firings from ``start`` on, strictly after now; ``start`` may be the first
        # instant there is, so nothing is subtracted from it unless it is after now.
        after = now if start <= now else start - _TICK
        firings = firings_between(cadence, after, end)
        zone = ZoneInfo(cadence.zone_name)
        notices = notices_between(cadence, _local_day(after, zone), _local_day(end - _TICK, zone))
    owner, schedule_id = view.schedule.owner, view.schedule.schedule_id
    run_limit = run_limit_of(load_object(view.revision.definition).get("run_timeout_seconds"))
    past = store.occurrences.window(owner, schedule_id, start, end) if start <= now else []
    span = _active_span(store, view, now - overdue_after) if start <= now else None
    recorded = {p.occurrence.nominal_fire_at for p in past}
    expected = [] if span is None else expected_between(cadence, span, (start, end), recorded)
    return Projection(
        view=view,
        zone=cadence.zone_name,
        start=start,
        end=end,
        as_if_resumed=state == ScheduleState.PAUSED,
        firings=tuple(firings),
        may_overlap=tuple(may_overlap(cadence, firing.at, run_limit) for firing in firings),
        notices=tuple(notices),
        past=tuple(past),
        expected=tuple(expected),
    )


def _active_span(
    store: Store, view: ScheduleView, not_yet_after: datetime
) -> tuple[datetime, datetime] | None:
    """When the current cadence last was ACTIVE, up to ``not_yet_after``; None if never known.

    The audit log says when it was last resumed and when it then stopped; a
    schedule that is not ACTIVE and whose stop the log lacks expects nothing.
    """
    schedule = view.schedule
    since = max(schedule.created_at, view.revision.created_at)
    stopped: datetime | None = None
    for event in store.audit.for_schedule(schedule.schedule_id):
        if event.event_type == AuditEventKind.SCHEDULE_RESUMED:
            since, stopped = max(since, event.occurred_at), None
        elif event.event_type in _STOPS and event.occurred_at >= since:
            stopped = event.occurred_at
    if schedule.state == ScheduleState.ACTIVE:
        return since, not_yet_after
    if stopped is None:
        return None
    return since, min(stopped, not_yet_after)


def _local_day(instant: datetime, zone: ZoneInfo) -> date:
    """The local date of ``instant``; the calendar's edge where that date has no year."""
    try:
        return instant.astimezone(zone).date()
    except OverflowError:
        return date.max if instant.year > 1 else date.min
