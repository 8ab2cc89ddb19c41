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
from uuid import UUID

import flet as ft
from flet.components.hooks.use_ref import MutableRef

from viewmodels.detail import DetailGroup, DetailPhase, GroupKind, ScheduleDetailFields
from viewmodels.detail.snapshot import LabelledValue, PauseHelp
from views.actions import icon_action
from views.binding import focus_soon, run_command, use_snapshot
from views.calendar import CalendarSection
from views.screen_models import (
    ScheduleDetailModel,
    ScheduleListModel,
    SidebarModel,
    WebsiteAccessModel,
)
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
    *,
    sidebar: SidebarModel | None = None,
    reveal: Callable[[UUID], Any] | None = None,
    open_session: Callable[[UUID], Any] | None = None,
    phone: bool = False,
) -> ft.Control:
    """``close`` is None where the platform's back navigation closes the detail;
    ``sidebar`` and ``reveal`` add "5 sessions" with Show in the sidebar.

    Each time Enter opens a row (``heading_focus_requests`` grows), the
    heading takes the keyboard focus once it is drawn, so a screen reader
    reads what was opened. ``open_session`` opens a session's transcript (the
    failed firing's, from a paused schedule); ``phone`` folds the groups the
    view model marks so.
    """
    snapshot = use_snapshot(model)
    listed = use_snapshot(schedules)
    if sidebar is not None:
        use_snapshot(sidebar)  # the count follows the sidebar's reconciliation
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
        focus_soon(target)

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
        lines = [_value(line) for line in section.lines]
        if section.collapsed_on_phone:
            return _folding_group(section.title, lines, expanded=not phone)
        return _group(section.title, lines)

    # One SelectionArea, not Text(selectable=True): Flutter web leaves selectable
    # texts out of the accessibility tree, plain texts under a SelectionArea stay in.
    # expand: on a phone the detail is a pushed view's only control, and an
    # unbounded list there would lay out at full length and never scroll.
    return ft.SelectionArea(
        content=ft.ListView(
            [
                _heading(fields, close, heading),
                *([_pause(fields.pause, open_session)] if fields.pause is not None else []),
                *_sessions_line(fields.schedule_id, sidebar, reveal),
                *(group(section) for section in fields.groups),
            ],
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


SHOW_IN_SIDEBAR_LABEL = "Show in the sidebar"


def _sessions_line(
    schedule_id: UUID, sidebar: SidebarModel | None, reveal: Callable[[UUID], Any] | None
) -> list[ft.Control]:
    """ "5 sessions" (the sidebar's count, or "… known so far"), with Show in the sidebar."""
    if sidebar is None:
        return []
    sessions = sidebar.schedule_sessions(schedule_id)
    controls: list[ft.Control] = [
        ft.Icon(ft.Icons.FORUM_OUTLINED, size=18, color=ft.Colors.ON_SURFACE_VARIANT),
        ft.Text(sessions.text, size=14),
    ]
    if sessions.can_reveal and reveal is not None:
        controls.append(ft.TextButton(SHOW_IN_SIDEBAR_LABEL, on_click=lambda: reveal(schedule_id)))
    return [ft.Row(controls, spacing=8)]


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


def _pause(pause: PauseHelp, open_session: Callable[[UUID], Any] | None) -> ft.Control:
    """Why the schedule is paused, its failed firing's session, and where it is resumed."""
    lines: list[ft.Control] = []
    if pause.failure_text:
        lines.append(ft.Text(pause.failure_text, size=14, color=ft.Colors.ERROR))
    session_id = pause.session_id
    if session_id is not None and pause.session_label and open_session is not None:
        lines.append(
            ft.Row(
                [
                    ft.TextButton(
                        pause.session_label,
                        icon=ft.Icons.CHAT_OUTLINED,
                        on_click=lambda: open_session(session_id),
                    )
                ]
            )
        )
    lines.append(ft.Text(pause.resume_text, size=13, color=ft.Colors.ON_SURFACE_VARIANT))
    return ft.Container(
        content=ft.Column(lines, spacing=6, tight=True),
        bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH,
        border_radius=ft.BorderRadius.all(8),
        padding=ft.Padding.all(12),
    )


def _folding_group(title: str, lines: list[ft.Control], *, expanded: bool) -> ft.Control:
    """A group that folds (Advanced): open on a wide window, folded on a phone."""
    return ft.Card(
        content=ft.ExpansionTile(
            title=ft.Text(
                title,
                theme_style=ft.TextThemeStyle.TITLE_SMALL,
                color=ft.Colors.PRIMARY,
                weight=ft.FontWeight.W_600,
            ),
            controls=lines,
            expanded=expanded,
            maintain_state=True,
            controls_padding=ft.Padding.only(left=16, right=12, bottom=16),
            expanded_cross_axis_alignment=ft.CrossAxisAlignment.START,
            shape=ft.RoundedRectangleBorder(radius=12),
            collapsed_shape=ft.RoundedRectangleBorder(radius=12),
        ),
        elevation=0,
        bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
        margin=0,
    )


def _value(line: LabelledValue) -> ft.Control:
    """A "label  value" line; the value wraps (the SelectionArea makes it selectable).

    A field with an explanation has it in small type under its value.
    """
    value: ft.Control = ft.Text(line.value, size=14)
    if line.explanation:
        value = ft.Column(
            [value, ft.Text(line.explanation, size=12, color=ft.Colors.ON_SURFACE_VARIANT)],
            spacing=2,
            tight=True,
        )
    return ft.Row(
        [
            ft.Container(
                content=ft.Text(line.label, color=ft.Colors.ON_SURFACE_VARIANT, size=13),
                width=LABEL_WIDTH,
            ),
            ft.Container(content=value, expand=True),
        ],
        spacing=8,
        vertical_alignment=ft.CrossAxisAlignment.START,
    )
