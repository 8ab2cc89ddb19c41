"""The Agenda destination's entry, beside Schedules in the sidebar (the drawer on a phone)."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from viewmodels.agenda import AGENDA_ENTRY_LABEL
from views.binding import use_snapshot
from views.screen_models import NavigationModel


@ft.component
def AgendaEntry(navigation: NavigationModel, show: Callable[[str], None]) -> ft.Control:
    """Selected while the agenda (or a detail opened from it) is shown."""
    location = use_snapshot(navigation)
    return ft.ListTile(
        leading=ft.Icon(ft.Icons.VIEW_AGENDA_OUTLINED),
        title=ft.Text(AGENDA_ENTRY_LABEL),
        selected=location.place.in_agenda,
        on_click=lambda: show(navigation.show_agenda()),
        shape=ft.StadiumBorder(),
        selected_tile_color=ft.Colors.SECONDARY_CONTAINER,
        selected_color=ft.Colors.ON_SECONDARY_CONTAINER,
    )
