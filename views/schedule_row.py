"""One schedule row of the list, memoized so a new page costs only its own rows.

``ScheduleRowTile`` is an ``ft.memo`` component: when its props are unchanged
(compared by ``is`` or ``==``) Flet reuses the previous body, which the diff
then skips. That holds only while every prop is stable: the frozen
``ScheduleRow`` the view model keeps across pages, the ``focused`` ring,
``opened`` fill and ``tab_stop`` flags, and the one ``RowActions`` the list
hands in. The list is one Tab stop (a roving focus): only the ``tab_stop`` row
is a focusable button, named by the row's sentence; the others take clicks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol
from uuid import UUID

import flet as ft

from viewmodels.schedule_list import ScheduleRow
from viewmodels.schedule_list.search_match import TextSpan
from views.look import FOCUS_RING_WIDTH, OPENED_BAR_WIDTH
from views.status_panels import state_chip


@dataclass(frozen=True, slots=True, eq=False)
class RowActions:
    """What the rows do, one object for the list's lifetime (so memoized rows stay skipped).

    ``buttons`` is given each Tab stop's ref to its button as it is drawn (the
    ref follows the control Flet keeps), so the list can move the focus onto it;
    ``drawn`` is told once a Tab stop's button is on the page (a focus waiting
    for that row is served then, whichever of the list and the row drew last).
    """

    open_schedule: Callable[[UUID], None]
    took_focus: Callable[[UUID], None]
    lost_focus: Callable[[UUID], None]
    buttons: dict[UUID, ft.Ref[ft.TextButton]]
    drawn: Callable[[UUID], None]


class RowTile(Protocol):
    """The memoized row's call shape; ``key`` is Flet's reconciliation key."""

    def __call__(
        self,
        row: ScheduleRow,
        focused: bool,
        opened: bool,
        tab_stop: bool,
        actions: RowActions,
        *,
        key: str,
    ) -> ft.Control: ...


def _schedule_row(
    row: ScheduleRow, focused: bool, opened: bool, tab_stop: bool, actions: RowActions
) -> ft.Control:
    """One schedule; its accessible name is the view model's sentence, title first.

    Two marks that never look alike: the opened row (the detail shows it) is
    filled, with an accent bar at its leading edge; the keyboard's highlight
    is a ring (``views.look``: at least 3:1 against the page and the fill).
    The tree marks the highlight ``aria-current``; the opened row's name says so.
    The Tab stop taking the focus becomes the highlight, so focus and ring agree.
    """
    ft.use_effect(lambda: actions.drawn(row.schedule_id) if tab_stop else None)
    details: list[ft.Control] = [
        ft.Row(
            [
                ft.Text(
                    row.title if not row.title_spans else "",
                    spans=_spans(row.title_spans),
                    weight=ft.FontWeight.W_600,
                    size=15,
                    max_lines=1,
                    overflow=ft.TextOverflow.ELLIPSIS,
                    expand=True,
                ),
                state_chip(row.state_label, row.state_tone, on_selected=opened),
            ],
            spacing=8,
        ),
    ]
    if row.pause_reason_text:
        details.append(
            ft.Text(row.pause_reason_text, size=12, color=ft.Colors.TERTIARY, italic=True)
        )
    if row.attention_text:
        details.append(_warning_line(ft.Icons.WARNING_AMBER, row.attention_text))
    details.append(_line(ft.Icons.REPEAT, row.cadence_summary))
    if row.next_fire_text and row.next_fire_overdue:
        details.append(_warning_line(ft.Icons.TIMER_OFF, row.next_fire_text))
    elif row.next_fire_text:
        details.append(_line(ft.Icons.SCHEDULE, row.next_fire_text))
    if row.ended_text:
        details.append(_line(ft.Icons.EVENT_BUSY, row.ended_text))
    if row.match_text:
        details.append(_line(ft.Icons.MANAGE_SEARCH, row.match_text))
    if row.preview:
        details.append(
            ft.Text(
                row.preview if not row.preview_spans else "",
                spans=_spans(row.preview_spans),
                size=13,
                color=ft.Colors.ON_SURFACE_VARIANT,
                max_lines=2,
                overflow=ft.TextOverflow.ELLIPSIS,
            )
        )
    if row.website_badge:
        details.append(ft.Row([_website_badge(row.website_badge, warning=row.website_warning)]))

    def open_row() -> None:
        actions.open_schedule(row.schedule_id)

    face = ft.Container(
        content=ft.Column(details, spacing=4, tight=True),
        alignment=ft.Alignment.TOP_LEFT,  # the whole width, inside a button too
        padding=ft.Padding.symmetric(horizontal=16, vertical=12),
        bgcolor=ft.Colors.SECONDARY_CONTAINER if opened else None,
        border=ft.Border(
            left=ft.BorderSide(
                OPENED_BAR_WIDTH if opened else FOCUS_RING_WIDTH,
                ft.Colors.PRIMARY if opened or focused else ft.Colors.TRANSPARENT,
            ),
            top=_ring(focused),
            right=_ring(focused),
            bottom=_ring(focused),
        ),
        border_radius=ft.BorderRadius.all(12),
    )
    label = row.opened_accessibility_label if opened else row.accessibility_label
    margin = ft.Margin.symmetric(horizontal=8, vertical=2)
    scroll_key = ft.ScrollKey(str(row.schedule_id))  # type: ignore[call-arg]
    if tab_stop:
        # The button's own node is named by the sentence (merged from the
        # wrapper), so the page's focus lands on a node a screen reader names.
        button: ft.Ref[ft.TextButton] = ft.Ref()
        actions.buttons[row.schedule_id] = button
        control = ft.TextButton(
            content=ft.Semantics(
                content=face, label=label, selected=focused, exclude_semantics=True
            ),
            on_click=open_row,
            on_focus=lambda: actions.took_focus(row.schedule_id),
            on_blur=lambda: actions.lost_focus(row.schedule_id),
            style=_TAB_STOP_STYLE,
            ref=button,
        )
        return ft.Container(
            content=ft.MergeSemantics(content=control), margin=margin, key=scroll_key
        )
    return ft.Semantics(
        content=ft.Container(
            content=ft.GestureDetector(
                content=face, on_tap=open_row, mouse_cursor=ft.MouseCursor.CLICK
            ),
            margin=margin,
        ),
        label=label,
        button=True,
        selected=focused,
        container=True,
        exclude_semantics=True,
        on_tap=open_row,
        key=scroll_key,
    )


_TAB_STOP_STYLE = ft.ButtonStyle(
    padding=ft.Padding.all(0),
    shape=ft.RoundedRectangleBorder(radius=12),
    color=ft.Colors.ON_SURFACE,
    # The page's body text, not a button's label: the row reads as the others.
    text_style=ft.TextStyle(size=14, weight=ft.FontWeight.W_400, letter_spacing=0.25),
    overlay_color={
        ft.ControlState.FOCUSED: ft.Colors.TRANSPARENT,
        ft.ControlState.DEFAULT: ft.Colors.with_opacity(0.08, ft.Colors.ON_SURFACE),
    },
)


# ft.memo is unannotated in Flet 1.0.5; RowTile states what it returns.
ScheduleRowTile: RowTile = ft.memo(ft.component(_schedule_row))  # type: ignore[no-untyped-call]
"""The row as a memoized component; key it by schedule id."""


def _spans(spans: tuple[TextSpan, ...]) -> list[ft.TextSpan] | None:
    """The view model's runs; a matched one is tinted and bolder, so not by colour alone."""
    if not spans:
        return None
    return [ft.TextSpan(span.text, _MATCHED if span.matched else None) for span in spans]


_MATCHED = ft.TextStyle(
    weight=ft.FontWeight.W_800,
    color=ft.Colors.ON_TERTIARY_CONTAINER,
    bgcolor=ft.Colors.TERTIARY_CONTAINER,
)


def _ring(focused: bool) -> ft.BorderSide:
    """A side of the focus ring (transparent when not focused, so nothing moves)."""
    return ft.BorderSide(FOCUS_RING_WIDTH, ft.Colors.PRIMARY if focused else ft.Colors.TRANSPARENT)


def _website_badge(text: str, *, warning: bool) -> ft.Control:
    """The ordinary chip, or (a bound sign-in that is not ready) the warning one."""
    colour = ft.Colors.ERROR if warning else ft.Colors.PRIMARY
    icon = ft.Icons.WARNING_AMBER if warning else ft.Icons.LANGUAGE
    return ft.Container(
        content=ft.Row(
            [
                ft.Icon(icon, size=14, color=colour),
                ft.Text(text, size=12, color=colour),
            ],
            spacing=4,
            tight=True,
        ),
        border=ft.Border.all(1, ft.Colors.ERROR if warning else ft.Colors.OUTLINE_VARIANT),
        border_radius=ft.BorderRadius.all(10),
        padding=ft.Padding.symmetric(horizontal=8, vertical=2),
    )


def _line(icon: ft.IconData, text: str) -> ft.Control:
    return ft.Row(
        [
            ft.Icon(icon, size=14, color=ft.Colors.ON_SURFACE_VARIANT),
            ft.Text(text, size=13, expand=True),
        ],
        spacing=6,
    )


def _warning_line(icon: ft.IconData, text: str) -> ft.Control:
    """A last firing that needs attention, an overdue one: a line in the theme's error colour."""
    return ft.Row(
        [
            ft.Icon(icon, size=14, color=ft.Colors.ERROR),
            ft.Text(text, size=13, color=ft.Colors.ERROR, expand=True, max_lines=2),
        ],
        spacing=6,
    )
