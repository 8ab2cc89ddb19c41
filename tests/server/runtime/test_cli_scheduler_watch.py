"""``schedule-server serve``'s overdue, late and stopped thresholds: defaults, and refusals."""

from __future__ import annotations

from datetime import timedelta

import pytest

from server.cli import _parser
from server.control.scheduler_status import SchedulerWatch
from server.startup import StartupError, watch_for


def test_the_defaults_are_60_s_overdue_30_s_late_and_2_minutes_stopped() -> None:
    watch = watch_for(_parser().parse_args(["serve"]))
    assert watch == SchedulerWatch(
        overdue_after=timedelta(seconds=60),
        late_after=timedelta(seconds=30),
        stopped_after=timedelta(minutes=2),
    )


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        (["--scheduler-late-seconds", "5"], "more than the heartbeat's interval (5 s)"),
        (
            ["--scheduler-late-seconds", "40", "--scheduler-stopped-seconds", "40"],
            "--scheduler-stopped-seconds must be more than --scheduler-late-seconds",
        ),
    ],
)
def test_thresholds_that_would_flap_are_refused_in_one_sentence(
    options: list[str], fragment: str
) -> None:
    with pytest.raises(StartupError) as refused:
        watch_for(_parser().parse_args(["serve", *options]))
    assert fragment in str(refused.value)
    assert "\n" not in str(refused.value)
