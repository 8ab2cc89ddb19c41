"""The states a pane can be in besides "here is the content", each in its own words.

Loading, empty, unavailable and failed look alike across the app (an icon, one
sentence, at most one action) so users learn them once. Every action button
carries its visible label as its accessible name ("Retry").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from viewmodels.formatting import Tone
from viewmodels.formatting.shared_words import RETRY_LABEL
from viewmodels.language import Words


def centered(*controls: ft.Control) -> ft.Control:
    return ft.Container(
        content=ft.Column(
            list(controls),
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
            alignment=ft.MainAxisAlignment.CENTER,
            spacing=12,
            tight=True,
        ),
        alignment=ft.Alignment.CENTER,
        padding=ft.Padding.all(32),
        expand=True,
    )


def loading_panel(text: str) -> ft.Control:
    return centered(
        ft.ProgressRing(width=28, height=28, stroke_width=3, semantics_label=text),
        ft.Text(text, color=ft.Colors.ON_SURFACE_VARIANT),
    )


def message_panel(
    icon: ft.IconData,
    title: str,
    text: str | None = None,
    *,
    action: ft.Control | None = None,
    icon_color: ft.ColorValue = ft.Colors.ON_SURFACE_VARIANT,
) -> ft.Control:
    """A sentence that replaces the whole pane, with its icon and what can be done next."""
    parts: list[ft.Control] = [
        ft.Icon(icon, size=40, color=icon_color),
        ft.Text(title, theme_style=ft.TextThemeStyle.TITLE_MEDIUM, text_align=ft.TextAlign.CENTER),
    ]
    if text:
        parts.append(
            ft.Text(text, color=ft.Colors.ON_SURFACE_VARIANT, text_align=ft.TextAlign.CENTER)
        )
    if action is not None:
        parts.append(action)
    return centered(*parts)


def error_panel(
    title: str, reason: str | None, on_retry: Callable[[], Any], *, words: Words
) -> ft.Control:
    """A failure that replaces the whole pane: what failed, why, and Retry (in ``words``)."""
    retry = ft.FilledButton(
        words.gettext(RETRY_LABEL), icon=ft.Icons.REFRESH, on_click=lambda: on_retry()
    )
    return message_panel(
        ft.Icons.ERROR_OUTLINE, title, reason, action=retry, icon_color=ft.Colors.ERROR
    )


def state_chip(label: str, tone: Tone, *, on_selected: bool = False) -> ft.Control:
    """The state as words in a tinted pill: colour helps, the text carries the meaning.

    ``on_selected``: the pill sits on a selected row, whose container colour is
    close to every tint in both themes; it then takes the surface colour and an
    outline in its text colour, so it keeps its shape.
    """
    background, foreground = _TONE_COLOURS[tone]
    return ft.Container(
        content=ft.Text(label, size=12, weight=ft.FontWeight.W_600, color=foreground),
        bgcolor=ft.Colors.SURFACE if on_selected else background,
        border=ft.Border.all(1, foreground) if on_selected else None,
        border_radius=ft.BorderRadius.all(12),
        padding=ft.Padding.symmetric(horizontal=10, vertical=3),
    )


_TONE_COLOURS: dict[Tone, tuple[str, str]] = {
    Tone.LIVE: (ft.Colors.PRIMARY_CONTAINER, ft.Colors.ON_PRIMARY_CONTAINER),
    Tone.WARNING: (ft.Colors.TERTIARY_CONTAINER, ft.Colors.ON_TERTIARY_CONTAINER),
    Tone.DONE: (ft.Colors.SECONDARY_CONTAINER, ft.Colors.ON_SECONDARY_CONTAINER),
    Tone.NEUTRAL: (ft.Colors.SURFACE_CONTAINER_HIGHEST, ft.Colors.ON_SURFACE_VARIANT),
}
