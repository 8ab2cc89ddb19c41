"""The sidebar: the Schedules, Agenda and Settings entries, then Folders, Scheduled groups
and History.

Sections appear in the view model's order, only when it offers them; in a
hosted web view the header names the signed-in person and offers Sign out. A
schedule group expands in place; collapsed, a dot marks the open session
inside it (its rows: ``views.sidebar_rows``). A title too long for its row is
cut short: the row's accessible name holds it whole, and the transcript it
opens shows it as its heading. No hover tooltip (see ``views.actions``: it
takes the focus from a text field). Leaving Settings or the Agenda (Escape,
Back) gives the keyboard focus back to its entry.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast
from uuid import UUID

import flet as ft

from viewmodels.formatting.shared_words import APP_NAME, RETRY_LABEL
from viewmodels.language import Words
from viewmodels.navigation import Place
from viewmodels.sidebar.snapshot import (
    FOLDERS_HEADING,
    HISTORY_HEADING,
    SCHEDULED_HEADING,
    SCHEDULES_ENTRY_LABEL,
)
from viewmodels.sign_in.snapshot import SIGN_OUT_LABEL
from views.agenda_entry import AgendaEntry
from views.binding import Held, focus_soon, go, run_command, scroll_soon, use_snapshot
from views.screen_models import AccountModel, NavigationModel, SidebarModel
from views.settings import SettingsEntry
from views.sidebar_rows import destination_entry, group_tile, reveal_key, session_tile
from views.words import use_words


@ft.component
def Sidebar(
    model: SidebarModel,
    navigation: NavigationModel,
    on_chosen: Callable[[str], None] | None = None,
    account: AccountModel | None = None,
) -> ft.Control:
    """``on_chosen(route)`` runs after an entry is chosen (a phone closes its drawer);
    ``account``, in a hosted web view, adds the signed-in name and Sign out."""
    snapshot = use_snapshot(model)
    words = use_words()
    place = use_snapshot(navigation).place
    on_schedules = place.shows_schedules
    # In a phone's drawer the entries are out of sight once it closes: no focus goes there.
    in_drawer = on_chosen is not None
    agenda_entry, settings_entry, chose_entry = _use_return_to_entries(place, in_drawer)
    list_view = ft.use_ref(cast(ft.ListView | None, None))
    revealed = snapshot.revealed_schedule_id

    def scroll_to_revealed() -> None:
        # Show in the sidebar: bring the (now expanded) group into sight.
        if revealed is not None and list_view.current is not None:
            scroll_soon(list_view.current, reveal_key(revealed))

    ft.use_effect(scroll_to_revealed, [revealed])

    def show(route: str) -> None:
        chose_entry.current = True
        go(route)
        if on_chosen is not None:
            on_chosen(route)

    def show_schedules() -> None:
        show(navigation.show_schedules())

    def show_session(session_id: UUID) -> None:
        show(navigation.open_session(session_id))

    entries: list[ft.Control] = [
        ft.Container(
            content=ft.Text(
                APP_NAME,
                theme_style=ft.TextThemeStyle.TITLE_MEDIUM,
                weight=ft.FontWeight.W_600,
            ),
            padding=ft.Padding.only(left=20, top=20, bottom=8),
        ),
        *([_account_row(account, words)] if account is not None else []),
        destination_entry(
            ft.Icons.CALENDAR_MONTH,
            words.gettext(SCHEDULES_ENTRY_LABEL),
            selected=snapshot.schedules_selected and on_schedules,
            on_tap=show_schedules,
        ),
        AgendaEntry(navigation, show, agenda_entry),
        SettingsEntry(navigation, show, settings_entry),
    ]
    if snapshot.shows_progress:
        entries.append(ft.ProgressBar(height=2, semantics_label=snapshot.progress_text))
    if snapshot.error:
        entries.append(
            ft.Container(
                content=ft.Row(
                    [
                        ft.Text(snapshot.error, size=12, color=ft.Colors.ERROR, expand=True),
                        ft.TextButton(
                            words.gettext(RETRY_LABEL), on_click=lambda: run_command(model.refresh)
                        ),
                    ]
                ),
                padding=ft.Padding.symmetric(horizontal=16),
            )
        )
    if snapshot.shows_folders:
        entries.append(_section(words.gettext(FOLDERS_HEADING)))
        for folder in snapshot.folders or ():
            entries.append(
                ft.ListTile(
                    leading=ft.Icon(ft.Icons.FOLDER_OUTLINED),
                    title=ft.Text(folder.name),
                    dense=True,
                )
            )
            entries.extend(session_tile(row, show_session, indent=True) for row in folder.rows)
    if snapshot.shows_scheduled:
        entries.append(_section(words.gettext(SCHEDULED_HEADING)))
        for group in snapshot.scheduled:
            entries.append(group_tile(group, model, revealed=group.schedule_id == revealed))
            if group.expanded:
                entries.extend(session_tile(row, show_session, indent=True) for row in group.rows)
    if snapshot.history:
        entries.append(_section(words.gettext(HISTORY_HEADING)))
        entries.extend(
            session_tile(row, show_session, revealed=revealed) for row in snapshot.history
        )
    if snapshot.empty_text:
        entries.append(
            ft.Container(
                content=ft.Text(snapshot.empty_text, size=13, color=ft.Colors.ON_SURFACE_VARIANT),
                padding=ft.Padding.only(left=20, top=16),
            )
        )
    listing = ft.ListView(entries, spacing=2, padding=ft.Padding.only(left=8, right=8, bottom=16))
    list_view.current = listing
    return listing


def _use_return_to_entries(
    place: Place, in_drawer: bool
) -> tuple[ft.Ref[ft.TextButton], ft.Ref[ft.TextButton], Held[bool]]:
    """Leaving Settings or the Agenda (Escape, Back) gives the focus back to its entry,
    unless the entries are in a drawer (closed by then).

    Returns the Agenda and Settings entries' refs and the flag ``show`` sets
    when the sidebar itself chose where to go: then the focus stays where the
    person put it.
    """
    agenda = ft.use_memo(lambda: ft.Ref[ft.TextButton](), [])
    settings = ft.use_memo(lambda: ft.Ref[ft.TextButton](), [])
    chose_entry: Held[bool] = ft.use_ref(False)
    left: Held[Place] = ft.use_ref(place)

    def return_focus() -> None:
        before, left.current = left.current, place
        chosen, chose_entry.current = chose_entry.current, False
        if chosen or in_drawer or before is None:
            return
        if before is Place.SETTINGS and place is not Place.SETTINGS:
            entry = settings.current
        elif before.in_agenda and not place.in_agenda:
            entry = agenda.current
        else:
            return
        if entry is not None:
            focus_soon(entry)

    ft.use_effect(return_focus, [place])
    return agenda, settings, chose_entry


def _account_row(account: AccountModel, words: Words) -> ft.Control:
    return ft.Container(
        content=ft.Row(
            [
                ft.Icon(ft.Icons.ACCOUNT_CIRCLE_OUTLINED, size=20),
                ft.Text(
                    account.snapshot.signed_in_text,
                    size=13,
                    color=ft.Colors.ON_SURFACE_VARIANT,
                    max_lines=2,
                    overflow=ft.TextOverflow.ELLIPSIS,
                    expand=True,
                ),
                ft.TextButton(
                    words.gettext(SIGN_OUT_LABEL), on_click=lambda: run_command(account.sign_out)
                ),
            ],
            spacing=8,
        ),
        padding=ft.Padding.only(left=20, right=8, bottom=8),
    )


def _section(title: str) -> ft.Control:
    return ft.Container(
        content=ft.Text(
            title,
            size=12,
            weight=ft.FontWeight.W_600,
            color=ft.Colors.ON_SURFACE_VARIANT,
        ),
        padding=ft.Padding.only(left=16, top=16, bottom=4),
    )
