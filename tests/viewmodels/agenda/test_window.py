"""The agenda's windows start at the person's local midnight and end at a later one."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from viewmodels.agenda import AgendaSpan
from viewmodels.agenda.window import span_window

NEW_YORK = ZoneInfo("America/New_York")


@pytest.mark.parametrize(
    ("span", "now", "expected"),
    [
        pytest.param(
            AgendaSpan.TODAY,
            datetime(2026, 12, 1, 3, tzinfo=UTC),
            (datetime(2026, 11, 30, 5, tzinfo=UTC), datetime(2026, 12, 1, 5, tzinfo=UTC)),
            id="today-is-the-persons-date-not-utcs",
        ),
        pytest.param(
            AgendaSpan.WEEK,
            datetime(2026, 12, 1, 12, tzinfo=UTC),
            (datetime(2026, 12, 1, 5, tzinfo=UTC), datetime(2026, 12, 8, 5, tzinfo=UTC)),
            id="seven-local-days",
        ),
        pytest.param(
            AgendaSpan.MONTH,
            datetime(2027, 1, 31, 12, tzinfo=UTC),
            (datetime(2027, 1, 31, 5, tzinfo=UTC), datetime(2027, 2, 28, 5, tzinfo=UTC)),
            id="month-ends-on-the-shorter-months-last-day",
        ),
        pytest.param(
            AgendaSpan.TODAY,
            datetime(2027, 3, 14, 12, tzinfo=UTC),
            (datetime(2027, 3, 14, 5, tzinfo=UTC), datetime(2027, 3, 15, 4, tzinfo=UTC)),
            id="a-spring-forward-day-is-23-hours",
        ),
        pytest.param(
            AgendaSpan.TODAY,
            datetime(2027, 11, 7, 12, tzinfo=UTC),
            (datetime(2027, 11, 7, 4, tzinfo=UTC), datetime(2027, 11, 8, 5, tzinfo=UTC)),
            id="a-fall-back-day-is-25-hours",
        ),
    ],
)
def test_a_window_runs_from_local_midnight_to_local_midnight(
    span: AgendaSpan, now: datetime, expected: tuple[datetime, datetime]
) -> None:
    assert span_window(span, now, NEW_YORK) == expected
