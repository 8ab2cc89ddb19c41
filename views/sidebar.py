"""The sidebar: the Schedules, Agenda and Settings entries, then Folders, Scheduled groups
and History.

Sections appear in the view model's order, only when it offers them; in a
hosted web view the header names the signed-in person and offers Sign out. A
schedule group expands in place; collapsed, a dot marks the open session
inside it; its count is a number badge and an ended schedule's group says so.
Group and session rows show keyboard focus as a ring, like the list's rows, and
each session row its firing's outcome as words and an icon. A title too long
for its row is cut short: the row's accessible name holds it whole, and the
transcript it opens shows it as its heading. No hover tooltip (see
``views.actions``: it takes the focus from a text field).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast
from uuid import UUID

import flet as ft

from viewmodels.formatting.marks import MarkKind
from viewmodels.formatting.shared_words import APP_NAME, RETRY_LABEL
from viewmodels.sidebar import ScheduleGroup, SessionRow
from viewmodels.sidebar.snapshot import (
    FOLDERS_HEADING,
    HISTORY_HEADING,
    SCHEDULED_HEADING,
    SCHEDULES_ENTRY_LABEL,
)
from viewmodels.sign_in.snapshot import SIGN_OUT_LABEL
from views.agenda_entry import AgendaEntry
from views.binding import go, run_command, use_snapshot
from views.look import FOCUS_RING_WIDTH
from views.screen_models import AccountModel, NavigationModel, SidebarModel
from views.settings import SettingsEntry


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
    on_schedules = use_snapshot(navigation).place.shows_schedules
    list_view = ft.use_ref(cast(ft.ListView | None, None))
    revealed = snapshot.revealed_schedule_id

    def scroll_to_revealed() -> None:
        # Show in the sidebar: bring the (now expanded) group into sight.
        if revealed is not None and list_view.current is not None:
            ft.context.page.run_task(
                list_view.current.scroll_to, scroll_key=reveal_key(revealed), duration=150
            )

    ft.use_effect(scroll_to_revealed, [revealed])

    def show(route: str) -> None:
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
        *([_account_row(account)] if account is not None else []),
        ft.ListTile(
            leading=ft.Icon(ft.Icons.CALENDAR_MONTH),
            title=ft.Text(SCHEDULES_ENTRY_LABEL),
            selected=snapshot.schedules_selected and on_schedules,
            on_click=lambda: show_schedules(),
            shape=ft.StadiumBorder(),
            selected_tile_color=ft.Colors.SECONDARY_CONTAINER,
            selected_color=ft.Colors.ON_SECONDARY_CONTAINER,
        ),
        AgendaEntry(navigation, show),
        SettingsEntry(navigation, show),
    ]
    if snapshot.shows_progress:
        entries.append(ft.ProgressBar(height=2, semantics_label=snapshot.progress_text))
    if snapshot.error:
        entries.append(
            ft.Container(
                content=ft.Row(
                    [
                        ft.Text(snapshot.error, size=12, color=ft.Colors.ERROR, expand=True),
                        ft.TextButton(RETRY_LABEL, on_click=lambda: run_command(model.refresh)),
                    ]
                ),
                padding=ft.Padding.symmetric(horizontal=16),
            )
        )
    if snapshot.shows_folders:
        entries.append(_section(FOLDERS_HEADING))
        for folder in snapshot.folders or ():
            entries.append(
                ft.ListTile(
                    leading=ft.Icon(ft.Icons.FOLDER_OUTLINED),
                    title=ft.Text(folder.name),
                    dense=True,
                )
            )
            entries.extend(_session_tile(row, show_session, indent=True) for row in folder.rows)
    if snapshot.shows_scheduled:
        entries.append(_section(SCHEDULED_HEADING))
        for group in snapshot.scheduled:
            entries.append(_group_tile(group, model, revealed=group.schedule_id == revealed))
            if group.expanded:
                entries.extend(_session_tile(row, show_session, indent=True) for row in group.rows)
    if snapshot.history:
        entries.append(_section(HISTORY_HEADING))
        entries.extend(
            _session_tile(row, show_session, revealed=revealed) for row in snapshot.history
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


def reveal_key(schedule_id: UUID) -> str:
    """The scroll key of a schedule's group (or its one session's row)."""
    return f"schedule-{schedule_id}"


def _account_row(account: AccountModel) -> ft.Control:
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
                ft.TextButton(SIGN_OUT_LABEL, on_click=lambda: run_command(account.sign_out)),
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


def _group_tile(group: ScheduleGroup, model: SidebarModel, *, revealed: bool) -> ft.Control:
    """The title takes the room; the count is a number badge, an ended schedule says so."""
    trailing: list[ft.Control] = []
    if group.shows_selection_marker:
        trailing.append(
            ft.Container(
                width=8,
                height=8,
                bgcolor=ft.Colors.PRIMARY,
                border_radius=ft.BorderRadius.all(4),
            )
        )
    if group.ended_text:
        trailing.append(
            ft.Container(
                content=ft.Text(group.ended_text, size=11, color=ft.Colors.ON_SURFACE_VARIANT),
                border=ft.Border.all(1, ft.Colors.OUTLINE),
                border_radius=ft.BorderRadius.all(8),
                padding=ft.Padding.symmetric(horizontal=6, vertical=1),
            )
        )
    trailing.append(
        ft.Container(
            content=ft.Text(group.count_badge, size=11, color=ft.Colors.ON_SECONDARY_CONTAINER),
            bgcolor=ft.Colors.SECONDARY_CONTAINER,
            border_radius=ft.BorderRadius.all(10),
            padding=ft.Padding.symmetric(horizontal=7, vertical=1),
        )
    )

    def toggle() -> None:
        run_command(model.toggle_group, group.schedule_id)

    tile = _tile(
        ft.Icon(ft.Icons.EXPAND_MORE if group.expanded else ft.Icons.CHEVRON_RIGHT, size=20),
        ft.Text(group.label, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS),
        None,
        ft.Row(trailing, tight=True, spacing=4),
        on_tap=toggle,
        fill=ft.Colors.TERTIARY_CONTAINER if revealed else None,
        indent=8,
    )
    return _row_button(
        tile,
        group.accessibility_label,
        toggle,
        scroll_key=reveal_key(group.schedule_id),
        expanded=group.expanded,
    )


def _session_tile(
    row: SessionRow,
    show_session: Callable[[UUID], None],
    *,
    indent: bool = False,
    revealed: UUID | None = None,
) -> ft.Control:
    """A session row; a lone scheduled session in History is where its schedule is revealed."""
    lone = not indent and row.schedule_id is not None
    subtitle = ft.Text(
        row.detail_line,
        size=12,
        max_lines=1,
        overflow=ft.TextOverflow.ELLIPSIS,
        color=ft.Colors.ERROR if row.outcome_mark in _WARNING_MARKS else None,
    )

    def open_row() -> None:
        show_session(row.session_id)

    fill = ft.Colors.TERTIARY_CONTAINER if lone and row.schedule_id == revealed else None
    tile = _tile(
        ft.Icon(
            ft.Icons.CHAT_BUBBLE_OUTLINE
            if row.outcome_mark is None
            else _OUTCOME_ICONS.get(row.outcome_mark, ft.Icons.CHAT_BUBBLE_OUTLINE),
            size=18,
        ),
        ft.Text(row.title, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS),
        subtitle,
        None,
        on_tap=open_row,
        fill=ft.Colors.SECONDARY_CONTAINER if row.selected else fill,
        indent=32 if indent else 8,
    )
    return _row_button(
        tile,
        row.accessibility_label,
        open_row,
        scroll_key=reveal_key(row.schedule_id) if lone and row.schedule_id is not None else None,
        selected=row.selected,
    )


_OUTCOME_ICONS = {
    MarkKind.RAN: ft.Icons.CHECK_CIRCLE_OUTLINE,
    MarkKind.RUNNING: ft.Icons.PENDING_OUTLINED,
    MarkKind.FAILED: ft.Icons.ERROR_OUTLINE,
    MarkKind.MISSED: ft.Icons.REMOVE_CIRCLE_OUTLINE,
    MarkKind.SKIPPED: ft.Icons.SKIP_NEXT,
    MarkKind.REFUSED: ft.Icons.BLOCK,
    MarkKind.NOT_RUN: ft.Icons.HIGHLIGHT_OFF,
    MarkKind.NO_RECORD: ft.Icons.HELP_OUTLINE,
}
"""A session's firing outcome as a shape (never colour alone); a chat keeps its bubble."""
_WARNING_MARKS = (MarkKind.FAILED, MarkKind.MISSED, MarkKind.REFUSED, MarkKind.NOT_RUN)


def _tile(
    leading: ft.Control,
    title: ft.Control,
    subtitle: ft.Control | None,
    trailing: ft.Control | None,
    *,
    on_tap: Callable[[], None],
    fill: str | None,
    indent: int,
) -> ft.Control:
    """One sidebar row as a button whose keyboard focus is a ring, as the list's rows have.

    The ring (the scheme's primary, ``FOCUS_RING_WIDTH``) replaces the faint
    focus fill; a transparent side of the same width keeps the row from moving.
    """
    text = ft.Column([title, subtitle] if subtitle is not None else [title], spacing=0, tight=True)
    parts: list[ft.Control] = [leading, ft.Container(content=text, expand=True)]
    if trailing is not None:
        parts.append(trailing)
    return ft.TextButton(
        content=ft.Row(parts, spacing=12),
        on_click=lambda: on_tap(),
        style=ft.ButtonStyle(
            shape=ft.StadiumBorder(),
            padding=ft.Padding.only(left=indent + 8, right=12, top=6, bottom=6),
            bgcolor=fill,
            color=ft.Colors.ON_SURFACE,
            alignment=ft.Alignment.CENTER_LEFT,
            overlay_color={
                ft.ControlState.FOCUSED: ft.Colors.TRANSPARENT,
                ft.ControlState.DEFAULT: ft.Colors.with_opacity(0.08, ft.Colors.ON_SURFACE),
            },
            side={
                ft.ControlState.FOCUSED: ft.BorderSide(FOCUS_RING_WIDTH, ft.Colors.PRIMARY),
                ft.ControlState.DEFAULT: ft.BorderSide(FOCUS_RING_WIDTH, ft.Colors.TRANSPARENT),
            },
        ),
    )


def _row_button(
    tile: ft.Control,
    label: str,
    on_tap: Callable[[], None],
    *,
    scroll_key: str | None,
    selected: bool | None = None,
    expanded: bool | None = None,
) -> ft.Control:
    """A row as one button for screen readers, named by the view model's sentence."""
    return ft.Semantics(
        content=tile,
        label=label,
        button=True,
        selected=selected,
        expanded=expanded,
        container=True,
        exclude_semantics=True,
        on_tap=on_tap,
        key=ft.ScrollKey(scroll_key) if scroll_key is not None else None,  # type: ignore[call-arg]
    )
