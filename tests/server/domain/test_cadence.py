"""Cadence validation: one stable reason code per rule, and canonical round trips."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime, time

import pytest

from server.domain.cadence import (
    CadenceError,
    Daily,
    MonthDay,
    Monthly,
    Once,
    Weekly,
    Yearly,
    parse_cadence,
)

DAILY: dict[str, object] = {"kind": "DAILY", "local_time": "09:00:00", "timezone": "Europe/Paris"}
WEEKLY: dict[str, object] = {
    "kind": "WEEKLY",
    "local_time": "08:30:00",
    "weekdays": [1, 3, 5],
    "timezone": "UTC",
}
MONTHLY: dict[str, object] = {
    "kind": "MONTHLY",
    "local_time": "18:00:00",
    "days_of_month": [1, 15],
    "last_day": True,
    "timezone": "Asia/Tokyo",
}
YEARLY: dict[str, object] = {
    "kind": "YEARLY",
    "local_time": "07:00:00",
    "dates": [{"month": 2, "day": 29}],
    "timezone": "UTC",
}
ONCE: dict[str, object] = {"kind": "ONCE", "at": "2026-12-24T17:00:00Z"}


def _with(base: Mapping[str, object], **changes: object) -> dict[str, object]:
    return {**base, **changes}


def _without(base: Mapping[str, object], name: str) -> dict[str, object]:
    return {key: value for key, value in base.items() if key != name}


REJECTIONS = [
    pytest.param({"local_time": "09:00"}, "kind", "missing_field", id="kind-missing"),
    pytest.param(_with(DAILY, kind=3), "kind", "invalid_type", id="kind-not-string"),
    pytest.param(_with(DAILY, kind="HOURLY"), "kind", "unknown_kind", id="kind-unknown"),
    pytest.param(_with(DAILY, every=2), "every", "unknown_field", id="unknown-field"),
    pytest.param(_with(ONCE, timezone="UTC"), "timezone", "unknown_field", id="once-no-zone"),
    pytest.param(_without(DAILY, "timezone"), "timezone", "missing_field", id="zone-missing"),
    pytest.param(_without(WEEKLY, "weekdays"), "weekdays", "missing_field", id="weekdays-missing"),
    pytest.param(_without(ONCE, "at"), "at", "missing_field", id="at-missing"),
    pytest.param(_with(ONCE, at="2026-12-24T17:00:00"), "at", "naive_datetime", id="at-naive"),
    pytest.param(_with(ONCE, at="2026-12-24"), "at", "naive_datetime", id="at-date-only"),
    pytest.param(_with(ONCE, at="Christmas"), "at", "invalid_datetime", id="at-garbage"),
    pytest.param(_with(ONCE, at=1766595600), "at", "invalid_type", id="at-number"),
    pytest.param(_with(DAILY, local_time="9:00"), "local_time", "invalid_local_time", id="time-h"),
    pytest.param(_with(DAILY, local_time="24:00"), "local_time", "invalid_local_time", id="t-24"),
    pytest.param(
        _with(DAILY, local_time="09:00:00.5"), "local_time", "invalid_local_time", id="t-frac"
    ),
    pytest.param(
        _with(DAILY, local_time="09:00+01:00"), "local_time", "invalid_local_time", id="t-offset"
    ),
    pytest.param(_with(DAILY, local_time=900), "local_time", "invalid_type", id="time-number"),
    pytest.param(_with(DAILY, timezone="Mars/Olympus"), "timezone", "invalid_timezone", id="tz"),
    pytest.param(_with(DAILY, timezone="../etc/passwd"), "timezone", "invalid_timezone", id="tz-p"),
    pytest.param(_with(DAILY, timezone="localtime"), "timezone", "invalid_timezone", id="tz-host"),
    pytest.param(_with(DAILY, timezone=None), "timezone", "invalid_type", id="tz-null"),
    pytest.param(_with(WEEKLY, weekdays=[]), "weekdays", "weekdays_empty", id="weekdays-empty"),
    pytest.param(_with(WEEKLY, weekdays=[1, 1]), "weekdays", "weekday_duplicate", id="wd-dup"),
    pytest.param(_with(WEEKLY, weekdays=[0]), "weekdays", "weekday_out_of_range", id="wd-0"),
    pytest.param(_with(WEEKLY, weekdays=[8]), "weekdays", "weekday_out_of_range", id="wd-8"),
    pytest.param(_with(WEEKLY, weekdays=[True]), "weekdays", "invalid_type", id="wd-bool"),
    pytest.param(_with(WEEKLY, weekdays="135"), "weekdays", "invalid_type", id="wd-string"),
    pytest.param(
        _with(MONTHLY, days_of_month=[15, 15]), "days_of_month", "day_duplicate", id="md-dup"
    ),
    pytest.param(
        _with(MONTHLY, days_of_month=[32]), "days_of_month", "day_out_of_range", id="md-32"
    ),
    pytest.param(_with(MONTHLY, days_of_month=[0]), "days_of_month", "day_out_of_range", id="md-0"),
    pytest.param(
        _with(MONTHLY, days_of_month=[], last_day=False),
        "days_of_month",
        "monthly_selector_empty",
        id="monthly-selects-nothing",
    ),
    pytest.param(_with(MONTHLY, last_day="yes"), "last_day", "invalid_type", id="last-day-str"),
    pytest.param(_with(YEARLY, dates=[]), "dates", "dates_empty", id="dates-empty"),
    pytest.param(
        _with(YEARLY, dates=[{"month": 3, "day": 1}, {"month": 3, "day": 1}]),
        "dates",
        "date_duplicate",
        id="date-dup",
    ),
    pytest.param(
        _with(YEARLY, dates=[{"month": 4, "day": 31}]), "dates", "date_impossible", id="apr-31"
    ),
    pytest.param(
        _with(YEARLY, dates=[{"month": 13, "day": 1}]), "dates", "date_impossible", id="month-13"
    ),
    pytest.param(
        _with(YEARLY, dates=[{"month": 2, "day": 30}]), "dates", "date_impossible", id="feb-30"
    ),
    pytest.param(
        _with(YEARLY, dates=[{"month": 2}]), "dates.day", "missing_field", id="date-no-day"
    ),
    pytest.param(
        _with(YEARLY, dates=[{"month": 2, "day": 1, "year": 2027}]),
        "dates.year",
        "unknown_field",
        id="date-extra-key",
    ),
    pytest.param(
        _with(YEARLY, dates=[{"month": "2", "day": 1}]),
        "dates.month",
        "invalid_type",
        id="date-month-string",
    ),
    pytest.param(_with(YEARLY, dates=[[2, 29]]), "dates", "invalid_type", id="date-as-list"),
]


@pytest.mark.parametrize(("payload", "field", "reason"), REJECTIONS)
def test_each_rule_rejects_with_its_stable_reason(
    payload: dict[str, object], field: str, reason: str
) -> None:
    with pytest.raises(CadenceError) as caught:
        parse_cadence(payload)
    assert (caught.value.field, caught.value.reason) == (field, reason)


def test_february_29_is_a_valid_yearly_date() -> None:
    cadence = parse_cadence(YEARLY)
    assert isinstance(cadence, Yearly)
    assert cadence.dates == (MonthDay(2, 29),)


def test_last_day_alone_is_a_monthly_selector() -> None:
    cadence = parse_cadence(_without(_with(MONTHLY, last_day=True), "days_of_month"))
    assert isinstance(cadence, Monthly)
    assert (cadence.days_of_month, cadence.last_day) == ((), True)


def test_selectors_are_stored_in_canonical_order() -> None:
    weekly = parse_cadence(_with(WEEKLY, weekdays=[7, 1, 4]))
    monthly = parse_cadence(_with(MONTHLY, days_of_month=[31, 1, 15]))
    yearly = parse_cadence(_with(YEARLY, dates=[{"month": 12, "day": 25}, {"month": 1, "day": 2}]))
    assert isinstance(weekly, Weekly) and weekly.weekdays == (1, 4, 7)
    assert isinstance(monthly, Monthly) and monthly.days_of_month == (1, 15, 31)
    assert isinstance(yearly, Yearly) and yearly.dates == (MonthDay(1, 2), MonthDay(12, 25))


def test_once_instant_is_normalised_to_utc() -> None:
    cadence = parse_cadence(_with(ONCE, at="2026-12-24T18:00:00+01:00"))
    assert cadence == Once(datetime(2026, 12, 24, 17, tzinfo=UTC))
    assert cadence.to_payload() == ONCE
    assert cadence.zone_name == "UTC"


def test_short_local_time_gains_seconds_in_the_payload() -> None:
    cadence = parse_cadence(_with(DAILY, local_time="09:05"))
    assert cadence == Daily(time(9, 5), "Europe/Paris")
    assert cadence.to_payload()["local_time"] == "09:05:00"


@pytest.mark.parametrize(
    "payload",
    [
        pytest.param(ONCE, id="once"),
        pytest.param(DAILY, id="daily"),
        pytest.param(_with(WEEKLY, weekdays=[5, 3, 1]), id="weekly"),
        pytest.param(_with(MONTHLY, days_of_month=[31, 1]), id="monthly"),
        pytest.param(_without(MONTHLY, "days_of_month"), id="monthly-last-day-only"),
        pytest.param(
            _with(YEARLY, dates=[{"month": 12, "day": 31}, {"month": 2, "day": 29}]),
            id="yearly",
        ),
    ],
)
def test_parse_then_payload_then_parse_is_identity(payload: dict[str, object]) -> None:
    cadence = parse_cadence(payload)
    canonical = cadence.to_payload()
    assert parse_cadence(canonical) == cadence
    assert parse_cadence(canonical).to_payload() == canonical
    assert canonical["kind"] == cadence.kind == payload["kind"]


@pytest.mark.parametrize(
    ("build", "field", "reason"),
    [
        pytest.param(lambda: Once(datetime(2026, 1, 1)), "at", "naive_datetime", id="once-naive"),
        pytest.param(
            lambda: Weekly(time(9), (), "UTC"), "weekdays", "weekdays_empty", id="weekly-empty"
        ),
        pytest.param(
            lambda: Daily(time(9, 0, 0, 5), "UTC"),
            "local_time",
            "invalid_local_time",
            id="daily-fraction",
        ),
    ],
)
def test_values_built_directly_enforce_the_same_rules(
    build: Callable[[], object], field: str, reason: str
) -> None:
    with pytest.raises(CadenceError) as caught:
        build()
    assert (caught.value.field, caught.value.reason) == (field, reason)
