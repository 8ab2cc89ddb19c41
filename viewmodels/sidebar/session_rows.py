"""A session's sidebar row, reused when nothing it shows has changed.

A regroup of ten thousand sessions must not allocate ten thousand rows when a
minute passes: the previous row is kept (and so compares by identity in the
views) unless its age line, selection, title, schedule or folder changed.
The compares are the cheapest ones (identity first for the optional ids).

A new row is made without the frozen dataclass's ``__init__``: that one sets
each field through ``object.__setattr__`` looked up by name, and for ten
thousand rows of seven fields that was the largest cost of a first build. The
row is filled through its slots' own setters instead (one C call per field),
once, before anyone holds it; it is the same frozen ``SessionRow`` after.
"""

from __future__ import annotations

from viewmodels.sidebar.history_cache import CachedSession
from viewmodels.sidebar.snapshot import SessionRow

_new_row = object.__new__
_slot = SessionRow.__dict__
_set_session_id = _slot["session_id"].__set__
_set_title = _slot["title"].__set__
_set_age_text = _slot["age_text"].__set__
_set_schedule_id = _slot["schedule_id"].__set__
_set_folder_id = _slot["folder_id"].__set__
_set_can_move_to_folder = _slot["can_move_to_folder"].__set__
_set_selected = _slot["selected"].__set__


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
    row: SessionRow = _new_row(SessionRow)
    _set_session_id(row, session.session_id)
    _set_title(row, session.title)
    _set_age_text(row, age_text)
    _set_schedule_id(row, session.schedule_id)
    _set_folder_id(row, session.folder_id)
    _set_can_move_to_folder(row, session.schedule_id is None)
    _set_selected(row, selected)
    return row
