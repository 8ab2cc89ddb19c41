"""The misfire decision: one occurrence at most, older ones coalesced, grace honoured."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest

from server.domain.cadence import Daily, Once
from server.domain.misfire import Coalesced, Verdict, decide

DAILY_NINE_UTC = Daily(time(9), "UTC")
HOUR = timedelta(hours=1)


def test_nothing_due_reports_the_next_instant() -> None:
    last = datetime(2026, 5, 1, 9, tzinfo=UTC)
    decision = decide(DAILY_NINE_UTC, grace=HOUR, last_nominal_at=last, now=last + HOUR)
    assert decision.verdict is Verdict.NOTHING_DUE
    assert decision.nominal_at is None
    assert decision.coalesced is None
    assert decision.next_fire_at == datetime(2026, 5, 2, 9, tzinfo=UTC)
    assert not decision.completes


def test_latest_due_within_grace_fires_and_older_ones_coalesce() -> None:
    last = datetime(2026, 5, 1, 9, tzinfo=UTC)
    now = datetime(2026, 5, 5, 9, 30, tzinfo=UTC)
    decision = decide(DAILY_NINE_UTC, grace=HOUR, last_nominal_at=last, now=now)
    assert decision.verdict is Verdict.FIRE
    assert decision.nominal_at == datetime(2026, 5, 5, 9, tzinfo=UTC)
    assert decision.coalesced == Coalesced(
        first_nominal_at=datetime(2026, 5, 2, 9, tzinfo=UTC),
        last_nominal_at=datetime(2026, 5, 4, 9, tzinfo=UTC),
        count=3,
    )
    assert decision.next_fire_at == datetime(2026, 5, 6, 9, tzinfo=UTC)


def test_latest_due_outside_grace_is_missed_and_next_fire_moves_to_the_future() -> None:
    last = datetime(1976, 5, 1, 9, tzinfo=UTC)
    now = datetime(2026, 5, 5, 11, tzinfo=UTC)
    decision = decide(DAILY_NINE_UTC, grace=HOUR, last_nominal_at=last, now=now)
    assert decision.verdict is Verdict.MISSED
    assert decision.nominal_at == datetime(2026, 5, 5, 9, tzinfo=UTC)
    assert decision.coalesced is not None
    assert decision.coalesced.count == (now.date() - last.date()).days - 1
    assert decision.next_fire_at == datetime(2026, 5, 6, 9, tzinfo=UTC)


def test_grace_boundary_is_inclusive() -> None:
    last = datetime(2026, 5, 4, 9, tzinfo=UTC)
    at_edge = decide(
        DAILY_NINE_UTC, grace=HOUR, last_nominal_at=last, now=datetime(2026, 5, 5, 10, tzinfo=UTC)
    )
    past_edge = decide(
        DAILY_NINE_UTC,
        grace=HOUR,
        last_nominal_at=last,
        now=datetime(2026, 5, 5, 10, 0, 1, tzinfo=UTC),
    )
    assert (at_edge.verdict, past_edge.verdict) == (Verdict.FIRE, Verdict.MISSED)
    assert at_edge.coalesced is None


@pytest.mark.parametrize(
    ("late_by", "verdict"),
    [
        pytest.param(timedelta(minutes=5), Verdict.FIRE, id="within-grace"),
        pytest.param(timedelta(days=2), Verdict.MISSED, id="outside-grace"),
    ],
)
def test_once_completes_whether_fired_or_missed(late_by: timedelta, verdict: Verdict) -> None:
    at = datetime(2026, 12, 24, 17, tzinfo=UTC)
    created = at - timedelta(days=10)
    decision = decide(Once(at), grace=HOUR, last_nominal_at=created, now=at + late_by)
    assert decision.verdict is verdict
    assert decision.nominal_at == at
    assert decision.next_fire_at is None
    assert decision.completes


def test_once_not_yet_due_waits() -> None:
    at = datetime(2026, 12, 24, 17, tzinfo=UTC)
    decision = decide(Once(at), grace=HOUR, last_nominal_at=at - HOUR * 5, now=at - HOUR)
    assert decision.verdict is Verdict.NOTHING_DUE
    assert decision.next_fire_at == at
    assert not decision.completes


def test_grace_must_be_positive() -> None:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    with pytest.raises(ValueError, match="grace"):
        decide(DAILY_NINE_UTC, grace=timedelta(0), last_nominal_at=now, now=now)
