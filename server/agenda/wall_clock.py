"""Which cadence wall times can fire within a band of instants, in one zone.

A civil cadence fires at its wall time on the local dates it selects, so a
firing in the band ``[start, end)`` was named by a wall time between the
band's two ends read on that zone's clock. The range is split at midnight,
and widened by the zone's offset change when one lies within a few hours of
the band: a wall time skipped by a gap fires at the transition (after it on
the clock), and a fold reads the same wall times twice. The ranges may hold
more than fire (a weekly cadence on another weekday): the calculator decides.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Final
from zoneinfo import ZoneInfo

__all__ = ["WHOLE_DAY", "wall_ranges"]

_DAY: Final = 86_400
_MARGIN: Final = timedelta(hours=6)
_HOUR_SECONDS: Final = 3_600
WHOLE_DAY: Final = ((0, _DAY - 1),)
"""Every wall time (inclusive seconds since midnight)."""


def wall_ranges(zone: ZoneInfo, start: datetime, end: datetime) -> tuple[tuple[int, int], ...]:
    """Inclusive ``(low, high)`` seconds since local midnight naming any firing in the band.

    A wall time's seconds are whole (a ONCE's are cut to the second), so a
    firing at ``end`` or later is never named unless a clock change widens
    the range.
    """
    if end - start >= timedelta(days=1):
        return WHOLE_DAY
    widen = _offset_change_near(zone, start, end)
    low = start.astimezone(zone).replace(tzinfo=None) - widen
    high = end.astimezone(zone).replace(tzinfo=None) + widen
    span = high - low
    if span >= timedelta(days=1):
        return WHOLE_DAY
    first = low.hour * 3600 + low.minute * 60 + low.second
    # Whole wall seconds strictly before the band's end: a firing at the end
    # belongs to the next band (a fraction of a second keeps its own second).
    last = first + math.ceil((span + timedelta(microseconds=low.microsecond)).total_seconds()) - 1
    if last < _DAY:
        return ((first, last),)
    # The ranges never share a second: each schedule is counted in one range only.
    return ((first, _DAY - 1), (0, min(last - _DAY, first - 1)))


def _offset_change_near(zone: ZoneInfo, start: datetime, end: datetime) -> timedelta:
    """The largest difference of the zone's UTC offsets from before to after the band."""
    first = (start - _MARGIN).timestamp() // _HOUR_SECONDS
    last = -(-(end + _MARGIN).timestamp() // _HOUR_SECONDS)
    return _offset_change(zone, int(first), int(last))


@lru_cache(maxsize=4_096)
def _offset_change(zone: ZoneInfo, first_hour: int, last_hour: int) -> timedelta:
    """The spread of the zone's offsets on each whole hour ``first_hour``..``last_hour``.

    Hours are counted from the epoch, so bands that start and end within the
    same hours share one answer.
    """
    offsets: set[timedelta] = set()
    for hour in range(first_hour, last_hour + 1):
        offset = datetime.fromtimestamp(hour * _HOUR_SECONDS, zone).utcoffset()
        if offset is not None:
            offsets.add(offset)
    return max(offsets) - min(offsets) if offsets else timedelta(0)
