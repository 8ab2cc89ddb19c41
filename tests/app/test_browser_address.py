"""Each browser of the hosted web view is told apart by its address, as the proxy reports it.

The real web app under uvicorn (``tests.app.flet_socket``) shows a session
its ``page.client_ip``: behind a proxy on this machine it is the address the
proxy names in ``X-Forwarded-For``; with no proxy declared the header is
nobody's word. A signed-in person's client names that address on every
request it sends to the schedule server (respx stands in for it).
"""

from __future__ import annotations

import asyncio

import flet as ft
import httpx
import respx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

from app.backend.remote import SignInBackend
from app.settings import WebAddress
from devtools.api_bodies import principal_json
from tests.app.flet_socket import register_frame, serving

PUBLIC_URL = "https://schedules.example.com"
BROWSER = "203.0.113.7"
SERVER_URL = "https://schedules.test"


async def shows_address(page: ft.Page) -> None:
    page.add(ft.Text(f"browser at [{page.client_ip}]"))


async def address_shown(port: int, *, host: str, origin: str, forwarded_for: str) -> str:
    """The address the app showed the session a tab opened with ``X-Forwarded-For``."""
    received = bytearray()
    async with connect(
        f"ws://{host}/ws",
        origin=Origin(origin),
        host="127.0.0.1",
        port=port,
        open_timeout=10,
        additional_headers={"X-Forwarded-For": forwarded_for},
    ) as socket_:
        await socket_.send(register_frame())
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 8.0
        while b"]" not in received.partition(b"browser at [")[2] and loop.time() < deadline:
            try:
                frame = await asyncio.wait_for(socket_.recv(), deadline - loop.time())
            except (TimeoutError, ConnectionClosed):
                break
            received.extend(frame if isinstance(frame, bytes) else frame.encode())
    shown = bytes(received).partition(b"browser at [")[2].partition(b"]")[0]
    return shown.decode()


async def test_behind_a_proxy_on_this_machine_a_session_sees_the_browser_it_names() -> None:
    hosted = WebAddress(host="127.0.0.1", behind_proxy=True, public_url=PUBLIC_URL)
    async with serving(hosted, shows_address) as port:
        shown = await address_shown(
            port, host="schedules.example.com", origin=PUBLIC_URL, forwarded_for=BROWSER
        )
    assert shown == BROWSER


async def test_without_a_proxy_a_tabs_own_forwarded_for_is_ignored() -> None:
    async with serving(WebAddress(), shows_address) as port:
        shown = await address_shown(
            port, host=f"127.0.0.1:{port}", origin=f"http://127.0.0.1:{port}", forwarded_for=BROWSER
        )
    assert shown == "127.0.0.1"


async def test_every_request_of_a_sessions_client_names_its_browser_alone() -> None:
    backend = SignInBackend(SERVER_URL, "remote:test", "a test server", browser_address=BROWSER)
    with respx.mock(base_url=SERVER_URL, assert_all_called=False) as router:
        route = router.get("/v1/principal").mock(
            return_value=httpx.Response(200, json=principal_json())
        )
        client = backend.connect("alice-token", lambda: None)
        try:
            await client.get_principal()
            await client.get_principal()
        finally:
            await client.aclose()
    assert [call.request.headers.get_list("X-Forwarded-For") for call in route.calls] == [
        [BROWSER],
        [BROWSER],
    ]
