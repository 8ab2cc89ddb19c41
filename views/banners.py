"""The banners above every screen's content: the offline one, then the scheduler's.

Each layout puts its main content under ``with_banners``, so whatever screen
is open says where its words came from (offline) and whether schedules are
firing (the scheduler), each only when the session has that view model.
"""

from __future__ import annotations

import flet as ft

from views.offline_banner import OfflineBanner
from views.scheduler_banner import SchedulerBanner
from views.screen_models import ScreenModels


def with_banners(models: ScreenModels, content: ft.Control) -> ft.Control:
    """``content`` under the session's banners (nothing above it when it has none)."""
    banners: list[ft.Control] = []
    if models.offline is not None:
        banners.append(OfflineBanner(models.offline))
    if models.scheduler is not None:
        banners.append(SchedulerBanner(models.scheduler))
    if not banners:
        return content
    return ft.Column([*banners, content], spacing=0, expand=True)
