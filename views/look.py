"""The app's look: Material 3 from one seed colour, light and dark following the system.

``adaptive`` on the page makes Flet's adaptive controls render as Cupertino on
iOS and macOS and as Material elsewhere (Android, Windows, Linux, the web).
Layout breakpoints live here too so every screen agrees on "wide".
"""

from __future__ import annotations

import flet as ft

SEED = ft.Colors.INDIGO
WIDE_MIN_WIDTH = 900
"""At and above this width: sidebar | list | detail side by side."""
SIDEBAR_WIDTH = 288
LIST_WIDTH = 440


def apply_look(page: ft.Page) -> None:
    page.title = "Schedule Browser"
    page.theme_mode = ft.ThemeMode.SYSTEM
    page.theme = ft.Theme(color_scheme_seed=SEED, use_material3=True)
    page.dark_theme = ft.Theme(color_scheme_seed=SEED, use_material3=True)
    page.adaptive = True
    page.padding = 0


def is_wide(width: float | None) -> bool:
    return (width or 0) >= WIDE_MIN_WIDTH
