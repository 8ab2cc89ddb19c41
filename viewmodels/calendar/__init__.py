"""The detail's Calendar section: a month grid of the schedule's server-computed projection."""

from __future__ import annotations

from viewmodels.calendar.snapshot import (
    MARK_WORDS,
    NEXT_MONTH_LABEL,
    PREVIOUS_MONTH_LABEL,
    CalendarPhase,
    CalendarSnapshot,
    DayCell,
    DayLine,
    DayMark,
    MarkKind,
)
from viewmodels.calendar.view_model import CalendarViewModel

__all__ = [
    "MARK_WORDS",
    "NEXT_MONTH_LABEL",
    "PREVIOUS_MONTH_LABEL",
    "CalendarPhase",
    "CalendarSnapshot",
    "CalendarViewModel",
    "DayCell",
    "DayLine",
    "DayMark",
    "MarkKind",
]
