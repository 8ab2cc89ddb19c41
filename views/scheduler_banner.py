"""The banner when firings are not happening: the server's scheduler is late or stopped.

Renders ``viewmodels.scheduler_health.SchedulerHealthSnapshot`` as it is: the
sentences are the view model's ("Schedules are not firing: the server's
scheduler last ran at 10:42 (25 min ago)."), and so is whether it shows; it
goes by itself once the scheduler runs again. Stopped is shown in the error
colours, late in the tertiary ones. Its text is a live region: a screen
reader hears it when it appears.
"""

from __future__ import annotations

import flet as ft

from views.binding import use_snapshot
from views.screen_models import SchedulerModel


@ft.component
def SchedulerBanner(model: SchedulerModel) -> ft.Control:
    snapshot = use_snapshot(model)
    if snapshot.banner_text is None:
        return ft.Container(height=0)
    colour = ft.Colors.ON_ERROR_CONTAINER if snapshot.stopped else ft.Colors.ON_TERTIARY_CONTAINER
    sentences: list[ft.Control] = [ft.Text(snapshot.banner_text, color=colour, size=13)]
    if snapshot.recovery_text is not None:
        sentences.append(ft.Text(snapshot.recovery_text, color=colour, size=13))
    icon = ft.Icons.TIMER_OFF if snapshot.stopped else ft.Icons.HOURGLASS_BOTTOM
    return ft.Container(
        content=ft.Row(
            [
                ft.Icon(icon, size=20, color=colour),
                ft.Semantics(
                    content=ft.Column(sentences, spacing=2, tight=True),
                    live_region=True,
                    expand=True,
                ),
            ],
            spacing=8,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        bgcolor=ft.Colors.ERROR_CONTAINER if snapshot.stopped else ft.Colors.TERTIARY_CONTAINER,
        padding=ft.Padding.symmetric(horizontal=16, vertical=8),
    )
