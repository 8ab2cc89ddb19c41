"""One schedule row of the list, memoized so a new page costs only its own rows.

``ScheduleRowTile`` is an ``ft.memo`` component: when its props are unchanged
(compared by ``is`` or ``==``) Flet reuses the previous body, which the diff
then skips. That holds only while every prop is stable: the frozen
``ScheduleRow`` the view model keeps across pages, the ``focused`` ring and
``opened`` fill flags, and the one ``open_schedule`` callback the list hands in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol
from uuid import UUID

import flet as ft

from viewmodels.schedule_list import ScheduleRow
from viewmodels.schedule_list.search_match import TextSpan
from views.look import FOCUS_RING_WIDTH, OPENED_BAR_WIDTH
from views.status_panels import state_chip


class RowTile(Protocol):
    """The memoized row's call shape; ``key`` is Flet's reconciliation key."""

    def __call__(
        self,
        row: ScheduleRow,
        focused: bool,
        opened: bool,
        open_schedule: Callable[[UUID], None],
        *,
        key: str,
    ) -> ft.Control: ...


def _schedule_row(
    row: ScheduleRow, focused: bool, opened: bool, open_schedule: Callable[[UUID], None]
) -> ft.Control:
    """One schedule; its accessible name is the view model's sentence, title first.

    Two marks that never look alike: the opened row (the detail shows it) is
    filled, with an accent bar at its leading edge; the keyboard's highlight
    is a ring (``views.look``: at least 3:1 against the page and the fill).
    The tree marks the highlight ``aria-current``; the opened row's name says so.
    """
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
        open_schedule(row.schedule_id)

    tile = ft.Container(
        content=ft.Column(details, spacing=4, tight=True),
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
        margin=ft.Margin.symmetric(horizontal=8, vertical=2),
        on_click=open_row,
        ink=True,
    )
    return ft.Semantics(
        content=tile,
        label=row.opened_accessibility_label if opened else row.accessibility_label,
        button=True,
        selected=focused,
        container=True,
        exclude_semantics=True,
        on_tap=open_row,
        key=ft.ScrollKey(str(row.schedule_id)),  # type: ignore[call-arg]
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
