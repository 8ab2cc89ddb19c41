"""gate.schedule.misfire_bounded and calendar_misfire_bounded: one scan after years of downtime.

However many instants passed while nothing scanned, one scan records at most
one occurrence and one coalescing event, jumps straight to the first future
instant, and resolves a bounded number of candidate dates: the work does not
grow with the number of missed instants.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

import pytest

from server.domain import recurrence
from server.domain.cadence import parse_cadence
from server.domain.civil_time import resolve
from server.domain.recurrence import first_after
from tests.server.api.conftest import Clock
from tests.server.scene import Scene

CASES = [
    pytest.param(
        {"kind": "DAILY", "local_time": "09:00:00", "timezone": "Europe/Paris"},
        timedelta(days=365 * 20),
        timedelta(minutes=30),
        "MATERIALIZED",
        id="daily-20-years-within-grace",
    ),
    pytest.param(
        {
            "kind": "WEEKLY",
            "local_time": "08:30:00",
            "weekdays": [1, 2, 3, 4, 5],
            "timezone": "America/New_York",
        },
        timedelta(days=365 * 30),
        timedelta(hours=5),
        "MISSED",
        id="weekdays-30-years-outside-grace",
    ),
    pytest.param(
        {
            "kind": "MONTHLY",
            "local_time": "18:00:00",
            "days_of_month": list(range(1, 29, 3)),
            "last_day": True,
            "timezone": "Australia/Sydney",
        },
        timedelta(days=365 * 40),
        timedelta(minutes=10),
        "MATERIALIZED",
        id="monthly-40-years",
    ),
    pytest.param(
        {
            "kind": "YEARLY",
            "local_time": "07:00:00",
            "dates": [{"month": m, "day": d} for m in range(1, 13) for d in (1, 15)]
            + [{"month": 2, "day": 29}],
            "timezone": "UTC",
        },
        timedelta(days=365 * 60),
        timedelta(hours=3),
        "MISSED",
        id="yearly-60-years-with-february-29",
    ),
]


def _instants_between(cadence: Any, first: datetime, now: datetime) -> list[datetime]:
    """The oracle: every nominal instant from ``first`` through ``now``, one by one."""
    found = [first]
    while (following := first_after(cadence, found[-1])) is not None and following <= now:
        found.append(following)
    return found


@pytest.mark.parametrize(("cadence", "downtime", "after_instant", "disposition"), CASES)
def test_one_scan_after_thousands_of_missed_instants_records_one_occurrence_and_one_coalescing(
    scene: Scene,
    clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
    cadence: dict[str, Any],
    downtime: timedelta,
    after_instant: timedelta,
    disposition: str,
) -> None:
    rule = parse_cadence(cadence)
    schedule_id = scene.create(cadence=cadence, misfire_grace_seconds=3600).schedule.schedule_id
    first = scene.schedule(schedule_id).next_fire_at
    assert first is not None
    latest = recurrence.latest_at_or_before(rule, first + downtime)
    assert latest is not None
    clock.now = latest + after_instant
    owed = _instants_between(rule, first, clock.now)
    assert len(owed) >= 1000, "thousands of instants were missed"

    resolved: list[date] = []

    def counted(day: date, *args: Any) -> datetime | None:
        resolved.append(day)
        return resolve(day, *args)

    monkeypatch.setattr(recurrence, "resolve", counted)
    report = scene.scan()

    assert report.written == 1
    assert len(resolved) < 60, f"{len(resolved)} candidate dates for {len(owed)} instants"
    (occurrence,) = scene.ledger(schedule_id)
    assert occurrence.disposition == disposition
    assert occurrence.nominal_fire_at == owed[-1]
    (coalesced,) = scene.events(schedule_id, "schedule.misfires_coalesced")
    assert coalesced.payload == {
        "first_nominal_at": owed[0].isoformat(),
        "last_nominal_at": owed[-2].isoformat(),
        "count": len(owed) - 1,
    }
    record = scene.schedule(schedule_id)
    assert record.next_fire_at == first_after(rule, clock.now)
    assert scene.count("runs") == (1 if disposition == "MATERIALIZED" else 0)
    assert record.consecutive_failures == (1 if disposition == "MISSED" else 0)
