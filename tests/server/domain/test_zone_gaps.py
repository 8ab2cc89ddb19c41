"""Skipped dates read from TZif data agree with zoneinfo's own resolution."""

from __future__ import annotations

from datetime import date, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from server.domain.civil_time import resolve
from server.domain.zone_gaps import skipped_dates
from tests.server.domain.strategies import ZONES


def test_apia_skipped_the_thirtieth_of_december_2011() -> None:
    assert skipped_dates("Pacific/Apia") == frozenset({date(2011, 12, 30)})


def test_zones_with_only_hour_long_gaps_skip_no_date() -> None:
    assert skipped_dates("America/New_York") == frozenset()
    assert skipped_dates("America/Nuuk") == frozenset()


@pytest.mark.parametrize("key", [key for key in ZONES if skipped_dates(key)])
def test_every_skipped_date_resolves_to_nothing_and_its_neighbours_do(key: str) -> None:
    zone = ZoneInfo(key)
    for day in skipped_dates(key):
        for wall in (time(0), time(12), time(23, 59, 59)):
            assert resolve(day, wall, zone) is None
        for neighbour in (day - timedelta(days=1), day + timedelta(days=1)):
            if neighbour not in skipped_dates(key):
                assert resolve(neighbour, time(12), zone) is not None
