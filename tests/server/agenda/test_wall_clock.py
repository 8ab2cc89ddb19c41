"""A band's wall-clock ranges hold the wall time of every firing in the band, clock changes too.

Table-driven: for each case a cadence's wall time, a band of instants holding
one of its firings (from the calculator), and the zone. The firing's wall
time must lie in one of the band's ranges, however the band meets a gap, a
fold, a half-hour change or a change at midnight.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from server.agenda.wall_clock import WHOLE_DAY, wall_ranges
from server.domain.civil_time import resolve

CASES = [
    # id, zone, local date, wall time, band start relative to the firing, band length
    ("gap_firing_at_band_start", "America/New_York", date(2027, 3, 14), time(2, 30), 0, 15),
    ("gap_firing_inside_band", "America/New_York", date(2027, 3, 14), time(2, 30), -5, 15),
    ("fold_band_across_change", "Europe/London", date(2027, 10, 31), time(1, 55), -5, 20),
    ("fold_band_ends_after_change", "Europe/London", date(2027, 10, 31), time(1, 50), -1, 12),
    ("half_hour_gap_at_start", "Australia/Lord_Howe", date(2027, 10, 3), time(2, 10), 0, 15),
    ("half_hour_fold", "Australia/Lord_Howe", date(2027, 4, 4), time(1, 45), -20, 30),
    ("midnight_gap_nuuk", "America/Nuuk", date(2023, 3, 25), time(22, 30), 0, 15),
    ("band_across_midnight", "Asia/Kolkata", date(2027, 3, 1), time(0, 5), -30, 60),
    ("no_change", "Asia/Kolkata", date(2027, 3, 1), time(9, 0), 0, 1),
]


@pytest.mark.parametrize(
    ("zone_name", "day", "wall", "lead", "minutes"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_a_bands_ranges_hold_the_wall_time_of_each_firing_in_it(
    zone_name: str, day: date, wall: time, lead: int, minutes: int
) -> None:
    zone = ZoneInfo(zone_name)
    firing = resolve(day, wall, zone)
    assert firing is not None
    start = firing + timedelta(minutes=lead)
    end = start + timedelta(minutes=minutes)
    assert start <= firing < end

    ranges = wall_ranges(zone, start, end)

    seconds = wall.hour * 3600 + wall.minute * 60 + wall.second
    assert any(low <= seconds <= high for low, high in ranges), ranges


def test_a_day_long_band_asks_for_every_wall_time() -> None:
    start = datetime(2027, 3, 1, tzinfo=UTC)
    assert wall_ranges(ZoneInfo("Europe/London"), start, start + timedelta(days=1)) == WHOLE_DAY


def test_a_quiet_band_asks_for_its_own_wall_times_only() -> None:
    start = datetime(2027, 6, 1, 8, tzinfo=UTC)
    ranges = wall_ranges(ZoneInfo("Asia/Kolkata"), start, start + timedelta(minutes=15))
    assert ranges == ((13 * 3600 + 30 * 60, 13 * 3600 + 44 * 60 + 59),)


def test_a_wall_time_at_the_bands_end_is_left_to_the_next_band() -> None:
    start = datetime(2027, 6, 1, 8, 45, tzinfo=UTC)
    ranges = wall_ranges(ZoneInfo("Europe/London"), start, start + timedelta(minutes=15))
    nine = 10 * 3600  # 09:00 UTC is 10:00 in London's summer
    assert not any(low <= nine <= high for low, high in ranges), ranges


def test_a_band_ending_within_a_second_keeps_that_seconds_wall_time() -> None:
    start = datetime(2027, 6, 1, 8, 59, 59, 500_000, tzinfo=UTC)
    ranges = wall_ranges(ZoneInfo("UTC"), start, start + timedelta(microseconds=600_000))
    assert ranges == ((8 * 3600 + 59 * 60 + 59, 9 * 3600),)


def test_a_band_just_short_of_a_day_names_each_wall_second_once() -> None:
    start = datetime(2027, 6, 1, 10, 0, 0, 700_000, tzinfo=UTC)
    ranges = wall_ranges(ZoneInfo("UTC"), start, start + timedelta(seconds=86_399.6))
    seconds = [second for low, high in ranges for second in range(low, high + 1)]
    assert len(seconds) == len(set(seconds)), ranges  # a schedule is never read twice
    assert 10 * 3600 in seconds
