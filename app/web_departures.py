"""A tab that closes while the app is still sending to it has left; that is not a fault.

Flet's web app sends a session's updates from a queue. When the page closes
with updates still queued, the next send meets a socket that is closing and
uvicorn raises ``ClientDisconnected`` (an ``OSError``). Flet lets that escape
its handler, so the handler never reaches the step that marks the session
disconnected: the session, with its signed-in person, client and polling,
would never expire, and uvicorn would log the departure as an exception.

``TabDepartures`` wraps each socket's ``send``: once a send fails with an
``OSError``, that send and every later one is dropped, because nobody is
there to read it. The disconnect still reaches Flet through ``receive``, so
Flet ends the connection by its ordinary path and the session expires after
its grace (``app.web_server``). Any other error, and every HTTP request,
passes through unchanged.
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
