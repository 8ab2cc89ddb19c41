"""One schedule's calendar over a window: what will fire, what never can, what already ran.

The answer of ``GET /v1/schedules/{id}/projection`` for ``[start, end)``, at
most ``MAX_WINDOW`` long: ``firings`` after the later of ``start`` and now
(ACTIVE: what the worker will materialize; PAUSED: what it would if resumed
now, ``as_if_resumed``; terminal states list none), each with the agenda's
``may_overlap`` (one rule, ``projection.may_overlap``), ``notices`` for selected
local dates that do not fire, ``past``, the ledger's occurrences in the
window, oldest first, each with its run's status (a failed run is not a
success), and ``expected``: the nominal instants of the schedule's last ACTIVE
span (from its creation, last resume or last edit to now less
``overdue_after`` or to when it stopped, as the schedule's row keeps it) that
have no record.
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
    active_span,
    expected_between,
    firings_between,
    may_overlap,
    notices_between,
    run_limit_of,
)
from server.domain.states import ScheduleState
from server.storage.jsontext import load_object
from server.storage.ports import Store
from server.storage.records import PastOccurrence, ScheduleView

__all__ = ["MAX_WINDOW", "Projection", "project"]

MAX_WINDOW: Final = timedelta(days=92)
_TICK: Final = timedelta(microseconds=1)
_FIRING_STATES: Final = frozenset({ScheduleState.ACTIVE, ScheduleState.PAUSED})


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
    span = _active_span(view, now - overdue_after) if start <= now else None
    recorded = {p.occurrence.nominal_fire_at for p in past}
    expected = expected_between(cadence, span, (start, end), recorded)
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


def _active_span(view: ScheduleView, not_yet_after: datetime) -> tuple[datetime, datetime] | None:
    """When the current cadence last was ACTIVE, up to ``not_yet_after``; None if never known."""
    schedule = view.schedule
    since = schedule.active_since or schedule.created_at
    active = schedule.state == ScheduleState.ACTIVE
    return active_span(since, schedule.active_until, active, not_yet_after)


def _local_day(instant: datetime, zone: ZoneInfo) -> date:
    """The local date of ``instant``; the calendar's edge where that date has no year."""
    try:
        return instant.astimezone(zone).date()
    except OverflowError:
        return date.max if instant.year > 1 else date.min
