"""Nominal firing instants of a cadence: the next, the latest, and how many.

Instants come from the civil rule, one candidate per selected local date,
resolved by ``civil_time``; never by adding hours to a UTC instant. Every
function takes its reference instant as an argument and works at bounded cost
however far it lies. ``on_candidate`` lets tests count the dates resolved.
"""

from __future__ import annotations

from calendar import monthrange
from collections.abc import Callable, Iterator
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from server.domain.cadence import Cadence, Daily, Monthly, Once, Weekly, Yearly
from server.domain.civil_time import resolve
from server.domain.zone_gaps import skipped_dates

__all__ = [
    "CandidateObserver",
    "count_between",
    "first_after",
    "instants_after",
    "latest_at_or_before",
    "selects",
]

CandidateObserver = Callable[[date], None]
Recurring = Daily | Weekly | Monthly | Yearly

_ONE_DAY = timedelta(days=1)


def first_after(
    cadence: Cadence, instant: datetime, *, on_candidate: CandidateObserver | None = None
) -> datetime | None:
    """The first nominal instant strictly after ``instant``; None when there is none."""
    _require_aware(instant)
    if isinstance(cadence, Once):
        return cadence.at if cadence.at > instant else None
    found = _first_after(cadence, instant, on_candidate)
    return None if found is None else found[1]


def instants_after(cadence: Cadence, instant: datetime) -> Iterator[datetime]:
    """Every nominal instant strictly after ``instant``, in order, lazily.

    Exactly what repeated ``first_after`` calls return, each from the one
    before (the worker's ``next_fire_at`` moving on), found in one walk of the
    calendar that resolves each selected date once: a resolved instant always
    reads on its own date or, moved by a gap running to midnight, the next, so
    continuing the walk skips nothing ``first_after`` would find.
    """
    _require_aware(instant)
    if isinstance(cadence, Once):
        if cadence.at > instant:
            yield cadence.at
        return
    for _, fire in _dated_after(cadence, instant, None):
        yield fire


def latest_at_or_before(
    cadence: Cadence, instant: datetime, *, on_candidate: CandidateObserver | None = None
) -> datetime | None:
    """The latest nominal instant at or before ``instant``; None when there is none."""
    _require_aware(instant)
    if isinstance(cadence, Once):
        return cadence.at if cadence.at <= instant else None
    found = _latest_at_or_before(cadence, instant, on_candidate)
    return None if found is None else found[1]


def count_between(cadence: Cadence, start: datetime, end: datetime) -> int:
    """How many nominal instants fall in ``(start, end]``, by calendar arithmetic."""
    _require_aware(start)
    _require_aware(end)
    if end <= start:
        return 0
    if isinstance(cadence, Once):
        return 1 if start < cadence.at <= end else 0
    last = _latest_at_or_before(cadence, end, None)
    if last is None or last[1] <= start:
        return 0
    first = _first_after(cadence, start, None)
    if first is None:
        return 0
    first_day, last_day = first[0], last[0]
    skipped = sum(
        1
        for day in skipped_dates(cadence.timezone)
        if first_day <= day <= last_day and selects(cadence, day)
    )
    return _rank(cadence, last_day) - _rank(cadence, first_day) + 1 - skipped


def _require_aware(instant: datetime) -> None:
    if instant.utcoffset() is None:
        raise ValueError("reference instants must be timezone-aware")


def _first_after(
    cadence: Recurring, instant: datetime, observe: CandidateObserver | None
) -> tuple[date, datetime] | None:
    return next(_dated_after(cadence, instant, observe), None)


def _dated_after(
    cadence: Recurring, instant: datetime, observe: CandidateObserver | None
) -> Iterator[tuple[date, datetime]]:
    """``(selected date, instant)`` for each nominal instant after ``instant``, lazily."""
    zone = ZoneInfo(cadence.timezone)
    # An occurrence belongs to its date and never precedes that date's first
    # instant, so nothing dated before the instant's own local date can follow it.
    start = instant.astimezone(zone).date()
    latest = instant
    for day in _selected_dates(cadence, start, forward=True):
        if observe is not None:
            observe(day)
        fire = resolve(day, cadence.local_time, zone)
        if fire is not None and fire > latest:
            latest = fire
            yield day, fire


def _latest_at_or_before(
    cadence: Recurring, instant: datetime, observe: CandidateObserver | None
) -> tuple[date, datetime] | None:
    zone = ZoneInfo(cadence.timezone)
    local = instant.astimezone(zone)
    # fold=1 means the clocks went back, possibly across midnight: the next
    # date's occurrence may already be behind us.
    start = local.date() + _ONE_DAY if local.fold else local.date()
    for day in _selected_dates(cadence, start, forward=False):
        if observe is not None:
            observe(day)
        fire = resolve(day, cadence.local_time, zone)
        if fire is not None and fire <= instant:
            return day, fire
    return None


def _selected_dates(cadence: Recurring, start: date, *, forward: bool) -> Iterator[date]:
    """Local dates the cadence selects, from ``start`` inclusive, ending at the calendar's edge."""
    try:
        if isinstance(cadence, Daily | Weekly):
            step = _ONE_DAY if forward else -_ONE_DAY
            day = start
            while True:
                if selects(cadence, day):
                    yield day
                day += step
        elif isinstance(cadence, Monthly):
            year, month = start.year, start.month
            while True:
                days = _month_selection(cadence, year, month)
                for number in days if forward else reversed(days):
                    day = date(year, month, number)
                    if (day >= start) if forward else (day <= start):
                        yield day
                year, month = _shift_month(year, month, 1 if forward else -1)
        else:
            year = start.year
            while True:
                dates = _year_selection(cadence, year)
                for day in dates if forward else reversed(dates):
                    if (day >= start) if forward else (day <= start):
                        yield day
                year += 1 if forward else -1
    except (OverflowError, ValueError):
        # Stepped past date.min or date.max: no further candidates exist.
        return


def _shift_month(year: int, month: int, delta: int) -> tuple[int, int]:
    index = year * 12 + (month - 1) + delta
    return index // 12, index % 12 + 1


def _month_selection(cadence: Monthly, year: int, month: int) -> tuple[int, ...]:
    return _days_for_length(cadence, monthrange(year, month)[1])


def _days_for_length(cadence: Monthly, length: int) -> tuple[int, ...]:
    chosen = {day for day in cadence.days_of_month if day <= length}
    if cadence.last_day:
        chosen.add(length)
    return tuple(sorted(chosen))


def _year_selection(cadence: Yearly, year: int) -> tuple[date, ...]:
    leap = _is_leap(year)
    return tuple(
        date(year, md.month, md.day)
        for md in cadence.dates
        if leap or (md.month, md.day) != (2, 29)
    )


def _is_leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def _leap_years_through(year: int) -> int:
    """Leap years in 1..``year``."""
    return year // 4 - year // 100 + year // 400


def selects(cadence: Recurring, day: date) -> bool:
    """Whether the cadence's rule names local date ``day`` (it may still not fire: see Apia)."""
    if isinstance(cadence, Daily):
        return True
    if isinstance(cadence, Weekly):
        return day.isoweekday() in cadence.weekdays
    if isinstance(cadence, Monthly):
        return day.day in _month_selection(cadence, day.year, day.month)
    return any((md.month, md.day) == (day.month, day.day) for md in cadence.dates)


def _rank(cadence: Recurring, day: date) -> int:
    """How many dates in 0001-01-01..``day`` the cadence selects, in closed form."""
    if isinstance(cadence, Daily):
        return day.toordinal()
    if isinstance(cadence, Weekly):
        # Ordinal 1 (0001-01-01) is a Monday, so the trailing partial week
        # holds ISO weekdays 1..remainder.
        weeks, remainder = divmod(day.toordinal(), 7)
        return weeks * len(cadence.weekdays) + sum(1 for w in cadence.weekdays if w <= remainder)
    if isinstance(cadence, Monthly):
        per_length = {length: len(_days_for_length(cadence, length)) for length in (28, 29, 30, 31)}
        past_years = day.year - 1
        common_year = 7 * per_length[31] + 4 * per_length[30] + per_length[28]
        total = past_years * common_year
        total += _leap_years_through(past_years) * (per_length[29] - per_length[28])
        for month in range(1, day.month):
            total += per_length[monthrange(day.year, month)[1]]
        this_month = _month_selection(cadence, day.year, day.month)
        return total + sum(1 for number in this_month if number <= day.day)
    february_29 = sum(1 for md in cadence.dates if (md.month, md.day) == (2, 29))
    every_year = len(cadence.dates) - february_29
    past_years = day.year - 1
    total = past_years * every_year + _leap_years_through(past_years) * february_29
    return total + sum(1 for d in _year_selection(cadence, day.year) if d <= day)
