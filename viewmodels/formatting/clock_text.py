"""Instants, ages and durations as people read them, in the zone chosen for display.

The zone is injected (a ``ZoneInfo``: the device's, read with ``tzlocal``, or
the one chosen in Settings), never read from the process, so tests pin it. A
``DisplayZone`` also carries the clock times are written with (``HourCycle``);
wall times are written by Babel. English by default.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta, tzinfo
from enum import StrEnum
from zoneinfo import ZoneInfo

from babel.dates import format_skeleton, format_time

from viewmodels.formatting.zones import is_device_zone

LOCALE = "en"
"""The language times are written in, until the app follows the person's locale."""


class HourCycle(StrEnum):
    """How a wall time is written: as the language does, or 24-hour, or 12-hour."""

    LANGUAGE = "language"
    """As the language writes it: 24-hour while the app writes English only."""
    H24 = "h24"
    H12 = "h12"


_PATTERNS = {
    # (12-hour, with seconds) -> CLDR pattern
    (False, False): "HH:mm",
    (False, True): "HH:mm:ss",
    (True, False): "h:mm a",
    (True, True): "h:mm:ss a",
}


class DisplayZone(ZoneInfo):
    """The zone times are shown in, carrying the clock they are written with.

    Built by ``display_zone``; view models take it wherever they take the
    device zone, so a time written in it follows the person's choice.
    """

    hour_cycle: HourCycle = HourCycle.LANGUAGE


def display_zone(zone: ZoneInfo, hour_cycle: HourCycle) -> ZoneInfo:
    """``zone`` carrying ``hour_cycle``; ``zone`` itself when it has no IANA key."""
    try:
        shown = DisplayZone.no_cache(zone.key)
    except (ValueError, KeyError, OSError):
        return zone
    shown.hour_cycle = hour_cycle
    return shown


def hour_cycle_of(zone: tzinfo | None) -> HourCycle:
    return zone.hour_cycle if isinstance(zone, DisplayZone) else HourCycle.LANGUAGE


_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def month_name(month: int) -> str:
    return _MONTHS[month - 1] if 1 <= month <= 12 else f"month {month}"


def short_month(month: int) -> str:
    return month_name(month)[:3]


def clock_time(
    hour: int, minute: int, second: int = 0, *, hour_cycle: HourCycle = HourCycle.LANGUAGE
) -> str:
    """A wall time; seconds only when not zero ("09:00", "09:00:30"; 12-hour "9:00 AM")."""
    twelve = hour_cycle is HourCycle.H12
    return format_time(time(hour, minute, second), _PATTERNS[(twelve, second != 0)], locale=LOCALE)


def local_clock_time(local: datetime, *, seconds: bool = True) -> str:
    """``local``'s wall time in the clock its zone carries (``DisplayZone``)."""
    return clock_time(
        local.hour,
        local.minute,
        local.second if seconds else 0,
        hour_cycle=hour_cycle_of(local.tzinfo),
    )


def hour_label(local: datetime) -> str:
    """An hour alone, as a strip's label: "18"; "6 PM" on the 12-hour clock ``local`` carries."""
    skeleton = "h" if hour_cycle_of(local.tzinfo) is HourCycle.H12 else "HH"
    return format_skeleton(skeleton, local.replace(tzinfo=None), locale=LOCALE)


_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def weekday_name(isoweekday: int) -> str:
    """ISO weekday 1 (Monday) to 7 (Sunday), as a word."""
    return _WEEKDAYS[isoweekday - 1]


def date_text(moment: date) -> str:
    """ "24 Dec 2026" (a datetime already in the zone to show, or a calendar date)."""
    return f"{moment.day} {short_month(moment.month)} {moment.year}"


def long_date_text(day: date) -> str:
    """ "Thursday 24 December 2026"."""
    return f"{weekday_name(day.isoweekday())} {day.day} {month_name(day.month)} {day.year}"


def wall_time_text(raw: str | None, hour_cycle: HourCycle = HourCycle.LANGUAGE) -> str | None:
    """A wire wall time ("09:00:00") as shown ("09:00"); None when absent or not a wall time."""
    if not raw:
        return None
    parts = raw.split(":")
    try:
        numbers = [int(part) for part in parts]
    except ValueError:
        return None
    if len(numbers) not in (2, 3):
        return None
    hour, minute, second = (*numbers, 0)[:3]
    if not (0 <= hour < 24 and 0 <= minute < 60 and 0 <= second < 60):
        return None
    return clock_time(hour, minute, second, hour_cycle=hour_cycle)


def instant_text(instant: datetime, zone: ZoneInfo) -> str:
    """An absolute instant in ``zone``, date and time: "24 Dec 2026, 18:00"."""
    local = instant.astimezone(zone)
    return f"{date_text(local)}, {local_clock_time(local)}"


def message_time_text(instant: datetime, zone: ZoneInfo) -> str:
    """When a message was written, to the minute: "30 Nov 2026, 06:32".

    A chat is read by the minute; seconds would make every line noisier without
    telling anyone anything (they are dropped, not rounded, as a clock shows them).
    """
    local = instant.astimezone(zone)
    return f"{date_text(local)}, {local_clock_time(local, seconds=False)}"


def instant_text_naming_zone(
    instant: datetime, device_zone: ZoneInfo, zone_name: str | None
) -> str:
    """``instant_text`` in the device zone, plus the wall time in ``zone_name`` when it differs.

    "1 Dec 2026, 08:00 (09:00 Europe/Paris)": the schedule's own zone is named
    only when it is not the device's, so nobody has to guess which clock is meant.
    """
    return instant_text(instant, device_zone) + in_named_zone(instant, device_zone, zone_name)


def time_text_naming_zone(instant: datetime, device_zone: ZoneInfo, zone_name: str | None) -> str:
    """The wall time in the device zone, the same way: "08:00 (09:00 Europe/Paris)"."""
    local = instant.astimezone(device_zone)
    return local_clock_time(local) + in_named_zone(instant, device_zone, zone_name)


def minute_text_naming_device_zone(instant: datetime, device_zone: ZoneInfo) -> str:
    """A record's own instant, to the minute, naming the zone: "27 Nov 2026, 09:14 (Etc/UTC)".

    Created and updated times are read, not acted on: seconds add nothing, and
    the zone is named because nothing else beside them says which clock it is.
    """
    return f"{message_time_text(instant, device_zone)} ({device_zone.key})"


def in_named_zone(instant: datetime, device_zone: ZoneInfo, zone_name: str | None) -> str:
    """ " (09:00 Europe/Paris)" when ``zone_name`` is not the device's zone, else ""."""
    if not zone_name or is_device_zone(zone_name, device_zone):
        return ""
    try:
        other = instant.astimezone(ZoneInfo(zone_name))
    except (ValueError, KeyError, OSError):
        return f" ({zone_name})"
    cycle = hour_cycle_of(device_zone)
    return f" ({clock_time(other.hour, other.minute, other.second, hour_cycle=cycle)} {zone_name})"


def age_text(then: datetime, now: datetime, zone: ZoneInfo) -> str:
    """ "just now", "5 min ago", "2 h ago", "3 d ago", then the date."""
    elapsed = now - then
    if elapsed < timedelta(minutes=1):
        return "just now"
    if elapsed < timedelta(hours=1):
        return f"{elapsed // timedelta(minutes=1)} min ago"
    if elapsed < timedelta(days=1):
        return f"{elapsed // timedelta(hours=1)} h ago"
    if elapsed < timedelta(days=7):
        return f"{elapsed // timedelta(days=1)} d ago"
    return date_text(then.astimezone(zone))


DUE_NOW_TEXT = "Next: due now"


def next_firing_text(at: datetime, now: datetime, zone: ZoneInfo) -> str:
    """Row text: "Next: today at 09:00", "Next: tomorrow at …", "Next: 1 Dec 2026 at …".

    An instant that has already passed is never shown as the next firing: the
    server has not moved it on yet, so the row says it is due now ("Next: due
    now") until it is read again.
    """
    if at <= now:
        return DUE_NOW_TEXT
    local = at.astimezone(zone)
    today = now.astimezone(zone).date()
    wall = local_clock_time(local)
    if local.date() == today:
        return f"Next: today at {wall}"
    if local.date() == today + timedelta(days=1):
        return f"Next: tomorrow at {wall}"
    return f"Next: {date_text(local)} at {wall}"


def duration_text(seconds: int) -> str:
    """ "45 s", "5 min", "1 h 30 min", "2 d": the largest two units that are not zero."""
    if seconds <= 0:
        return "0 s"
    units = (("d", 86_400), ("h", 3_600), ("min", 60), ("s", 1))
    parts: list[str] = []
    remaining = seconds
    for name, size in units:
        count, remaining = divmod(remaining, size)
        if count:
            parts.append(f"{count} {name}")
    return " ".join(parts[:2])
