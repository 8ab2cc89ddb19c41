"""One-line cadence summaries ("Weekdays at 08:30 (Europe/Paris)").

Presentation only: the client never computes a firing from a cadence. Every
recurring summary names the cadence's stored IANA zone only when it differs
from the device's zone. The wall time is the schedule's own, written on the
person's clock and in their locale (what the display zone carries); lists are
joined by Babel as the locale joins them, the words stay English. A kind this client
does not know, or a known kind with missing or odd fields, still renders
(humanized kind, time and zone) and never raises: one strange row must not
break the list.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from zoneinfo import ZoneInfo

from babel import Locale
from babel.lists import format_list

from transport.models import Cadence, CadenceKind
from viewmodels.formatting.clock_text import (
    date_text,
    day_long_month_text,
    hour_cycle_of,
    local_clock_time,
    locale_of,
    wall_time_text,
)
from viewmodels.formatting.labels import NOT_AVAILABLE_TEXT, humanize
from viewmodels.formatting.zones import is_device_zone

# English plurals until the sentences are gettext messages; the list join is Babel's.
_WEEKDAYS = ("Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays", "Sundays")


def cadence_summary(cadence: Cadence | None, device_zone: ZoneInfo) -> str:
    """The summary of ``cadence`` for a device in ``device_zone``; None is "Not available"."""
    if cadence is None:
        return NOT_AVAILABLE_TEXT
    locale = locale_of(device_zone)
    if cadence.known_kind is CadenceKind.ONCE and cadence.at is not None:
        local = cadence.at.astimezone(device_zone)
        return f"Once on {date_text(local, locale)} at {local_clock_time(local)}"
    time = wall_time_text(cadence.local_time, hour_cycle_of(device_zone), locale)
    body = _recurring_body(cadence, time, locale)
    if body is None:
        body = humanize(cadence.kind) + (f" at {time}" if time else "")
    return body + zone_suffix(cadence.timezone, device_zone)


def zone_suffix(zone_name: str | None, device_zone: ZoneInfo) -> str:
    """ " (Europe/Paris)" when the stored zone is not the device's, else ""."""
    if not zone_name or is_device_zone(zone_name, device_zone):
        return ""
    return f" ({zone_name})"


def _recurring_body(cadence: Cadence, time: str | None, locale: Locale) -> str | None:
    if time is None:
        return None
    kind = cadence.known_kind
    if kind is CadenceKind.DAILY:
        return f"Every day at {time}"
    if kind is CadenceKind.WEEKLY and cadence.weekdays:
        return f"{_weekdays(cadence.weekdays, locale)} at {time}"
    if kind is CadenceKind.MONTHLY and (cadence.days_of_month or cadence.last_day):
        days = _days_of_month(cadence.days_of_month or (), bool(cadence.last_day), locale)
        return f"Monthly on the {days} at {time}"
    if kind is CadenceKind.YEARLY and cadence.dates:
        dates = sorted({(date.month, date.day) for date in cadence.dates})
        named = [day_long_month_text(month, day, locale) for month, day in dates]
        return f"Every year on {_join(named, locale)} at {time}"
    return None


def _weekdays(weekdays: Sequence[int], locale: Locale) -> str:
    days = sorted(set(weekdays))
    if days == [1, 2, 3, 4, 5, 6, 7]:
        return "Every day"
    if days == [1, 2, 3, 4, 5]:
        return "Weekdays"
    return _join((_WEEKDAYS[day - 1] if 1 <= day <= 7 else f"day {day}" for day in days), locale)


def _days_of_month(days: Sequence[int], last_day: bool, locale: Locale) -> str:
    named = [ordinal(day) for day in sorted(set(days))]
    if last_day:
        named.append("last day")
    return _join(named, locale)


def ordinal(day: int) -> str:
    """ "1st", "2nd", "11th", "31st"."""
    suffix = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


def _join(words: Iterable[str], locale: Locale) -> str:
    """ "a", "a and b", "a, b and c" (en_US: "a, b, and c"): the words are English, so
    they are listed as the locale's English is, or as English is (never "a, b und c")."""
    return format_list(list(words), locale=locale if locale.language == "en" else _ENGLISH)


_ENGLISH = Locale("en")
