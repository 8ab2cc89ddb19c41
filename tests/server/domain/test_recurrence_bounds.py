"""The calculator's work does not grow with the gap it has to cross."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

import pytest

from server.domain.cadence import Cadence, Daily, MonthDay, Monthly, Weekly, Yearly
from server.domain.recurrence import count_between, first_after, latest_at_or_before

# The most candidate dates any lookup may resolve: the reference date, the one
# after it when clocks went back, and room for a skipped date.
CANDIDATE_BOUND = 4

KINDS = [
    pytest.param(Daily(time(9), "Europe/Paris"), id="daily"),
    pytest.param(Weekly(time(9), (3,), "America/New_York"), id="weekly"),
    pytest.param(Monthly(time(9), (31,), False, "Asia/Tokyo"), id="monthly-31st"),
    pytest.param(Yearly(time(9), (MonthDay(2, 29),), "Pacific/Apia"), id="yearly-feb-29"),
]


def _candidates(lookup: str, cadence: Cadence, instant: datetime) -> list[date]:
    seen: list[date] = []
    if lookup == "first_after":
        first_after(cadence, instant, on_candidate=seen.append)
    else:
        latest_at_or_before(cadence, instant, on_candidate=seen.append)
    return seen


@pytest.mark.parametrize("lookup", ["first_after", "latest_at_or_before"])
@pytest.mark.parametrize("cadence", KINDS)
def test_fifty_years_asleep_costs_what_one_day_does(lookup: str, cadence: Cadence) -> None:
    last_fired = datetime(1976, 6, 1, tzinfo=UTC)
    after_a_day = _candidates(lookup, cadence, last_fired + timedelta(days=1))
    after_fifty_years = _candidates(lookup, cadence, last_fired + timedelta(days=365 * 50))
    assert 0 < len(after_a_day) <= CANDIDATE_BOUND
    assert 0 < len(after_fifty_years) <= CANDIDATE_BOUND


def test_latest_at_or_before_across_fifty_years_inspects_only_recent_dates() -> None:
    cadence = Daily(time(9), "Europe/Paris")
    now = datetime(2026, 6, 1, 12, tzinfo=UTC)
    seen = _candidates("latest_at_or_before", cadence, now)
    assert seen == [date(2026, 6, 1)]
    assert latest_at_or_before(cadence, now) == datetime(2026, 6, 1, 7, tzinfo=UTC)


def test_count_between_over_fifty_years_is_calendar_arithmetic() -> None:
    cadence = Daily(time(9), "Europe/Paris")
    start = datetime(1976, 6, 1, 12, tzinfo=UTC)
    end = datetime(2026, 6, 1, 12, tzinfo=UTC)
    assert count_between(cadence, start, end) == (end.date() - start.date()).days
    monthly = Monthly(time(9), (31,), True, "Europe/Paris")
    # Every month has a last day; the 31st coincides with it, so one per month.
    assert count_between(monthly, start, end) == 50 * 12


def test_naive_reference_instant_is_refused() -> None:
    with pytest.raises(ValueError, match="aware"):
        first_after(Daily(time(9), "UTC"), datetime(2026, 1, 1))
