"""The session's root: Settings' choices applied at once to every screen.

The theme is set on the page. The zone, the clock and the locale are given
to the view models when they are made, so a change to any of them (``shown_clock``
holds all three) asks the composition root for the session's view models again
(``compose``) and draws ``AppShell`` anew with them: every screen then writes
its times the chosen way, and its words in the locale's language
(``ScreenModels.locale``). The address is kept, so the same screen comes back.
"""

from __future__ import annotations

from collections.abc import Callable
from zoneinfo import ZoneInfo

import flet as ft

from viewmodels.settings import SettingsViewModel
from views.app_shell import AppShell
from views.binding import use_snapshot
from views.look import theme_mode
from views.screen_models import ScreenModels


@ft.component
def SettingsApplied(
    settings: SettingsViewModel, compose: Callable[[ZoneInfo], ScreenModels]
) -> ft.Control:
    snapshot = use_snapshot(settings)
    page = ft.context.page
    mode = theme_mode(snapshot.theme)

    def apply_theme() -> None:
        if page.theme_mode != mode:
            page.theme_mode = mode
            page.update()

    ft.use_effect(apply_theme, [mode])
    shown = snapshot.shown_clock
    models = ft.use_memo(lambda: compose(settings.display_zone), [shown])
    # A new key mounts a new shell: it starts the new models as the first one did.
    return AppShell(models, key=repr(shown))  # type: ignore[call-arg]
