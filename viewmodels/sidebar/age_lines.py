"""Age lines for many sessions measured at one ``now``, each distinct text made once.

A regroup asks for thousands of ages ("5 min ago", "3 d ago", "24 Nov 2026")
that collapse onto a few dozen texts, and ``age_text`` (the one formatter)
costs a zone conversion. So every text is memoized at its real granularity:

- within a week, on the whole elapsed minute, hour or day the text shows,
  read from the elapsed ``timedelta``'s exact ``days``/``seconds``;
- after that, on the local date, found from the UTC day and second of the
  instant plus the zone offset of that UTC day. The offset is cached per UTC
  day, and only when it is the same at both ends of the day; a day with a
  transition in it takes the exact path (``age_text`` itself). This relies on
  no UTC day holding two transitions that cancel out, which the tz database
  never has.

Every memoized text is the ``age_text`` of the first instant with its key, so
the texts are ``age_text``'s by construction.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from viewmodels.formatting import age_text

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_DAY_SECONDS = 86_400
_END_OF_DAY = timedelta(days=1, microseconds=-1)
_HOURS = 100
"""Memo keys of recent texts: 0 "just now", 1-59 minutes, 101-123 hours, 1001-1006 days."""
_DAYS = 1_000
_UNKNOWN: int = -(2**62)
"""No offset cached yet for a UTC day (no real offset is this)."""


class AgeLines:
    """``age_text(then, now, zone)`` for one ``now`` and zone, memoized per distinct text."""

    def __init__(self, now: datetime, zone: ZoneInfo) -> None:
        self.now = now
        self.zone = zone
        self._recent: dict[int, str] = {}
        self._offsets: dict[int, int | None] = {}
        self._dates: dict[int, str] = {}

    def text(self, then: datetime) -> str:
        elapsed = self.now - then
        days = elapsed.days
        if days >= 7:
            # ``_dated``'s memo hit, inlined: most of a long history takes this path.
            since_epoch = then - _EPOCH
            offset = self._offsets.get(since_epoch.days, _UNKNOWN)
            if offset is not None and offset != _UNKNOWN:
                local_day = since_epoch.days + (since_epoch.seconds + offset) // _DAY_SECONDS
                dated = self._dates.get(local_day)
                if dated is not None:
                    return dated
            return self._dated(then)
        if days < 0:
            key = 0
        elif days:
            key = _DAYS + days
        else:
            seconds = elapsed.seconds
            key = seconds // 60 if seconds < 3_600 else _HOURS + seconds // 3_600
        text = self._recent.get(key)
        if text is None:
            text = self._recent[key] = age_text(then, self.now, self.zone)
        return text

    def _dated(self, then: datetime) -> str:
        since_epoch = then - _EPOCH
        utc_day = since_epoch.days
        if utc_day in self._offsets:
            offset = self._offsets[utc_day]
        else:
            offset = self._offsets[utc_day] = self._steady_offset(utc_day)
        if offset is None:
            return age_text(then, self.now, self.zone)
        local_day = utc_day + (since_epoch.seconds + offset) // _DAY_SECONDS
        text = self._dates.get(local_day)
        if text is None:
            text = self._dates[local_day] = age_text(then, self.now, self.zone)
        return text

    def _steady_offset(self, utc_day: int) -> int | None:
        """The zone's offset in seconds all through this UTC day, or None if it changes."""
        try:
            start = _EPOCH + timedelta(days=utc_day)
            first = start.astimezone(self.zone).utcoffset()
            last = (start + _END_OF_DAY).astimezone(self.zone).utcoffset()
        except OverflowError:  # the first or last representable day: take the exact path
            return None
        if first is None or first != last:
            return None
        return first // timedelta(seconds=1)
