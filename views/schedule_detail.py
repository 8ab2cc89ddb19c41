"""One schedule's full record, in the view model's groups, from the point read only.

The groups, their headings and every value are the view model's
(``ScheduleDetailFields.groups``); this module draws each kind: labelled lines,
the complete instruction (selectable, with a copy button), the website
picker, and the month calendar (``views.calendar``). Not-found and other
failures offer Retry.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft
from flet.components.hooks.use_ref import MutableRef

from viewmodels.detail import DetailGroup, DetailPhase, GroupKind, ScheduleDetailFields
from views.actions import icon_action
from views.binding import run_command, use_snapshot
from views.calendar import CalendarSection
from views.screen_models import ScheduleDetailModel, ScheduleListModel, WebsiteAccessModel
from views.status_panels import error_panel, loading_panel, message_panel, state_chip
from views.website_access import WebsiteAccessPicker

COPY_LABEL = "Copy instruction"
CLOSE_LABEL = "Close details"
LABEL_WIDTH = 136


@ft.component
def ScheduleDetail(
    model: ScheduleDetailModel,
    website_access: WebsiteAccessModel,
    close: Callable[[], Any] | None,
    schedules: ScheduleListModel,
) -> ft.Control:
    """``close`` is None where the platform's back navigation closes the detail.

    Each time Enter opens a row (``heading_focus_requests`` grows), the
    heading takes the keyboard focus once it is drawn, so a screen reader
    reads what was opened.
    """
    snapshot = use_snapshot(model)
    listed = use_snapshot(schedules)
    requests = listed.heading_focus_requests
    heading: MutableRef[ft.KeyboardListener | None] = ft.use_ref(None)
    heading.current = None  # set again below only while a loaded heading is drawn
    focus_seen: MutableRef[int] = ft.use_ref(requests)

    def focus_heading() -> None:
        # Wait for the schedule Enter opened (not the one shown before it) to be drawn.
        target = heading.current
        if focus_seen.current == requests or target is None:
            return
        if snapshot.schedule_id != listed.opened_id:
            return
        focus_seen.current = requests
        ft.context.page.run_task(target.focus)

    ft.use_effect(focus_heading, [requests, snapshot.phase, snapshot.schedule_id, listed.opened_id])
    if snapshot.phase is DetailPhase.CLOSED:
        return message_panel(
            ft.Icons.EVENT_NOTE, "No schedule selected", "Choose a schedule to see its details."
        )
    if snapshot.phase is DetailPhase.LOADING:
        return _closable(loading_panel("Loading schedule…"), close)
    if snapshot.can_retry or snapshot.fields is None:
        return _closable(
            error_panel(
                snapshot.error_title or "", snapshot.error, lambda: run_command(model.retry)
            ),
            close,
        )
    fields = snapshot.fields

    async def copy_instruction() -> None:
        await ft.Clipboard().set(fields.instruction)
        ft.context.page.show_dialog(ft.SnackBar(ft.Text("Instruction copied")))

    def group(section: DetailGroup) -> ft.Control:
        if section.kind is GroupKind.INSTRUCTION:
            return _group(
                section.title,
                [
                    ft.Container(
                        content=ft.Text(fields.instruction, size=14),
                        bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
                        border_radius=ft.BorderRadius.all(8),
                        padding=ft.Padding.all(12),
                    )
                ],
                action=icon_action(
                    ft.Icons.CONTENT_COPY,
                    COPY_LABEL,
                    lambda: ft.context.page.run_task(copy_instruction),
                ),
            )
        if section.kind is GroupKind.WEBSITE_ACCESS:
            return _group(section.title, [WebsiteAccessPicker(website_access)])
        if section.kind is GroupKind.CALENDAR:
            return _group(section.title, [CalendarSection(model.calendar)])
        return _group(section.title, [_value(line.label, line.value) for line in section.lines])

    # One SelectionArea, not Text(selectable=True): Flutter web leaves selectable
    # texts out of the accessibility tree, plain texts under a SelectionArea stay in.
    # expand: on a phone the detail is a pushed view's only control, and an
    # unbounded list there would lay out at full length and never scroll.
    return ft.SelectionArea(
        content=ft.ListView(
            [_heading(fields, close, heading), *(group(section) for section in fields.groups)],
            spacing=12,
            padding=ft.Padding.all(16),
            expand=True,
        ),
        expand=True,
    )


def _closable(panel: ft.Control, close: Callable[[], Any] | None) -> ft.Control:
    """A loading or failure panel, with the same way out a loaded detail has."""
    if close is None:
        return panel
    return ft.Column(
        [
            ft.Row(
                [icon_action(ft.Icons.CLOSE, CLOSE_LABEL, close)],
                alignment=ft.MainAxisAlignment.END,
            ),
            ft.Container(content=panel, expand=True),
        ],
        spacing=0,
        expand=True,
    )


def _heading(
    fields: ScheduleDetailFields,
    close: Callable[[], Any] | None,
    ref: MutableRef[ft.KeyboardListener | None],
) -> ft.Control:
    # A focus node that is not a button: Enter there activates nothing, and the
    # heading node is what a screen reader reads on arrival.
    listener = ft.KeyboardListener(
        content=ft.Semantics(
            content=ft.Text(
                fields.title,
                theme_style=ft.TextThemeStyle.HEADLINE_SMALL,
                weight=ft.FontWeight.W_600,
            ),
            header=True,
            container=True,
        )
    )
    ref.current = listener
    title = ft.Column(
        [
            listener,
            ft.Row(
                [
                    state_chip(fields.state_label, fields.state_tone),
                    *(
                        [ft.Text(fields.pause_reason_text, color=ft.Colors.TERTIARY, size=13)]
                        if fields.pause_reason_text
                        else []
                    ),
                ],
                spacing=8,
            ),
        ],
        spacing=6,
        expand=True,
    )
    controls: list[ft.Control] = [title]
    if close is not None:
        controls.append(icon_action(ft.Icons.CLOSE, CLOSE_LABEL, close))
    return ft.Row(controls, vertical_alignment=ft.CrossAxisAlignment.START)


def _group(title: str, lines: list[ft.Control], action: ft.Control | None = None) -> ft.Control:
    header: list[ft.Control] = [
        ft.Text(
            title,
            theme_style=ft.TextThemeStyle.TITLE_SMALL,
            color=ft.Colors.PRIMARY,
            weight=ft.FontWeight.W_600,
            expand=True,
        )
    ]
    if action is not None:
        header.append(action)
    return ft.Card(
        content=ft.Container(
            content=ft.Column(
                [ft.Row(header, height=32), *lines],
                spacing=8,
                tight=True,
            ),
            padding=ft.Padding.only(left=16, right=12, top=8, bottom=16),
        ),
        elevation=0,
        bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
        margin=0,
    )


def _value(label: str, value: str) -> ft.Control:
    """A "label  value" line; the value wraps (the SelectionArea makes it selectable)."""
    return ft.Row(
        [
            ft.Container(
                content=ft.Text(label, color=ft.Colors.ON_SURFACE_VARIANT, size=13),
                width=LABEL_WIDTH,
            ),
            ft.Text(value, size=14, expand=True),
        ],
        spacing=8,
        vertical_alignment=ft.CrossAxisAlignment.START,
    )
