"""What one browser may hold of the hosted web view: sockets before sign-in, frames, and
connections that never finish their headers.

Each test starts the real web app under uvicorn (``tests.app.flet_socket``),
hosted behind a proxy on this machine, with short limits so nothing waits for
a default. Browsers are told apart as the proxy tells them: by the address it
puts in ``X-Forwarded-For``. A real WebSocket client registers as Flet's web
client does and reads the page's text; a session entry that "signs in"
admits its socket as ``app.sign_in_session`` does when a person signs in.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import flet as ft
import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.typing import Origin

from app.settings import WebAddress, WebLimits
from app.web.server import Entry
from app.web.sign_in_door import admit_this_socket
from connection_limits import ConnectionLimits
from devtools.ports import LOOPBACK
from tests.app.flet_socket import register_frame, serving

SECRET = "Water the office plants (secret title 7Q2)"
PUBLIC_HOST = "127.0.0.1:8550"
PUBLIC_URL = f"http://{PUBLIC_HOST}"
HOSTED = WebAddress(host=LOOPBACK, behind_proxy=True, public_url=PUBLIC_URL)
STRANGER = "203.0.113.7"
PERSON = "198.51.100.2"
DEFAULT_CONNECTIONS = ConnectionLimits()
WITHIN = 30.0
"""A bound for what the server does at once, on a loaded machine."""
HANGING_ON_SECONDS = 8.0
"""The load test's timeouts: longer than opening its 250 connections takes on a loaded
machine, so they all still hang on while the person reads the page."""


async def waits_for_sign_in(page: ft.Page) -> None:
    page.add(ft.Text(SECRET))


async def signs_in(page: ft.Page) -> None:
    page.add(ft.Text(SECRET))
    admit_this_socket()


@contextlib.asynccontextmanager
async def page_socket(port: int, browser: str) -> AsyncIterator[ClientConnection]:
    """A tab of ``browser``'s, registered, once it has read the page's text."""
    async with connect(
        f"ws://{PUBLIC_HOST}/ws",
        origin=Origin(PUBLIC_URL),
        host=LOOPBACK,
        port=port,
        additional_headers={"X-Forwarded-For": browser},
        open_timeout=WITHIN,
        max_size=None,
    ) as socket_:
        await socket_.send(register_frame())
        await asyncio.wait_for(shows_text(socket_), WITHIN)
        yield socket_


async def shows_text(socket_: ClientConnection) -> None:
    received = bytearray()
    while SECRET.encode() not in received:
        frame = await socket_.recv()
        received.extend(frame if isinstance(frame, bytes) else frame.encode())


async def closed_with(socket_: ClientConnection) -> int | None:
    """The close code the server ends ``socket_`` with (reading until it does)."""
    with contextlib.suppress(ConnectionClosed):
        while True:
            await asyncio.wait_for(socket_.recv(), WITHIN)
    return socket_.close_code


async def refused_status(port: int, browser: str) -> int:
    with pytest.raises(InvalidStatus) as refused:
        async with page_socket(port, browser):
            pass
    return refused.value.response.status_code


def waiting(
    per_address: int = 16,
    sign_in_seconds: float = 60.0,
    connections: ConnectionLimits = DEFAULT_CONNECTIONS,
) -> WebLimits:
    return WebLimits(connections, per_address, sign_in_seconds)


async def test_sockets_waiting_for_a_sign_in_are_capped_per_browser_address() -> None:
    async with (
        serving(HOSTED, waits_for_sign_in, waiting(per_address=2)) as port,
        page_socket(port, STRANGER),
    ):
        async with page_socket(port, STRANGER):
            assert await refused_status(port, STRANGER) == 429
            async with page_socket(port, PERSON) as person:
                assert person.close_code is None
        # One of the stranger's closed: another may wait in its place.
        for _ in range(int(WITHIN / 0.05)):
            with contextlib.suppress(InvalidStatus):
                async with page_socket(port, STRANGER):
                    break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the closed socket's place was never freed")


async def test_a_signed_in_socket_no_longer_counts_against_its_address() -> None:
    async with (
        serving(HOSTED, signs_in, waiting(per_address=1)) as port,
        page_socket(port, PERSON),
        page_socket(port, PERSON) as second,
    ):
        assert second.close_code is None


async def test_ipv6_browsers_count_by_their_64_prefix() -> None:
    async with (
        serving(HOSTED, waits_for_sign_in, waiting(per_address=1)) as port,
        page_socket(port, "2001:db8::1"),
    ):
        assert await refused_status(port, "2001:db8::2") == 429
        async with page_socket(port, "2001:db8:0:1::1") as neighbour:
            assert neighbour.close_code is None


async def test_a_socket_nobody_signs_in_on_is_closed_after_the_sign_in_timeout() -> None:
    async with (
        serving(HOSTED, waits_for_sign_in, waiting(sign_in_seconds=0.5)) as port,
        page_socket(port, STRANGER) as socket_,
    ):
        assert await closed_with(socket_) == 1008


async def test_a_signed_in_socket_outlives_the_sign_in_timeout() -> None:
    async with (
        serving(HOSTED, signs_in_for(PERSON), waiting(sign_in_seconds=0.5)) as port,
        page_socket(port, PERSON) as person,
    ):
        # A socket opened after the person's reaches its timeout: the person's has passed.
        async with page_socket(port, STRANGER) as later:
            await asyncio.wait_for(later.wait_closed(), WITHIN)
        pong = await person.ping()
        await asyncio.wait_for(pong, WITHIN)
        assert person.close_code is None


async def test_the_local_web_view_opens_no_door_before_sign_in() -> None:
    async with (
        serving(WebAddress(), waits_for_sign_in, waiting(per_address=1)) as port,
        connect(f"ws://127.0.0.1:{port}/ws", origin=Origin(f"http://127.0.0.1:{port}")) as one,
        connect(f"ws://127.0.0.1:{port}/ws", origin=Origin(f"http://127.0.0.1:{port}")) as two,
    ):
        await one.send(register_frame())
        await two.send(register_frame())
        await asyncio.wait_for(shows_text(one), WITHIN)
        await asyncio.wait_for(shows_text(two), WITHIN)


async def test_a_frame_over_the_limit_closes_its_socket_before_it_is_read() -> None:
    limits = waiting(connections=ConnectionLimits(max_frame_bytes=64 * 1024))
    async with serving(HOSTED, waits_for_sign_in, limits) as port:
        async with page_socket(port, STRANGER) as socket_:
            await socket_.send(b"\x01" + bytes(1024 * 1024))
            assert await closed_with(socket_) == 1009
        async with page_socket(port, PERSON) as person:
            assert person.close_code is None


async def test_a_persons_page_stays_usable_while_idle_sockets_and_half_open_ones_hang_on() -> None:
    timeout = HANGING_ON_SECONDS
    limits = waiting(sign_in_seconds=timeout, connections=ConnectionLimits(header_timeout=timeout))
    async with serving(HOSTED, signs_in_for(PERSON), limits) as port:
        half_open = []
        for _ in range(50):
            reader, writer = await asyncio.open_connection(LOOPBACK, port)
            writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1:8550\r\nX-Slow: ")
            half_open.append((reader, writer))
        async with contextlib.AsyncExitStack() as idle:
            strangers = [
                await idle.enter_async_context(page_socket(port, f"203.0.113.{n % 250 + 1}"))
                for n in range(200)
            ]
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as browser:
                page = await browser.get(
                    "/", headers={"Host": PUBLIC_HOST, "X-Forwarded-For": PERSON}
                )
            async with page_socket(port, PERSON) as person:
                # Read while every one of them still hangs on, the first opened included.
                assert strangers[0].close_code is None
                assert not half_open[0][0].at_eof()
                codes = await asyncio.wait_for(
                    asyncio.gather(*(closed_with(socket_) for socket_ in strangers)), WITHIN
                )
                ends = await asyncio.wait_for(
                    asyncio.gather(*(reader.read() for reader, _ in half_open)), WITHIN
                )
                pong = await person.ping()
                await asyncio.wait_for(pong, WITHIN)
                assert person.close_code is None
        for _, writer in half_open:
            writer.close()
            await writer.wait_closed()
    assert page.status_code == 200
    assert codes == [1008] * 200
    assert ends == [b""] * 50


def signs_in_for(browser: str) -> Entry:
    """A session entry in which ``browser``'s person signs in at once, and nobody else does."""

    async def start(page: ft.Page) -> None:
        page.add(ft.Text(SECRET))
        if page.client_ip == browser:
            admit_this_socket()

    return start
