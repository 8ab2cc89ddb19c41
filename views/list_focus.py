"""The list's roving focus: one Tab stop among the rows, moved by the arrows, returned on close.

The rows are one Tab stop (``views.schedule_row``): the highlighted row, else
the first. A Tab onto it makes it the highlight, so the ring and the focus
agree. While a row holds the focus, ↑/↓ (which move the highlight) carry the
focus along: Flutter moves its own focus in the arrow's direction too, off the
row, so a highlight move within ``ARROW_WINDOW`` of a row's blur counts as
that arrow's. The row holding the focus stays a button until the focus has
left it (Flutter would otherwise hand the focus of a removed button to
whatever held it before). When the detail closes (Escape, Back, its close
button), the focus goes back to the row it showed, the one the highlight
returns to, so a keyboard or screen reader user carries on where they left
the list.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast
from uuid import UUID

import flet as ft

from views.binding import Focusable, Held, take_focus
from views.schedule_row import RowActions
from views.screen_models import ScheduleListModel

ARROW_WINDOW = 1.0
"""Seconds within which a row's blur and a highlight move come from one arrow key."""
FOCUS_ASKS = 12
FOCUS_ASK_EVERY = 0.25
"""A row asked for the focus is asked again this often, so many times at most, until it
says it has it (its ``on_focus``)."""


@dataclass(frozen=True, slots=True)
class RowFocus:
    actions: RowActions
    """The rows' actions, the same object for the list's lifetime."""
    held: UUID | None
    """The row holding the keyboard focus, a Tab stop until the focus leaves it."""


def use_row_focus(
    model: ScheduleListModel,
    open_schedule: Callable[[UUID], None],
    selected_id: UUID | None,
    opened_id: UUID | None,
) -> RowFocus:
    held, set_held = ft.use_state(cast(UUID | None, None))
    holds: Held[UUID] = ft.use_ref(None)
    left: Held[tuple[UUID, float]] = ft.use_ref(None)
    pending: Held[UUID] = ft.use_ref(None)
    serving: Held[bool] = ft.use_ref(False)
    opened_before: Held[UUID] = ft.use_ref(opened_id)
    buttons = ft.use_memo(dict[UUID, ft.Ref[ft.TextButton]], [])

    def took_focus(schedule_id: UUID) -> None:
        if pending.current == schedule_id:
            pending.current = None  # the focus asked for has arrived
        holds.current = schedule_id
        set_held(schedule_id)
        if model.snapshot.selected_id != schedule_id:
            model.select(schedule_id)

    def lost_focus(schedule_id: UUID) -> None:
        if holds.current == schedule_id:
            holds.current = None
            left.current = (schedule_id, time.monotonic())
            set_held(None)

    def serve_pending() -> None:
        # A row is made a button by its own render: look once a render is done (the
        # list's or the row's). The request stands until the row says it has the focus:
        # a busy browser may not have drawn the button yet when the first ask arrives.
        if serving.current or pending.current is None:
            return
        serving.current = True

        async def focus() -> None:
            try:
                for _ in range(FOCUS_ASKS):
                    wanted = pending.current
                    if wanted is None:
                        return
                    button = buttons.get(wanted)
                    control: Focusable | None = None if button is None else button.current
                    if control is not None:
                        # A browser that has not drawn the button yet never answers: ask again.
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(take_focus(control), FOCUS_ASK_EVERY)
                    await asyncio.sleep(FOCUS_ASK_EVERY)
            finally:
                serving.current = False

        ft.context.page.run_task(focus)

    def drawn(schedule_id: UUID) -> None:
        if pending.current == schedule_id:
            serve_pending()

    actions = ft.use_memo(
        lambda: RowActions(open_schedule, took_focus, lost_focus, buttons, drawn),
        [open_schedule],
    )

    def follow_selection() -> None:
        # The arrow moved Flutter's focus off the row too (its own directional
        # move) a moment before the highlight moved: take the focus along.
        gone = left.current
        just_left = gone is not None and time.monotonic() - gone[1] < ARROW_WINDOW
        left.current = None
        if selected_id is not None and (holds.current not in (None, selected_id) or just_left):
            pending.current = selected_id

    def return_on_close() -> None:
        closed = opened_before.current
        opened_before.current = opened_id
        if opened_id is not None:
            pending.current = None  # another row opened: nothing to return to
        elif closed is not None:
            pending.current = closed

    ft.use_effect(follow_selection, [selected_id])
    ft.use_effect(return_on_close, [opened_id])
    ft.use_effect(serve_pending)
    return RowFocus(actions, held)
