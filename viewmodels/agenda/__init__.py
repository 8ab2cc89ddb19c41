"""The Agenda screen's view model: every firing of the person's schedules, grouped by day.

- ``window``: Today, Next 7 days, Month, from the person's local midnight.
- ``rows``: one firing in words; ``days``: day headings, the Now line, the busy strip.
- ``snapshot``: what the view renders; ``view_model``: loading, paging, filters.
- ``kept_copy``: page one of each span in the device's view cache, shown offline.
"""

from __future__ import annotations

from viewmodels.agenda.snapshot import (
    AGENDA_ENTRY_LABEL,
    AGENDA_HEADING,
    FAILURE_TITLE,
    LOADING_TEXT,
    NOT_OFFERED_TEXT,
    NOW_TEXT,
    SEARCH_LABEL,
    SPANS,
    AgendaDay,
    AgendaRow,
    AgendaSnapshot,
    BusyCell,
    day_key,
)
from viewmodels.agenda.view_model import AgendaViewModel
from viewmodels.agenda.window import AgendaSpan

__all__ = [
    "AGENDA_ENTRY_LABEL",
    "AGENDA_HEADING",
    "FAILURE_TITLE",
    "LOADING_TEXT",
    "NOT_OFFERED_TEXT",
    "NOW_TEXT",
    "SEARCH_LABEL",
    "SPANS",
    "AgendaDay",
    "AgendaRow",
    "AgendaSnapshot",
    "AgendaSpan",
    "AgendaViewModel",
    "BusyCell",
    "day_key",
]
