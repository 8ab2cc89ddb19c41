"""A tab that closes while the app is still sending to it has left; that is not a fault.

When a page closes with updates still queued, the next send raises uvicorn's
``ClientDisconnected`` (an ``OSError``), which Flet lets escape before it marks the
session disconnected, so the session would never expire. ``TabDepartures`` wraps
each socket's ``send``: after an ``OSError`` it drops that send and every later
one, while the disconnect still reaches Flet through ``receive``. Other errors, and
every HTTP request, pass through unchanged.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class TabDepartures:
    """Drops a socket's sends after its tab has gone, instead of raising them into ``app``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        gone = False

        async def send_while_there(message: Message) -> None:
            nonlocal gone
            if gone:
                return
            try:
                await send(message)
            except OSError:
                gone = True

        await self.app(scope, receive, send_while_there)
