"""The person's calendar feeds: name and creation date, each with Revoke, which asks first.

A self-contained section: ``CalendarFeeds(model)`` loads the list when it
shows and renders ``CalendarFeedsSnapshot`` as it is. ``calendar_feeds_sections``
is what the Settings page calls to place it: empty where the session has
no feeds model.
"""

from __future__ import annotations

import flet as ft

from viewmodels.feeds import CalendarFeedsSnapshot, FeedRow
from viewmodels.feeds.words import (
    CANCEL_LABEL,
    FEEDS_HEADING,
    FEEDS_INTRO_TEXT,
    REVOKE_LABEL,
)
from viewmodels.formatting.shared_words import LOAD_MORE_LABEL, RETRY_LABEL
from viewmodels.language import Words
from views.binding import run_command, use_snapshot
from views.screen_models import CalendarFeedsModel, ScreenModels
from views.status_panels import error_panel
from views.words import use_words


def calendar_feeds_sections(models: ScreenModels) -> tuple[ft.Control, ...]:
    """The Settings page's feeds section: none when the session has no feeds."""
    model = models.calendar_feeds
    return () if model is None else (CalendarFeeds(model),)


@ft.component
def CalendarFeeds(model: CalendarFeedsModel) -> ft.Control:
    snapshot = use_snapshot(model)
    words = use_words()
    ft.use_effect(lambda: run_command(model.load), [model])
    if not snapshot.offered:
        return ft.Container(visible=False)
    heading = words.gettext(FEEDS_HEADING)
    parts: list[ft.Control] = [
        ft.Semantics(
            content=ft.Text(heading, theme_style=ft.TextThemeStyle.TITLE_MEDIUM),
            header=True,
            label=heading,
            exclude_semantics=True,
        ),
        ft.Text(words.gettext(FEEDS_INTRO_TEXT), size=13, color=ft.Colors.ON_SURFACE_VARIANT),
        *_body(snapshot, model, words),
    ]
    return ft.Container(
        content=ft.Column(parts, spacing=8, tight=True),
        padding=ft.Padding.symmetric(vertical=8),
    )


def _body(
    snapshot: CalendarFeedsSnapshot, model: CalendarFeedsModel, words: Words
) -> list[ft.Control]:
    if snapshot.error is not None:
        return [
            error_panel(
                snapshot.error_title, snapshot.error, lambda: run_command(model.retry), words=words
            )
        ]
    if snapshot.loading:
        return [
            ft.Row(
                [
                    ft.ProgressRing(width=18, height=18, stroke_width=2),
                    ft.Text(snapshot.loading_text),
                ],
                spacing=8,
            )
        ]
    controls: list[ft.Control] = [_row(row, snapshot, model, words) for row in snapshot.rows]
    if snapshot.empty_text:
        controls.append(ft.Text(snapshot.empty_text, size=14))
    if snapshot.revoke_error:
        controls.append(ft.Text(snapshot.revoke_error, color=ft.Colors.ERROR, size=14))
    if snapshot.later_error:
        controls.append(
            ft.Row(
                [
                    ft.Text(snapshot.later_error, color=ft.Colors.ERROR, expand=True),
                    ft.TextButton(
                        words.gettext(RETRY_LABEL), on_click=lambda: run_command(model.retry)
                    ),
                ]
            )
        )
    elif snapshot.can_load_more:
        controls.append(
            ft.TextButton(
                words.gettext(LOAD_MORE_LABEL), on_click=lambda: run_command(model.load_more)
            )
        )
    return controls


def _row(
    row: FeedRow, snapshot: CalendarFeedsSnapshot, model: CalendarFeedsModel, words: Words
) -> ft.Control:
    confirming = snapshot.confirming == row.feed_id
    revoke = words.gettext(REVOKE_LABEL)
    line = ft.Row(
        [
            ft.Semantics(
                content=ft.Column(
                    [
                        ft.Text(row.name, weight=ft.FontWeight.W_600),
                        ft.Text(row.created_text, size=12, color=ft.Colors.ON_SURFACE_VARIANT),
                    ],
                    spacing=2,
                    tight=True,
                ),
                label=row.accessible_name,
                exclude_semantics=True,
                expand=True,
            ),
            ft.TextButton(
                revoke,
                on_click=lambda: model.ask_revoke(row.feed_id),
                disabled=confirming,
            ),
        ]
    )
    if not confirming:
        return line
    question = ft.Container(
        content=ft.Column(
            [
                ft.Text(row.confirm_text, size=14),
                ft.Row(
                    [
                        ft.TextButton(
                            words.gettext(CANCEL_LABEL), on_click=lambda: model.cancel_revoke()
                        ),
                        ft.FilledButton(
                            revoke,
                            on_click=lambda: run_command(model.confirm_revoke),
                            disabled=snapshot.revoking is not None,
                        ),
                    ],
                    alignment=ft.MainAxisAlignment.END,
                ),
            ],
            spacing=8,
            tight=True,
        ),
        bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH,
        border_radius=ft.BorderRadius.all(8),
        padding=ft.Padding.all(12),
    )
    return ft.Column([line, question], spacing=4, tight=True)
