"""Naming the browser a hosted session serves on every request to the schedule server.

The hosted web view calls the server from its own address for everyone; a
server that trusts that address (``--forwarded-allow-ips``) counts each
request's failures against the browser named here instead
(``app.browser_address``). Any ``X-Forwarded-For`` already on a request is
replaced, never added to: the app speaks for its browser alone.
"""

from __future__ import annotations

import httpx


class ForwardedFor(httpx.AsyncBaseTransport):
    """Passes each request to ``inner`` with ``X-Forwarded-For: address`` (and no other)."""

    def __init__(self, inner: httpx.AsyncBaseTransport, address: str) -> None:
        self._inner = inner
        self._address = address

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        request.headers["X-Forwarded-For"] = self._address
        return await self._inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self._inner.aclose()
