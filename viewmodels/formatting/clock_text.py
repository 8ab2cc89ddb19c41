"""Instants, dates and wall times as people read them, in the zone chosen for display.

The zone is injected (a ``ZoneInfo``: the device's, read with ``tzlocal``, or
the one chosen in Settings), never read from the process, so tests pin it. A
``DisplayZone`` also carries the person's clock (``HourCycle``), locale (a
Babel ``Locale``: dates, times, month and weekday names come from CLDR in it)
and that locale's catalog of sentences (``words_of``). Functions given no zone
take the locale from their caller.
"""

from __future__ import annotations

from datetime import date, datetime, time, tzinfo
from enum import StrEnum
from functools import lru_cache
from zoneinfo import ZoneInfo

from babel import Locale
from babel.dates import (
    format_date,
    format_skeleton,
    get_day_names,
    get_month_names,
    match_skeleton,
    tokenize_pattern,
    untokenize_pattern,
)

from viewmodels.formatting.joins import with_aside
from viewmodels.formatting.zones import is_device_zone
from viewmodels.language import DEFAULT_LOCALE, Words, words_for


class HourCycle(StrEnum):
    """How a wall time is written: as the locale does, or 24-hour, or 12-hour."""

    LANGUAGE = "language"
    """As the locale writes it: "9:00 AM" in en_US, "09:00" in en_GB and de."""
    H24 = "h24"
    H12 = "h12"


class DisplayZone(ZoneInfo):
    """The zone times are shown in, carrying the clock and the locale they are written with.

    Built by ``display_zone``; view models take it wherever they take the
    device zone, so a time written in it follows the person's choices.
    """

    hour_cycle: HourCycle = HourCycle.LANGUAGE
    locale: Locale = DEFAULT_LOCALE
    words: Words = words_for(DEFAULT_LOCALE)
    """The catalog of the locale's language, looked up once (every row reads it)."""
    chosen: bool = False
    """Chosen in Settings, rather than the device's own zone."""


def display_zone(
    zone: ZoneInfo, hour_cycle: HourCycle, locale: Locale = DEFAULT_LOCALE, *, chosen: bool = False
) -> ZoneInfo:
    """``zone`` carrying ``hour_cycle``, ``locale`` and whether it was chosen in Settings;
    ``zone`` itself when it has no IANA key."""
    try:
        shown = DisplayZone.no_cache(zone.key)
    except (ValueError, KeyError, OSError):
        return zone
    shown.hour_cycle = hour_cycle
    shown.locale = locale
    shown.words = words_for(locale)
    shown.chosen = chosen
    return shown


def hour_cycle_of(zone: tzinfo | None) -> HourCycle:
    return zone.hour_cycle if isinstance(zone, DisplayZone) else HourCycle.LANGUAGE


def locale_of(zone: tzinfo | None) -> Locale:
    """The locale ``zone`` carries; ``DEFAULT_LOCALE`` for a plain zone."""
    return zone.locale if isinstance(zone, DisplayZone) else DEFAULT_LOCALE


def words_of(zone: tzinfo | None) -> Words:
    """The catalog of the locale ``zone`` carries (English for a plain zone)."""
    return zone.words if isinstance(zone, DisplayZone) else DisplayZone.words


def your_time_text(zone: ZoneInfo) -> str:
    """Whose clock the times are on: "Times in UTC, your device's zone", or
    "Times in Asia/Kolkata, chosen in Settings"."""
    shown = "UTC" if is_device_zone("UTC", zone) else zone.key
    words = words_of(zone)
    if isinstance(zone, DisplayZone) and zone.chosen:
        return words.gettext("Times in {zone}, chosen in Settings").format(zone=shown)
    return words.gettext("Times in {zone}, your device's zone").format(zone=shown)


@lru_cache(maxsize=32)
def _twelve_hour(hour_cycle: HourCycle, locale: Locale) -> bool:
    """The switch when set, else whether the locale's short time has a 12-hour field."""
    if hour_cycle is not HourCycle.LANGUAGE:
        return hour_cycle is HourCycle.H12
    tokens = tokenize_pattern(locale.time_formats["short"].pattern)
    return any(kind == "field" and value[0] in "hK" for kind, value in tokens)


@lru_cache(maxsize=4096)
def _day_text(skeleton: str, day: date, locale: Locale) -> str:
    return format_skeleton(skeleton, day, locale=locale)


def _day(moment: date) -> date:
    return date(moment.year, moment.month, moment.day)


def month_name(month: int, locale: Locale) -> str:
    """A month's name standing alone ("December"); "month 13" for no month."""
    if not 1 <= month <= 12:
        # Translators: a month number the server sent that is not 1 to 12.
        return words_for(locale).gettext("month {month}").format(month=month)
    return str(get_month_names("wide", context="stand-alone", locale=locale)[month])


def month_title(year: int, month: int, locale: Locale) -> str:
    """A month of a year, as a calendar titles it: "March 2027"."""
    return _day_text("yMMMM", date(year, month, 1), locale)


def day_month_text(day: date, locale: Locale) -> str:
    """A day of a month, short: "14 Mar" (en_GB), "Mar 14" (en_US)."""
    return _day_text("MMMd", _day(day), locale)


def day_long_month_text(month: int, day: int, locale: Locale) -> str:
    """A day of a month, the month written out: "24 December"; 29 February exists."""
    return _day_text("MMMMd", date(2000, month, day), locale)


def clock_time(
    hour: int,
    minute: int,
    second: int = 0,
    *,
    hour_cycle: HourCycle = HourCycle.LANGUAGE,
    locale: Locale,
) -> str:
    """A wall time; seconds only when not zero ("09:00", "09:00:30"; en_US "9:00 AM")."""
    return _wall_text(time(hour, minute, second), _twelve_hour(hour_cycle, locale), locale)


@lru_cache(maxsize=8192)
def _wall_text(wall: time, twelve: bool, locale: Locale) -> str:
    skeleton = ("hm" if twelve else "Hm") + ("s" if wall.second else "")
    return format_skeleton(skeleton, wall, locale=locale)


def local_clock_time(local: datetime, *, seconds: bool = True) -> str:
    """``local``'s wall time in the clock and locale its zone carries (``DisplayZone``)."""
    return clock_time(
        local.hour,
        local.minute,
        local.second if seconds else 0,
        hour_cycle=hour_cycle_of(local.tzinfo),
        locale=locale_of(local.tzinfo),
    )


def hour_label(local: datetime) -> str:
    """An hour alone, as a strip's label: "18"; "6 pm" on the 12-hour clock ``local`` carries."""
    locale = locale_of(local.tzinfo)
    skeleton = "h" if _twelve_hour(hour_cycle_of(local.tzinfo), locale) else "HH"
    return format_skeleton(skeleton, local.replace(tzinfo=None), locale=locale)


def weekday_name(isoweekday: int, locale: Locale) -> str:
    """ISO weekday 1 (Monday) to 7 (Sunday), as a word."""
    return str(get_day_names("wide", context="format", locale=locale)[isoweekday - 1])


def weekday_abbreviations(first: int, locale: Locale) -> tuple[str, ...]:
    """The seven weekdays' short names from ``first`` (ISO 1-7): "Mon", "Tue", ..."""
    names = get_day_names("abbreviated", context="stand-alone", locale=locale)
    return tuple(str(names[(first - 1 + n) % 7]) for n in range(7))


def date_text(moment: date, locale: Locale) -> str:
    """ "24 Dec 2026" (a datetime already in the zone to show, or a calendar date)."""
    return _day_text("yMMMd", _day(moment), locale)


@lru_cache(maxsize=1024)
def long_date_text(day: date, locale: Locale) -> str:
    """ "Thursday, 24 December 2026": the locale's full date."""
    return format_date(_day(day), "full", locale=locale)


def day_with_weekday_text(day: date, locale: Locale) -> str:
    """ "Thursday 24 December" (en_US "Thursday, December 24"): a day of this year, with
    its weekday written out as the locale's full date writes it."""
    return format_date(_day(day), _wide_weekday_pattern(locale), locale=locale)


@lru_cache(maxsize=64)
def _wide_weekday_pattern(locale: Locale) -> str:
    """The locale's month-day-weekday pattern with the weekday wide: CLDR often keeps only
    an abbreviated one ("E, MMMM d"), and Babel's skeleton matching does not widen it."""
    skeletons = locale.datetime_skeletons
    pattern = str(skeletons[match_skeleton("MMMMEEEEd", skeletons)].pattern)
    tokens = [
        ("field", (field[0], 4)) if kind == "field" and field[0] in "Ec" else (kind, field)
        for kind, field in tokenize_pattern(pattern)
    ]
    return str(untokenize_pattern(tokens))


def date_and_time(date_part: str, time_part: str, locale: Locale) -> str:
    """A written date and time joined as the locale joins them: "24 Dec 2026, 18:00"."""
    joined = str(locale.datetime_formats["medium"]).replace("'", "")
    return joined.replace("{1}", date_part).replace("{0}", time_part)


def wall_time_text(raw: str | None, hour_cycle: HourCycle, locale: Locale) -> str | None:
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
    return clock_time(hour, minute, second, hour_cycle=hour_cycle, locale=locale)


def instant_text(instant: datetime, zone: ZoneInfo) -> str:
    """An absolute instant in ``zone``, date and time: "24 Dec 2026, 18:00"."""
    local = instant.astimezone(zone)
    locale = locale_of(zone)
    return date_and_time(date_text(local, locale), local_clock_time(local), locale)


def message_time_text(instant: datetime, zone: ZoneInfo) -> str:
    """When a message was written, to the minute: "30 Nov 2026, 06:32".

    A chat is read by the minute; seconds would make every line noisier without
    telling anyone anything (they are dropped, not rounded, as a clock shows them).
    """
    local = instant.astimezone(zone)
    locale = locale_of(zone)
    return date_and_time(date_text(local, locale), local_clock_time(local, seconds=False), locale)


def instant_text_naming_zone(
    instant: datetime, device_zone: ZoneInfo, zone_name: str | None
) -> str:
    """``instant_text`` in the device zone, plus the wall time in ``zone_name`` when it differs.

    "1 Dec 2026, 08:00 (09:00 Europe/Paris)": the schedule's own zone is named
    only when it is not the device's, so nobody has to guess which clock is meant.
    """
    elsewhere = in_named_zone(instant, device_zone, zone_name)
    return with_aside(instant_text(instant, device_zone), elsewhere, words_of(device_zone))


def time_text_naming_zone(instant: datetime, device_zone: ZoneInfo, zone_name: str | None) -> str:
    """The wall time in the device zone, the same way: "08:00 (09:00 Europe/Paris)"."""
    local = instant.astimezone(device_zone)
    elsewhere = in_named_zone(instant, device_zone, zone_name)
    return with_aside(local_clock_time(local), elsewhere, words_of(device_zone))


def minute_text_naming_device_zone(instant: datetime, device_zone: ZoneInfo) -> str:
    """A record's own instant, to the minute, naming the zone: "27 Nov 2026, 09:14 (Etc/UTC)".

    Created and updated times are read, not acted on: seconds add nothing, and
    the zone is named because nothing else beside them says which clock it is.
    """
    return f"{message_time_text(instant, device_zone)} ({device_zone.key})"


def in_named_zone(instant: datetime, device_zone: ZoneInfo, zone_name: str | None) -> str | None:
    """ "09:00 Europe/Paris" when ``zone_name`` is not the device's zone, else None."""
    if not zone_name or is_device_zone(zone_name, device_zone):
        return None
    try:
        other = instant.astimezone(ZoneInfo(zone_name))
    except (ValueError, KeyError, OSError):
        return zone_name
    wall = clock_time(
        other.hour,
        other.minute,
        other.second,
        hour_cycle=hour_cycle_of(device_zone),
        locale=locale_of(device_zone),
    )
    return f"{wall} {zone_name}"
