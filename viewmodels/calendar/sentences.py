"""The calendar's sentences: an adjusted firing, a date that never fires, a shifted time.

One plain sentence each, from what the server said (the rule's wall time and
date, the wall time it fires at, the zone, named by its place: "New York"),
with the device's time added when it differs: "New York's clocks go forward
on 14 Mar: this firing is at 03:00 there (07:00 your time)", "April 2027 has
no 31st; nothing fires for it this month", "your time: 14:00 instead of 15:00
until 29 Mar". Dates and times are in the person's locale (what the display
zone carries). A value this client does not know is humanized, never hidden.
"""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from babel import Locale

from transport.models import FiringAdjustment, NoticeReason, ProjectedFiring, ProjectionNotice
from viewmodels.formatting import humanize, ordinal
from viewmodels.formatting.clock_text import (
    clock_time,
    date_text,
    day_long_month_text,
    day_month_text,
    hour_cycle_of,
    local_clock_time,
    locale_of,
    month_title,
    wall_time_text,
)
from viewmodels.formatting.zones import is_device_zone, place_name


def adjusted_sentence(firing: ProjectedFiring, zone: str, device_zone: ZoneInfo) -> str:
    """Why an adjusted firing is not at the rule's wall time, and when it fires."""
    cycle, locale = hour_cycle_of(device_zone), locale_of(device_zone)
    named = wall_time_text(firing.scheduled_time, cycle, locale)
    fires = wall_time_text(firing.local_time, cycle, locale) or device_time(firing.at, device_zone)
    day = firing.scheduled_date
    yours = _yours(firing.at, zone, device_zone)
    if named is None or day is None:
        return f"A clock change in {zone} moved this firing; it fires at {fires}{yours}"
    moved_on = firing.local_date if firing.local_date not in (None, day) else None
    when = fires if moved_on is None else f"{fires} on {day_month_text(moved_on, locale)}"
    adjustment = firing.known_adjustment
    clocks = f"{place_name(zone)}'s clocks"
    if adjustment is FiringAdjustment.MOVED_TO_TRANSITION:
        forward = day_month_text(day, locale)
        return f"{clocks} go forward on {forward}: this firing is at {when} there{yours}"
    if adjustment is FiringAdjustment.EARLIER_OF_TWO:
        return (
            f"{clocks} go back on {day_month_text(day, locale)}: {named} happens twice there,"
            f" and this firing is at the first{yours}"
        )
    reason = humanize(firing.adjustment or "adjusted")
    on_day = f"On {date_text(day, locale)} in {zone} a clock change applies ({reason})"
    return f"{on_day}; it fires at {when}{yours}"


def notice_sentence(notice: ProjectionNotice, zone: str, locale: Locale) -> str:
    """Why a date the rule selects never fires."""
    year, month, day = notice.parts
    named = _named_date(year, month, day, locale)
    reason = notice.known_reason
    if reason is NoticeReason.DATE_DOES_NOT_EXIST:
        return (
            f"{named} does not exist in {zone} (its clocks skipped the day); nothing fires that day"
        )
    if reason is NoticeReason.DAY_NOT_IN_MONTH:
        month_year = month_title(year, month, locale) if 1 <= month <= 12 else f"{year}-{month}"
        return f"{month_year} has no {ordinal(day)}; nothing fires for it this month"
    if reason is NoticeReason.NOT_A_LEAP_YEAR:
        leap_day = day_long_month_text(2, 29, locale)
        return f"{year} is not a leap year; nothing fires for {leap_day}"
    return f"Nothing fires for {named}: {humanize(notice.reason).lower()}"


def notice_words(notice: ProjectionNotice, locale: Locale) -> str:
    """The short form a day cell's label carries."""
    reason = notice.known_reason
    if reason is NoticeReason.DATE_DOES_NOT_EXIST:
        return "no firing, this date does not exist in the schedule's zone"
    if reason is NoticeReason.DAY_NOT_IN_MONTH:
        return f"no firing on the {ordinal(notice.parts[2])}, which this month lacks"
    if reason is NoticeReason.NOT_A_LEAP_YEAR:
        return f"no firing on {day_long_month_text(2, 29, locale)}, not a leap year"
    return f"no firing, {humanize(notice.reason).lower()}"


def shift_words(shown: datetime, usual: datetime, until: date, device_zone: ZoneInfo) -> str:
    """ "your time: 14:00 instead of 15:00 until 29 Mar" (naive device-local wall times)."""
    return (
        f"your time: {_wall(shown, device_zone)} instead of {_wall(usual, device_zone)}"
        f" until {day_month_text(until, locale_of(device_zone))}"
    )


def shift_note(
    start: date, shown: datetime, usual: datetime, until: date, device_zone: ZoneInfo
) -> str:
    """The month's sentence for a shift: "From 14 Mar it fires at 14:00 your time; from 28 Mar
    at 15:00 again" (``start`` and ``until`` are device-local dates of the server's firings)."""
    locale = locale_of(device_zone)
    return (
        f"From {day_month_text(start, locale)} it fires at {_wall(shown, device_zone)}"
        f" your time; from {day_month_text(until, locale)} at {_wall(usual, device_zone)} again"
    )


def _wall(local: datetime, device_zone: ZoneInfo) -> str:
    """A naive device-local wall time on the person's clock."""
    cycle, locale = hour_cycle_of(device_zone), locale_of(device_zone)
    return clock_time(local.hour, local.minute, local.second, hour_cycle=cycle, locale=locale)


def _named_date(year: int, month: int, day: int, locale: Locale) -> str:
    """A notice's date in ``locale``; one the calendar lacks as the server sent it."""
    try:
        return date_text(date(year, month, day), locale)
    except ValueError:
        return f"{year:04d}-{month:02d}-{day:02d}"


def _yours(at: datetime, zone: str, device_zone: ZoneInfo) -> str:
    if is_device_zone(zone, device_zone):
        return ""
    return f" ({device_time(at, device_zone)} your time)"


def device_time(at: datetime, device_zone: ZoneInfo) -> str:
    """``at``'s wall time in the device zone, on the person's clock."""
    return local_clock_time(at.astimezone(device_zone))
