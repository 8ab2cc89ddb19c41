"""Icon buttons that screen readers (and the UI tests) can name, with no tooltip.

The icon's semantics label is merged into the button, which is named by it.
No tooltip, on purpose: Flutter shows a tooltip by hover in an overlay, and
with the accessibility tree on (a screen reader) its web engine then moves
the whole page's semantics nodes under a new parent, which takes the focus
out of a text field being typed in; every key typed after it is lost. A
mouse resting on an icon while the person types (the phone's Search action
they just clicked) is enough. So no control here opens anything by hover.
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
        on_click=(lambda: on_click()) if on_click else None,
        disabled=disabled,
        selected=selected,
    )
