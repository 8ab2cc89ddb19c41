"""The detail's Calendar section: the view model's month, drawn and made reachable.

Every word and decision is ``CalendarViewModel``'s. Above the grid
(``views.calendar_grid``) the month bar and the reading status; beneath it the
legend of the shapes the month shows, the month's notes and the chosen day's
lines. While the grid's Tab stop holds the focus (``set_grid_focus``) the app's
keys move the chosen day, and this section moves the focus to it. A day chosen
by key or click asks (``reveal``) for the section to be scrolled into view, so
the chosen day's lines under the grid show, and those lines are a live region
a screen reader reads out when they change.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

import flet as ft

from viewmodels.calendar import (
    NEXT_MONTH_LABEL,
    PREVIOUS_MONTH_LABEL,
    CalendarSnapshot,
    DayLine,
    MarkKind,
)
from viewmodels.formatting.shared_words import RETRY_LABEL
from viewmodels.language import Words
from views.actions import icon_action
from views.binding import Held, focus_soon, run_command, use_each_request, use_snapshot
from views.calendar_grid import MARK_SIZE, mark_glyph, month_grid
from views.screen_models import CalendarModel
from views.words import use_words

CALENDAR_SCROLL_KEY = "calendar-section"
"""The scroll key of the calendar section (one detail shows at a time)."""


@ft.component
def CalendarSection(model: CalendarModel, reveal: Callable[[], None] | None = None) -> ft.Control:
    snapshot = use_snapshot(model)
    words = use_words()
    buttons = ft.use_ref(dict[date, ft.Ref[ft.TextButton]]())
    clicked: Held[bool] = ft.use_ref(False)

    def focus_chosen() -> bool:
        # Only a choice the keyboard or a click on a day made moves the focus
        # (not a month button's): the chosen day is the Tab stop a render later.
        clicked.current = False
        chosen = snapshot.selected_day
        target = None if chosen is None else (buttons.current or {}).get(chosen)
        if target is not None and target.current is not None:
            focus_soon(target.current)
        if reveal is not None and chosen is not None:
            reveal()
        return True

    def focus_clicked() -> None:
        if clicked.current:
            focus_chosen()

    use_each_request(snapshot.keyboard_moves, focus_chosen, [snapshot.selected_day])
    ft.use_effect(focus_clicked, [snapshot.selected_day])
    if not snapshot.weeks:
        return ft.Container()
    refs: dict[date, ft.Ref[ft.TextButton]] = {}
    buttons.current = refs
    parts: list[ft.Control] = [_month_bar(model, snapshot, words)]
    parts.extend(_status(model, snapshot, words))
    parts.append(month_grid(model, snapshot, refs, clicked))
    if snapshot.legend:
        parts.append(_legend(snapshot.legend))
    parts.extend(_note(text) for text in snapshot.notes)
    parts.append(_chosen_day(snapshot))
    return ft.Column(
        parts,
        spacing=10,
        tight=True,
        key=ft.ScrollKey(CALENDAR_SCROLL_KEY),  # type: ignore[call-arg]
    )


def _month_bar(model: CalendarModel, snapshot: CalendarSnapshot, words: Words) -> ft.Control:
    return ft.Row(
        [
            icon_action(
                ft.Icons.CHEVRON_LEFT,
                words.gettext(PREVIOUS_MONTH_LABEL),
                lambda: run_command(model.previous_month),
            ),
            ft.Semantics(  # its own heading node; else it merges into the card's name
                content=ft.Text(
                    snapshot.month_title,
                    theme_style=ft.TextThemeStyle.TITLE_MEDIUM,
                    text_align=ft.TextAlign.CENTER,
                ),
                container=True,
                header=True,
                expand=True,
            ),
            icon_action(
                ft.Icons.CHEVRON_RIGHT,
                words.gettext(NEXT_MONTH_LABEL),
                lambda: run_command(model.next_month),
            ),
        ],
        spacing=4,
    )


def _status(model: CalendarModel, snapshot: CalendarSnapshot, words: Words) -> list[ft.Control]:
    lines: list[ft.Control] = []
    if snapshot.status_text:
        leading: ft.Control = (
            ft.ProgressRing(width=14, height=14, stroke_width=2)
            if snapshot.loading
            else ft.Icon(ft.Icons.INFO_OUTLINE, size=16, color=ft.Colors.ON_SURFACE_VARIANT)
        )
        lines.append(_small_line(leading, snapshot.status_text))
    if snapshot.error:
        lines.append(
            ft.Row(
                [
                    ft.Icon(ft.Icons.ERROR_OUTLINE, size=16, color=ft.Colors.ERROR),
                    ft.Text(snapshot.error, color=ft.Colors.ERROR, size=13, expand=True),
                    ft.TextButton(
                        words.gettext(RETRY_LABEL), on_click=lambda: run_command(model.retry)
                    ),
                ],
                spacing=6,
            )
        )
    if snapshot.zone_text:
        icon = ft.Icon(ft.Icons.PUBLIC, size=16, color=ft.Colors.ON_SURFACE_VARIANT)
        lines.append(_small_line(icon, snapshot.zone_text))
    return lines


def _legend(legend: tuple[tuple[MarkKind, str], ...]) -> ft.Control:
    entries: list[ft.Control] = []
    for kind, word in legend:
        icon, colour = mark_glyph(kind)
        entries.append(
            ft.Row(
                [
                    ft.Icon(icon, size=MARK_SIZE + 2, color=colour),
                    ft.Text(word, size=12, color=ft.Colors.ON_SURFACE_VARIANT),
                ],
                spacing=4,
                tight=True,
            )
        )
    return ft.Row(entries, spacing=12, run_spacing=4, wrap=True)


def _note(text: str) -> ft.Control:
    icon = ft.Icon(ft.Icons.SCHEDULE, size=16, color=ft.Colors.TERTIARY)
    return ft.Semantics(
        content=_small_line(icon, text, size=13, colour=None),
        label=text,
        container=True,
        exclude_semantics=True,
    )


def _chosen_day(snapshot: CalendarSnapshot) -> ft.Control:
    lines: list[ft.Control] = [
        ft.Text(snapshot.day_heading, weight=ft.FontWeight.W_600, size=14),
    ]
    lines.extend(_day_line(line) for line in snapshot.day_lines)
    if snapshot.day_empty_text:
        lines.append(ft.Text(snapshot.day_empty_text, size=13, color=ft.Colors.ON_SURFACE_VARIANT))
    return ft.Semantics(
        content=ft.Container(
            content=ft.Column(lines, spacing=6, tight=True),
            padding=ft.Padding.all(12),
            border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
            border_radius=ft.BorderRadius.all(8),
        ),
        container=True,
        live_region=True,
    )


def _day_line(line: DayLine) -> ft.Control:
    icon, colour = mark_glyph(line.kind)
    return _small_line(ft.Icon(icon, size=14, color=colour), line.text, size=13, colour=None)


def _small_line(
    leading: ft.Control,
    text: str,
    *,
    size: int = 12,
    colour: str | None = ft.Colors.ON_SURFACE_VARIANT,
) -> ft.Control:
    return ft.Row(
        [leading, ft.Text(text, size=size, color=colour, expand=True)],
        spacing=6,
        vertical_alignment=ft.CrossAxisAlignment.START,
    )
