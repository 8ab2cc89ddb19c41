"""How long ago, how soon, how long: a moment, a record's age, a row's next firing, a duration.

Ages and next firings read the clock (``now`` is given, never read here) and
fall back to a date in the zone's locale once they are far; durations keep
the largest two units. The words are the zone's locale's language's
(``words_of``); a duration, given no zone, takes its ``words``. Counts are
``ngettext`` messages: CLDR's relative times say "2 hr ago", not the app's "2 h ago".
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from viewmodels.formatting.clock_text import date_text, local_clock_time, locale_of, words_of
from viewmodels.language import N_, Words


def moment_text(at: datetime, now: datetime, zone: ZoneInfo, *, seconds: bool = True) -> str:
    """A past instant after "at", "since" or "as of": "02:30" today, "02:30 yesterday",
    else "02:30 on 28 Nov 2026" (in ``zone``, on its clock; ``seconds`` when not zero)."""
    local = at.astimezone(zone)
    time = local_clock_time(local, seconds=seconds)
    today = now.astimezone(zone).date()
    if local.date() == today:
        return time
    words = words_of(zone)
    if local.date() == today - timedelta(days=1):
        # Translators: a past moment, said after "at", "since" or "as of".
        return words.gettext("{time} yesterday").format(time=time)
    # Translators: a past moment, said after "at", "since" or "as of".
    return words.gettext("{time} on {date}").format(
        time=time, date=date_text(local, locale_of(zone))
    )


def age_text(then: datetime, now: datetime, zone: ZoneInfo) -> str:
    """ "just now", "5 min ago", "2 h ago", "3 d ago", then the date."""
    elapsed = now - then
    words = words_of(zone)
    if elapsed < timedelta(minutes=1):
        return words.gettext("just now")
    if elapsed < timedelta(hours=1):
        count = elapsed // timedelta(minutes=1)
        return words.ngettext("{count} min ago", "{count} min ago", count).format(count=count)
    if elapsed < timedelta(days=1):
        count = elapsed // timedelta(hours=1)
        return words.ngettext("{count} h ago", "{count} h ago", count).format(count=count)
    if elapsed < timedelta(days=7):
        count = elapsed // timedelta(days=1)
        return words.ngettext("{count} d ago", "{count} d ago", count).format(count=count)
    return date_text(then.astimezone(zone), locale_of(zone))


DUE_NOW_TEXT = N_("Next: due now")


def next_firing_text(at: datetime, now: datetime, zone: ZoneInfo) -> str:
    """Row text: "Next: today at 09:00", "Next: tomorrow at …", "Next: 1 Dec 2026 at …".

    An instant that has already passed is never shown as the next firing: the
    server has not moved it on yet, so the row says it is due now ("Next: due
    now") until it is read again.
    """
    words = words_of(zone)
    if at <= now:
        return words.gettext(DUE_NOW_TEXT)
    local = at.astimezone(zone)
    today = now.astimezone(zone).date()
    wall = local_clock_time(local)
    if local.date() == today:
        return words.gettext("Next: today at {time}").format(time=wall)
    if local.date() == today + timedelta(days=1):
        return words.gettext("Next: tomorrow at {time}").format(time=wall)
    return words.gettext("Next: {date} at {time}").format(
        date=date_text(local, locale_of(zone)), time=wall
    )


def duration_text(seconds: int, *, words: Words) -> str:
    """ "45 s", "5 min", "1 h 30 min", "2 d": the largest two units that are not zero."""
    if seconds <= 0:
        return _unit_text(3, 0, words)
    parts: list[str] = []
    remaining = seconds
    for unit, size in enumerate((86_400, 3_600, 60, 1)):
        count, remaining = divmod(remaining, size)
        if count:
            parts.append(_unit_text(unit, count, words))
    if len(parts) == 1:
        return parts[0]
    # Translators: a duration in two units, the larger first ("1 h" and "30 min").
    return words.gettext("{larger} {smaller}").format(larger=parts[0], smaller=parts[1])


def _unit_text(unit: int, count: int, words: Words) -> str:
    """``count`` days, hours, minutes or seconds (``unit`` 0 to 3), abbreviated."""
    if unit == 0:
        said = words.ngettext("{count} d", "{count} d", count)
    elif unit == 1:
        said = words.ngettext("{count} h", "{count} h", count)
    elif unit == 2:
        said = words.ngettext("{count} min", "{count} min", count)
    else:
        said = words.ngettext("{count} s", "{count} s", count)
    return said.format(count=count)
