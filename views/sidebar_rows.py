"""The sidebar's rows: a destination's entry, a schedule's group and a session, each one button.

A destination (Schedules, Agenda, Settings) is its icon and name, filled while
chosen. A group's title takes the row, its count a number badge, an ended
schedule's state beside it; a session row says its firing's outcome in words
and an icon. All show keyboard focus as a ring, like the list's rows; groups
and sessions carry a scroll key so that Show in the sidebar can bring them into view.
"""

from __future__ import annotations

from collections.abc import Callable
from uuid import UUID

import flet as ft

from viewmodels.formatting.marks import MarkKind
from viewmodels.sidebar import ScheduleGroup, SessionRow
from views.binding import run_command
from views.look import FOCUS_RING_WIDTH
from views.screen_models import SidebarModel

ENTRY_HEIGHT = 48
"""Pixels: a destination's entry, as tall as a Material list tile."""


def reveal_key(schedule_id: UUID) -> str:
    """The scroll key of a schedule's group (or its one session's row)."""
    return f"schedule-{schedule_id}"


def destination_entry(
    icon: ft.IconData,
    label: str,
    *,
    selected: bool,
    on_tap: Callable[[], None],
    ref: ft.Ref[ft.TextButton] | None = None,
) -> ft.Control:
    """A destination's entry (Schedules, Agenda, Settings), filled while chosen.

    ``ref`` follows its button, for the focus to come back to it.
    """
    return _tile(
        ft.Icon(icon, size=24),
        ft.Text(label, size=16),
        None,
        None,
        label=label,
        on_tap=on_tap,
        fill=ft.Colors.SECONDARY_CONTAINER if selected else None,
        indent=8,
        color=ft.Colors.ON_SECONDARY_CONTAINER if selected else ft.Colors.ON_SURFACE,
        height=ENTRY_HEIGHT,
        selected=selected,
        ref=ref,
    )


def group_tile(group: ScheduleGroup, model: SidebarModel, *, revealed: bool) -> ft.Control:
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
        label=group.accessibility_label,
        on_tap=toggle,
        fill=ft.Colors.TERTIARY_CONTAINER if revealed else None,
        indent=8,
        expanded=group.expanded,
    )
    return _keyed(tile, reveal_key(group.schedule_id))


def session_tile(
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
        label=row.accessibility_label,
        on_tap=open_row,
        fill=ft.Colors.SECONDARY_CONTAINER if row.selected else fill,
        indent=32 if indent else 8,
        selected=row.selected,
    )
    if lone and row.schedule_id is not None:
        return _keyed(tile, reveal_key(row.schedule_id))
    return tile


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
    label: str,
    on_tap: Callable[[], None],
    fill: str | None,
    indent: int,
    color: str = ft.Colors.ON_SURFACE,
    height: int | None = None,
    selected: bool | None = None,
    expanded: bool | None = None,
    ref: ft.Ref[ft.TextButton] | None = None,
) -> ft.Control:
    """One sidebar row as a button whose keyboard focus is a ring, as the list's rows have.

    The ring (the scheme's primary, ``FOCUS_RING_WIDTH``) replaces the faint
    focus fill; a transparent side of the same width keeps the row from moving.
    The button's own node is named ``label`` (the view model's sentence, merged
    from a wrapper inside it, the texts left out), so the page's focus lands
    on a node a screen reader names, and it says the row's selected and
    expanded states.
    """
    text = ft.Column([title, subtitle] if subtitle is not None else [title], spacing=0, tight=True)
    parts: list[ft.Control] = [leading, ft.Container(content=text, expand=True)]
    if trailing is not None:
        parts.append(trailing)
    button = ft.TextButton(
        content=ft.Semantics(
            content=ft.Row(parts, spacing=12),
            label=label,
            selected=selected,
            expanded=expanded,
            exclude_semantics=True,
        ),
        on_click=lambda: on_tap(),
        height=height,
        ref=ref,
        style=ft.ButtonStyle(
            shape=ft.StadiumBorder(),
            padding=ft.Padding.only(left=indent + 8, right=12, top=6, bottom=6),
            bgcolor=fill,
            color=color,
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
    return ft.MergeSemantics(content=button)


def _keyed(tile: ft.Control, scroll_key: str) -> ft.Control:
    """A row Show in the sidebar can scroll to."""
    return ft.Container(content=tile, key=ft.ScrollKey(scroll_key))  # type: ignore[call-arg]
