"""The detail's Calendar section: the view model's month grid, drawn and made reachable.

Every word and every decision is ``CalendarViewModel``'s; this module draws
them. Each mark kind has its own icon shape (a ring for a firing to come, a
triangle for an adjusted one, a check for fired, a cross for missed…) and the
legend names the shapes the month shows, so colour is never the only
difference. Each day's accessible name is the view model's label, marks in
words included.

Keyboard: the grid is one Tab stop (a roving focus, as the ARIA grid pattern
has): only the view model's ``tab_stop_day`` is a focusable button, drawn
with the focus ring while it holds the focus; Tab enters the grid there and
the next Tab leaves it. While that day holds the focus (reported with
``set_grid_focus``), the app's key handler lets the calendar take the arrows
and Page Up/Down (``NavigationViewModel.press``), and this view moves the
focus to the day the keyboard chose. Elsewhere the arrows stay the list's.
"""

from __future__ import annotations

from datetime import date

import flet as ft
from flet.components.hooks.use_ref import MutableRef

from viewmodels.calendar import (
    NEXT_MONTH_LABEL,
    PREVIOUS_MONTH_LABEL,
    WEEKDAY_HEADINGS,
    CalendarSnapshot,
    DayCell,
    DayLine,
    DayMark,
    MarkKind,
)
from views.actions import icon_action
from views.binding import focus_soon, run_command, use_snapshot
from views.look import FOCUS_RING_WIDTH
from views.screen_models import CalendarModel

CELL_HEIGHT = 54
MARK_SIZE = 16
"""The icon box; its glyph is about 12 px, large enough to tell the shapes apart."""

MARK_GLYPHS: dict[MarkKind, tuple[ft.IconData, str]] = {
    MarkKind.FIRES: (ft.Icons.CIRCLE_OUTLINED, ft.Colors.PRIMARY),
    MarkKind.ADJUSTED: (ft.Icons.CHANGE_HISTORY, ft.Colors.TERTIARY),
    MarkKind.FIRED: (ft.Icons.CHECK, ft.Colors.PRIMARY),
    MarkKind.MISSED: (ft.Icons.CLOSE, ft.Colors.ERROR),
    MarkKind.SKIPPED: (ft.Icons.FAST_FORWARD, ft.Colors.ON_SURFACE_VARIANT),
    MarkKind.REFUSED: (ft.Icons.GPP_BAD_OUTLINED, ft.Colors.ERROR),
    MarkKind.NOT_RUN: (ft.Icons.REPORT_OUTLINED, ft.Colors.ERROR),
    MarkKind.NO_FIRING: (ft.Icons.REMOVE, ft.Colors.OUTLINE),
}


@ft.component
def CalendarSection(model: CalendarModel) -> ft.Control:
    snapshot = use_snapshot(model)
    buttons = ft.use_ref(dict[date, ft.Ref[ft.TextButton]]())
    moves_seen = ft.use_ref(0)

    clicked = ft.use_ref(False)

    def focus_chosen() -> None:
        # Only a choice the keyboard or a click on a day made moves the focus
        # (not a month button's): the chosen day is the Tab stop a render later.
        if snapshot.keyboard_moves == moves_seen.current and not clicked.current:
            return
        moves_seen.current = snapshot.keyboard_moves
        clicked.current = False
        chosen = snapshot.selected_day
        target = None if chosen is None else (buttons.current or {}).get(chosen)
        if target is not None and target.current is not None:
            focus_soon(target.current)

    ft.use_effect(focus_chosen, [snapshot.keyboard_moves, snapshot.selected_day])
    if not snapshot.weeks:
        return ft.Container()
    refs: dict[date, ft.Ref[ft.TextButton]] = {}
    buttons.current = refs
    parts: list[ft.Control] = [_month_bar(model, snapshot)]
    parts.extend(_status(model, snapshot))
    parts.append(_grid(model, snapshot, refs, clicked))
    if snapshot.legend:
        parts.append(_legend(snapshot.legend))
    parts.extend(_note(text) for text in snapshot.notes)
    parts.append(_chosen_day(snapshot))
    return ft.Column(parts, spacing=10, tight=True)


def _month_bar(model: CalendarModel, snapshot: CalendarSnapshot) -> ft.Control:
    return ft.Row(
        [
            icon_action(
                ft.Icons.CHEVRON_LEFT,
                PREVIOUS_MONTH_LABEL,
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
                ft.Icons.CHEVRON_RIGHT, NEXT_MONTH_LABEL, lambda: run_command(model.next_month)
            ),
        ],
        spacing=4,
    )


def _status(model: CalendarModel, snapshot: CalendarSnapshot) -> list[ft.Control]:
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
                    ft.TextButton("Retry", on_click=lambda: run_command(model.retry)),
                ],
                spacing=6,
            )
        )
    if snapshot.zone_text:
        icon = ft.Icon(ft.Icons.PUBLIC, size=16, color=ft.Colors.ON_SURFACE_VARIANT)
        lines.append(_small_line(icon, snapshot.zone_text))
    return lines


def _grid(
    model: CalendarModel,
    snapshot: CalendarSnapshot,
    refs: dict[date, ft.Ref[ft.TextButton]],
    clicked: MutableRef[bool],
) -> ft.Control:
    headings = ft.Row(
        [
            ft.Text(
                name,
                size=12,
                color=ft.Colors.ON_SURFACE_VARIANT,
                text_align=ft.TextAlign.CENTER,
                expand=True,
            )
            for name in WEEKDAY_HEADINGS
        ],
        spacing=2,
    )
    rows = [
        ft.Row(
            [
                _day(
                    model,
                    cell,
                    refs,
                    clicked,
                    tab_stop=cell.day == snapshot.tab_stop_day,
                    focused=snapshot.grid_focused,
                )
                for cell in week
            ],
            spacing=2,
        )
        for week in snapshot.weeks
    ]
    return ft.Column([headings, *rows], spacing=2, tight=True)


def _day(
    model: CalendarModel,
    cell: DayCell,
    refs: dict[date, ft.Ref[ft.TextButton]],
    clicked: MutableRef[bool],
    *,
    tab_stop: bool,
    focused: bool,
) -> ft.Control:
    ref: ft.Ref[ft.TextButton] = ft.Ref()
    refs[cell.day] = ref

    def choose() -> None:
        # A chosen day holds the focus, as in a native date picker: the arrows
        # then move from it (Escape or Tab gives them back to the list).
        model.set_grid_focus(True)
        if ref.current is not None:
            focus_soon(ref.current)
        else:
            clicked.current = True  # focused once it is the Tab stop
        run_command(model.select_day, cell.day)

    number = ft.Container(
        content=ft.Text(
            cell.number_text,
            size=13,
            weight=ft.FontWeight.W_700 if cell.is_today else ft.FontWeight.W_400,
            color=ft.Colors.ON_PRIMARY if cell.is_today else None,
            text_align=ft.TextAlign.CENTER,
        ),
        width=24,
        height=24,
        alignment=ft.Alignment.CENTER,
        bgcolor=ft.Colors.PRIMARY if cell.is_today else None,
        border_radius=ft.BorderRadius.all(12),
    )
    face = ft.Column(
        [number, _marks(cell.marks)],
        spacing=2,
        horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        alignment=ft.MainAxisAlignment.START,
        tight=True,
    )
    ringed = tab_stop and focused
    # A roving focus (the ARIA grid pattern): only the Tab stop day is a
    # focusable button, so the grid costs one Tab; the other days take clicks
    # and taps but no focus, and the arrows move the Tab stop.
    button: ft.Control
    if tab_stop:
        button = ft.TextButton(
            content=face,
            ref=ref,
            on_click=choose,
            on_focus=lambda: model.set_grid_focus(True),
            on_blur=lambda: model.set_grid_focus(False),
            style=ft.ButtonStyle(
                padding=ft.Padding.symmetric(horizontal=0, vertical=4),
                shape=ft.RoundedRectangleBorder(radius=8),
                bgcolor=ft.Colors.SECONDARY_CONTAINER if cell.selected else None,
                side=ft.BorderSide(
                    FOCUS_RING_WIDTH + 1 if ringed else FOCUS_RING_WIDTH,
                    ft.Colors.PRIMARY if cell.selected or ringed else ft.Colors.TRANSPARENT,
                ),
                overlay_color=ft.Colors.TRANSPARENT,
            ),
            height=CELL_HEIGHT,
            expand=True,
        )
    else:
        button = ft.GestureDetector(
            content=ft.Container(
                content=face,
                padding=ft.Padding.symmetric(horizontal=0, vertical=4),
                border_radius=ft.BorderRadius.all(8),
                bgcolor=ft.Colors.SECONDARY_CONTAINER if cell.selected else None,
                height=CELL_HEIGHT,
            ),
            on_tap=choose,
            mouse_cursor=ft.MouseCursor.CLICK,
            expand=True,
        )
    return ft.Semantics(
        content=ft.Container(content=button, opacity=1.0 if cell.in_month else 0.45),
        label=cell.label,
        button=True,
        selected=cell.selected,
        container=True,
        exclude_semantics=True,
        on_tap=choose,
        expand=True,
    )


def _marks(marks: tuple[DayMark, ...]) -> ft.Control:
    shown: list[ft.Control] = []
    for mark in marks:
        icon, colour = MARK_GLYPHS.get(mark.kind, (ft.Icons.CIRCLE, ft.Colors.OUTLINE))
        drawn = 1 if mark.count_text else mark.count
        shown.extend(ft.Icon(icon, size=MARK_SIZE, color=colour) for _ in range(drawn))
        if mark.count_text:
            shown.append(ft.Text(mark.count_text, size=10, color=colour))
    return ft.Row(
        shown,
        spacing=1,
        run_spacing=1,
        wrap=True,
        alignment=ft.MainAxisAlignment.CENTER,
        tight=True,
    )


def _legend(legend: tuple[tuple[MarkKind, str], ...]) -> ft.Control:
    entries: list[ft.Control] = []
    for kind, word in legend:
        icon, colour = MARK_GLYPHS.get(kind, (ft.Icons.CIRCLE, ft.Colors.OUTLINE))
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
    return ft.Container(
        content=ft.Column(lines, spacing=6, tight=True),
        padding=ft.Padding.all(12),
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
        border_radius=ft.BorderRadius.all(8),
    )


def _day_line(line: DayLine) -> ft.Control:
    icon, colour = MARK_GLYPHS.get(line.kind, (ft.Icons.CIRCLE, ft.Colors.OUTLINE))
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
