"""What Flet sends is not spelled out for a debug line: the line names the action only.

Against the real web app under uvicorn, with Flet's transport logger at
debug level: a session shows a text, a ``websockets`` client registers and
reads the patch that carries it. Flet formats every message it sends into
that logger's line; the line must not hold the text (an instruction, in the
app) and must stay short however large the patch (its cost was the point).
"""

from __future__ import annotations

import logging

import flet as ft
import pytest
from flet.messaging.protocol import Message, MessageAction
from websockets.asyncio.client import connect
from websockets.typing import Origin

from app.settings import WebAddress
from app.web.messages import quiet_message_repr
from tests.app.flet_socket import register_frame, serving

INSTRUCTION = "Summarize the board minutes and send them to finance"


async def shows_instructions(page: ft.Page) -> None:
    page.add(*(ft.Text(f"{INSTRUCTION} ({number})") for number in range(50)))


async def test_the_debug_line_of_a_sent_patch_names_its_action_not_its_controls(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger="flet_transport")
    async with serving(WebAddress(), shows_instructions) as port:
        origin = Origin(f"http://127.0.0.1:{port}")
        async with connect(f"ws://127.0.0.1:{port}/ws", origin=origin) as tab:
            await tab.send(register_frame())
            frames = [await tab.recv() for _ in range(2)]
    assert any(INSTRUCTION.encode() in frame for frame in frames if isinstance(frame, bytes))
    sent = [r.getMessage() for r in caplog.records if r.getMessage().startswith("send_message")]
    assert sent, "Flet logs each message it sends at debug level"
    assert not any(INSTRUCTION in line for line in sent)
    assert max(len(line) for line in sent) < 100


def test_a_message_reprs_as_its_action() -> None:
    quiet_message_repr()
    patch = Message(MessageAction.PATCH_CONTROL, {"patch": [ft.Text(INSTRUCTION)]})
    assert repr(patch) == "Message(PATCH_CONTROL)"
