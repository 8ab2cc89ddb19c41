"""``instants_after`` is repeated ``first_after``, over every installed zone and all five kinds.

The projection lists ``instants_after``; the worker moves on with
``first_after``. If the one walk ever skipped or repeated an instant the
repeated calls find, the calendar would show something that never runs.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from itertools import islice
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from server.domain.cadence import Cadence, Daily, Weekly
from server.domain.recurrence import first_after, instants_after
from tests.server.domain.strategies import cadences, instants, local_times

NEAR_TRANSITIONS = st.sampled_from(
    [
        ("America/Nuuk", datetime(2026, 3, 20)),  # 23:00 -> 00:00 the next day
        ("Pacific/Apia", datetime(2011, 12, 20)),  # skips 30 December
        ("Asia/Tehran", datetime(2021, 9, 15)),  # 00:00 -> 23:00 the day before
        ("Australia/Lord_Howe", datetime(2026, 3, 30)),  # thirty minutes back
        ("America/Santiago", datetime(2026, 9, 1)),  # 00:00 -> 01:00
    ]
)


def _repeated(cadence: Cadence, start: datetime, count: int) -> list[datetime]:
    found: list[datetime] = []
    cursor = first_after(cadence, start)
    while cursor is not None and len(found) < count:
        found.append(cursor)
        cursor = first_after(cadence, cursor)
    return found


@settings(max_examples=150, deadline=None)
@given(cadences, instants)
def test_one_walk_gives_what_repeated_first_after_calls_give(
    cadence: Cadence, start: datetime
) -> None:
    assert list(islice(instants_after(cadence, start), 12)) == _repeated(cadence, start, 12)


@settings(max_examples=60, deadline=None)
@given(NEAR_TRANSITIONS, local_times, st.integers(0, 20), st.booleans())
def test_the_walk_agrees_across_gaps_folds_and_skipped_dates(
    near: tuple[str, datetime], wall: time, offset: int, daily: bool
) -> None:
    zone, around = near
    start = (around + timedelta(days=offset)).replace(tzinfo=ZoneInfo(zone))
    cadence: Cadence = Daily(wall, zone) if daily else Weekly(wall, (3, 6, 7), zone)
    assert list(islice(instants_after(cadence, start), 30)) == _repeated(cadence, start, 30)
