"""The agenda's busy hours: how many agenda items fall in each hour or local day of a window.

Buckets run from the window's start: an hour bucket every 3,600 s, a day
bucket to each midnight of the asked zone (the first and last may be
partial; a daylight-saving day is 23 or 25 hours), at most ``MAX_BUCKETS``.
The counts are the agenda's items over the same filters, found without
listing them: schedules that share a cadence are counted as one group (the
storage's GROUP BY on the cadence key), each distinct cadence's instants in
the window come from the scheduler's calculator once and are added as many
times as the group has schedules, and the ledger's recorded past is counted
by the storage per (cadence, instant), a record at one of its schedule's
computed instants being that same item. Walking each cadence's instants beats
``count_between`` per bucket: a civil cadence fires at most once a local date,
so a window holds no more instants than it has days, and a count resolves two.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from enum import StrEnum
from typing import Final
from zoneinfo import ZoneInfo

from server.agenda.items import cadence_of
from server.domain.civil_time import resolve
from server.domain.recurrence import instants_after
from server.domain.states import ScheduleState
from server.storage.agenda_port import AgendaFilter
from server.storage.density_port import CadenceGroup, DensityRows, LedgerGroup
from server.storage.records import Owner

__all__ = [
    "MAX_BUCKETS",
    "BucketSize",
    "Density",
    "TooManyBuckets",
    "bucket_starts",
    "busy_hours",
    "count_items",
]

MAX_BUCKETS: Final = 2_208
_HOUR: Final = timedelta(hours=1)
_ONE_DAY: Final = timedelta(days=1)
_TICK: Final = timedelta(microseconds=1)
_MIDNIGHT: Final = time()


class BucketSize(StrEnum):
    HOUR = "hour"
    DAY = "day"


class TooManyBuckets(Exception):
    """The window holds more than ``MAX_BUCKETS`` buckets of the asked size."""


@dataclass(frozen=True, slots=True)
class Density:
    """The answer: each bucket's first instant and its count, in order; the last ends at ``end``."""

    start: datetime
    end: datetime
    size: BucketSize
    zone: str
    buckets: tuple[tuple[datetime, int], ...]


def busy_hours(
    rows: DensityRows,
    owner: Owner,
    window: tuple[datetime, datetime],
    size: BucketSize,
    zone: str,
    now: datetime,
    *,
    as_if_resumed: bool = False,
    where: AgendaFilter = AgendaFilter(),  # noqa: B008 (frozen, immutable)
) -> Density:
    """The owner's agenda counted per bucket of ``window`` (``zone`` must be a known IANA zone).

    ``as_if_resumed`` adds PAUSED schedules' firings after ``now``, as the
    agenda's ``state=PAUSED`` does; ``where`` filters as the list does.
    """
    start, end = window
    starts = bucket_starts(start, end, size, ZoneInfo(zone))
    computed = {ScheduleState.ACTIVE} | ({ScheduleState.PAUSED} if as_if_resumed else set())
    groups = rows.cadence_groups(owner, computed, start, where)
    ledger = rows.ledger_groups(owner, start, end, where)
    counts = count_items(starts, end, now, groups, ledger)
    return Density(start, end, size, zone, tuple(zip(starts, counts, strict=True)))


def bucket_starts(
    start: datetime, end: datetime, size: BucketSize, zone: ZoneInfo
) -> list[datetime]:
    """Each bucket's first instant in ``[start, end)``, in UTC; each ends where the next starts."""
    if size is BucketSize.HOUR:
        count = -(-(end - start) // _HOUR)
        if count > MAX_BUCKETS:
            raise TooManyBuckets(count)
        return [start + index * _HOUR for index in range(count)]
    starts = [start]
    try:
        day: date | None = start.astimezone(zone).date()
        while day is not None:
            day = _next_day(day)
            midnight = None if day is None else resolve(day, _MIDNIGHT, zone)
            if midnight is None or midnight <= starts[-1]:
                continue  # a date the zone skipped (Apia, 30 December 2011), or the calendar's end
            if midnight >= end:
                break
            starts.append(midnight)
            if len(starts) > MAX_BUCKETS:
                raise TooManyBuckets(len(starts))
    except (OverflowError, ValueError):
        pass  # a local date past year 9999: no midnight there, the last bucket runs to the end
    return starts


def count_items(
    starts: Sequence[datetime],
    end: datetime,
    now: datetime,
    groups: Iterable[CadenceGroup],
    ledger: Iterable[LedgerGroup],
) -> list[int]:
    """The agenda's items per bucket: computed firings of ``groups``, then the ledger's others.

    An ACTIVE group's firings are its cadence's instants in the window at or
    after its schedules' creation; a PAUSED group's (as if resumed) those after
    ``now``, as the projection gives them. A record is a computed item already
    when its schedule's group is among ``groups`` and its instant is one of the
    group's firings.
    """
    counts = [0] * len(starts)
    instants: dict[str | None, list[datetime]] = {}
    # Each zone held while counting: ZoneInfo's own cache keeps only the last
    # eight alive, and the calculator asks for a cadence's zone by name.
    zones: dict[str, ZoneInfo] = {}
    window = (starts[0], end)
    computed: set[tuple[str | None, str, datetime | None]] = set()
    for group in groups:
        computed.add((group.cadence_key, group.state, group.created_at))
        found = instants.get(group.cadence_key)
        if found is None:
            found = instants[group.cadence_key] = _instants(group.cadence_key, window, zones)
        first = _first_computed(found, group.state, group.created_at, now)
        for at in found[first:]:
            counts[bisect_right(starts, at) - 1] += group.schedules
    for record in ledger:
        if not starts[0] <= record.at < end:
            continue
        if (record.cadence_key, record.state, record.created_at) in computed:
            found = instants[record.cadence_key]
            first = _first_computed(found, record.state, record.created_at, now)
            position = bisect_left(found, record.at, first)
            if position < len(found) and found[position] == record.at:
                continue
        counts[bisect_right(starts, record.at) - 1] += record.occurrences
    return counts


def _first_computed(
    instants: Sequence[datetime], state: str, created_at: datetime | None, now: datetime
) -> int:
    """Where a group's computed firings begin among its cadence's ``instants``."""
    if state == ScheduleState.ACTIVE:
        return 0 if created_at is None else bisect_left(instants, created_at)
    if state == ScheduleState.PAUSED:
        return bisect_right(instants, now)
    return len(instants)


def _instants(
    cadence_key: str | None, window: tuple[datetime, datetime], zones: dict[str, ZoneInfo]
) -> list[datetime]:
    """The cadence's nominal instants in ``window``, from the scheduler's calculator."""
    cadence = None if cadence_key is None else cadence_of(cadence_key)
    if cadence is None:
        return []
    if cadence.zone_name not in zones:
        zones[cadence.zone_name] = ZoneInfo(cadence.zone_name)
    start, end = window
    found: list[datetime] = []
    instants = instants_after(cadence, start - _TICK)
    while True:
        try:
            at = next(instants, None)
        except (OverflowError, ValueError):
            break  # a wall time past year 9999, as ``projection.firings_between`` ends there
        if at is None or at >= end:
            break
        found.append(at)
    return found


def _next_day(day: date) -> date | None:
    try:
        return day + _ONE_DAY
    except OverflowError:
        return None
