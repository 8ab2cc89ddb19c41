"""The app's look: Material 3 from one seed colour, light or dark as Settings chose.

Settings' "As the device" follows the system (or browser); Light and Dark pin
the theme (``theme_mode``).

``adaptive`` on the page makes Flet's adaptive controls render as Cupertino on
iOS and macOS and as Material elsewhere (Android, Windows, Linux, the web).
Layout breakpoints live here too so every screen agrees on "wide".

The keyboard's marks are pinned, not left to the seed: the focus ring is drawn
in the scheme's ``primary`` and the opened row is filled with its
``secondary_container``, over the page's ``surface``. Those three roles are set
here, for each theme, to the seed's own tones, so the ring's contrast against
both backgrounds is a fact a test computes (``tests/views/test_look.py``:
at least 3:1, as WCAG asks of a focus indicator), not a hope.
"""

from __future__ import annotations

from dataclasses import dataclass

import flet as ft

from viewmodels.formatting.shared_words import APP_NAME
from viewmodels.settings import ThemeChoice

SEED = ft.Colors.INDIGO
WIDE_MIN_WIDTH = 900
"""At and above this width: sidebar | list | detail side by side."""
SIDEBAR_WIDTH = 288
LIST_WIDTH = 440
FOCUS_RING_WIDTH = 2
"""Pixels: the keyboard's focus ring around a row or a calendar day."""
OPENED_BAR_WIDTH = 4
"""Pixels: the accent bar at the opened row's leading edge (with its fill)."""


@dataclass(frozen=True, slots=True)
class KeyboardMarks:
    """One theme's colours for the keyboard's marks, as ``#rrggbb``."""

    focus_ring: str
    """The focus ring (the scheme's ``primary``)."""
    opened_fill: str
    """The opened row's fill (``secondary_container``)."""
    surface: str
    """The page behind the rows and days (``surface``)."""

    def color_scheme(self) -> ft.ColorScheme:
        return ft.ColorScheme(
            primary=self.focus_ring,
            secondary_container=self.opened_fill,
            surface=self.surface,
        )


LIGHT_MARKS = KeyboardMarks(focus_ring="#4355B9", opened_fill="#DEE0F9", surface="#FBF8FF")
DARK_MARKS = KeyboardMarks(focus_ring="#BAC3FF", opened_fill="#424659", surface="#121318")


def themes() -> tuple[ft.Theme, ft.Theme]:
    """The light and the dark theme: the seed, with the keyboard's marks pinned."""
    return _theme(LIGHT_MARKS), _theme(DARK_MARKS)


def _theme(marks: KeyboardMarks) -> ft.Theme:
    return ft.Theme(color_scheme_seed=SEED, color_scheme=marks.color_scheme(), use_material3=True)


_THEME_MODES = {
    ThemeChoice.SYSTEM: ft.ThemeMode.SYSTEM,
    ThemeChoice.LIGHT: ft.ThemeMode.LIGHT,
    ThemeChoice.DARK: ft.ThemeMode.DARK,
}


def theme_mode(choice: ThemeChoice) -> ft.ThemeMode:
    return _THEME_MODES[choice]


def apply_look(page: ft.Page, theme: ThemeChoice = ThemeChoice.SYSTEM) -> None:
    page.title = APP_NAME
    page.theme_mode = theme_mode(theme)
    page.theme, page.dark_theme = themes()
    page.adaptive = True
    page.padding = 0


def is_wide(width: float | None) -> bool:
    return (width or 0) >= WIDE_MIN_WIDTH
