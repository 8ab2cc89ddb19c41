"""One local date and wall time in an IANA zone, resolved to one UTC instant.

An ambiguous wall time takes the earlier instant; a skipped one moves to the
transition that ends the gap; a date the zone skipped has none
(``docs/API.md``, "Cadence"). ``placement`` reads an instant
back: the wall time that produced it and which of those rules placed it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from enum import StrEnum
from zoneinfo import ZoneInfo

__all__ = ["Adjustment", "Placement", "placement", "resolve", "transition_between"]

_ONE_SECOND = timedelta(seconds=1)
_ONE_DAY = timedelta(days=1)


class Adjustment(StrEnum):
    """How ``resolve`` placed a wall time that does not name exactly one instant."""

    MOVED_TO_TRANSITION = "MOVED_TO_TRANSITION"
    """The wall time did not exist that day; the first valid instant after it fires."""
    EARLIER_OF_TWO = "EARLIER_OF_TWO"
    """The wall time happened twice that day; the earlier instant fires, once."""


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a resolved instant comes from: the local date whose wall time produced it."""

    scheduled_date: date
    adjustment: Adjustment | None


def resolve(day: date, wall: time, zone: ZoneInfo) -> datetime | None:
    """The UTC instant of ``wall`` on ``day`` in ``zone``; None if the zone skipped ``day``."""
    local = datetime.combine(day, wall, tzinfo=zone)  # fold=0: the earlier instant
    stamp = local.timestamp()
    # A wall time in a gap does not survive the round trip through its own instant.
    if datetime.fromtimestamp(stamp, zone) == local:
        return datetime.fromtimestamp(stamp, UTC)
    # In a gap fold=0 reads with the offset from before the transition and fold=1
    # with the one after, so the transition lies between the two readings.
    earlier = int(local.replace(fold=1).timestamp())
    transition = transition_between(zone, earlier, int(stamp))
    gap_end = datetime.fromtimestamp(transition, zone).replace(tzinfo=None)
    gap_start = datetime.fromtimestamp(transition - 1, zone).replace(tzinfo=None) + _ONE_SECOND
    midnight = datetime.combine(day, time())
    if gap_start <= midnight and gap_end >= midnight + timedelta(days=1):
        return None
    return datetime.fromtimestamp(transition, UTC)


def transition_between(zone: ZoneInfo, before: int, after: int) -> int:
    """The first POSIX second in ``(before, after]`` whose UTC offset differs from ``before``'s.

    Bisection over whole seconds (tz transitions fall on whole seconds): about
    twelve offset lookups for an hour's gap, seventeen for a skipped day.
    """
    offset = datetime.fromtimestamp(before, zone).utcoffset()
    low, high = before, after
    while high - low > 1:
        middle = (low + high) // 2
        if datetime.fromtimestamp(middle, zone).utcoffset() == offset:
            low = middle
        else:
            high = middle
    return high


def placement(instant: datetime, wall: time, zone: ZoneInfo) -> Placement:
    """How ``resolve`` produced ``instant`` from ``wall`` in ``zone``.

    ``instant`` must be a result of ``resolve(day, wall, zone)`` for some
    ``day``. It reads ``wall`` itself unless the wall time fell in a gap; a
    gap moves it to the transition, on its own date or, where the gap ran to
    midnight (Nuuk), on the next one.
    """
    local = instant.astimezone(zone)
    if (local.hour, local.minute, local.second) == (wall.hour, wall.minute, wall.second):
        repeated = local.replace(fold=1).utcoffset() != local.utcoffset()
        return Placement(local.date(), Adjustment.EARLIER_OF_TWO if repeated else None)
    day = local.date()
    if resolve(day, wall, zone) != instant:
        day -= _ONE_DAY
    return Placement(day, Adjustment.MOVED_TO_TRANSITION)
