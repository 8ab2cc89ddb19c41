"""Where the keyboard is on the schedules sheet: the highlight, the opened mark, focus requests.

The highlight (the focus ring, ``selected_id``) moves with ↑/↓; the opened
mark (``opened_id``) stays on the row the detail shows, and Escape brings the
highlight back to it. Ctrl+F and Enter ask the view to move the keyboard focus
(into the search field, onto the detail's heading) by growing a counter.
"""

from __future__ import annotations

from dataclasses import replace
from uuid import UUID

from viewmodels.observable import Observable
from viewmodels.schedule_list.snapshot import ScheduleListSnapshot


class KeyboardMarks(Observable[ScheduleListSnapshot]):
    """The schedules sheet's keyboard commands, over its snapshot."""

    def focus_search(self) -> None:
        """Ctrl+F or /: the view moves the keyboard focus into the search field."""
        self._publish(
            replace(self.snapshot, search_focus_requests=self.snapshot.search_focus_requests + 1)
        )

    def select(self, schedule_id: UUID | None) -> None:
        """Move the keyboard's highlight (the focus ring) to a row; the opened mark stays."""
        self._publish(replace(self.snapshot, selected_id=schedule_id))

    def mark_opened(self, schedule_id: UUID) -> None:
        """The detail shows ``schedule_id``: its row takes both the opened mark and the highlight.

        The two marks part when ↑/↓ then move the highlight: the opened mark
        stays on the row the detail still shows.
        """
        self._publish(replace(self.snapshot, selected_id=schedule_id, opened_id=schedule_id))

    def focus_detail_heading(self) -> None:
        """Enter opened the highlighted row: the view moves the focus to the detail's heading."""
        self._publish(
            replace(self.snapshot, heading_focus_requests=self.snapshot.heading_focus_requests + 1)
        )

    def close_opened(self) -> None:
        """The detail closed: the highlight goes back to the row that was opened.

        So Escape returns the keyboard to the list where the reader left it,
        not to wherever ↑/↓ had wandered while the detail was open.
        """
        opened = self.snapshot.opened_id
        if opened is None:
            return
        self._publish(replace(self.snapshot, selected_id=opened, opened_id=None))

    def select_next(self) -> UUID | None:
        """Keyboard down: the row after the selection (the first row when none)."""
        return self._move_selection(+1)

    def select_previous(self) -> UUID | None:
        """Keyboard up: the row before the selection (the last row when none)."""
        return self._move_selection(-1)

    def _move_selection(self, step: int) -> UUID | None:
        rows = self.snapshot.rows
        if not rows:
            return self.snapshot.selected_id
        ids = [row.schedule_id for row in rows]
        current = self.snapshot.selected_id
        if current in ids:
            index = min(max(ids.index(current) + step, 0), len(ids) - 1)
        else:
            index = 0 if step > 0 else len(ids) - 1
        self.select(ids[index])
        return ids[index]
