"""The Agenda screen: Today / Next 7 days / Month, the busy strip, firings under day headings.

Renders ``AgendaSnapshot`` as it is: the view chooses only the shape. Each
row is one button whose accessible name is the view model's sentence; a day
heading is a heading; the Now line is a labelled rule. A row opens its
schedule's detail through the navigation (``open_from_agenda``), and when the
agenda shows again it brings the day it was left on back into view. The header
offers Subscribe to all schedules and the feeds list, which open above the rows
(``views.add_to_calendar``).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Protocol
from uuid import UUID

import flet as ft

from viewmodels.agenda import (
    AGENDA_HEADING,
    FAILURE_TITLE,
    LOADING_TEXT,
    NOT_OFFERED_TEXT,
    NOW_TEXT,
    SEARCH_LABEL,
    SPANS,
    AgendaDay,
    AgendaRow,
    AgendaSnapshot,
    AgendaSpan,
    BusyCell,
    day_key,
)
from viewmodels.formatting.marks import MarkKind
from viewmodels.formatting.shared_words import LOAD_MORE_LABEL, LOADING_MORE_TEXT, RETRY_LABEL
from viewmodels.schedule_list.snapshot import ATTENTION_LABEL, REFRESH_LABEL
from views.actions import icon_action
from views.add_to_calendar import AgendaCalendarActions, AgendaCalendarPanel
from views.binding import Held, go, run_command, use_snapshot
from views.screen_models import AgendaModel, NavigationModel
from views.status_panels import error_panel, loading_panel, message_panel

OpenRow = Callable[[UUID, date], None]
_HEADER_PADDING = ft.Padding.only(left=16, right=8, top=12, bottom=8)
CELL_WIDTH = 24
"""Pixels: a labelled cell of the busy strip (an hour of Today, a day of Month)."""


@ft.component
def Agenda(model: AgendaModel, navigation: NavigationModel, phone: bool = False) -> ft.Control:
    """``phone``: the app bar already names the screen and holds Refresh."""
    snapshot = use_snapshot(model)
    list_view: Held[ft.ListView] = ft.use_ref()

    def open_row(schedule_id: UUID, day: date) -> None:
        go(navigation.open_from_agenda(schedule_id, day))

    def back_to_day() -> None:
        # Back from a detail: the day the row was opened on comes into view again.
        anchor = snapshot.anchor
        if anchor is not None and list_view.current is not None:
            ft.context.page.run_task(
                list_view.current.scroll_to, scroll_key=day_key(anchor), duration=0
            )

    ft.use_effect(back_to_day, [])

    def choose_span(event: ft.Event[ft.SegmentedButton]) -> None:
        chosen = event.control.selected
        if chosen:
            run_command(model.select_span, AgendaSpan(chosen[0]))

    title = ft.Row(
        [
            ft.Semantics(
                content=ft.Text(AGENDA_HEADING, theme_style=ft.TextThemeStyle.TITLE_LARGE),
                header=True,
                label=AGENDA_HEADING,
                exclude_semantics=True,
                expand=True,
            ),
            icon_action(ft.Icons.REFRESH, REFRESH_LABEL, lambda: run_command(model.reload)),
        ]
    )
    if snapshot.not_offered:
        # Nothing to choose or search: the sentence alone, never an error.
        body = message_panel(ft.Icons.EVENT_BUSY, NOT_OFFERED_TEXT)
        return ft.Column(
            [*([] if phone else [ft.Container(content=title, padding=_HEADER_PADDING)]), body],
            spacing=0,
            expand=True,
        )
    header = ft.Container(
        content=ft.Column(
            [
                *([] if phone else [title]),
                ft.SegmentedButton(
                    segments=[
                        ft.Segment(value=span.value, label=ft.Text(span.label)) for span in SPANS
                    ],
                    selected=[snapshot.span.value],
                    show_selected_icon=False,
                    on_change=choose_span,
                ),
                ft.Row(
                    [
                        ft.Chip(
                            label=ft.Text(ATTENTION_LABEL),
                            leading=ft.Icon(ft.Icons.WARNING_AMBER, color=ft.Colors.ERROR),
                            selected=snapshot.attention_only,
                            show_checkmark=False,
                            on_select=lambda: run_command(
                                model.select_attention, not model.snapshot.attention_only
                            ),
                        ),
                        ft.Text(
                            snapshot.zone_text,
                            size=12,
                            color=ft.Colors.ON_SURFACE_VARIANT,
                            text_align=ft.TextAlign.END,
                            expand=True,
                        ),
                    ],
                    spacing=8,
                ),
                ft.Row([AgendaSearch(model)]),
                AgendaCalendarActions(),
            ],
            spacing=8,
            tight=True,
        ),
        padding=_HEADER_PADDING,
    )
    return ft.Column([header, _body(snapshot, model, open_row, list_view)], spacing=0, expand=True)


def _body(
    snapshot: AgendaSnapshot, model: AgendaModel, open_row: OpenRow, list_view: Held[ft.ListView]
) -> ft.Control:
    if snapshot.first_page_error:
        return error_panel(
            FAILURE_TITLE, snapshot.first_page_error, lambda: run_command(model.retry)
        )
    if snapshot.loading or (not snapshot.days and not snapshot.empty_text):
        return loading_panel(LOADING_TEXT)

    def near_end(event: ft.OnScrollEvent) -> None:
        if model.snapshot.can_load_more and event.max_scroll_extent - event.pixels <= 1_500:
            run_command(model.load_more)

    controls: list[ft.Control] = [AgendaCalendarPanel()]
    if snapshot.busy_heading is not None:
        controls.append(_busy_strip(snapshot))
    if snapshot.empty_text:
        controls.append(message_panel(ft.Icons.EVENT_AVAILABLE, snapshot.empty_text))
    for day in snapshot.days:
        controls.extend(_day(day, open_row))
    controls.append(_footer(snapshot, model))
    rows = ft.ListView(
        controls,
        expand=True,
        spacing=0,
        padding=ft.Padding.only(bottom=16),
        on_scroll=near_end,
        scroll_interval=100,
    )
    list_view.current = rows
    return rows


def _busy_strip(snapshot: AgendaSnapshot) -> ft.Control:
    labelled = snapshot.span is not AgendaSpan.WEEK
    cells = [_cell(cell, labelled) for cell in snapshot.busy]
    parts: list[ft.Control] = [
        ft.Text(
            snapshot.busy_heading or "",
            theme_style=ft.TextThemeStyle.TITLE_SMALL,
            semantics_label=snapshot.busy_heading,
        ),
        # Labelled cells (24 hours, a month's days) wrap onto lines on a narrow window;
        # a week's 168 hours share one line, thin.
        ft.Row(cells, spacing=2, run_spacing=2, wrap=True)
        if labelled
        else ft.Row(cells, spacing=0, height=20),
    ]
    if snapshot.quiet_text:
        parts.append(ft.Text(snapshot.quiet_text, size=12, color=ft.Colors.ON_SURFACE_VARIANT))
    return ft.Container(
        content=ft.Column(parts, spacing=6, tight=True),
        padding=ft.Padding.symmetric(horizontal=16, vertical=8),
    )


def _cell(cell: BusyCell, labelled: bool) -> ft.Control:
    """A cell's heat is the primary colour's strength; a quiet cell is outlined, never only pale."""
    fill = (
        None if cell.quiet else ft.Colors.with_opacity(0.25 + 0.75 * cell.heat, ft.Colors.PRIMARY)
    )
    return ft.Semantics(
        label=cell.name,
        exclude_semantics=True,
        expand=None if labelled else True,
        content=ft.Container(
            content=(
                ft.Text(
                    cell.label,
                    size=10,
                    color=ft.Colors.ON_PRIMARY if cell.heat > 0.5 else ft.Colors.ON_SURFACE,
                )
                if labelled
                else None
            ),
            alignment=ft.Alignment.CENTER,
            bgcolor=fill,
            border=(
                ft.Border.all(1, ft.Colors.OUTLINE_VARIANT) if cell.quiet and labelled else None
            ),
            border_radius=ft.BorderRadius.all(3 if labelled else 0),
            width=CELL_WIDTH if labelled else None,
            height=CELL_WIDTH if labelled else 20,
            expand=None if labelled else True,
        ),
    )


def _day(day: AgendaDay, open_row: OpenRow) -> list[ft.Control]:
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
            controls.append(_now_line())
        controls.append(AgendaRowTile(row, open_row, key=row.key))
    if day.now_at is not None and day.now_at == len(day.rows):
        controls.append(_now_line())
    return controls


def _now_line() -> ft.Control:
    return ft.Semantics(
        label=NOW_TEXT,
        exclude_semantics=True,
        content=ft.Container(
            content=ft.Row(
                [
                    ft.Text(NOW_TEXT, size=12, color=ft.Colors.ERROR, weight=ft.FontWeight.W_600),
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


def _footer(snapshot: AgendaSnapshot, model: AgendaModel) -> ft.Control:
    if snapshot.later_page_error:
        content: ft.Control = ft.Row(
            [
                ft.Icon(ft.Icons.ERROR_OUTLINE, color=ft.Colors.ERROR, size=20),
                ft.Text(snapshot.later_page_error, color=ft.Colors.ERROR, expand=True),
                ft.TextButton(RETRY_LABEL, on_click=lambda: run_command(model.retry)),
            ],
            spacing=8,
        )
    elif snapshot.loading_more:
        content = ft.Row(
            [
                ft.ProgressRing(width=18, height=18, stroke_width=2),
                ft.Text(LOADING_MORE_TEXT, color=ft.Colors.ON_SURFACE_VARIANT),
            ],
            alignment=ft.MainAxisAlignment.CENTER,
        )
    elif snapshot.can_load_more:
        content = ft.Row(
            [ft.TextButton(LOAD_MORE_LABEL, on_click=lambda: run_command(model.load_more))],
            alignment=ft.MainAxisAlignment.CENTER,
        )
    elif snapshot.end_text:
        content = ft.Row(
            [ft.Text(snapshot.end_text, size=12, color=ft.Colors.ON_SURFACE_VARIANT)],
            alignment=ft.MainAxisAlignment.CENTER,
        )
    else:
        content = ft.Container(height=0)
    return ft.Container(content=content, padding=ft.Padding.symmetric(horizontal=16, vertical=12))


def _agenda_search(model: AgendaModel) -> ft.Control:
    """The agenda's search: memoized on the model, so no render sends the field older text."""
    return ft.TextField(
        value=model.snapshot.query,
        label=SEARCH_LABEL,
        prefix_icon=ft.Icons.SEARCH,
        dense=True,
        expand=True,
        on_change=lambda event: run_command(model.type_query, event.control.value or ""),
    )


class _SearchTile(Protocol):
    def __call__(self, model: AgendaModel) -> ft.Control: ...


AgendaSearch: _SearchTile = ft.memo(ft.component(_agenda_search))  # type: ignore[no-untyped-call]
