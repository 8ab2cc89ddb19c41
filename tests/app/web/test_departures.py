"""A tab that closes while updates are still on their way is an ordinary disconnect.

Against the real web app under uvicorn: the session entry sends updates as
fast as it can until its page hears ``on_disconnect``; a ``websockets``
client registers, reads one frame and closes. Without ``TabDepartures`` the
queued sends meet the closing socket, Flet's handler ends on the error and the
session is never marked disconnected (so it would never expire), and uvicorn
logs the departure as an exception. (An update made in the instant between
Flet's send loop ending and the disconnect event still fails inside Flet, as
the entry here may show in its log; that race is Flet's own, and rare for an
app that is not sending without pause.)
"""

from __future__ import annotations

import asyncio
import logging

import flet as ft
import pytest
from starlette.types import Message, Receive, Scope, Send
from websockets.asyncio.client import connect
from websockets.typing import Origin

from app.settings import WebAddress
from app.web.departures import TabDepartures
from tests.app.flet_socket import register_frame, serving

DISCONNECT_WAIT_SECONDS = 10


async def test_a_tab_closed_mid_stream_disconnects_its_session_without_an_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    disconnected = asyncio.Event()

    async def streams_updates(page: ft.Page) -> None:
        page.on_disconnect = lambda _event: disconnected.set()
        text = ft.Text()
        page.add(text)
        for update in range(100_000):
            if disconnected.is_set():
                return
            text.value = f"update {update} " + "x" * 4000
            page.update()
            await asyncio.sleep(0)

    caplog.set_level(logging.WARNING, logger="uvicorn.error")
    async with serving(WebAddress(), streams_updates) as port:
        origin = Origin(f"http://127.0.0.1:{port}")
        async with connect(f"ws://127.0.0.1:{port}/ws", origin=origin) as tab:
            await tab.send(register_frame())
            await tab.recv()
        await asyncio.wait_for(disconnected.wait(), DISCONNECT_WAIT_SECONDS)
    faults = [record.getMessage() for record in caplog.records if record.name == "uvicorn.error"]
    assert not faults


async def test_sends_after_the_tab_has_gone_are_dropped_and_other_errors_still_raise() -> None:
    attempts: list[Message] = []

    async def closing_socket(message: Message) -> None:
        attempts.append(message)
        raise ConnectionResetError

    async def sends_three(_scope: Scope, _receive: Receive, send: Send) -> None:
        for number in range(3):
            await send({"type": "websocket.send", "text": str(number)})

    async def nothing_received() -> Message:
        raise AssertionError("not read here")

    socket_scope: Scope = {"type": "websocket"}
    await TabDepartures(sends_three)(socket_scope, nothing_received, closing_socket)
    assert [message["text"] for message in attempts] == ["0"]

    async def broken(_message: Message) -> None:
        raise RuntimeError("a fault, not a departure")

    with pytest.raises(RuntimeError):
        await TabDepartures(sends_three)(socket_scope, nothing_received, broken)
