"""The detail's groups, each a card under the view model's heading.

Labelled lines (a value wraps, an explanation in small type beneath it), the
complete instruction with a copy button, the website picker, and the month
calendar. A group the view model marks ``starts_folded`` (Advanced) folds, and
starts folded at every size.
"""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from viewmodels.detail import DetailGroup, GroupKind, ScheduleDetailFields
from viewmodels.detail.snapshot import (
    COPY_INSTRUCTION_LABEL,
    INSTRUCTION_COPIED_TEXT,
    LabelledValue,
)
from viewmodels.language import Words
from views.actions import icon_action
from views.calendar import CalendarSection
from views.screen_models import CalendarModel, WebsiteAccessModel
from views.website_access import WebsiteAccessPicker

LABEL_WIDTH = 136


def detail_group(
    section: DetailGroup,
    fields: ScheduleDetailFields,
    website_access: WebsiteAccessModel,
    calendar: CalendarModel,
    reveal_calendar: Callable[[], None] | None = None,
    *,
    words: Words,
) -> ft.Control:
    if section.kind is GroupKind.INSTRUCTION:
        copy = _copy_action(fields, words)
        return _card(section.title, [_instruction(fields.instruction)], copy)
    if section.kind is GroupKind.WEBSITE_ACCESS:
        return _card(section.title, [WebsiteAccessPicker(website_access)])
    if section.kind is GroupKind.CALENDAR:
        return _card(section.title, [CalendarSection(calendar, reveal_calendar)])
    lines = [_value(line) for line in section.lines]
    if section.starts_folded:
        return _folding_card(section.title, lines)
    return _card(section.title, lines)


def _instruction(text: str) -> ft.Control:
    return ft.Container(
        content=ft.Text(text, size=14),
        bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
        border_radius=ft.BorderRadius.all(8),
        padding=ft.Padding.all(12),
    )


def _copy_action(fields: ScheduleDetailFields, words: Words) -> ft.Control:
    copied = words.gettext(INSTRUCTION_COPIED_TEXT)

    async def copy_instruction() -> None:
        await ft.Clipboard().set(fields.instruction)
        ft.context.page.show_dialog(ft.SnackBar(ft.Text(copied)))

    return icon_action(
        ft.Icons.CONTENT_COPY,
        words.gettext(COPY_INSTRUCTION_LABEL),
        lambda: ft.context.page.run_task(copy_instruction),
    )


def _card(title: str, lines: list[ft.Control], action: ft.Control | None = None) -> ft.Control:
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


def _folding_card(title: str, lines: list[ft.Control]) -> ft.Control:
    """A group that folds (Advanced), folded at first."""
    return ft.Card(
        content=ft.ExpansionTile(
            title=ft.Text(
                title,
                theme_style=ft.TextThemeStyle.TITLE_SMALL,
                color=ft.Colors.PRIMARY,
                weight=ft.FontWeight.W_600,
            ),
            controls=lines,
            expanded=False,
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
    """A "label  value" line; the value wraps (the detail's SelectionArea makes it selectable)."""
    value: ft.Control = ft.Text(
        line.value, size=14, color=ft.Colors.ERROR if line.warning else None
    )
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
