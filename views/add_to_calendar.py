"""Add to calendar and Subscribe to all schedules: the buttons and the panel they open.

The panel renders ``AddToCalendarSnapshot`` as it is: while working, a
progress line; a feed's address in a read-only field with Copy (and Open in
the calendar app where the view model offers it); a saved file's sentence;
a failure's. Nothing shows while the server is not known to offer feeds.
Each place renders the panel of its own target (a schedule's id, or ``ALL``).
"""

from __future__ import annotations

from uuid import UUID

import flet as ft

from viewmodels.feeds import ALL, AddToCalendarSnapshot, CalendarPhase
from viewmodels.feeds.add_to_calendar import Target
from viewmodels.feeds.words import (
    ADDRESS_COPIED_TEXT,
    CLOSE_LABEL,
    COPY_ADDRESS_LABEL,
    OPEN_CALENDAR_LABEL,
)
from viewmodels.language import Words
from views.actions import icon_action
from views.binding import run_command, use_snapshot
from views.calendar_feeds import CalendarFeeds
from views.screen_models import AddToCalendarModel, use_models
from views.words import use_words


def _use_learnt(model: AddToCalendarModel) -> AddToCalendarSnapshot:
    snapshot = use_snapshot(model)
    ft.use_effect(lambda: run_command(model.learn), [model])
    return snapshot


@ft.component
def DetailAddToCalendar(schedule_id: UUID, title: str) -> ft.Control:
    """The detail's "Add to calendar" and, once asked, its panel."""
    words = use_words()
    model = use_models().add_to_calendar
    if model is None:
        return ft.Container(visible=False)
    snapshot = _use_learnt(model)
    if not snapshot.offered:
        return ft.Container(visible=False)
    button = ft.OutlinedButton(
        snapshot.add_label,
        icon=ft.Icons.EVENT_AVAILABLE,
        on_click=lambda: run_command(model.add_schedule, schedule_id, title),
        disabled=snapshot.phase is CalendarPhase.WORKING,
    )
    return ft.Column(
        [ft.Row([button]), *_panel(snapshot, model, schedule_id, words)], spacing=8, tight=True
    )


@ft.component
def AgendaCalendarActions() -> ft.Control:
    """The Agenda header's "Subscribe to all schedules" and "Calendar feeds…"."""
    models = use_models()
    model = models.subscribe_all
    if model is None:
        return ft.Container(visible=False)
    snapshot = _use_learnt(model)
    if not snapshot.offered:
        return ft.Container(visible=False)
    buttons: list[ft.Control] = [
        ft.OutlinedButton(
            snapshot.all_label,
            icon=ft.Icons.EVENT_AVAILABLE,
            on_click=lambda: run_command(model.add_all),
            disabled=snapshot.phase is CalendarPhase.WORKING,
        )
    ]
    entry = snapshot.feeds_entry_label
    if entry is not None and models.calendar_feeds is not None:
        buttons.append(
            ft.TextButton(entry, icon=ft.Icons.RSS_FEED, on_click=lambda: model.toggle_feeds())
        )
    return ft.Row(buttons, spacing=8, wrap=True, run_spacing=4)


@ft.component
def AgendaCalendarPanel() -> ft.Control:
    """At the top of the Agenda's scrolling rows: what those header buttons opened."""
    words = use_words()
    models = use_models()
    model = models.subscribe_all
    if model is None:
        return ft.Container(visible=False)
    snapshot = use_snapshot(model)
    parts = _panel(snapshot, model, ALL, words)
    feeds = models.calendar_feeds
    if snapshot.feeds_shown and feeds is not None:
        parts.append(CalendarFeeds(feeds))
    if not parts:
        return ft.Container(visible=False)
    return ft.Container(
        content=ft.Column(parts, spacing=8, tight=True),
        padding=ft.Padding.symmetric(horizontal=16, vertical=8),
    )


@ft.component
def ListSubscribeAll() -> ft.Control:
    """The list's one action beside Refresh: Subscribe to all schedules (an icon)."""
    model = use_models().subscribe_all
    if model is None:
        return ft.Container(visible=False)
    snapshot = _use_learnt(model)
    if not snapshot.offered:
        return ft.Container(visible=False)
    return icon_action(
        ft.Icons.EVENT_AVAILABLE,
        snapshot.all_label,
        lambda: run_command(model.add_all),
        disabled=snapshot.phase is CalendarPhase.WORKING,
    )


@ft.component
def ListSubscribeAllPanel() -> ft.Control:
    """Under the list's header: the panel Subscribe to all schedules opened there."""
    words = use_words()
    model = use_models().subscribe_all
    if model is None:
        return ft.Container(visible=False)
    snapshot = use_snapshot(model)
    panel = _panel(snapshot, model, ALL, words)
    if not panel:
        return ft.Container(visible=False)
    return ft.Container(content=panel[0], padding=ft.Padding.symmetric(horizontal=16))


def _panel(
    snapshot: AddToCalendarSnapshot, model: AddToCalendarModel, target: Target, words: Words
) -> list[ft.Control]:
    if not snapshot.shows(target):
        return []
    lines: list[ft.Control]
    if snapshot.phase is CalendarPhase.WORKING:
        lines = [
            ft.Row(
                [
                    ft.ProgressRing(width=18, height=18, stroke_width=2),
                    ft.Text(snapshot.working_text),
                ],
                spacing=8,
            )
        ]
    elif snapshot.phase is CalendarPhase.ADDRESS and snapshot.address is not None:
        lines = [ft.Text(snapshot.text, size=14), _address(snapshot.address, snapshot, words)]
    elif snapshot.phase is CalendarPhase.FAILED:
        lines = [
            ft.Text(snapshot.error_title or "", weight=ft.FontWeight.W_600, color=ft.Colors.ERROR),
            ft.Text(snapshot.text, size=14),
        ]
    else:
        lines = [ft.Text(snapshot.text, size=14)]
    lines.append(
        ft.Row(
            [ft.TextButton(words.gettext(CLOSE_LABEL), on_click=lambda: model.close())],
            alignment=ft.MainAxisAlignment.END,
        )
    )
    return [
        ft.Container(
            content=ft.Column(lines, spacing=8, tight=True),
            bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH,
            border_radius=ft.BorderRadius.all(8),
            padding=ft.Padding.all(12),
        )
    ]


def _address(address: str, snapshot: AddToCalendarSnapshot, words: Words) -> ft.Control:
    copied = words.gettext(ADDRESS_COPIED_TEXT)

    async def copy() -> None:
        await ft.Clipboard().set(address)
        ft.context.page.show_dialog(ft.SnackBar(ft.Text(copied)))

    controls: list[ft.Control] = [
        ft.Row(
            [
                ft.Container(
                    content=ft.Text(
                        address,
                        size=13,
                        semantics_label=snapshot.address_name,
                    ),
                    bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
                    border_radius=ft.BorderRadius.all(6),
                    padding=ft.Padding.symmetric(horizontal=10, vertical=8),
                    expand=True,
                ),
                icon_action(
                    ft.Icons.CONTENT_COPY,
                    words.gettext(COPY_ADDRESS_LABEL),
                    lambda: ft.context.page.run_task(copy),
                ),
            ],
            spacing=8,
        )
    ]
    opened = snapshot.open_address
    if opened is not None:

        async def open_in_calendar() -> None:
            await ft.UrlLauncher().launch_url(opened, mode=ft.LaunchMode.EXTERNAL_APPLICATION)

        controls.append(
            ft.Row(
                [
                    ft.TextButton(
                        words.gettext(OPEN_CALENDAR_LABEL),
                        icon=ft.Icons.OPEN_IN_NEW,
                        on_click=lambda: ft.context.page.run_task(open_in_calendar),
                    )
                ]
            )
        )
    return ft.Column(controls, spacing=4, tight=True)
