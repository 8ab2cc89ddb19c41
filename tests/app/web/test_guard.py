"""Only the app's own page opens a session: Flet's socket protocol spoken as a foreign
page's script would speak it, against the real web app under uvicorn.

Each test starts ``web_app`` (the guard and headers around Flet's app, as
``serve_web`` builds it) on a free loopback port, with a session entry that
shows a known secret text. A real WebSocket client (``websockets``, with
msgpack frames exactly as Flet's web client sends them) registers as a
browser tab would; the secret text in the answer proves the app answered.
"""

from __future__ import annotations

import asyncio
import ipaddress

import flet as ft
import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.typing import Origin

from app.settings import WebAddress
from tests.app.flet_socket import register_frame, serving

SECRET = "Water the office plants (secret title 7Q2)"
PUBLIC_URL = "https://schedules.example.com"


async def shows_secret(page: ft.Page) -> None:
    page.add(ft.Text(SECRET))


async def app_text_received(
    port: int, *, host: str, origin: str | None, seconds: float = 8.0
) -> bytes:
    """Every byte the app sends within ``seconds`` after registering (raises when refused)."""
    received = bytearray()
    async with connect(
        f"ws://{host}/ws",
        origin=None if origin is None else Origin(origin),
        host="127.0.0.1",
        port=port,
        open_timeout=10,
    ) as socket_:
        await socket_.send(register_frame())
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while SECRET.encode() not in received and loop.time() < deadline:
            try:
                frame = await asyncio.wait_for(socket_.recv(), deadline - loop.time())
            except (TimeoutError, ConnectionClosed):
                break
            received.extend(frame if isinstance(frame, bytes) else frame.encode())
    return bytes(received)


async def refused_status(port: int, *, host: str, origin: str | None) -> int:
    with pytest.raises(InvalidStatus) as refused:
        await app_text_received(port, host=host, origin=origin)
    return refused.value.response.status_code


LOCAL = WebAddress()
HOSTED = WebAddress(host="127.0.0.1", behind_proxy=True, public_url=PUBLIC_URL)


@pytest.mark.parametrize("name", ["127.0.0.1", "localhost"])
async def test_the_local_web_view_answers_its_own_page_on_loopback(name: str) -> None:
    async with serving(LOCAL, shows_secret) as port:
        answer = await app_text_received(
            port, host=f"{name}:{port}", origin=f"http://{name}:{port}"
        )
    assert SECRET.encode() in answer


@pytest.mark.parametrize(
    ("case", "host", "origin"),
    [
        ("foreign origin", "127.0.0.1:{port}", "https://evil.example"),
        ("foreign origin on loopback, another port", "127.0.0.1:{port}", "http://127.0.0.1:1"),
        ("origin of another loopback name", "127.0.0.1:{port}", "http://localhost:{port}"),
        ("https origin for the http app", "127.0.0.1:{port}", "https://127.0.0.1:{port}"),
        ("rebinding host", "evil.example:{port}", "http://evil.example:{port}"),
        ("host without the port", "127.0.0.1", "http://127.0.0.1"),
        ("origin null", "127.0.0.1:{port}", "null"),
        ("no origin", "127.0.0.1:{port}", None),
    ],
)
async def test_the_local_web_view_refuses_other_pages_before_a_session_exists(
    case: str, host: str, origin: str | None
) -> None:
    async with serving(LOCAL, shows_secret) as port:
        status = await refused_status(
            port,
            host=host.format(port=port),
            origin=None if origin is None else origin.format(port=port),
        )
    assert status == 403, case


async def test_the_hosted_web_view_answers_only_its_public_origin() -> None:
    async with serving(HOSTED, shows_secret) as port:
        answer = await app_text_received(port, host="schedules.example.com", origin=PUBLIC_URL)
        assert SECRET.encode() in answer
        for host, origin in [
            ("schedules.example.com", "https://evil.example"),
            ("schedules.example.com", "http://schedules.example.com"),
            (f"127.0.0.1:{port}", f"http://127.0.0.1:{port}"),
            ("evil.example", "https://evil.example"),
            ("schedules.example.com", "null"),
            ("schedules.example.com", None),
        ]:
            assert await refused_status(port, host=host, origin=origin) == 403, (host, origin)


async def test_the_page_and_its_files_are_refused_under_a_foreign_host() -> None:
    async with serving(LOCAL, shows_secret) as port, httpx.AsyncClient() as client:
        url = f"http://127.0.0.1:{port}"
        own = await client.get(f"{url}/")
        rebound = await client.get(f"{url}/", headers={"Host": f"evil.example:{port}"})
        script = await client.get(f"{url}/flutter_bootstrap.js", headers={"Host": "evil.example"})
        cross = await client.get(f"{url}/main.dart.js", headers={"Origin": "https://evil.example"})
    assert own.status_code == 200
    assert "Flutter" in own.text or "flutter" in own.text
    assert (rebound.status_code, script.status_code, cross.status_code) == (403, 403, 403)
    assert SECRET not in rebound.text


async def test_behind_a_proxy_elsewhere_only_the_proxys_addresses_are_answered() -> None:
    proxy_here = WebAddress(
        host="0.0.0.0",
        behind_proxy=True,
        public_url=PUBLIC_URL,
        proxy_peers=(ipaddress.ip_network("127.0.0.1/32"),),
    )
    proxy_elsewhere = WebAddress(
        host="0.0.0.0",
        behind_proxy=True,
        public_url=PUBLIC_URL,
        proxy_peers=(ipaddress.ip_network("10.0.0.5/32"),),
    )
    async with serving(proxy_here, shows_secret) as port:
        answer = await app_text_received(port, host="schedules.example.com", origin=PUBLIC_URL)
        assert SECRET.encode() in answer
    async with serving(proxy_elsewhere, shows_secret) as port:
        status = await refused_status(port, host="schedules.example.com", origin=PUBLIC_URL)
        assert status == 403
        async with httpx.AsyncClient() as client:
            page = await client.get(
                f"http://127.0.0.1:{port}/", headers={"Host": "schedules.example.com"}
            )
        assert page.status_code == 403
