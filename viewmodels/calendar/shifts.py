"""When the device's clock and the schedule's change on different dates, for a few weeks.

A schedule at 10:00 New York time reads 15:00 in London, except between New
York's spring change and London's, when it reads 14:00. Only the server's
instants and its wall-clock readings are used: the gap between the device's
offset (the instant converted to the device zone) and the schedule zone's
offset (the server's local date and time less the instant) is read for each
firing in time order. A run of firings whose gap differs from the equal gaps
on both sides of it is a temporary shift; a change with no way back inside
the window read (the device's zone keeps no daylight saving, say) is not
called one, since nothing says it is temporary.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from transport.models import ProjectedFiring


@dataclass(frozen=True, slots=True)
class Shift:
    """A firing's device-local time during a shift, the usual one, and when it ends."""

    shown: datetime
    """The device-local wall time (naive)."""
    usual: datetime
    """The device-local wall time it has outside the shift (naive)."""
    until: date
    """The device-local date of the first firing back at the usual time."""
    run_start: datetime
    """The first shifted firing's instant, naming the run."""


def temporary_shifts(
    firings: Sequence[ProjectedFiring], device_zone: ZoneInfo
) -> dict[datetime, Shift]:
    """Each shifted firing's instant, with its shift."""
    gaps = [
        (firing.at, gap) for firing in firings if (gap := _gap(firing, device_zone)) is not None
    ]
    runs = [list(run) for _, run in itertools.groupby(gaps, key=lambda item: item[1])]
    shifted: dict[datetime, Shift] = {}
    for before, during, after in zip(runs, runs[1:], runs[2:], strict=False):
        usual = before[0][1]
        if after[0][1] != usual:
            continue
        until = after[0][0].astimezone(device_zone).date()
        start = during[0][0]
        for at, gap in during:
            shown = at.astimezone(device_zone).replace(tzinfo=None)
            shifted[at] = Shift(shown, shown + (usual - gap), until, start)
    return shifted


def _gap(firing: ProjectedFiring, device_zone: ZoneInfo) -> timedelta | None:
    """Device offset less the schedule zone's offset at the firing, from the server's reading."""
    if firing.local_date is None or firing.local_time is None:
        return None
    try:
        hour, minute, second = (int(part) for part in firing.local_time.split(":"))
        wall = datetime(
            firing.local_date.year,
            firing.local_date.month,
            firing.local_date.day,
            hour,
            minute,
            second,
        )
    except ValueError:
        return None
    schedule_offset = wall - firing.at.replace(tzinfo=None)
    device_offset = firing.at.astimezone(device_zone).utcoffset()
    if device_offset is None:
        return None
    return device_offset - schedule_offset
