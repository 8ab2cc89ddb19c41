"""A session's messages, read-only, oldest first, with paging and retry.

A session a schedule created starts with the view model's header: which
schedule, when it fired, and Open schedule. Assistant messages are the view
model's safe Markdown; a tapped link goes through ``outside_link`` and opens
in the browser or the OS (a new tab on the web), never in the app's page.
"""

from __future__ import annotations

import flet as ft

from viewmodels.formatting.shared_words import LOAD_MORE_LABEL, LOADING_MORE_TEXT, RETRY_LABEL
from viewmodels.language import Words
from viewmodels.paging import FeedPhase
from viewmodels.sidebar import MessageRow, TranscriptOrigin, outside_link
from viewmodels.sidebar.snapshot import OPEN_SCHEDULE_LABEL
from views.binding import go, run_command, use_snapshot
from views.screen_models import NavigationModel, SessionMessagesModel
from views.status_panels import error_panel, loading_panel, message_panel
from views.words import use_words


@ft.component
def SessionTranscript(model: SessionMessagesModel, navigation: NavigationModel) -> ft.Control:
    snapshot = use_snapshot(model)
    words = use_words()
    if snapshot.first_page_error:
        return error_panel(
            snapshot.failure_title,
            snapshot.first_page_error,
            lambda: run_command(model.retry),
            words=words,
        )
    if snapshot.loading:
        return loading_panel(snapshot.loading_text)
    items: list[ft.Control] = []
    if snapshot.origin is not None:
        items.append(_origin_header(snapshot.origin, navigation, words))
    if snapshot.title:
        items.append(
            ft.Text(
                snapshot.title,
                theme_style=ft.TextThemeStyle.HEADLINE_SMALL,
                weight=ft.FontWeight.W_600,
            )
        )
    if snapshot.empty_text:
        items.append(message_panel(ft.Icons.CHAT_BUBBLE_OUTLINE, snapshot.empty_text))
    items.extend(_bubble(message) for message in snapshot.messages)
    if snapshot.later_page_error:
        items.append(
            ft.Row(
                [
                    ft.Text(snapshot.later_page_error, color=ft.Colors.ERROR, expand=True),
                    ft.TextButton(
                        words.gettext(RETRY_LABEL), on_click=lambda: run_command(model.retry)
                    ),
                ]
            )
        )
    elif snapshot.phase is FeedPhase.LOADING_MORE:
        items.append(
            ft.Row(
                [
                    ft.ProgressRing(width=18, height=18, stroke_width=2),
                    ft.Text(words.gettext(LOADING_MORE_TEXT)),
                ],
                alignment=ft.MainAxisAlignment.CENTER,
            )
        )
    elif snapshot.can_load_more:
        items.append(
            ft.Row(
                [
                    ft.TextButton(
                        words.gettext(LOAD_MORE_LABEL),
                        on_click=lambda: run_command(model.load_more),
                    )
                ],
                alignment=ft.MainAxisAlignment.CENTER,
            )
        )
    return ft.SelectionArea(
        content=ft.ListView(items, spacing=12, padding=ft.Padding.all(20), expand=True)
    )


def _origin_header(
    origin: TranscriptOrigin, navigation: NavigationModel, words: Words
) -> ft.Control:
    lines: list[ft.Control] = [ft.Text(origin.text, size=14, weight=ft.FontWeight.W_600)]
    if origin.fired_text:
        lines.append(ft.Text(origin.fired_text, size=13, color=ft.Colors.ON_SURFACE_VARIANT))
    return ft.Container(
        content=ft.Column(
            [
                ft.Row(
                    [
                        ft.Icon(ft.Icons.SCHEDULE, color=ft.Colors.PRIMARY),
                        ft.Column(lines, spacing=2, tight=True, expand=True),
                    ],
                    spacing=12,
                ),
                ft.Row(
                    [
                        ft.OutlinedButton(
                            words.gettext(OPEN_SCHEDULE_LABEL),
                            on_click=lambda: go(navigation.open_schedule(origin.schedule_id)),
                        )
                    ],
                    alignment=ft.MainAxisAlignment.END,
                ),
            ],
            spacing=8,
            tight=True,
        ),
        bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
        border_radius=ft.BorderRadius.all(12),
        padding=ft.Padding.all(12),
    )


def _open_outside(event: ft.Event[ft.Markdown]) -> None:
    url = outside_link(str(event.data or ""))
    if url is None:
        return

    async def launch() -> None:
        await ft.UrlLauncher().launch_url(
            url, mode=ft.LaunchMode.EXTERNAL_APPLICATION, web_only_window_name="_blank"
        )

    ft.context.page.run_task(launch)


def _message_body(message: MessageRow) -> ft.Control:
    if message.markdown is None:
        return ft.Text(message.text, size=14)
    return ft.Markdown(
        message.markdown,
        extension_set=ft.MarkdownExtensionSet.GITHUB_FLAVORED,
        on_tap_link=_open_outside,
    )


def _bubble(message: MessageRow) -> ft.Control:
    mine = message.from_you
    bubble = ft.Container(
        content=ft.Column(
            [
                ft.Text(
                    message.byline,
                    size=12,
                    color=ft.Colors.ON_SURFACE_VARIANT,
                ),
                _message_body(message),
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
