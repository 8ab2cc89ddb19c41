"""Icon buttons that screen readers (and the UI tests) can name.

Flutter gives an ``IconButton``'s tooltip to a wrapping node, leaving the button
itself nameless in the accessibility tree; the icon's own semantics label is
merged into the button, so both are set to the same words.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft


def icon_action(
    icon: ft.IconData,
    label: str,
    on_click: Callable[[], Any] | None,
    *,
    disabled: bool = False,
    selected: bool | None = None,
) -> ft.IconButton:
    return ft.IconButton(
        icon=ft.Icon(icon, semantics_label=label),
        tooltip=label,
        on_click=(lambda: on_click()) if on_click else None,
        disabled=disabled,
        selected=selected,
    )
