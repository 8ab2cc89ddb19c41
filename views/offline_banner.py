"""The offline banner: the screens show the device's copy, read at a time it names; Retry.

Renders ``viewmodels.offline.OfflineSnapshot`` as it is: the sentence is the
view model's ("Can't reach the schedule server. Showing what was read at
10:42 (3 h ago)."), and so is whether it shows. It sits above the list on
every layout and above a phone's pushed screens (``views.banners``), so
whatever screen is open says where its words came from. Its text is a live
region: a screen reader hears it when it appears.
"""

from __future__ import annotations

import flet as ft

from viewmodels.formatting.shared_words import RETRY_LABEL
from views.binding import use_snapshot
from views.screen_models import OfflineModel
from views.words import use_words


@ft.component
def OfflineBanner(model: OfflineModel) -> ft.Control:
    snapshot = use_snapshot(model)
    words = use_words()
    if not snapshot.offline or snapshot.banner_text is None:
        return ft.Container(height=0)
    return ft.Container(
        content=ft.Row(
            [
                ft.Icon(ft.Icons.CLOUD_OFF, size=20, color=ft.Colors.ON_TERTIARY_CONTAINER),
                ft.Semantics(
                    content=ft.Text(
                        snapshot.banner_text, color=ft.Colors.ON_TERTIARY_CONTAINER, size=13
                    ),
                    live_region=True,
                    expand=True,
                ),
                ft.TextButton(
                    words.gettext(RETRY_LABEL),
                    disabled=snapshot.retrying,
                    on_click=lambda: model.retry(),
                ),
            ],
            spacing=8,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        bgcolor=ft.Colors.TERTIARY_CONTAINER,
        padding=ft.Padding.only(left=16, right=8, top=6, bottom=6),
    )
