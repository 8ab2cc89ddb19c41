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
from viewmodels.language import Words, words_for


def adjusted_sentence(firing: ProjectedFiring, zone: str, device_zone: ZoneInfo) -> str:
    """Why an adjusted firing is not at the rule's wall time, and when it fires."""
    cycle, locale = hour_cycle_of(device_zone), locale_of(device_zone)
    words = words_for(locale)
    named = wall_time_text(firing.scheduled_time, cycle, locale)
    fires = wall_time_text(firing.local_time, cycle, locale) or device_time(firing.at, device_zone)
    day = firing.scheduled_date
    if named is None or day is None:
        said = words.gettext("A clock change in {zone} moved this firing; it fires at {time}")
        return _yours(said.format(zone=zone, time=fires), firing.at, zone, device_zone, words)
    moved_on = firing.local_date if firing.local_date not in (None, day) else None
    when = fires
    if moved_on is not None:
        # Translators: when a moved firing fires: a wall time on another date ("03:00 on 15 Mar").
        when = words.pgettext("moved firing", "{time} on {date}").format(
            time=fires, date=day_month_text(moved_on, locale)
        )
    adjustment = firing.known_adjustment
    place, changes_on = place_name(zone), day_month_text(day, locale)
    if adjustment is FiringAdjustment.MOVED_TO_TRANSITION:
        # Translators: {place} names the schedule's zone by its city ("New York").
        said = words.gettext(
            "{place}'s clocks go forward on {date}: this firing is at {time} there"
        ).format(place=place, date=changes_on, time=when)
    elif adjustment is FiringAdjustment.EARLIER_OF_TWO:
        # Translators: {wall} is the rule's wall time, which the clock change repeats.
        said = words.gettext(
            "{place}'s clocks go back on {date}: {wall} happens twice there,"
            " and this firing is at the first"
        ).format(place=place, date=changes_on, wall=named)
    else:
        reason = humanize(firing.adjustment or "adjusted", words=words)
        # Translators: {zone} is an IANA zone name, {reason} the server's name for the change.
        said = words.gettext(
            "On {date} in {zone} a clock change applies ({reason}); it fires at {time}"
        ).format(date=date_text(day, locale), zone=zone, reason=reason, time=when)
    return _yours(said, firing.at, zone, device_zone, words)


def notice_sentence(notice: ProjectionNotice, zone: str, locale: Locale) -> str:
    """Why a date the rule selects never fires."""
    year, month, day = notice.parts
    words = words_for(locale)
    named = _named_date(year, month, day, locale)
    reason = notice.known_reason
    if reason is NoticeReason.DATE_DOES_NOT_EXIST:
        return words.gettext(
            "{date} does not exist in {zone} (its clocks skipped the day); nothing fires that day"
        ).format(date=named, zone=zone)
    if reason is NoticeReason.DAY_NOT_IN_MONTH:
        month_year = month_title(year, month, locale) if 1 <= month <= 12 else f"{year}-{month}"
        nth = ordinal(day, words=words)
        # Translators: {month} is a month of a year ("April 2027"), {day} an ordinal ("31st").
        return words.gettext("{month} has no {day}; nothing fires for it this month").format(
            month=month_year, day=nth
        )
    if reason is NoticeReason.NOT_A_LEAP_YEAR:
        leap_day = day_long_month_text(2, 29, locale)
        return words.gettext("{year} is not a leap year; nothing fires for {date}").format(
            year=year, date=leap_day
        )
    why = humanize(notice.reason, words=words).lower()
    # Translators: {reason} is the server's reason, in plain words.
    return words.gettext("Nothing fires for {date}: {reason}").format(date=named, reason=why)


def notice_words(notice: ProjectionNotice, locale: Locale) -> str:
    """The short form a day cell's label carries."""
    reason = notice.known_reason
    words = words_for(locale)
    if reason is NoticeReason.DATE_DOES_NOT_EXIST:
        return words.gettext("no firing, this date does not exist in the schedule's zone")
    if reason is NoticeReason.DAY_NOT_IN_MONTH:
        nth = ordinal(notice.parts[2], words=words)
        # Translators: {day} is an ordinal day of the month ("31st").
        return words.gettext("no firing on the {day}, which this month lacks").format(day=nth)
    if reason is NoticeReason.NOT_A_LEAP_YEAR:
        return words.gettext("no firing on {date}, not a leap year").format(
            date=day_long_month_text(2, 29, locale)
        )
    why = humanize(notice.reason, words=words).lower()
    # Translators: {reason} is the server's reason, in plain words, lower case.
    return words.gettext("no firing, {reason}").format(reason=why)


def shift_words(shown: datetime, usual: datetime, until: date, device_zone: ZoneInfo) -> str:
    """ "your time: 14:00 instead of 15:00 until 29 Mar" (naive device-local wall times)."""
    locale = locale_of(device_zone)
    words = words_for(locale)
    # Translators: a firing shown at another device time for a while (clock changes differ).
    said = words.gettext("your time: {time} instead of {usual} until {date}")
    return said.format(
        time=_wall(shown, device_zone),
        usual=_wall(usual, device_zone),
        date=day_month_text(until, locale),
    )


def shift_note(
    start: date, shown: datetime, usual: datetime, until: date, device_zone: ZoneInfo
) -> str:
    """The month's sentence for a shift: "From 14 Mar it fires at 14:00 your time; from 28 Mar
    at 15:00 again" (``start`` and ``until`` are device-local dates of the server's firings)."""
    locale = locale_of(device_zone)
    said = words_for(locale).gettext(
        "From {start} it fires at {time} your time; from {until} at {usual} again"
    )
    return said.format(
        start=day_month_text(start, locale),
        time=_wall(shown, device_zone),
        until=day_month_text(until, locale),
        usual=_wall(usual, device_zone),
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


def _yours(sentence: str, at: datetime, zone: str, device_zone: ZoneInfo, words: Words) -> str:
    """``sentence`` with the device's time added when the schedule's zone is another."""
    if is_device_zone(zone, device_zone):
        return sentence
    # Translators: {sentence} says when a firing is, in the schedule's zone; {time} is the
    # device's time of it.
    return words.gettext("{sentence} ({time} your time)").format(
        sentence=sentence, time=device_time(at, device_zone)
    )


def device_time(at: datetime, device_zone: ZoneInfo) -> str:
    """``at``'s wall time in the device zone, on the person's clock."""
    return local_clock_time(at.astimezone(device_zone))
