"""One day of the Agenda: its heading, its firings as rows, and the Now line.

Each row is one button whose accessible name is the view model's sentence, its
icon chosen by the row's mark; a day heading is a heading; the Now line is a
labelled rule. Rows are memoized by their key, so a live update redraws only
the rows that changed.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Protocol
from uuid import UUID

import flet as ft

from viewmodels.agenda import NOW_TEXT, AgendaDay, AgendaRow
from viewmodels.formatting.marks import MarkKind
from viewmodels.language import Words

OpenRow = Callable[[UUID, date], None]


def day_controls(day: AgendaDay, open_row: OpenRow, words: Words) -> list[ft.Control]:
    heading = ft.Container(
        content=ft.Semantics(
            content=ft.Text(day.heading, theme_style=ft.TextThemeStyle.TITLE_MEDIUM),
            header=True,
            label=day.heading,
            exclude_semantics=True,
        ),
        padding=ft.Padding.only(left=16, right=16, top=16, bottom=4),
        key=ft.ScrollKey(day.key),  # type: ignore[call-arg]
    )
    controls: list[ft.Control] = [heading]
    for index, row in enumerate(day.rows):
        if day.now_at == index:
            controls.append(_now_line(words))
        controls.append(AgendaRowTile(row, open_row, key=row.key))
    if day.now_at is not None and day.now_at == len(day.rows):
        controls.append(_now_line(words))
    return controls


def _now_line(words: Words) -> ft.Control:
    now = words.gettext(NOW_TEXT)
    return ft.Semantics(
        label=now,
        exclude_semantics=True,
        content=ft.Container(
            content=ft.Row(
                [
                    ft.Text(now, size=12, color=ft.Colors.ERROR, weight=ft.FontWeight.W_600),
                    ft.Container(height=2, bgcolor=ft.Colors.ERROR, expand=True),
                ],
                spacing=8,
            ),
            padding=ft.Padding.symmetric(horizontal=16, vertical=4),
        ),
    )


_MARK_ICONS = {
    MarkKind.FIRES: ft.Icons.SCHEDULE,
    MarkKind.ADJUSTED: ft.Icons.MORE_TIME,
    MarkKind.RAN: ft.Icons.CHECK_CIRCLE_OUTLINE,
    MarkKind.RUNNING: ft.Icons.PLAY_CIRCLE_OUTLINE,
    MarkKind.FAILED: ft.Icons.ERROR_OUTLINE,
    MarkKind.MISSED: ft.Icons.REMOVE_CIRCLE_OUTLINE,
    MarkKind.SKIPPED: ft.Icons.SKIP_NEXT,
    MarkKind.REFUSED: ft.Icons.BLOCK,
    MarkKind.NOT_RUN: ft.Icons.HIGHLIGHT_OFF,
    MarkKind.NO_RECORD: ft.Icons.HELP_OUTLINE,
    MarkKind.NO_FIRING: ft.Icons.EVENT_BUSY,
    MarkKind.NOT_FIRED: ft.Icons.POWER_OFF,
    MarkKind.MAY_OVERLAP: ft.Icons.WARNING_AMBER,
    MarkKind.WOULD_FIRE: ft.Icons.CIRCLE_OUTLINED,
}
_WARNING_MARKS = frozenset(
    {MarkKind.FAILED, MarkKind.MISSED, MarkKind.REFUSED, MarkKind.NOT_RUN, MarkKind.NOT_FIRED}
)


def _agenda_row(row: AgendaRow, open_row: OpenRow) -> ft.Control:
    """One firing: the time column, then the title and its lines; the name is the sentence."""
    muted = ft.Colors.ON_SURFACE_VARIANT
    times: list[ft.Control] = [ft.Text(row.time_text, weight=ft.FontWeight.W_600, size=15)]
    if row.own_time_text:
        times.append(ft.Text(row.own_time_text, size=11, color=muted))
    lines: list[ft.Control] = [
        ft.Text(
            row.title,
            weight=ft.FontWeight.W_600,
            size=15,
            max_lines=1,
            overflow=ft.TextOverflow.ELLIPSIS,
        ),
        ft.Text(row.cadence_text, size=13, color=muted),
    ]
    warning = row.mark in _WARNING_MARKS
    for text, colour in (
        (row.outcome_text, ft.Colors.ERROR if warning else None),
        (row.paused_text, ft.Colors.TERTIARY),
        (row.clash_text, ft.Colors.TERTIARY),
        (row.overlap_text, ft.Colors.TERTIARY),
    ):
        if text:
            lines.append(ft.Text(text, size=13, color=colour))

    def open_it() -> None:
        open_row(row.schedule_id, row.day)

    tile = ft.Container(
        content=ft.Row(
            [
                ft.Column(times, spacing=2, width=96, tight=True),
                ft.Icon(
                    _MARK_ICONS.get(row.mark, ft.Icons.SCHEDULE),
                    size=18,
                    color=ft.Colors.ERROR if warning else ft.Colors.PRIMARY,
                ),
                ft.Column(lines, spacing=2, expand=True, tight=True),
            ],
            spacing=12,
            vertical_alignment=ft.CrossAxisAlignment.START,
        ),
        padding=ft.Padding.symmetric(horizontal=16, vertical=10),
        border_radius=ft.BorderRadius.all(12),
        margin=ft.Margin.symmetric(horizontal=8, vertical=2),
        opacity=0.75 if row.past else 1.0,
        on_click=open_it,
        ink=True,
    )
    return ft.Semantics(
        content=tile,
        label=row.name,
        button=True,
        container=True,
        exclude_semantics=True,
        on_tap=open_it,
    )


class _RowTile(Protocol):
    def __call__(self, row: AgendaRow, open_row: OpenRow, *, key: str) -> ft.Control: ...


# ft.memo is unannotated in Flet 1.0.5; the protocol states what it returns.
AgendaRowTile: _RowTile = ft.memo(ft.component(_agenda_row))  # type: ignore[no-untyped-call]
