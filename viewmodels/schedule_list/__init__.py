"""The schedules sheet: Current and Recent History, paged safely."""

from __future__ import annotations

from viewmodels.schedule_list.snapshot import (
    BROWSING_UNAVAILABLE_TEXT,
    ListSection,
    ScheduleListSnapshot,
    ScheduleRow,
)
from viewmodels.schedule_list.view_model import DEFAULT_PAGE_SIZE, ScheduleListViewModel

__all__ = [
    "BROWSING_UNAVAILABLE_TEXT",
    "DEFAULT_PAGE_SIZE",
    "ListSection",
    "ScheduleListSnapshot",
    "ScheduleListViewModel",
    "ScheduleRow",
]
