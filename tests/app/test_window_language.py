"""A desktop window started under a German system speaks German from its first screen.

The window's session reads the system's locale (``LANG``), Settings starts
from it, and every view model the session composes writes in its language;
the views take the same words from ``ScreenModels.locale``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace
from typing import cast
from zoneinfo import ZoneInfo

import flet as ft
import httpx
import pytest
from babel import Locale

from app.page_locale import first_locale
from app.session import compose_models
from transport.client import ScheduleClient
from viewmodels.navigation import Place
from viewmodels.ports import MemoryStorage
from viewmodels.settings import SettingsViewModel

NOW = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)


@pytest.fixture
def german_system(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_TIME", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")


@pytest.mark.usefixtures("german_system")
async def test_a_window_under_lang_de_starts_in_german() -> None:
    window = cast(ft.Page, SimpleNamespace(web=False))
    settings = SettingsViewModel(
        MemoryStorage(), device_zone=ZoneInfo("Europe/Berlin"), device_locale=first_locale(window)
    )
    await settings.load()
    api = ScheduleClient(
        "http://127.0.0.1:9", transport=httpx.MockTransport(lambda _: httpx.Response(503))
    )
    composed = compose_models(
        api, MemoryStorage(), clock=lambda: NOW, device_zone=settings.display_zone
    )

    assert composed.models.locale == Locale.parse("de_DE")
    assert composed.models.navigation.heading(Place.SCHEDULES) == "Zeitpläne"
    assert (
        composed.models.schedules.snapshot.section_label(composed.models.schedules.snapshot.section)
        == "Aktuell"
    )
    await api.aclose()
