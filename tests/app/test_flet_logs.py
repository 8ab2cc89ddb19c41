"""Nothing a person types or reads reaches a log line, with every logger at debug level.

Against the real web app under uvicorn (``tests/app/flet_socket.py``): a
session shows an instruction and a password field; a ``websockets`` client
types a token into it keystroke by keystroke, as Flet's web client does (a
props update and a change event per key), then sends a message Flet cannot
handle, carrying the token, which Flet quotes in its error. Flet logs all of
it at debug level; the lines must still be there, without the text.
"""

from __future__ import annotations

import logging
from typing import Any

import flet as ft
import msgpack
import pytest
from flet.messaging.protocol import MessageAction
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

from app.flet_logs import FletPayloadFilter
from app.settings import WebAddress
from tests.app.flet_socket import register_frame, serving

TOKEN = "sbt_live_4f9c2e7a1d8b6e3f0a5c9d2b7e4f1a8c"
INSTRUCTION = "Summarize the board minutes and send them to finance"


async def shows_a_sign_in_field(page: ft.Page) -> None:
    field = ft.TextField(label="Token", password=True, on_change=lambda _event: None)
    page.add(ft.Text(INSTRUCTION), field)


def _frame(action: MessageAction, body: dict[str, Any]) -> bytes:
    return b"\x00" + msgpack.packb([action.value, body])


def _control_id(node: object, kind: str) -> int | None:
    """The id of the first control of ``kind`` in a decoded patch."""
    if isinstance(node, dict):
        if node.get("_c") == kind:
            return int(node["_i"])
        children: list[object] = list(node.values())
    elif isinstance(node, list):
        children = node
    else:
        return None
    return next((i for c in children if (i := _control_id(c, kind)) is not None), None)


async def _field_id(tab: ClientConnection) -> int:
    while True:
        frame = await tab.recv()
        assert isinstance(frame, bytes)
        found = _control_id(msgpack.unpackb(frame[1:], strict_map_key=False), "TextField")
        if found is not None:
            return found


async def test_typing_a_token_at_debug_level_logs_each_message_without_its_text(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    async with serving(WebAddress(), shows_a_sign_in_field) as port:
        origin = Origin(f"http://127.0.0.1:{port}")
        async with connect(f"ws://127.0.0.1:{port}/ws", origin=origin) as tab:
            await tab.send(register_frame())
            field = await _field_id(tab)
            for typed in range(1, len(TOKEN) + 1):
                value = TOKEN[:typed]
                await tab.send(
                    _frame(
                        MessageAction.UPDATE_CONTROL_PROPS, {"id": field, "props": {"value": value}}
                    )
                )
                await tab.send(
                    _frame(
                        MessageAction.CONTROL_EVENT,
                        {"target": field, "name": "change", "data": value},
                    )
                )
            await tab.send(_frame(MessageAction.SESSION_CRASHED, {"token": TOKEN}))
            with pytest.raises(
                ConnectionClosed
            ):  # Flet ends the socket on a message it cannot take
                while True:
                    await tab.recv()
    assert TOKEN[:8] not in caplog.text
    assert INSTRUCTION not in caplog.text
    lines = [record.getMessage() for record in caplog.records]
    assert sum(line == "_on_message: MessageAction.CONTROL_EVENT" for line in lines) == len(TOKEN)
    assert "Receive loop error: RuntimeError" in lines


def _record(msg: object, args: Any) -> logging.LogRecord:
    return logging.LogRecord("flet_controls", logging.DEBUG, __file__, 1, msg, args, None)


@pytest.mark.parametrize(
    ("msg", "args", "line"),
    [
        pytest.param("value %s of %d", (TOKEN, 3), "value <str> of 3", id="positional"),
        pytest.param("value %(v)s", ({"v": TOKEN},), "value <str>", id="named"),
        pytest.param({"value": TOKEN}, None, "<dict>", id="an-object-as-the-message"),
        pytest.param(
            "Trigger event %s.%s %s",
            (ft.TextField(), "on_change", ft.Event("change", ft.TextField(), data=TOKEN)),
            "Trigger event TextField(",
            id="an-event",
        ),
    ],
)
def test_a_flet_line_keeps_its_words_and_loses_its_arguments(
    msg: object, args: Any, line: str
) -> None:
    record = _record(msg, args)
    assert FletPayloadFilter().filter(record)
    assert record.getMessage().startswith(line)
    assert TOKEN not in record.getMessage()
