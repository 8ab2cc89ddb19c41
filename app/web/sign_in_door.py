"""Sockets before sign-in in the hosted web view: few per browser, and short-lived.

Flet opens a session for every socket past ``app.web.guard``, before anyone signs
in, so a stranger's script could open hundreds and keep them. ``SignInDoor`` holds
each socket *waiting* from its handshake until a person signs in on it: at most
``per_address`` wait at once per browser address (an IPv6 address by its /64),
another is refused with 429, and one still waiting ``within`` seconds after its
handshake is closed (1008). The browser's address is the one the outer layers see
(``app.browser_address.forwarded_browser`` behind a proxy). ``admit_this_socket``,
called by ``app.sign_in_session`` on sign-in and when a signed-in tab reconnects,
finds its socket in a context variable: Flet runs a session's events in tasks made
from the handler of the socket that carried them.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
from collections import Counter
from contextvars import ContextVar

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.web.guard import peer_address, refuse_handshake

TOO_MANY = "Too many pages of Schedule Browser are waiting for a sign-in from this address."
LATE = "Nobody signed in on this page in time; reload it to sign in."
IPV6_SUBSCRIBER_PREFIX = 64


class WaitingSocket:
    """One socket on which nobody has signed in yet; ``admit`` ends its waiting."""

    def __init__(self) -> None:
        self.admitted = asyncio.Event()

    def admit(self) -> None:
        self.admitted.set()


_this_socket: ContextVar[WaitingSocket | None] = ContextVar("waiting_socket", default=None)


def admit_this_socket() -> None:
    """The socket that carried the running entry or event has a person signed in on it."""
    socket = _this_socket.get()
    if socket is not None:
        socket.admit()


def browser_key(scope: Scope) -> str:
    """The browser address sockets are counted by: an IPv6 address by its /64."""
    address = peer_address(scope)
    if address is None:
        return ""
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/{IPV6_SUBSCRIBER_PREFIX}", strict=False))
    return str(address)


class SignInDoor:
    """Caps the sockets waiting for a sign-in per browser address, and closes late ones."""

    def __init__(self, app: ASGIApp, *, per_address: int, within: float) -> None:
        self.app = app
        self.per_address = per_address
        self.within = within
        self.waiting: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        key = browser_key(scope)
        if self.waiting[key] >= self.per_address:
            await refuse_handshake(scope, send, 429, TOO_MANY)
            return
        socket = WaitingSocket()
        closed = released = False

        def release() -> None:
            nonlocal released
            if not released:
                released = True
                self.waiting[key] -= 1
                if self.waiting[key] <= 0:
                    del self.waiting[key]

        async def send_until_closed(message: Message) -> None:
            if not closed:
                await send(message)

        async def close_unless_admitted() -> None:
            nonlocal closed
            try:
                await asyncio.wait_for(socket.admitted.wait(), self.within)
            except TimeoutError:
                closed = True
                with contextlib.suppress(OSError):
                    await send({"type": "websocket.close", "code": 1008, "reason": LATE})
            release()

        self.waiting[key] += 1
        watch = asyncio.create_task(close_unless_admitted())
        token = _this_socket.set(socket)
        try:
            await self.app(scope, receive, send_until_closed)
        finally:
            _this_socket.reset(token)
            watch.cancel()
            release()
