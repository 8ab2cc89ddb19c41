"""Where the density's buckets start: every hour from ``from``, or at each local midnight.

Day buckets follow the asked zone's calendar, so a daylight-saving day is 23 or
25 hours long, a midnight the clocks skip starts its day at the transition, and
a date the zone skipped has no bucket.
"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from server.agenda.density import MAX_BUCKETS, BucketSize, TooManyBuckets, bucket_starts


def _utc(text: str) -> datetime:
    return datetime.fromisoformat(text).astimezone(UTC)


def _lengths(starts: list[datetime], end: datetime) -> list[float]:
    """Each bucket's length in hours."""
    edges = [*starts, end]
    return [(b - a) / timedelta(hours=1) for a, b in itertools.pairwise(edges)]


def test_hour_buckets_run_every_3600_seconds_from_the_window_start() -> None:
    start = _utc("2026-11-30T09:30:00Z")
    starts = bucket_starts(start, start + timedelta(days=7), BucketSize.HOUR, ZoneInfo("UTC"))
    assert len(starts) == 168
    assert starts[0] == start
    assert {b - a for a, b in itertools.pairwise(starts)} == {timedelta(hours=1)}


def test_the_last_hour_bucket_may_be_partial() -> None:
    start, end = _utc("2026-11-30T09:00:00Z"), _utc("2026-11-30T11:30:00Z")
    starts = bucket_starts(start, end, BucketSize.HOUR, ZoneInfo("UTC"))
    assert _lengths(starts, end) == [1.0, 1.0, 0.5]


def test_hour_buckets_ignore_the_zone_s_clock_changes() -> None:
    start = _utc("2027-03-28T00:00:00Z")
    end = start + timedelta(hours=4)
    starts = bucket_starts(start, end, BucketSize.HOUR, ZoneInfo("Europe/London"))
    assert _lengths(starts, end) == [1.0, 1.0, 1.0, 1.0]


@pytest.mark.parametrize(
    ("zone", "start", "end", "hours"),
    [
        pytest.param(
            "Europe/London", "2027-03-27T00:00Z", "2027-03-30T00:00+01:00", [24, 23, 24], id="23h"
        ),
        pytest.param(
            "Europe/London", "2027-10-30T00:00+01:00", "2027-11-02T00:00Z", [24, 25, 24], id="25h"
        ),
        pytest.param(
            "Europe/Paris", "2026-11-30T09:00Z", "2026-12-02T09:00Z", [14, 24, 10], id="partial"
        ),
        pytest.param(
            "America/Santiago",
            "2026-09-05T00:00-04:00",
            "2026-09-07T00:00-03:00",
            [24, 23],
            id="midnight-skipped",
        ),
        pytest.param(
            "America/Havana",
            "2026-10-31T00:00-04:00",
            "2026-11-02T00:00-05:00",
            [24, 25],
            id="midnight-twice",
        ),
        pytest.param(
            "Pacific/Apia",
            "2011-12-29T00:00-10:00",
            "2012-01-01T00:00+14:00",
            [24, 24],
            id="date-skipped",
        ),
    ],
)
def test_day_buckets_end_at_each_local_midnight(
    zone: str, start: str, end: str, hours: list[float]
) -> None:
    last = _utc(end)
    starts = bucket_starts(_utc(start), last, BucketSize.DAY, ZoneInfo(zone))
    assert _lengths(starts, last) == hours
    for later in starts[1:]:
        before = (later - timedelta(microseconds=1)).astimezone(ZoneInfo(zone))
        assert before.date() < later.astimezone(ZoneInfo(zone)).date()
        assert later.astimezone(ZoneInfo(zone)).time() <= time(1)


def test_more_buckets_than_the_limit_are_refused() -> None:
    start = _utc("2026-11-30T00:00:00Z")
    hours = bucket_starts(start, start + timedelta(days=92), BucketSize.HOUR, ZoneInfo("UTC"))
    assert len(hours) == MAX_BUCKETS
    with pytest.raises(TooManyBuckets):
        bucket_starts(
            start, start + timedelta(days=92, seconds=1), BucketSize.HOUR, ZoneInfo("UTC")
        )
