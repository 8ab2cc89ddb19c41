"""Noticing that the server stopped accepting a session's token, whichever request saw it.

In the hosted web view each signed-in session has its own ``ScheduleClient``.
A token can be revoked or expire while the person is using the app, and any
of the session's screens may be the first to hear the server's 401. Rather
than teach every view model to report it, the session's client sends its
requests through ``CredentialWatch``, an httpx transport that passes each
request on unchanged and calls ``on_refused`` when an answer is 401. The
sign-in view model then returns that person to the sign-in screen.

It reads only the status code: no header, token or body is looked at or kept.
"""

from __future__ import annotations

from collections.abc import Callable

import httpx

UNAUTHENTICATED = 401


class CredentialWatch(httpx.AsyncBaseTransport):
    """Passes requests to ``inner``; calls ``on_refused()`` for every 401 answer."""

    def __init__(self, inner: httpx.AsyncBaseTransport, on_refused: Callable[[], None]) -> None:
        self._inner = inner
        self._on_refused = on_refused

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self._inner.handle_async_request(request)
        if response.status_code == UNAUTHENTICATED:
            self._on_refused()
        return response

    async def aclose(self) -> None:
        await self._inner.aclose()
