"""One-line cadence summaries ("Weekdays at 08:30 (Europe/Paris)").

Presentation only: the client never computes a firing from a cadence. Every
recurring summary names the cadence's stored IANA zone only when it differs
from the device's zone. The wall time is the schedule's own, written on the
person's clock and in their locale (what the display zone carries), and the
sentence is the locale's language's (``words_of``); lists are joined by Babel
as the locale joins them. A kind this client does not know, or a known kind
with missing or odd fields, still renders (its name, time and zone) and never
raises: one strange row must not break the list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from gettext import GNUTranslations
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
    words_of,
)
from viewmodels.formatting.labels import NOT_AVAILABLE_TEXT, humanize
from viewmodels.formatting.zones import is_device_zone
from viewmodels.language import Words

# CLDR has no "every Monday" form of a weekday's name, so the catalog gives it.
_WEEKDAYS: tuple[Callable[[Words], str], ...] = (
    # Translators: a weekday in a weekly cadence's list ("Mondays, Wednesdays and Fridays").
    lambda words: words.pgettext("every week on", "Mondays"),
    lambda words: words.pgettext("every week on", "Tuesdays"),
    lambda words: words.pgettext("every week on", "Wednesdays"),
    lambda words: words.pgettext("every week on", "Thursdays"),
    lambda words: words.pgettext("every week on", "Fridays"),
    lambda words: words.pgettext("every week on", "Saturdays"),
    lambda words: words.pgettext("every week on", "Sundays"),
)

_KINDS: dict[CadenceKind, Callable[[Words], str]] = {
    # Translators: a cadence's kind, shown alone when its time is missing.
    CadenceKind.ONCE: lambda words: words.pgettext("cadence kind", "Once"),
    CadenceKind.DAILY: lambda words: words.pgettext("cadence kind", "Daily"),
    CadenceKind.WEEKLY: lambda words: words.pgettext("cadence kind", "Weekly"),
    CadenceKind.MONTHLY: lambda words: words.pgettext("cadence kind", "Monthly"),
    CadenceKind.YEARLY: lambda words: words.pgettext("cadence kind", "Yearly"),
}


def cadence_summary(cadence: Cadence | None, device_zone: ZoneInfo) -> str:
    """The summary of ``cadence`` for a device in ``device_zone``; None is "Not available"."""
    words = words_of(device_zone)
    if cadence is None:
        return words.gettext(NOT_AVAILABLE_TEXT)
    locale = locale_of(device_zone)
    if cadence.known_kind is CadenceKind.ONCE and cadence.at is not None:
        local = cadence.at.astimezone(device_zone)
        return words.gettext("Once on {date} at {time}").format(
            date=date_text(local, locale), time=local_clock_time(local)
        )
    time = wall_time_text(cadence.local_time, hour_cycle_of(device_zone), locale)
    body = _recurring_body(cadence, time, locale, words)
    if body is None:
        body = _kind_at(cadence, time, words)
    zone = _other_zone(cadence.timezone, device_zone)
    if zone is None:
        return body
    # Translators: a cadence summary and the schedule's own zone, named when not the device's.
    return words.gettext("{cadence} ({zone})").format(cadence=body, zone=zone)


def _other_zone(zone_name: str | None, device_zone: ZoneInfo) -> str | None:
    """The stored zone's name when it is not the device's, else None."""
    if not zone_name or is_device_zone(zone_name, device_zone):
        return None
    return zone_name


def _kind_at(cadence: Cadence, time: str | None, words: Words) -> str:
    known = cadence.known_kind
    kind = humanize(cadence.kind, words=words) if known is None else _KINDS[known](words)
    if time is None:
        return kind
    # Translators: {kind} is a cadence's kind ("Weekly", or one this app does not know).
    return words.gettext("{kind} at {time}").format(kind=kind, time=time)


def _recurring_body(cadence: Cadence, time: str | None, locale: Locale, words: Words) -> str | None:
    if time is None:
        return None
    kind = cadence.known_kind
    if kind is CadenceKind.DAILY:
        return words.gettext("Every day at {time}").format(time=time)
    if kind is CadenceKind.WEEKLY and cadence.weekdays:
        return _weekly(cadence.weekdays, time, locale, words)
    if kind is CadenceKind.MONTHLY and (cadence.days_of_month or cadence.last_day):
        days = _days_of_month(cadence.days_of_month or (), bool(cadence.last_day), locale, words)
        # Translators: {days} lists days of the month ("1st, 15th and last day").
        return words.gettext("Monthly on the {days} at {time}").format(days=days, time=time)
    if kind is CadenceKind.YEARLY and cadence.dates:
        dates = sorted({(date.month, date.day) for date in cadence.dates})
        named = _listed([day_long_month_text(m, d, locale) for m, d in dates], locale, words)
        # Translators: {dates} lists days of the year ("1 January and 1 July").
        return words.gettext("Every year on {dates} at {time}").format(dates=named, time=time)
    return None


def _weekly(weekdays: Sequence[int], time: str, locale: Locale, words: Words) -> str:
    days = sorted(set(weekdays))
    if days == [1, 2, 3, 4, 5, 6, 7]:
        return words.gettext("Every day at {time}").format(time=time)
    if days == [1, 2, 3, 4, 5]:
        return words.gettext("Weekdays at {time}").format(time=time)
    named = _listed(list(_weekday_words(days, words)), locale, words)
    # Translators: {weekdays} lists weekdays ("Mondays, Wednesdays and Fridays").
    return words.gettext("{weekdays} at {time}").format(weekdays=named, time=time)


def _weekday_words(days: Iterable[int], words: Words) -> Iterable[str]:
    for day in days:
        if 1 <= day <= 7:
            yield _WEEKDAYS[day - 1](words)
        else:
            # Translators: a weekday number the server sent that is not 1 to 7.
            yield words.gettext("day {day}").format(day=day)


def _days_of_month(days: Sequence[int], last_day: bool, locale: Locale, words: Words) -> str:
    named = [ordinal(day, words=words) for day in sorted(set(days))]
    if last_day:
        # Translators: in the list of a monthly cadence's days ("1st, 15th and last day").
        named.append(words.pgettext("day of the month", "last day"))
    return _listed(named, locale, words)


def ordinal(day: int, *, words: Words) -> str:
    """A day of the month as an ordinal: "1st", "2nd", "11th", "31st" (German "1.")."""
    if 10 <= day % 100 <= 20 or day % 10 not in (1, 2, 3):
        # Translators: a day of the month, as in "the 11th"; {day} is its number.
        return words.pgettext("day of the month", "{day}th").format(day=day)
    if day % 10 == 1:
        return words.pgettext("day of the month", "{day}st").format(day=day)
    if day % 10 == 2:
        return words.pgettext("day of the month", "{day}nd").format(day=day)
    return words.pgettext("day of the month", "{day}rd").format(day=day)


def _listed(items: list[str], locale: Locale, words: Words) -> str:
    """ "a, b and c" as the locale lists; while its language has no catalog the words
    are English, so they are listed as English is (never "Mondays, Fridays und …")."""
    translated = isinstance(words, GNUTranslations) or locale.language == "en"
    return _list_text(tuple(items), locale if translated else _ENGLISH)


@lru_cache(maxsize=1024)
def _list_text(items: tuple[str, ...], locale: Locale) -> str:
    """Kept: Babel parses the locale and reads its patterns on every call."""
    return format_list(list(items), locale=locale)


_ENGLISH = Locale("en")
