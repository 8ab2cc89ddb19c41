"""Agenda scenarios: ``/v1/agenda`` and its density scripted on respx, the clock at ``NOW``.

``NOW`` is Tuesday 1 December 2026, 07:00 UTC; the device zone is Europe/London
(UTC in winter), so "today" runs from 1 December 00:00 UTC. ``agenda`` keeps no
copy (``NoViewCache``, as over the embedded server); ``new_window`` opens an
agenda over the device's view cache, as a new session of the same device would.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import respx

from app.view_cache_store import ViewCacheStore
from devtools.api_bodies import agenda_item_json, uid
from tests.clock import FakeClock
from tests.viewmodels.fake_server import ScriptedRoute
from transport.client import ScheduleClient
from viewmodels.agenda import AgendaViewModel
from viewmodels.offline import NoViewCache, OfflineViewModel
from viewmodels.ports import MemoryStorage


async def no_sleep(_seconds: float) -> None:
    """The search debounce, made instant."""


def item(name: str, at: datetime, **changes: Any) -> dict[str, Any]:
    """An agenda item of schedule ``name`` (its title too) at ``at``."""
    return agenda_item_json(schedule_id=uid(name), title=name, at=at, **changes)


@pytest.fixture
def agenda_route(router: respx.MockRouter) -> ScriptedRoute:
    """``GET /v1/agenda`` answering by cursor."""
    return ScriptedRoute(router, "GET", "/v1/agenda")


@pytest.fixture
def density_route(router: respx.MockRouter) -> ScriptedRoute:
    """``GET /v1/agenda/density``: unscripted it answers 404 (the strip hides)."""
    return ScriptedRoute(router, "GET", "/v1/agenda/density", key="none")


@pytest.fixture
def offline(clock: FakeClock, device_zone: ZoneInfo) -> OfflineViewModel:
    return OfflineViewModel(NoViewCache(), clock=clock, device_zone=device_zone)


@pytest.fixture
def agenda(
    api: ScheduleClient,
    clock: FakeClock,
    device_zone: ZoneInfo,
    offline: OfflineViewModel,
    agenda_route: ScriptedRoute,
    density_route: ScriptedRoute,
) -> AgendaViewModel:
    return AgendaViewModel(
        api, clock=clock, device_zone=device_zone, offline=offline, sleep=no_sleep, page_size=3
    )


@dataclass(frozen=True, slots=True)
class AgendaWindow:
    """An agenda and its window's offline banner, over one device's view cache."""

    agenda: AgendaViewModel
    offline: OfflineViewModel


@pytest.fixture
def new_window(
    api: ScheduleClient,
    clock: FakeClock,
    device_zone: ZoneInfo,
    storage: MemoryStorage,
    agenda_route: ScriptedRoute,
    density_route: ScriptedRoute,
) -> Callable[[], AgendaWindow]:
    """Opens a window, as a new session (a relaunch, a reload) over the same device storage."""

    def window() -> AgendaWindow:
        offline = OfflineViewModel(ViewCacheStore(storage), clock=clock, device_zone=device_zone)
        agenda = AgendaViewModel(
            api, clock=clock, device_zone=device_zone, offline=offline, sleep=no_sleep, page_size=3
        )
        return AgendaWindow(agenda, offline)

    return window
