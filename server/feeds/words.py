"""The sentences a calendar feed's events carry: the cadence, the state, what became of a firing.

A feed is read in a calendar app, where no view model of ours speaks, so the
server writes these few English sentences itself (the wire stays one
language). They name what a person acts on and never quote the instruction.
"""

from __future__ import annotations

from calendar import day_name, month_name
from collections.abc import Mapping
from typing import Final

from server.domain.cadence import Cadence, Daily, Monthly, Once, Weekly, Yearly
from server.domain.states import Disposition, PauseReason, ReasonCode, RunStatus, ScheduleState

__all__ = ["cadence_words", "firing_words", "state_words"]

_STATES: Final[Mapping[str, str]] = {
    ScheduleState.ACTIVE: "Active.",
    ScheduleState.COMPLETED: "Completed: it fires no more.",
    ScheduleState.CANCELLED: "Cancelled: it fires no more.",
}
_RUNS: Final[Mapping[str, str]] = {
    RunStatus.QUEUED: "Started: the run is waiting for its turn.",
    RunStatus.RUNNING: "Started: the run is going.",
    RunStatus.COMPLETED: "Ran: the run completed.",
    RunStatus.FAILED: "Ran: the run failed.",
    RunStatus.CANCELLED: "Ran: the run was cancelled.",
}
_NOT_RUN: Final[Mapping[str, str]] = {
    ReasonCode.MISFIRE_GRACE_EXCEEDED: "Missed: the server was down.",
    ReasonCode.ACTIVE_RUN_LIMIT: "Missed: too many runs were already going.",
    ReasonCode.PREVIOUS_RUN_IN_FLIGHT: "Skipped: the previous run was still going.",
    ReasonCode.DEFINITION_INVALID: "Not run: the schedule's definition could not be used.",
    ReasonCode.CADENCE_UNREADABLE: "Not run: the schedule's definition could not be used.",
    ReasonCode.MATERIALIZATION_FAILED: "Not run: the server could not start it.",
}
_BY_DISPOSITION: Final[Mapping[str, str]] = {
    Disposition.MISSED: "Missed.",
    Disposition.SKIPPED_OVERLAP: "Skipped: the previous run was still going.",
    Disposition.AUTHORIZATION_FAILED: "Not run: its owner lacks the permissions it needs.",
    Disposition.CONFIGURATION_FAILED: "Not run: the schedule's definition could not be used.",
}


def state_words(state: str, pause_reason: str | None) -> str:
    """What the schedule's state means for its firings."""
    if state == ScheduleState.PAUSED:
        if pause_reason == PauseReason.FAILURE_LIMIT:
            return "Paused after repeated failures: no firings until it is resumed."
        return "Paused: no firings until it is resumed."
    return _STATES.get(state, "")


def firing_words(disposition: str | None, reason_code: str | None, run_status: str | None) -> str:
    """What became of a past firing; empty for one still to come."""
    if disposition is None:
        return ""
    if disposition == Disposition.MATERIALIZED:
        return "Ran." if run_status is None else _RUNS.get(run_status, "Ran.")
    if reason_code is not None and reason_code in _NOT_RUN:
        return _NOT_RUN[reason_code]
    return _BY_DISPOSITION.get(disposition, "Not run.")


def cadence_words(cadence: Cadence) -> str:
    """The cadence in one sentence, wall time and zone included."""
    if isinstance(cadence, Once):
        return f"Once, at {cadence.at:%Y-%m-%d %H:%M} UTC."
    at = f"at {cadence.local_time:%H:%M} ({cadence.timezone})"
    match cadence:
        case Daily():
            return f"Every day {at}."
        case Weekly(weekdays=weekdays):
            return f"Every {_listed([day_name[day - 1] for day in weekdays])} {at}."
        case Monthly(days_of_month=days, last_day=last):
            chosen = [_ordinal(day) for day in days] + (["the last day"] if last else [])
            return f"Every month on {_listed(chosen)} {at}."
        case Yearly(dates=dates):
            named = [f"{month_name[d.month]} {d.day}" for d in dates]
            return f"Every year on {_listed(named)} {at}."
    return f"Repeats {at}."


def _listed(parts: list[str]) -> str:
    if len(parts) <= 2:
        return " and ".join(parts)
    return f"{', '.join(parts[:-1])} and {parts[-1]}"


def _ordinal(day: int) -> str:
    suffix = "th" if 11 <= day % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"the {day}{suffix}"
