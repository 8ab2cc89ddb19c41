"""The calendar's month grid: one cell per day, its marks as shapes, one Tab stop.

Each mark kind has its own icon shape (a filled dot for a firing to come, a
hollow ring for a paused schedule's firing as if resumed, a triangle for an
adjusted one, a warning sign for one that may be skipped, a check for a run
that completed, a runner with errors for one that failed, a cross for
missed, a power-off plug for a day nothing was recorded…), so colour is never
the only difference. The grid is a roving focus (the ARIA
grid pattern): only the view model's ``tab_stop_day`` is a focusable button;
the other days take clicks and taps, and the arrows move the Tab stop.
"""

from __future__ import annotations

from datetime import date

import flet as ft

from viewmodels.calendar import CalendarSnapshot, DayCell, DayMark, MarkKind
from views.binding import Held, focus_soon, run_command
from views.look import FOCUS_RING_WIDTH
from views.screen_models import CalendarModel

CELL_HEIGHT = 54
MARK_SIZE = 16
"""The icon box; its glyph is about 12 px, large enough to tell the shapes apart."""

MARK_GLYPHS: dict[MarkKind, tuple[ft.IconData, str]] = {
    MarkKind.FIRES: (ft.Icons.CIRCLE, ft.Colors.PRIMARY),
    MarkKind.ADJUSTED: (ft.Icons.CHANGE_HISTORY, ft.Colors.TERTIARY),
    MarkKind.MAY_OVERLAP: (ft.Icons.WARNING_AMBER, ft.Colors.TERTIARY),
    MarkKind.WOULD_FIRE: (ft.Icons.CIRCLE_OUTLINED, ft.Colors.ON_SURFACE_VARIANT),
    MarkKind.RAN: (ft.Icons.CHECK, ft.Colors.PRIMARY),
    MarkKind.RUNNING: (ft.Icons.HOURGLASS_EMPTY, ft.Colors.PRIMARY),
    MarkKind.FAILED: (ft.Icons.RUNNING_WITH_ERRORS, ft.Colors.ERROR),
    MarkKind.MISSED: (ft.Icons.CLOSE, ft.Colors.ERROR),
    MarkKind.SKIPPED: (ft.Icons.FAST_FORWARD, ft.Colors.ON_SURFACE_VARIANT),
    MarkKind.REFUSED: (ft.Icons.GPP_BAD_OUTLINED, ft.Colors.ERROR),
    MarkKind.NOT_RUN: (ft.Icons.REPORT_OUTLINED, ft.Colors.ERROR),
    MarkKind.NOT_FIRED: (ft.Icons.POWER_OFF, ft.Colors.ERROR),
    MarkKind.NO_RECORD: (ft.Icons.QUESTION_MARK, ft.Colors.OUTLINE),
    MarkKind.NO_FIRING: (ft.Icons.REMOVE, ft.Colors.OUTLINE),
}


def mark_glyph(kind: MarkKind) -> tuple[ft.IconData, str]:
    """The icon and colour of a mark kind (three dots for a kind added later)."""
    return MARK_GLYPHS.get(kind, (ft.Icons.MORE_HORIZ, ft.Colors.OUTLINE))


def month_grid(
    model: CalendarModel,
    snapshot: CalendarSnapshot,
    refs: dict[date, ft.Ref[ft.TextButton]],
    clicked: Held[bool],
) -> ft.Control:
    """The weekday headings and the weeks; ``refs`` receives each day's button.

    ``clicked`` is set by a click on a day that was not the Tab stop yet: that
    day takes the focus once a render has made it the Tab stop.
    """
    headings = ft.Row(
        [
            ft.Text(
                name,
                size=12,
                color=ft.Colors.ON_SURFACE_VARIANT,
                text_align=ft.TextAlign.CENTER,
                expand=True,
            )
            for name in snapshot.weekday_headings
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
    clicked: Held[bool],
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
    opacity = 1.0 if cell.in_month else 0.45
    if tab_stop:
        # Merged into one node with the button's focus, named by the day's words, so
        # the page's focus lands where a screen reader can read it.
        button = ft.TextButton(
            content=ft.Semantics(
                content=face, label=cell.label, selected=cell.selected, exclude_semantics=True
            ),
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
        )
        return ft.Container(content=ft.MergeSemantics(content=button), opacity=opacity, expand=True)
    return ft.Semantics(
        content=ft.Container(
            content=ft.GestureDetector(
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
            ),
            opacity=opacity,
        ),
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
        icon, colour = mark_glyph(mark.kind)
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
