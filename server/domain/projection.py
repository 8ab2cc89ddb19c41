"""A cadence projected onto a window: its firings, and the dates it names but skips.

Firings come from the worker's own calculator (``recurrence.instants_after``),
each read back with ``civil_time.placement`` so a daylight-saving move is
named; notices name selected dates that never fire (a skipped date, a day the
month lacks, 29 February in a common year); ``may_overlap`` is the one rule
by which the agenda and the projection warn that a firing may be skipped, and
``active_span`` with ``is_expected`` the one rule of which past instants should
have been recorded (an instant not yet ``overdue_after`` old is still "not
yet"), which ``expected_between`` applies to a window. The cost is per
firing, wherever the window lies.
"""

from __future__ import annotations

from calendar import monthrange
from collections.abc import Collection
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from enum import StrEnum
from zoneinfo import ZoneInfo

from server.domain.cadence import Cadence, Monthly, Once, Yearly
from server.domain.civil_time import Adjustment, placement, resolve
from server.domain.recurrence import instants_after, latest_at_or_before, selects
from server.domain.zone_gaps import skipped_dates

__all__ = [
    "Notice",
    "NoticeReason",
    "ProjectedFiring",
    "active_span",
    "adjustment_at",
    "expected_between",
    "firings_between",
    "is_expected",
    "may_overlap",
    "notices_between",
    "run_limit_of",
]

_TICK = timedelta(microseconds=1)


@dataclass(frozen=True, slots=True)
class ProjectedFiring:
    """One nominal instant, with where it lands on the cadence zone's wall clock."""

    at: datetime
    """The UTC instant."""
    local: datetime
    """``at`` in the cadence's zone."""
    scheduled_date: date
    """The local date whose rule produced it (the day before ``local`` for Nuuk's midnight gap)."""
    scheduled_time: time
    """The wall time the rule names (``local``'s own time for a ONCE)."""
    adjustment: Adjustment | None


class NoticeReason(StrEnum):
    DATE_DOES_NOT_EXIST = "DATE_DOES_NOT_EXIST"
    DAY_NOT_IN_MONTH = "DAY_NOT_IN_MONTH"
    NOT_A_LEAP_YEAR = "NOT_A_LEAP_YEAR"


@dataclass(frozen=True, slots=True, order=True)
class Notice:
    """A date the rule selects that does not fire; (year, month, day) may be no real date."""

    year: int
    month: int
    day: int
    reason: NoticeReason

    @property
    def local_date(self) -> str:
        """ISO text, also for a day the month lacks ("2027-04-31")."""
        return f"{self.year:04d}-{self.month:02d}-{self.day:02d}"


def firings_between(cadence: Cadence, after: datetime, before: datetime) -> list[ProjectedFiring]:
    """Every nominal instant strictly after ``after`` and strictly before ``before``, in order."""
    if after.utcoffset() is None or before.utcoffset() is None:
        raise ValueError("window instants must be timezone-aware")
    zone = ZoneInfo(cadence.zone_name)
    found: list[ProjectedFiring] = []
    instants = instants_after(cadence, after)
    while True:
        try:
            at = next(instants, None)
            if at is None or at >= before:
                break
            found.append(_projected(cadence, at, zone))
        except (OverflowError, ValueError):
            # A wall time whose instant lies past year 9999: the calendar ends there.
            break
    return found


def adjustment_at(cadence: Cadence, instant: datetime) -> Adjustment | None:
    """How the civil rule placed ``instant``; None also when ``cadence`` never names it."""
    if isinstance(cadence, Once):
        return None
    zone = ZoneInfo(cadence.timezone)
    placed = placement(instant, cadence.local_time, zone)
    if resolve(placed.scheduled_date, cadence.local_time, zone) != instant:
        return None
    return placed.adjustment


def run_limit_of(run_timeout_seconds: object) -> timedelta | None:
    """A definition's run-time limit from its ``run_timeout_seconds``; None when it has none."""
    if isinstance(run_timeout_seconds, bool) or not isinstance(run_timeout_seconds, int):
        return None
    return timedelta(seconds=run_timeout_seconds) if run_timeout_seconds > 0 else None


def may_overlap(cadence: Cadence, at: datetime, run_limit: timedelta | None) -> bool:
    """Whether the nominal firing before ``at`` is closer than ``run_limit``.

    Its run may still be going at ``at``, so the overlap policy may skip ``at``.
    """
    if run_limit is None:
        return False
    try:
        previous = latest_at_or_before(cadence, at - _TICK)
    except (OverflowError, ValueError):
        return False
    return previous is not None and at - previous < run_limit


def active_span(
    since: datetime, until: datetime | None, active: bool, not_yet_after: datetime
) -> tuple[datetime, datetime] | None:
    """The span in which the scheduler should have decided each nominal instant.

    ``since`` is when the current cadence last became ACTIVE (creation, last
    resume or last edit), ``until`` when that span ended; an ACTIVE schedule's
    span runs to ``not_yet_after`` (now less the overdue threshold). A
    schedule no longer ACTIVE whose end is unknown expects nothing (None).
    """
    if active:
        return since, not_yet_after
    if until is None:
        return None
    return since, min(until, not_yet_after)


def is_expected(at: datetime, active: tuple[datetime, datetime] | None, recorded: bool) -> bool:
    """Whether the nominal instant ``at`` should have been decided but has no record."""
    return active is not None and not recorded and active[0] < at < active[1]


def expected_between(
    cadence: Cadence,
    active: tuple[datetime, datetime] | None,
    window: tuple[datetime, datetime],
    recorded: Collection[datetime],
) -> list[datetime]:
    """The nominal instants in ``window`` (``[start, end)``) that are expected, oldest first.

    ``active`` is the schedule's ``active_span``; ``recorded`` the instants the
    ledger holds.
    """
    if active is None:
        return []
    # ``window[0]`` may be the first instant there is: nothing is subtracted from it then.
    after = active[0] if window[0] <= active[0] else window[0] - _TICK
    before = min(active[1], window[1])
    if before <= after:
        return []
    found = firings_between(cadence, after, before)
    return [f.at for f in found if is_expected(f.at, active, f.at in recorded)]


def notices_between(cadence: Cadence, first: date, last: date) -> list[Notice]:
    """The selected dates from ``first`` to ``last`` (local, inclusive) that never fire."""
    if isinstance(cadence, Once) or last < first:
        return []
    found = [
        Notice(day.year, day.month, day.day, NoticeReason.DATE_DOES_NOT_EXIST)
        for day in skipped_dates(cadence.timezone)
        if first <= day <= last and selects(cadence, day)
    ]
    for year, month in _months(first, last):
        length = monthrange(year, month)[1]
        if not first <= date(year, month, length) <= last:
            continue
        for day in _missing_days(cadence, month, length):
            leap_day = (month, day) == (2, 29)
            reason = NoticeReason.NOT_A_LEAP_YEAR if leap_day else NoticeReason.DAY_NOT_IN_MONTH
            found.append(Notice(year, month, day, reason))
    return sorted(found)


def _projected(cadence: Cadence, at: datetime, zone: ZoneInfo) -> ProjectedFiring:
    local = at.astimezone(zone)
    if isinstance(cadence, Once):
        wall = time(local.hour, local.minute, local.second, local.microsecond)
        return ProjectedFiring(at, local, local.date(), wall, None)
    placed = placement(at, cadence.local_time, zone)
    return ProjectedFiring(at, local, placed.scheduled_date, cadence.local_time, placed.adjustment)


def _months(first: date, last: date) -> list[tuple[int, int]]:
    months: list[tuple[int, int]] = []
    year, month = first.year, first.month
    while (year, month) <= (last.year, last.month):
        months.append((year, month))
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return months


def _missing_days(cadence: Cadence, month: int, length: int) -> list[int]:
    """Days the rule names in ``month`` (``length`` days long this year) that it lacks."""
    if isinstance(cadence, Monthly):
        return [day for day in cadence.days_of_month if day > length]
    if isinstance(cadence, Yearly):
        return [md.day for md in cadence.dates if md.month == month and md.day > length]
    return []
