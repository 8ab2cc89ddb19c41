"""One local date and wall time in an IANA zone, resolved to one UTC instant.

The civil-time rules, applied to a single (date, wall time, zone):

- A wall time that exists once maps to its instant.
- An ambiguous wall time (the repeated hour of a fall-back) maps to the
  earlier instant, ``fold=0``; the later pass is never a second occurrence.
- A nonexistent wall time (the skipped hour of a spring-forward) maps to the
  first valid local instant after it, which is the transition instant itself:
  New York's 2026-03-08 02:30 becomes 03:00 EDT (07:00Z), not 02:30 shifted by
  the old offset (03:30 EDT, 07:30Z).
- Where the gap runs to the end of its date (America/Nuuk springs from 23:00
  Saturday to 00:00 Sunday) no valid instant follows on that date, and the
  transition is still the first valid one after the wall time: Saturday's
  23:30 fires once, at Sunday 00:00, before Sunday's own 23:30.
- A date the zone skipped entirely (Pacific/Apia went from 2011-12-29 to
  2011-12-31) has no wall time at all and so no occurrence: ``None``.

``placement`` reads a resolved instant back: which local date's wall time
produced it, and which of the two rules above (if any) placed it, so a
calendar can say so in words without resolving anything a second way.
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
