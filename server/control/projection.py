"""One schedule's calendar over a window: what will fire, what never can, what already ran.

The answer of ``GET /v1/schedules/{id}/projection`` for ``[start, end)``, at
most ``MAX_WINDOW`` long: ``firings`` after the later of ``start`` and now
(ACTIVE: what the worker will materialize; PAUSED: what it would if resumed
now, ``as_if_resumed``; terminal states list none), ``notices`` for selected
local dates that do not fire, and ``past``, the ledger's occurrences in the
window, oldest first, each with its run's status (a failed run is not a
success). Everything is computed from the stored current revision and the
store: the client computes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Final
from zoneinfo import ZoneInfo

from server.domain.cadence import Cadence
from server.domain.projection import Notice, ProjectedFiring, firings_between, notices_between
from server.domain.states import ScheduleState
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
    notices: tuple[Notice, ...]
    past: tuple[PastOccurrence, ...]


def project(
    store: Store,
    view: ScheduleView,
    cadence: Cadence,
    start: datetime,
    end: datetime,
    now: datetime,
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
    past = store.occurrences.window(owner, schedule_id, start, end) if start <= now else []
    return Projection(
        view=view,
        zone=cadence.zone_name,
        start=start,
        end=end,
        as_if_resumed=state == ScheduleState.PAUSED,
        firings=tuple(firings),
        notices=tuple(notices),
        past=tuple(past),
    )


def _local_day(instant: datetime, zone: ZoneInfo) -> date:
    """The local date of ``instant``; the calendar's edge where that date has no year."""
    try:
        return instant.astimezone(zone).date()
    except OverflowError:
        return date.max if instant.year > 1 else date.min
