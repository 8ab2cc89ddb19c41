"""Fixtures for view-model scenarios: a respx-backed server, a fake clock, a device zone.

A scenario builds the real ``transport.client.ScheduleClient`` over respx (base
URL ``https://schedules.test``), scripts the routes it needs with
``ScriptedRoute`` and drives a view model by calling its commands. Time is the
``clock`` fixture (move it with ``clock.advance``), the device zone is
``device_zone`` (Europe/London), device storage is ``MemoryStorage``.

Opening a detail also reads its calendar month: unless a test scripts the
projection route itself (``calendar_route``), every schedule has an empty one.
The list reads ``GET /v1/schedules/counts``: ``counts_route`` answers it
(nothing needs attention unless a test scripts otherwise).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from zoneinfo import ZoneInfo

import httpx
import pytest
import respx

from devtools.api_bodies import NOW, PROJECTION_PATH, counts_json, projection
from tests.clock import FakeClock
from tests.viewmodels.fake_server import ScriptedRoute, ok
from transport.client import ScheduleClient
from viewmodels.ports import MemoryStorage

BASE_URL = "https://schedules.test"


async def no_sleep(_seconds: float) -> None:
    """The client's retry backoff, made instant."""


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(NOW)


@pytest.fixture
def device_zone() -> ZoneInfo:
    return ZoneInfo("Europe/London")


@pytest.fixture
def storage() -> MemoryStorage:
    return MemoryStorage()


@pytest.fixture
def router() -> Iterator[respx.MockRouter]:
    with respx.mock(base_url=BASE_URL, assert_all_called=False) as mock:
        mock.route(method="GET", path__regex=PROJECTION_PATH).mock(side_effect=empty_month)
        yield mock


def empty_month(request: httpx.Request, schedule_id: str) -> httpx.Response:
    """A projection with nothing in it, for the window asked."""
    params = request.url.params
    return httpx.Response(200, json=projection(schedule_id, params["from"], params["to"]))


@pytest.fixture
def counts_route(router: respx.MockRouter) -> ScriptedRoute:
    """``GET /v1/schedules/counts``; ``script(None, ok(counts_json(...)))`` to change it."""
    route = ScriptedRoute(router, "GET", "/v1/schedules/counts", key="none")
    route.script(None, ok(counts_json(needs_attention=0)))
    return route


@pytest.fixture
async def api(
    router: respx.MockRouter, counts_route: ScriptedRoute
) -> AsyncIterator[ScheduleClient]:
    client = ScheduleClient(BASE_URL, token="test-token", sleep=no_sleep, random=lambda: 0.0)
    yield client
    await client.aclose()


@pytest.fixture
def schedules_route(router: respx.MockRouter) -> ScriptedRoute:
    """``GET /v1/schedules`` answering by (states, cursor)."""
    return ScriptedRoute(router, "GET", "/v1/schedules", key="states+cursor")
