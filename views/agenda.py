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

from datetime import date
from typing import Protocol
from uuid import UUID

import flet as ft

from viewmodels.agenda import (
    AGENDA_HEADING,
    FAILURE_TITLE,
    LOADING_TEXT,
    NOT_OFFERED_TEXT,
    SEARCH_LABEL,
    SPANS,
    AgendaSnapshot,
    AgendaSpan,
    BusyCell,
    day_key,
)
from viewmodels.formatting.shared_words import LOAD_MORE_LABEL, LOADING_MORE_TEXT, RETRY_LABEL
from viewmodels.language import Words
from viewmodels.schedule_list.snapshot import ATTENTION_LABEL, REFRESH_LABEL
from views.actions import icon_action
from views.add_to_calendar import AgendaCalendarActions, AgendaCalendarPanel
from views.agenda_day import OpenRow, day_controls
from views.binding import Held, chosen, go, run_command, scroll_soon, use_snapshot
from views.screen_models import AgendaModel, NavigationModel
from views.status_panels import error_panel, loading_panel, message_panel
from views.words import use_words

_HEADER_PADDING = ft.Padding.only(left=16, right=8, top=12, bottom=8)
CELL_WIDTH = 24
"""Pixels: a labelled cell of the busy strip (an hour of Today, a day of Month)."""
WIDE_CELL_WIDTH = 40
"""Pixels: a cell whose label is longer than two characters ("6 PM" on a 12-hour clock)."""


@ft.component
def Agenda(model: AgendaModel, navigation: NavigationModel, phone: bool = False) -> ft.Control:
    """``phone``: the app bar already names the screen and holds Refresh."""
    snapshot = use_snapshot(model)
    words = use_words()
    list_view: Held[ft.ListView] = ft.use_ref()

    def open_row(schedule_id: UUID, day: date) -> None:
        go(navigation.open_from_agenda(schedule_id, day))

    def back_to_day() -> None:
        # Back from a detail: the day the row was opened on comes into view again.
        anchor = snapshot.anchor
        if anchor is not None and list_view.current is not None:
            scroll_soon(list_view.current, day_key(anchor), duration=0)

    ft.use_effect(back_to_day, [])

    def choose_span(event: ft.Event[ft.SegmentedButton]) -> None:
        segments = chosen(event)
        if segments:
            run_command(model.select_span, AgendaSpan(segments[0]))

    heading = words.gettext(AGENDA_HEADING)
    title = ft.Row(
        [
            ft.Semantics(
                content=ft.Text(heading, theme_style=ft.TextThemeStyle.TITLE_LARGE),
                header=True,
                label=heading,
                exclude_semantics=True,
                expand=True,
            ),
            icon_action(
                ft.Icons.REFRESH, words.gettext(REFRESH_LABEL), lambda: run_command(model.reload)
            ),
        ]
    )
    if snapshot.not_offered:
        # Nothing to choose or search: the sentence alone, never an error.
        body = message_panel(ft.Icons.EVENT_BUSY, words.gettext(NOT_OFFERED_TEXT))
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
                        ft.Segment(value=span.value, label=ft.Text(words.gettext(span.label)))
                        for span in SPANS
                    ],
                    selected=[snapshot.span.value],
                    show_selected_icon=False,
                    on_change=choose_span,
                ),
                ft.Row(
                    [
                        ft.Chip(
                            label=ft.Text(words.gettext(ATTENTION_LABEL)),
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
    return ft.Column(
        [header, _body(snapshot, model, open_row, list_view, words)], spacing=0, expand=True
    )


def _body(
    snapshot: AgendaSnapshot,
    model: AgendaModel,
    open_row: OpenRow,
    list_view: Held[ft.ListView],
    words: Words,
) -> ft.Control:
    if snapshot.first_page_error:
        return error_panel(
            words.gettext(FAILURE_TITLE),
            snapshot.first_page_error,
            lambda: run_command(model.retry),
            words=words,
        )
    if snapshot.loading or (not snapshot.days and not snapshot.empty_text):
        return loading_panel(words.gettext(LOADING_TEXT))

    def near_end(event: ft.OnScrollEvent) -> None:
        if model.snapshot.can_load_more and event.max_scroll_extent - event.pixels <= 1_500:
            run_command(model.load_more)

    controls: list[ft.Control] = [AgendaCalendarPanel()]
    if snapshot.busy_heading is not None:
        controls.append(_busy_strip(snapshot))
    if snapshot.empty_text:
        controls.append(message_panel(ft.Icons.EVENT_AVAILABLE, snapshot.empty_text))
    for day in snapshot.days:
        controls.extend(day_controls(day, open_row, words))
    controls.append(_footer(snapshot, model, words))
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
            width=(CELL_WIDTH if len(cell.label) <= 2 else WIDE_CELL_WIDTH) if labelled else None,
            height=CELL_WIDTH if labelled else 20,
            expand=None if labelled else True,
        ),
    )


def _footer(snapshot: AgendaSnapshot, model: AgendaModel, words: Words) -> ft.Control:
    if snapshot.later_page_error:
        content: ft.Control = ft.Row(
            [
                ft.Icon(ft.Icons.ERROR_OUTLINE, color=ft.Colors.ERROR, size=20),
                ft.Text(snapshot.later_page_error, color=ft.Colors.ERROR, expand=True),
                ft.TextButton(
                    words.gettext(RETRY_LABEL), on_click=lambda: run_command(model.retry)
                ),
            ],
            spacing=8,
        )
    elif snapshot.loading_more:
        content = ft.Row(
            [
                ft.ProgressRing(width=18, height=18, stroke_width=2),
                ft.Text(words.gettext(LOADING_MORE_TEXT), color=ft.Colors.ON_SURFACE_VARIANT),
            ],
            alignment=ft.MainAxisAlignment.CENTER,
        )
    elif snapshot.can_load_more:
        content = ft.Row(
            [
                ft.TextButton(
                    words.gettext(LOAD_MORE_LABEL), on_click=lambda: run_command(model.load_more)
                )
            ],
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
        label=use_words().gettext(SEARCH_LABEL),
        prefix_icon=ft.Icons.SEARCH,
        dense=True,
        expand=True,
        on_change=lambda event: run_command(model.type_query, event.control.value or ""),
    )


class _SearchTile(Protocol):
    def __call__(self, model: AgendaModel) -> ft.Control: ...


AgendaSearch: _SearchTile = ft.memo(ft.component(_agenda_search))  # type: ignore[no-untyped-call]
