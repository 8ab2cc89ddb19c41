"""Named daylight-saving and calendar cases for the recurrence calculator.

Each case compares ``(local datetime, utcoffset)`` because ``==`` between two
datetimes of one zone ignores ``fold``.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from server.domain.cadence import Cadence, Daily, MonthDay, Monthly, Weekly, Yearly
from server.domain.recurrence import count_between, first_after, latest_at_or_before

NEW_YORK = ZoneInfo("America/New_York")
LONDON = ZoneInfo("Europe/London")
LORD_HOWE = ZoneInfo("Australia/Lord_Howe")
TEHRAN = ZoneInfo("Asia/Tehran")
APIA = ZoneInfo("Pacific/Apia")
NUUK = ZoneInfo("America/Nuuk")


def _daily(hour: int, minute: int, zone: ZoneInfo) -> Daily:
    return Daily(time(hour, minute), zone.key)


def _local(result: datetime | None, zone: ZoneInfo) -> tuple[datetime, timedelta | None]:
    assert result is not None
    assert result.tzinfo is UTC
    local = result.astimezone(zone)
    return local, local.utcoffset()


def _expect(local: datetime) -> tuple[datetime, timedelta | None]:
    return local, local.utcoffset()


TRANSITION_DAYS = [
    # New York springs 02:00 EST -> 03:00 EDT on 2026-03-08.
    pytest.param(
        _daily(1, 30, NEW_YORK), datetime(2026, 3, 8, 1, 30, tzinfo=NEW_YORK), id="ny-spring-0130"
    ),
    pytest.param(
        _daily(2, 30, NEW_YORK),
        datetime(2026, 3, 8, 3, 0, tzinfo=NEW_YORK),
        id="ny-spring-0230-gap",
    ),
    # New York falls 02:00 EDT -> 01:00 EST on 2026-11-01.
    pytest.param(
        _daily(1, 30, NEW_YORK),
        datetime(2026, 11, 1, 1, 30, fold=0, tzinfo=NEW_YORK),
        id="ny-fall-0130-ambiguous",
    ),
    pytest.param(
        _daily(2, 30, NEW_YORK), datetime(2026, 11, 1, 2, 30, tzinfo=NEW_YORK), id="ny-fall-0230"
    ),
    # London springs 01:00 GMT -> 02:00 BST on 2026-03-29 and falls back on 2026-10-25.
    pytest.param(
        _daily(1, 30, LONDON),
        datetime(2026, 3, 29, 2, 0, tzinfo=LONDON),
        id="london-spring-0130-gap",
    ),
    pytest.param(
        _daily(2, 30, LONDON), datetime(2026, 3, 29, 2, 30, tzinfo=LONDON), id="london-spring-0230"
    ),
    pytest.param(
        _daily(1, 30, LONDON),
        datetime(2026, 10, 25, 1, 30, fold=0, tzinfo=LONDON),
        id="london-fall-0130-ambiguous",
    ),
    pytest.param(
        _daily(2, 30, LONDON), datetime(2026, 10, 25, 2, 30, tzinfo=LONDON), id="london-fall-0230"
    ),
    # Lord Howe shifts by thirty minutes: 02:00 -> 02:30 in October, 02:00 -> 01:30 in April.
    pytest.param(
        _daily(2, 15, LORD_HOWE),
        datetime(2026, 10, 4, 2, 30, tzinfo=LORD_HOWE),
        id="lord-howe-spring-gap",
    ),
    pytest.param(
        _daily(1, 45, LORD_HOWE),
        datetime(2026, 4, 5, 1, 45, fold=0, tzinfo=LORD_HOWE),
        id="lord-howe-fall-ambiguous",
    ),
    # Tehran (daylight saving until 2022) jumped at midnight: 00:00 -> 01:00, and 00:00 -> 23:00.
    pytest.param(
        _daily(0, 30, TEHRAN),
        datetime(2021, 3, 22, 1, 0, tzinfo=TEHRAN),
        id="tehran-spring-midnight-gap",
    ),
    pytest.param(
        _daily(23, 30, TEHRAN),
        datetime(2021, 9, 21, 23, 30, fold=0, tzinfo=TEHRAN),
        id="tehran-fall-at-midnight-ambiguous",
    ),
]


@pytest.mark.parametrize(("cadence", "expected"), TRANSITION_DAYS)
def test_transition_day_fires_once_by_the_civil_rule(cadence: Daily, expected: datetime) -> None:
    zone = ZoneInfo(cadence.timezone)
    day_before = expected - timedelta(hours=12)
    fired = first_after(cadence, day_before)
    assert _local(fired, zone) == _expect(expected)
    assert fired is not None
    # Exactly one firing on the transition date, then the next date's.
    following = first_after(cadence, fired)
    assert following is not None
    assert following.astimezone(zone).date() == expected.date() + timedelta(days=1)
    assert latest_at_or_before(cadence, following - timedelta(seconds=1)) == fired
    assert count_between(cadence, day_before, following) == 2


def test_new_york_gap_resolves_to_the_transition_not_the_shifted_wall_time() -> None:
    fired = first_after(_daily(2, 30, NEW_YORK), datetime(2026, 3, 8, tzinfo=UTC))
    assert fired == datetime(2026, 3, 8, 7, 0, tzinfo=UTC)


def test_both_passes_of_an_ambiguous_hour_share_one_firing() -> None:
    cadence = _daily(1, 30, NEW_YORK)
    first_pass = datetime(2026, 11, 1, 5, 30, tzinfo=UTC)  # 01:30 EDT
    second_pass = datetime(2026, 11, 1, 6, 30, tzinfo=UTC)  # 01:30 EST
    next_day = datetime(2026, 11, 2, 6, 30, tzinfo=UTC)
    assert first_after(cadence, first_pass - timedelta(seconds=1)) == first_pass
    assert first_after(cadence, first_pass) == next_day
    assert first_after(cadence, second_pass) == next_day
    assert latest_at_or_before(cadence, second_pass + timedelta(minutes=15)) == first_pass
    assert count_between(cadence, first_pass - timedelta(hours=1), next_day) == 2


def test_recurrence_follows_the_wall_clock_not_24_hours() -> None:
    cadence = _daily(9, 0, NEW_YORK)
    before = first_after(cadence, datetime(2026, 3, 7, 12, tzinfo=UTC))
    after = first_after(cadence, datetime(2026, 3, 8, 12, tzinfo=UTC))
    assert before is not None and after is not None
    assert after - before == timedelta(hours=23)
    weekly = Weekly(time(9), (6,), "America/New_York")
    saturdays = first_after(weekly, datetime(2026, 10, 30, tzinfo=UTC))
    assert saturdays is not None
    assert first_after(weekly, saturdays) == saturdays + timedelta(days=7, hours=1)


def test_apia_skipped_date_has_no_occurrence() -> None:
    cadence = _daily(9, 0, APIA)
    on_29th = datetime(2011, 12, 29, 9, tzinfo=APIA)
    fired = first_after(cadence, on_29th)
    assert _local(fired, APIA) == _expect(datetime(2011, 12, 31, 9, tzinfo=APIA))
    assert latest_at_or_before(cadence, datetime(2011, 12, 31, 8, tzinfo=APIA)) == on_29th
    start = datetime(2011, 12, 28, 12, tzinfo=APIA)
    assert count_between(cadence, start, datetime(2012, 1, 1, 12, tzinfo=APIA)) == 3


def test_gap_running_to_midnight_fires_at_the_transition_once() -> None:
    # Nuuk springs from Saturday 23:00 straight to Sunday 00:00: Saturday's
    # 23:30 has no valid instant left on its date, so it fires at the transition.
    cadence = _daily(23, 30, NUUK)
    saturday_noon = datetime(2026, 3, 28, 12, tzinfo=NUUK)
    fired = first_after(cadence, saturday_noon)
    assert _local(fired, NUUK) == _expect(datetime(2026, 3, 29, 0, 0, tzinfo=NUUK))
    assert fired is not None
    sunday = first_after(cadence, fired)
    assert _local(sunday, NUUK) == _expect(datetime(2026, 3, 29, 23, 30, tzinfo=NUUK))
    assert count_between(cadence, saturday_noon, datetime(2026, 3, 30, 12, tzinfo=NUUK)) == 2


def _run(cadence: Cadence, start: datetime, end: datetime) -> list[datetime]:
    found: list[datetime] = []
    cursor = first_after(cadence, start)
    while cursor is not None and cursor <= end:
        found.append(cursor)
        cursor = first_after(cadence, cursor)
    return found


def test_monthly_31st_skips_short_months_across_a_year() -> None:
    cadence = Monthly(time(8), (31,), False, "Europe/Paris")
    paris = ZoneInfo("Europe/Paris")
    start = datetime(2026, 1, 1, tzinfo=paris)
    fired = _run(cadence, start, datetime(2027, 1, 1, tzinfo=paris))
    assert [f.astimezone(paris).date() for f in fired] == [
        date(2026, month, 31) for month in (1, 3, 5, 7, 8, 10, 12)
    ]
    assert all(f.astimezone(paris).time() == time(8) for f in fired)
    assert count_between(cadence, start, datetime(2027, 1, 1, tzinfo=paris)) == 7


@pytest.mark.parametrize(
    ("year", "last"),
    [pytest.param(2027, 28, id="common-year"), pytest.param(2028, 29, id="leap-year")],
)
def test_last_day_is_february_real_last_day(year: int, last: int) -> None:
    tokyo = ZoneInfo("Asia/Tokyo")
    cadence = Monthly(time(18), (28,), True, "Asia/Tokyo")
    fired = _run(cadence, datetime(year, 2, 1, tzinfo=tokyo), datetime(year, 3, 1, tzinfo=tokyo))
    expected = sorted(
        {datetime(year, 2, 28, 18, tzinfo=tokyo), datetime(year, 2, last, 18, tzinfo=tokyo)}
    )
    assert [_local(f, tokyo) for f in fired] == [_expect(e) for e in expected]


def test_yearly_february_29_across_eight_years_including_a_century() -> None:
    cadence = Yearly(time(7), (MonthDay(2, 29),), "UTC")
    fired = _run(cadence, datetime(2025, 1, 1, tzinfo=UTC), datetime(2033, 1, 1, tzinfo=UTC))
    assert fired == [datetime(2028, 2, 29, 7, tzinfo=UTC), datetime(2032, 2, 29, 7, tzinfo=UTC)]
    # 2100 is not a leap year: from 2096 the next one is 2104.
    after_2096 = first_after(cadence, datetime(2096, 3, 1, tzinfo=UTC))
    assert after_2096 == datetime(2104, 2, 29, 7, tzinfo=UTC)
    assert (
        count_between(cadence, datetime(2025, 1, 1, tzinfo=UTC), datetime(2105, 1, 1, tzinfo=UTC))
        == 19
    )
