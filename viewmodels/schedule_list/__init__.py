"""The schedules sheet: Current and Recent History, paged safely."""

from __future__ import annotations

from viewmodels.schedule_list.snapshot import (
    BROWSING_UNAVAILABLE_TEXT,
    ListPhase,
    ListSection,
    ScheduleListSnapshot,
    ScheduleRow,
)

__all__ = [
    "BROWSING_UNAVAILABLE_TEXT",
    "ListPhase",
    "ListSection",
    "ScheduleListSnapshot",
    "ScheduleRow",
]
