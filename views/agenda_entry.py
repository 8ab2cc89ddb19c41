"""The Agenda destination's entry, beside Schedules in the sidebar (the drawer on a phone)."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from viewmodels.agenda import AGENDA_ENTRY_LABEL
from views.binding import use_snapshot
from views.screen_models import NavigationModel
from views.sidebar_rows import destination_entry
from views.words import use_words


@ft.component
def AgendaEntry(
    navigation: NavigationModel,
    show: Callable[[str], None],
    ref: ft.Ref[ft.TextButton] | None = None,
) -> ft.Control:
    """Selected while the agenda (or a detail opened from it) is shown."""
    location = use_snapshot(navigation)
    return destination_entry(
        ft.Icons.VIEW_AGENDA_OUTLINED,
        use_words().gettext(AGENDA_ENTRY_LABEL),
        selected=location.place.in_agenda,
        on_tap=lambda: show(navigation.show_agenda()),
        ref=ref,
    )
