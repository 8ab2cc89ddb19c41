"""The embedded mode: the same client over an httpx.ASGITransport, no network."""

from __future__ import annotations

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from devtools import api_bodies as bodies
from transport.client import ScheduleClient


async def principal(request: Request) -> JSONResponse:
    return JSONResponse(
        bodies.principal_json(display_name=request.headers.get("authorization", "local"))
    )


async def test_client_runs_over_an_asgi_app_without_a_token() -> None:
    app = Starlette(routes=[Route("/v1/principal", principal)])
    transport = httpx.ASGITransport(app=app)
    async with ScheduleClient("http://embedded", transport=transport) as client:
        me = await client.get_principal()
    assert me.display_name == "local"
    assert me.principal_id == "alice"
