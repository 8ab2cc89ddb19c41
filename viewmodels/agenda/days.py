"""The agenda's rows under their local day's heading, the Now line, and the busy strip.

Days are the person's local dates; a heading reads "Today", "Tomorrow" or
"Wednesday 9 December" (with the year when it is not this one), in the locale. On today, the
Now line sits between the firings already past and those to come. The busy
strip turns the density route's counts into cells; a cell with no firing is a
quiet slot (an hour on Today and Next 7 days, a day on Month), said in words too.
Every time here is on the person's clock, the one the display zone carries,
and every word in the language of its locale.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, timedelta
from itertools import groupby
from zoneinfo import ZoneInfo

from babel import Locale
from babel.lists import format_list

from transport.models import AgendaDensity
from viewmodels.agenda.snapshot import (
    BUSY_DAYS_HEADING,
    BUSY_HOURS_HEADING,
    AgendaDay,
    AgendaRow,
    BusyCell,
)
from viewmodels.agenda.window import AgendaSpan
from viewmodels.formatting.clock_text import (
    day_with_weekday_text,
    hour_label,
    local_clock_time,
    locale_of,
    long_date_text,
    words_of,
)
from viewmodels.language import Words


def day_heading(day: date, today: date, zone: ZoneInfo) -> str:
    """ "Today", "Tomorrow", "Wednesday 9 December", "Friday, 1 January 2027" (in the
    locale ``zone`` carries)."""
    if day == today:
        return words_of(zone).gettext("Today")
    if day == today + timedelta(days=1):
        return words_of(zone).gettext("Tomorrow")
    locale = locale_of(zone)
    if day.year == today.year:
        return day_with_weekday_text(day, locale)
    return long_date_text(day, locale)


def agenda_days(
    rows: Sequence[AgendaRow], today: date, now: datetime, zone: ZoneInfo
) -> tuple[AgendaDay, ...]:
    """``rows`` (in the server's order) grouped by local day; today carries the Now line."""
    days: list[AgendaDay] = []
    for day, grouped in groupby(rows, key=lambda row: row.day):
        held = tuple(grouped)
        now_at = None
        if day == today:
            now_at = next((index for index, row in enumerate(held) if row.at >= now), len(held))
        days.append(AgendaDay(day, day_heading(day, today, zone), held, now_at))
    return tuple(days)


def busy_heading(span: AgendaSpan, words: Words) -> str:
    return words.gettext(BUSY_DAYS_HEADING if span is AgendaSpan.MONTH else BUSY_HOURS_HEADING)


def busy_cells(
    density: AgendaDensity, span: AgendaSpan, zone: ZoneInfo, today: date
) -> tuple[BusyCell, ...]:
    """One cell per bucket, its heat relative to the busiest; a zero is quiet."""
    words = words_of(zone)
    busiest = max((bucket.count for bucket in density.buckets), default=0)
    cells: list[BusyCell] = []
    for bucket in density.buckets:
        local = bucket.start.astimezone(zone)
        count = bucket.count
        if span is AgendaSpan.MONTH:
            label, when = str(local.day), day_heading(local.date(), today, zone)
        else:
            label = hour_label(local)
            when = local_clock_time(local, seconds=False)
            if span is AgendaSpan.WEEK:
                # Translators: an hour of the busy strip and its day: "09:00 Tomorrow".
                hour_of_day = words.gettext("{time} {day}")
                when = hour_of_day.format(time=when, day=day_heading(local.date(), today, zone))
        heat = 0.0 if busiest == 0 else count / busiest
        cells.append(BusyCell(label, count, count == 0, heat, _cell_name(when, count, words)))
    return tuple(cells)


def quiet_text(density: AgendaDensity, span: AgendaSpan, zone: ZoneInfo, today: date) -> str:
    """The quiet slots in a sentence: Today's hours, Month's days, each Next 7 days' count."""
    buckets, words, locale = density.buckets, words_of(zone), locale_of(zone)
    if span is AgendaSpan.MONTH:
        days = [bucket.start.astimezone(zone).date() for bucket in buckets if not bucket.count]
        quiet = [day_heading(day, today, zone) for day in days]
        if not quiet:
            return words.gettext("Every day has a firing")
        return words.gettext("Days with no firing: {days}").format(days=_listed(quiet, locale))
    if span is AgendaSpan.WEEK:
        quiet_hours = sum(1 for bucket in buckets if not bucket.count)
        if not quiet_hours:
            return words.gettext("Every hour has a firing")
        text = words.ngettext(
            "{count} hour with no firing, marked in the strip",
            "{count} hours with no firing, marked in the strip",
            quiet_hours,
        )
        return text.format(count=quiet_hours)
    ends = [*(bucket.start for bucket in buckets[1:]), density.window_end]
    ranges: list[str] = []
    pairs = zip(buckets, ends, strict=True)
    for is_quiet, run in groupby(pairs, key=lambda pair: not pair[0].count):
        if is_quiet:
            held = list(run)
            # Translators: a stretch of quiet hours: "00:00 to 07:00".
            stretch = words.gettext("{start} to {end}")
            ranges.append(
                stretch.format(start=_hour(held[0][0].start, zone), end=_hour(held[-1][1], zone))
            )
    if not ranges:
        return words.gettext("Every hour has a firing")
    return words.gettext("Quiet hours: {hours}").format(hours=_listed(ranges, locale))


def _hour(at: datetime, zone: ZoneInfo) -> str:
    return local_clock_time(at.astimezone(zone), seconds=False)


def _cell_name(when: str, count: int, words: Words) -> str:
    """A cell's spoken name: "09:00: 3 firings", "09:00: no firing (quiet)"."""
    if count == 0:
        return words.gettext("{when}: no firing (quiet)").format(when=when)
    text = words.ngettext("{when}: {count} firing", "{when}: {count} firings", count)
    return text.format(when=when, count=count)


def _listed(items: list[str], locale: Locale) -> str:
    """``items`` as the locale lists them; English keeps its plain commas ("a, b, c")."""
    english = locale.language == "en"
    return format_list(items, style="unit-short" if english else "standard", locale=locale)
