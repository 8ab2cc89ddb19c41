"""A session's messages, read-only, oldest first, with paging and retry."""

from __future__ import annotations

import flet as ft

from viewmodels.paging import FeedPhase
from viewmodels.sidebar import MessageRow
from views.binding import run_command, use_snapshot
from views.screen_models import SessionMessagesModel
from views.status_panels import error_panel, loading_panel, message_panel


@ft.component
def SessionTranscript(model: SessionMessagesModel) -> ft.Control:
    snapshot = use_snapshot(model)
    if snapshot.first_page_error:
        return error_panel(
            "This session could not be loaded",
            snapshot.first_page_error,
            lambda: run_command(model.retry),
        )
    if snapshot.loading:
        return loading_panel("Loading messages…")
    items: list[ft.Control] = []
    if snapshot.title:
        items.append(
            ft.Text(
                snapshot.title,
                theme_style=ft.TextThemeStyle.HEADLINE_SMALL,
                weight=ft.FontWeight.W_600,
            )
        )
    if not snapshot.messages:
        items.append(message_panel(ft.Icons.CHAT_BUBBLE_OUTLINE, "No messages in this session."))
    items.extend(_bubble(message) for message in snapshot.messages)
    if snapshot.later_page_error:
        items.append(
            ft.Row(
                [
                    ft.Text(snapshot.later_page_error, color=ft.Colors.ERROR, expand=True),
                    ft.TextButton("Retry", on_click=lambda: run_command(model.retry)),
                ]
            )
        )
    elif snapshot.phase is FeedPhase.LOADING_MORE:
        items.append(
            ft.Row(
                [ft.ProgressRing(width=18, height=18, stroke_width=2), ft.Text("Loading more…")],
                alignment=ft.MainAxisAlignment.CENTER,
            )
        )
    elif snapshot.can_load_more:
        items.append(
            ft.Row(
                [ft.TextButton("Load more", on_click=lambda: run_command(model.load_more))],
                alignment=ft.MainAxisAlignment.CENTER,
            )
        )
    return ft.SelectionArea(
        content=ft.ListView(items, spacing=12, padding=ft.Padding.all(20), expand=True)
    )


def _bubble(message: MessageRow) -> ft.Control:
    mine = message.role == "user"
    bubble = ft.Container(
        content=ft.Column(
            [
                ft.Text(
                    f"{message.role_label} · {message.time_text}",
                    size=12,
                    color=ft.Colors.ON_SURFACE_VARIANT,
                ),
                ft.Text(message.text, size=14),
            ],
            spacing=4,
            tight=True,
        ),
        bgcolor=ft.Colors.PRIMARY_CONTAINER if mine else ft.Colors.SURFACE_CONTAINER_HIGH,
        border_radius=ft.BorderRadius.all(14),
        padding=ft.Padding.symmetric(horizontal=14, vertical=10),
        expand=True,
    )
    gutter = ft.Container(width=48)
    return ft.Row([gutter, bubble] if mine else [bubble, gutter])
