"""Named civil-time cases of the projection: each adjustment and each notice, in words.

Every case states a zone, a rule and a window, and the firing or notice the
calendar must show for it. Local readings compare ``(local datetime,
utcoffset)`` since ``==`` within one zone ignores ``fold``.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from server.domain.cadence import Cadence, Daily, MonthDay, Monthly, Once, Weekly, Yearly
from server.domain.civil_time import Adjustment
from server.domain.projection import (
    Notice,
    NoticeReason,
    adjustment_at,
    firings_between,
    notices_between,
)
from server.domain.recurrence import first_after

NEW_YORK = ZoneInfo("America/New_York")
PARIS = ZoneInfo("Europe/Paris")


def _day_window(day: date, zone: ZoneInfo) -> tuple[datetime, datetime]:
    start = datetime.combine(day, time(), tzinfo=zone) - timedelta(hours=12)
    return start, start + timedelta(days=2)


ADJUSTED = [
    pytest.param(
        Daily(time(2, 30), "America/New_York"),
        datetime(2027, 3, 14, 3, 0, tzinfo=NEW_YORK),
        date(2027, 3, 14),
        Adjustment.MOVED_TO_TRANSITION,
        id="new-york-spring-forward-0230-moves-to-0300",
    ),
    pytest.param(
        Daily(time(1, 30), "America/New_York"),
        datetime(2026, 11, 1, 1, 30, fold=0, tzinfo=NEW_YORK),
        date(2026, 11, 1),
        Adjustment.EARLIER_OF_TWO,
        id="new-york-fall-back-0130-fires-the-earlier",
    ),
    pytest.param(
        Daily(time(2, 15), "Europe/Paris"),
        datetime(2027, 3, 28, 3, 0, tzinfo=PARIS),
        date(2027, 3, 28),
        Adjustment.MOVED_TO_TRANSITION,
        id="paris-spring-forward-0215-moves-to-0300",
    ),
    pytest.param(
        Weekly(time(2, 45), (7,), "Europe/Paris"),
        datetime(2026, 10, 25, 2, 45, fold=0, tzinfo=PARIS),
        date(2026, 10, 25),
        Adjustment.EARLIER_OF_TWO,
        id="paris-fall-back-0245-fires-the-earlier",
    ),
    pytest.param(
        Daily(time(23, 30), "America/Nuuk"),
        datetime(2026, 3, 29, 0, 0, tzinfo=ZoneInfo("America/Nuuk")),
        date(2026, 3, 28),
        Adjustment.MOVED_TO_TRANSITION,
        id="nuuk-2330-in-a-gap-running-to-midnight-fires-at-the-next-midnight",
    ),
]


@pytest.mark.parametrize(("cadence", "local", "scheduled", "adjustment"), ADJUSTED)
def test_an_adjusted_firing_is_listed_once_with_its_rule_date_and_adjustment(
    cadence: Daily | Weekly, local: datetime, scheduled: date, adjustment: Adjustment
) -> None:
    zone = ZoneInfo(cadence.timezone)
    start, end = _day_window(scheduled, zone)

    listed = [f for f in firings_between(cadence, start, end) if f.adjustment is not None]

    assert len(listed) == 1
    firing = listed[0]
    assert (firing.local, firing.local.utcoffset()) == (local, local.utcoffset())
    assert firing.at == local.astimezone(UTC)
    assert (firing.scheduled_date, firing.scheduled_time) == (scheduled, cadence.local_time)
    assert firing.adjustment is adjustment
    assert adjustment_at(cadence, firing.at) is adjustment


def test_the_days_around_a_clock_change_are_not_adjusted() -> None:
    cadence = Daily(time(2, 30), "America/New_York")
    start = datetime(2027, 3, 12, tzinfo=UTC)

    firings = firings_between(cadence, start, start + timedelta(days=5))

    assert [(f.local.day, f.adjustment) for f in firings] == [
        (12, None),
        (13, None),
        (14, Adjustment.MOVED_TO_TRANSITION),
        (15, None),
        (16, None),
    ]
    assert all(f.local.strftime("%H:%M") == "02:30" for f in firings if f.adjustment is None)


def test_apia_skipped_30_december_2011_is_a_notice_and_no_firing() -> None:
    cadence = Daily(time(9), "Pacific/Apia")
    apia = ZoneInfo("Pacific/Apia")
    start = datetime(2011, 12, 28, tzinfo=apia)

    firings = firings_between(cadence, start, start + timedelta(days=5))
    notices = notices_between(cadence, date(2011, 12, 28), date(2012, 1, 1))

    assert [f.local.date() for f in firings] == [
        date(2011, 12, 28),
        date(2011, 12, 29),
        date(2011, 12, 31),
        date(2012, 1, 1),
    ]
    assert notices == [Notice(2011, 12, 30, NoticeReason.DATE_DOES_NOT_EXIST)]
    assert notices[0].local_date == "2011-12-30"


def test_a_skipped_date_the_rule_does_not_select_is_no_notice() -> None:
    # 2011-12-30 was a Friday: a Friday rule is told, a Thursday rule has nothing to miss.
    friday = Weekly(time(9), (5,), "Pacific/Apia")
    thursday = Weekly(time(9), (4,), "Pacific/Apia")
    assert notices_between(friday, date(2011, 12, 1), date(2011, 12, 31)) == [
        Notice(2011, 12, 30, NoticeReason.DATE_DOES_NOT_EXIST)
    ]
    assert notices_between(thursday, date(2011, 12, 1), date(2011, 12, 31)) == []


def test_the_31st_in_a_30_day_month_is_a_notice_placed_at_the_month_end() -> None:
    cadence = Monthly(time(8), (15, 31), False, "Europe/Paris")

    april = notices_between(cadence, date(2027, 4, 1), date(2027, 4, 30))
    first_half = notices_between(cadence, date(2027, 4, 1), date(2027, 4, 29))
    firings = firings_between(
        cadence, datetime(2027, 4, 1, tzinfo=PARIS), datetime(2027, 5, 1, tzinfo=PARIS)
    )

    assert april == [Notice(2027, 4, 31, NoticeReason.DAY_NOT_IN_MONTH)]
    assert april[0].local_date == "2027-04-31"
    assert first_half == []
    assert [f.local.day for f in firings] == [15]


@pytest.mark.parametrize(
    ("year", "expected"),
    [
        pytest.param(2027, [Notice(2027, 2, 29, NoticeReason.NOT_A_LEAP_YEAR)], id="2027-common"),
        pytest.param(2028, [], id="2028-leap"),
    ],
)
def test_29_february_is_a_notice_in_a_common_year_and_a_firing_in_a_leap_year(
    year: int, expected: list[Notice]
) -> None:
    yearly = Yearly(time(7), (MonthDay(2, 29),), "UTC")
    monthly = Monthly(time(7), (29,), False, "UTC")
    start = datetime(year, 2, 1, tzinfo=UTC)
    end = datetime(year, 3, 1, tzinfo=UTC)

    for cadence in (yearly, monthly):
        notices = notices_between(cadence, start.date(), (end - timedelta(days=1)).date())
        fired = [f.local.date() for f in firings_between(cadence, start, end)]
        assert notices == expected
        assert fired == ([] if expected else [date(year, 2, 29)])


def test_february_30_and_31_are_days_not_in_the_month() -> None:
    cadence = Monthly(time(7), (29, 30, 31), True, "UTC")
    assert notices_between(cadence, date(2027, 2, 1), date(2027, 2, 28)) == [
        Notice(2027, 2, 29, NoticeReason.NOT_A_LEAP_YEAR),
        Notice(2027, 2, 30, NoticeReason.DAY_NOT_IN_MONTH),
        Notice(2027, 2, 31, NoticeReason.DAY_NOT_IN_MONTH),
    ]


def test_firings_are_the_calculators_instants_half_open_at_both_ends() -> None:
    cadence = Daily(time(9), "Europe/Paris")
    first = first_after(cadence, datetime(2026, 12, 1, tzinfo=UTC))
    assert first is not None

    listed = firings_between(cadence, first - timedelta(microseconds=1), first + timedelta(days=3))

    assert [f.at for f in listed] == [first + timedelta(days=n) for n in range(3)]
    assert firings_between(cadence, first, first + timedelta(days=1)) == []


def test_a_once_schedule_lists_its_instant_with_no_adjustment_and_no_notice() -> None:
    at = datetime(2026, 12, 24, 17, 0, tzinfo=UTC)
    cadence = Once(at)
    listed = firings_between(cadence, at - timedelta(days=1), at + timedelta(days=1))
    assert [(f.at, f.adjustment, f.scheduled_time) for f in listed] == [(at, None, time(17))]
    assert notices_between(cadence, date(2026, 12, 1), date(2026, 12, 31)) == []
    assert adjustment_at(cadence, at) is None


def test_an_instant_the_cadence_never_names_has_no_adjustment() -> None:
    cadence: Cadence = Daily(time(2, 30), "America/New_York")
    assert adjustment_at(cadence, datetime(2027, 3, 14, 7, 15, tzinfo=UTC)) is None


def test_the_calendar_ends_in_year_9999_without_an_error() -> None:
    cadence = Daily(time(22), "America/New_York")
    start = datetime(9999, 12, 20, tzinfo=UTC)
    listed = firings_between(cadence, start, datetime(9999, 12, 31, 23, tzinfo=UTC))
    assert listed
    assert listed[-1].local.date() <= date(9999, 12, 31)
