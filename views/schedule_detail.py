"""One schedule's full record, in the view model's groups, from the point read only.

The heading (which takes the focus when Enter opened the row), why a paused
schedule is paused, the sidebar's session count, Add to calendar
(``views.add_to_calendar``), then the groups
(``views.detail_groups``). Closed, loading and failed details are panels;
a failure offers Retry. A calendar day chosen by key or click scrolls the
calendar into view, so the chosen day's lines under the grid show.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

import flet as ft

from viewmodels.detail import DetailPhase, ScheduleDetailFields
from viewmodels.detail.snapshot import CLOSE_DETAILS_LABEL, SHOW_IN_SIDEBAR_LABEL, PauseHelp
from viewmodels.language import Words
from views.actions import icon_action
from views.add_to_calendar import DetailAddToCalendar
from views.binding import Held, focus_soon, run_command, scroll_soon, use_each_request, use_snapshot
from views.calendar import CALENDAR_SCROLL_KEY
from views.detail_groups import detail_group
from views.screen_models import (
    ScheduleDetailModel,
    ScheduleListModel,
    SidebarModel,
    WebsiteAccessModel,
)
from views.status_panels import error_panel, loading_panel, message_panel, state_chip
from views.words import use_words


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
) -> ft.Control:
    """``close`` is None where the platform's back navigation closes the detail;
    ``sidebar`` and ``reveal`` add "5 sessions" with Show in the sidebar.

    Each time Enter opens a row (``heading_focus_requests`` grows), the
    heading takes the keyboard focus once it is drawn, so a screen reader
    reads what was opened. ``open_session`` opens a session's transcript (the
    failed firing's, from a paused schedule).
    """
    snapshot = use_snapshot(model)
    words = use_words()
    listed = use_snapshot(schedules)
    if sidebar is not None:
        use_snapshot(sidebar)  # the count follows the sidebar's reconciliation
    heading: Held[ft.KeyboardListener] = ft.use_ref(None)
    body = ft.use_memo(lambda: ft.Ref[ft.ListView](), [])
    heading.current = None  # set again below only while a loaded heading is drawn

    def focus_heading() -> bool:
        # Wait for the schedule Enter opened (not the one shown before it) to be drawn.
        target = heading.current
        if target is None or snapshot.schedule_id != listed.opened_id:
            return False
        focus_soon(target)
        return True

    use_each_request(
        listed.heading_focus_requests,
        focus_heading,
        [snapshot.phase, snapshot.schedule_id, listed.opened_id],
    )
    if snapshot.phase is DetailPhase.CLOSED:
        return message_panel(ft.Icons.EVENT_NOTE, snapshot.empty_title, snapshot.empty_hint)
    if snapshot.phase is DetailPhase.LOADING:
        return _closable(loading_panel(snapshot.loading_text), close, words)
    if snapshot.can_retry or snapshot.fields is None:
        return _closable(
            error_panel(
                snapshot.error_title or "",
                snapshot.error,
                lambda: run_command(model.retry),
                words=words,
            ),
            close,
            words,
        )
    fields = snapshot.fields

    def reveal_calendar() -> None:
        listing = body.current
        if listing is not None:
            scroll_soon(listing, CALENDAR_SCROLL_KEY)

    listing = ft.ListView(
        [
            _heading(fields, close, heading, words),
            *([_pause(fields.pause, open_session)] if fields.pause is not None else []),
            *_sessions_line(fields.schedule_id, sidebar, reveal, words),
            DetailAddToCalendar(fields.schedule_id, fields.title),
            *(
                detail_group(
                    section, fields, website_access, model.calendar, reveal_calendar, words=words
                )
                for section in fields.groups
            ),
        ],
        spacing=12,
        padding=ft.Padding.all(16),
        expand=True,
        ref=body,
    )
    # One SelectionArea, not Text(selectable=True): Flutter web leaves selectable
    # texts out of the accessibility tree, plain texts under a SelectionArea stay in.
    # expand: on a phone the detail is a pushed view's only control, and an
    # unbounded list there would lay out at full length and never scroll.
    return ft.SelectionArea(content=listing, expand=True)


def _closable(panel: ft.Control, close: Callable[[], Any] | None, words: Words) -> ft.Control:
    """A loading or failure panel, with the same way out a loaded detail has."""
    if close is None:
        return panel
    return ft.Column(
        [
            ft.Row(
                [icon_action(ft.Icons.CLOSE, words.gettext(CLOSE_DETAILS_LABEL), close)],
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
    ref: Held[ft.KeyboardListener],
    words: Words,
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
        controls.append(icon_action(ft.Icons.CLOSE, words.gettext(CLOSE_DETAILS_LABEL), close))
    return ft.Row(controls, vertical_alignment=ft.CrossAxisAlignment.START)


def _sessions_line(
    schedule_id: UUID,
    sidebar: SidebarModel | None,
    reveal: Callable[[UUID], Any] | None,
    words: Words,
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
        controls.append(
            ft.TextButton(
                words.gettext(SHOW_IN_SIDEBAR_LABEL), on_click=lambda: reveal(schedule_id)
            )
        )
    return [ft.Row(controls, spacing=8)]


def _copy_name_and_id(pause: PauseHelp) -> ft.Control:
    """Puts the schedule's name and id on the clipboard, to hand the agent that resumes it."""

    async def copy() -> None:
        await ft.Clipboard().set(pause.copy_text)
        ft.context.page.show_dialog(ft.SnackBar(ft.Text(pause.copied_text)))

    return ft.TextButton(
        pause.copy_label,
        icon=ft.Icons.CONTENT_COPY,
        on_click=lambda: ft.context.page.run_task(copy),
    )


def _pause(pause: PauseHelp, open_session: Callable[[UUID], Any] | None) -> ft.Control:
    """Why the schedule is paused, its failed firing's session, and how to get it resumed."""
    lines: list[ft.Control] = []
    if pause.failure_text:
        lines.append(ft.Text(pause.failure_text, size=14, color=ft.Colors.ERROR))
    if pause.check_first_text:
        lines.append(ft.Text(pause.check_first_text, size=13))
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
    lines.append(ft.Row([_copy_name_and_id(pause)]))
    return ft.Container(
        content=ft.Column(lines, spacing=6, tight=True),
        bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH,
        border_radius=ft.BorderRadius.all(8),
        padding=ft.Padding.all(12),
    )
