"""How long ago, how soon, how long: a moment, a record's age, a row's next firing, a duration.

Ages and next firings read the clock (``now`` is given, never read here) and
fall back to a date in the zone's locale once they are far; durations keep
the largest two units.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from viewmodels.formatting.clock_text import date_text, local_clock_time, locale_of


def moment_text(at: datetime, now: datetime, zone: ZoneInfo, *, seconds: bool = True) -> str:
    """A past instant after "at", "since" or "as of": "02:30" today, "02:30 yesterday",
    else "02:30 on 28 Nov 2026" (in ``zone``, on its clock; ``seconds`` when not zero)."""
    local = at.astimezone(zone)
    time = local_clock_time(local, seconds=seconds)
    today = now.astimezone(zone).date()
    if local.date() == today:
        return time
    if local.date() == today - timedelta(days=1):
        return f"{time} yesterday"
    return f"{time} on {date_text(local, locale_of(zone))}"


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
    return date_text(then.astimezone(zone), locale_of(zone))


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
    return f"Next: {date_text(local, locale_of(zone))} at {wall}"


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
