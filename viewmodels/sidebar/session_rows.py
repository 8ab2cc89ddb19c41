"""A session's sidebar row, reused when nothing it shows has changed.

A regroup of ten thousand sessions must not allocate ten thousand rows when a
minute passes: the previous row is kept (and so compares by identity in the
views) unless its age line, selection, title, schedule or folder changed.
The compares are the cheapest ones (identity first for the optional ids).
"""

from __future__ import annotations

from viewmodels.sidebar.history_cache import CachedSession
from viewmodels.sidebar.snapshot import SessionRow


def session_row(
    session: CachedSession, age_text: str, selected: bool, previous: SessionRow | None
) -> SessionRow:
    """``previous`` when it still shows ``session`` as given, else a new row."""
    if (
        previous is not None
        and previous.age_text == age_text
        and previous.selected == selected
        and previous.title == session.title
        and (
            previous.schedule_id is session.schedule_id
            or previous.schedule_id == session.schedule_id
        )
        and (previous.folder_id is session.folder_id or previous.folder_id == session.folder_id)
    ):
        return previous
    # Positional arguments: keyword matching adds a third to the cost of a row.
    return SessionRow(
        session.session_id,
        session.title,
        age_text,
        session.schedule_id,
        session.folder_id,
        session.schedule_id is None,  # can_move_to_folder
        selected,
    )
