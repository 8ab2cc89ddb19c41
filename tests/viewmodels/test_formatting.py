"""Formatting rules: cadence summaries, zones, unknown values, ages."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from transport.models import Cadence, Limits
from viewmodels.formatting import (
    Tone,
    age_text,
    cadence_summary,
    duration_text,
    humanize,
    instant_text_naming_zone,
    limit_lines,
    money_text,
    next_firing_text,
    pause_reason_text,
    state_label,
    state_tone,
)
from viewmodels.formatting.clock_text import HourCycle, display_zone
from viewmodels.language import DEFAULT_LOCALE, words_for

PARIS = ZoneInfo("Europe/Paris")
LONDON = ZoneInfo("Europe/London")
ENGLISH = words_for(DEFAULT_LOCALE)


def summarize(payload: dict[str, Any], zone: ZoneInfo = PARIS) -> str:
    return cadence_summary(Cadence.model_validate(payload), zone)


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        pytest.param(
            {"kind": "DAILY", "local_time": "09:00:00", "timezone": "Europe/Paris"},
            "Every day at 09:00",
            id="daily",
        ),
        pytest.param(
            {
                "kind": "WEEKLY",
                "local_time": "08:30:00",
                "weekdays": [5, 1, 3],
                "timezone": "Europe/Paris",
            },
            "Mondays, Wednesdays and Fridays at 08:30",
            id="weekly-iso-names",
        ),
        pytest.param(
            {
                "kind": "WEEKLY",
                "local_time": "08:30:00",
                "weekdays": [7, 1, 2, 3, 4, 5, 6],
                "timezone": "Europe/Paris",
            },
            "Every day at 08:30",
            id="weekly-seven-days-reads-every-day",
        ),
        pytest.param(
            {
                "kind": "WEEKLY",
                "local_time": "08:30:00",
                "weekdays": [1, 2, 3, 4, 5],
                "timezone": "Europe/Paris",
            },
            "Weekdays at 08:30",
            id="weekly-monday-to-friday-reads-weekdays",
        ),
        pytest.param(
            {
                "kind": "WEEKLY",
                "local_time": "08:30:00",
                "weekdays": [6],
                "timezone": "Europe/Paris",
            },
            "Saturdays at 08:30",
            id="weekly-one-day",
        ),
        pytest.param(
            {
                "kind": "MONTHLY",
                "local_time": "18:00:00",
                "days_of_month": [15, 1],
                "last_day": True,
                "timezone": "Europe/Paris",
            },
            "Monthly on the 1st, 15th and last day at 18:00",
            id="monthly-days-and-last-day",
        ),
        pytest.param(
            {
                "kind": "MONTHLY",
                "local_time": "18:00:00",
                "days_of_month": [2, 3, 11, 22],
                "last_day": False,
                "timezone": "Europe/Paris",
            },
            "Monthly on the 2nd, 3rd, 11th and 22nd at 18:00",
            id="monthly-ordinals",
        ),
        pytest.param(
            {
                "kind": "MONTHLY",
                "local_time": "18:00:00",
                "days_of_month": [],
                "last_day": True,
                "timezone": "Europe/Paris",
            },
            "Monthly on the last day at 18:00",
            id="monthly-last-day-only",
        ),
        pytest.param(
            {
                "kind": "YEARLY",
                "local_time": "07:00:00",
                "dates": [{"month": 2, "day": 29}],
                "timezone": "Europe/Paris",
            },
            "Every year on 29 February at 07:00",
            id="yearly",
        ),
        pytest.param(
            {
                "kind": "YEARLY",
                "local_time": "07:00:00",
                "dates": [{"month": 7, "day": 1}, {"month": 1, "day": 1}],
                "timezone": "Europe/Paris",
            },
            "Every year on 1 January and 1 July at 07:00",
            id="yearly-two-dates-in-calendar-order",
        ),
        pytest.param(
            {"kind": "DAILY", "local_time": "09:00:30", "timezone": "Europe/Paris"},
            "Every day at 09:00:30",
            id="seconds-shown-only-when-not-zero",
        ),
    ],
)
def test_cadence_summaries_read_as_design_md_says(payload: dict[str, Any], expected: str) -> None:
    assert summarize(payload) == expected


def test_once_shows_the_absolute_instant_in_the_device_zone_with_date_and_time() -> None:
    payload = {"kind": "ONCE", "at": "2026-12-24T17:00:00Z"}
    assert summarize(payload, PARIS) == "Once on 24 Dec 2026 at 18:00"
    assert summarize(payload, ZoneInfo("Asia/Tokyo")) == "Once on 25 Dec 2026 at 02:00"


def test_recurring_summary_appends_the_stored_zone_only_when_it_differs_from_the_device_zone() -> (
    None
):
    payload = {"kind": "DAILY", "local_time": "09:00:00", "timezone": "Europe/Paris"}
    assert summarize(payload, PARIS) == "Every day at 09:00"
    assert summarize(payload, LONDON) == "Every day at 09:00 (Europe/Paris)"
    weekly = {"kind": "WEEKLY", "local_time": "08:30:00", "weekdays": [1], "timezone": "UTC"}
    assert summarize(weekly, LONDON) == "Mondays at 08:30 (UTC)"


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        pytest.param(
            {"kind": "DAILY", "local_time": "18:00:00", "timezone": "Europe/Paris"},
            "Every day at 6:00 pm (Europe/Paris)",
            id="daily",
        ),
        pytest.param(
            {"kind": "WEEKLY", "local_time": "00:30:00", "weekdays": [1, 3], "timezone": "UTC"},
            "Mondays and Wednesdays at 12:30 am (UTC)",
            id="weekly-just-after-midnight",
        ),
        pytest.param(
            {"kind": "MONTHLY", "local_time": "12:00:15", "days_of_month": [1], "timezone": "UTC"},
            "Monthly on the 1st at 12:00:15 pm (UTC)",
            id="monthly-noon-with-seconds",
        ),
        pytest.param(
            {"kind": "EVERY_OTHER.WEEK", "local_time": "10:00:00", "timezone": "Asia/Tokyo"},
            "Every other week at 10:00 am (Asia/Tokyo)",
            id="unknown-kind",
        ),
    ],
)
def test_a_person_on_the_12_hour_clock_reads_cadences_at_6_00_pm(
    payload: dict[str, Any], expected: str
) -> None:
    assert summarize(payload, display_zone(LONDON, HourCycle.H12)) == expected


@pytest.mark.parametrize(
    ("stored", "device"),
    [
        pytest.param("UTC", "Etc/UTC", id="utc-alias"),
        pytest.param("Asia/Calcutta", "Asia/Kolkata", id="renamed-zone"),
    ],
)
def test_an_alias_of_the_device_zone_is_the_device_zone_and_gets_no_suffix(
    stored: str, device: str
) -> None:
    payload = {"kind": "DAILY", "local_time": "09:00:00", "timezone": stored}
    assert summarize(payload, ZoneInfo(device)) == "Every day at 09:00"
    assert summarize(payload, ZoneInfo("Europe/Paris")) == f"Every day at 09:00 ({stored})"


def test_unknown_cadence_kind_is_humanized_still_shows_its_zone_and_never_crashes() -> None:
    assert (
        summarize({"kind": "EVERY_OTHER.WEEK", "local_time": "10:00:00", "timezone": "Asia/Tokyo"})
        == "Every other week at 10:00 (Asia/Tokyo)"
    )
    assert summarize({"kind": "LUNAR", "timezone": "Asia/Tokyo"}) == "Lunar (Asia/Tokyo)"
    assert summarize({"kind": "LUNAR", "timezone": "Europe/Paris"}) == "Lunar"


def test_a_known_kind_with_missing_fields_never_crashes() -> None:
    assert (
        summarize({"kind": "WEEKLY", "local_time": "08:00:00", "timezone": "UTC"})
        == "Weekly at 08:00 (UTC)"
    )
    assert (
        summarize({"kind": "DAILY", "local_time": "nonsense", "timezone": "UTC"}) == "Daily (UTC)"
    )
    assert summarize({"kind": "ONCE"}) == "Once"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("WAITING_FOR_APPROVAL", "Waiting for approval"),
        ("on-hold", "On hold"),
        ("needs.review", "Needs review"),
        ("ARCHIVED", "Archived"),
        ("__", "Unknown"),
    ],
)
def test_unknown_values_replace_separators_with_spaces_and_capitalize(
    raw: str, expected: str
) -> None:
    assert humanize(raw, words=ENGLISH) == expected
    assert state_label(raw, words=ENGLISH) == expected


def test_known_states_and_pause_reasons_have_text_labels() -> None:
    assert [
        state_label(s, words=ENGLISH) for s in ("ACTIVE", "PAUSED", "COMPLETED", "CANCELLED")
    ] == [
        "Active",
        "Paused",
        "Completed",
        "Cancelled",
    ]
    assert pause_reason_text("PAUSED", "user", words=ENGLISH) == "Paused by you"
    assert (
        pause_reason_text("PAUSED", "failure_limit", words=ENGLISH)
        == "Paused after repeated failures"
    )
    assert pause_reason_text("PAUSED", "maintenance_window", words=ENGLISH) == "Maintenance window"
    assert pause_reason_text("ACTIVE", "user", words=ENGLISH) is None


def test_each_state_has_a_semantic_tone_and_an_unknown_state_is_neutral() -> None:
    assert [state_tone(s) for s in ("ACTIVE", "PAUSED", "COMPLETED", "CANCELLED")] == [
        Tone.LIVE,
        Tone.WARNING,
        Tone.DONE,
        Tone.NEUTRAL,
    ]
    assert state_tone("WAITING_FOR_APPROVAL") is Tone.NEUTRAL
    assert state_tone("active") is Tone.NEUTRAL, "wire values are case-sensitive"


NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("ago", "expected"),
    [
        (timedelta(seconds=0), "just now"),
        (timedelta(seconds=59), "just now"),
        (timedelta(minutes=5), "5 min ago"),
        (timedelta(minutes=59, seconds=59), "59 min ago"),
        (timedelta(hours=2, minutes=30), "2 h ago"),
        (timedelta(days=3, hours=1), "3 d ago"),
        (timedelta(days=10), "21 Nov 2026"),
        (timedelta(seconds=-30), "just now"),
    ],
)
def test_relative_ages(ago: timedelta, expected: str) -> None:
    assert age_text(NOW - ago, NOW, LONDON) == expected


def test_next_firing_text_is_in_the_device_zone() -> None:
    assert next_firing_text(NOW + timedelta(hours=1), NOW, LONDON) == "Next: today at 13:00"
    assert next_firing_text(NOW + timedelta(hours=1), NOW, PARIS) == "Next: today at 14:00"
    assert next_firing_text(NOW + timedelta(days=1), NOW, LONDON) == "Next: tomorrow at 12:00"
    assert next_firing_text(NOW + timedelta(days=9), NOW, LONDON) == "Next: 10 Dec 2026 at 12:00"


def test_a_next_firing_that_has_passed_reads_as_due_now_never_as_a_past_time() -> None:
    assert next_firing_text(NOW, NOW, LONDON) == "Next: due now"
    assert next_firing_text(NOW - timedelta(minutes=1), NOW, LONDON) == "Next: due now"


def test_timestamps_are_in_the_device_zone_naming_the_schedule_zone_when_it_differs() -> None:
    assert instant_text_naming_zone(NOW, LONDON, "Europe/London") == "1 Dec 2026, 12:00"
    assert (
        instant_text_naming_zone(NOW, LONDON, "Europe/Paris")
        == "1 Dec 2026, 12:00 (13:00 Europe/Paris)"
    )
    assert instant_text_naming_zone(NOW, LONDON, None) == "1 Dec 2026, 12:00"


def test_durations_money_and_finite_limits() -> None:
    assert duration_text(300, words=ENGLISH) == "5 min"
    assert duration_text(3600, words=ENGLISH) == "1 h"
    assert duration_text(5400, words=ENGLISH) == "1 h 30 min"
    assert duration_text(45, words=ENGLISH) == "45 s"
    assert money_text(Decimal("5"), locale=DEFAULT_LOCALE) == "5.00"
    assert money_text(Decimal("0.125"), locale=DEFAULT_LOCALE) == "0.125"
    limits = Limits.model_validate(
        {
            "max_steps": 20,
            "max_model_calls": None,
            "max_cost": "5.00",
            "reserve_cost": "1",
            "max_pages": 7,
        }
    )
    assert limit_lines(limits, locale=DEFAULT_LOCALE) == (
        ("Max steps", "20"),
        ("Max cost", "5.00"),
        ("Reserved cost", "1.00"),
        ("Max pages", "7"),
    )
