"""The list's search field, rendered only when the view model cleared it.

Keystrokes go to the view model as they are typed; the field is memoized so
that no render of the list can send it an older text than the one typed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import flet as ft

from viewmodels.schedule_list.snapshot import CLEAR_SEARCH_LABEL, SEARCH_LABEL
from views.actions import icon_action
from views.binding import Held, focus_soon, run_command, use_snapshot
from views.screen_models import ScheduleListModel
from views.words import use_words


def _search_field(model: ScheduleListModel, clears: int, ref: Held[ft.TextField]) -> ft.Control:
    """The search field: keystrokes go to the view model; the clear button and Escape empty it.

    Memoized on ``clears``: while the person types, the list re-renders on
    every answer but this field is not rendered again, so no render can send
    the field an older text than the one being typed. It renders again only
    when the view model cleared the search (``clears`` grew), or when it is
    first shown, with the search kept in the view model. A clear is the same
    field with an empty value (each keystroke wrote the typed text back to
    it, so the empty value is a change Flet sends): Escape leaves the focus
    in it, and the clear button puts the focus back in it, since Flutter's web
    engine leaves an unfocused field's accessible value at the old text.
    """
    words = use_words()

    def typed(event: ft.Event[ft.TextField]) -> None:
        run_command(model.type_query, event.control.value or "")

    def clear() -> None:
        if ref.current is not None:
            focus_soon(ref.current)
        run_command(model.clear_query)

    field = ft.TextField(
        value=model.snapshot.query,
        label=words.gettext(SEARCH_LABEL),
        prefix_icon=ft.Icons.SEARCH,
        suffix=ClearSearch(model, clear),
        dense=True,
        on_change=typed,
        expand=True,
    )
    ref.current = field
    return ft.Row([field])


@ft.component
def ClearSearch(model: ScheduleListModel, clear: Callable[[], None]) -> ft.Control:
    """The field's clear button, a Tab stop only while there is a search to clear.

    Flutter shows a field's suffix only while the field has the focus or text:
    an enabled button in an empty field would be a Tab stop drawn nowhere.
    """
    query = use_snapshot(model).query
    label = use_words().gettext(CLEAR_SEARCH_LABEL)
    return icon_action(ft.Icons.CLOSE, label, clear, disabled=not query)


class _SearchFieldTile(Protocol):
    def __call__(
        self, model: ScheduleListModel, clears: int, ref: Held[ft.TextField]
    ) -> ft.Control: ...


# ft.memo is unannotated in Flet 1.0.5; the protocol states what it returns.
SearchField: _SearchFieldTile = ft.memo(ft.component(_search_field))  # type: ignore[no-untyped-call]
