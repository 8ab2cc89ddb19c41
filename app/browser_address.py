"""A browser's address in the hosted web view: who is slowed when a token is wrong.

The hosted app calls the schedule server from its one address for everyone
who signs in through it, so a server that counted failed sign-ins by that
address would let one stranger's wrong tokens lock the whole team out. So
each browser is told apart by its own address, as the app sees it:

- ``forwarded_browser``: behind a reverse proxy (``--behind-proxy``) the TCP
  peer is the proxy, so the address is the one the proxy puts in
  ``X-Forwarded-For``, read only from the proxy's addresses
  (``--forwarded-allow-ips``, or loopback when the proxy is on this machine)
  by uvicorn's own reader. Flet's ``page.client_ip`` is then the browser's.
  The ``OriginGuard`` outside it still judges the real peer.
- ``BrowserAttempts``: the app slows each browser's sign-in by the server's
  own rule (``auth_throttle``), refusing an attempt during a wait before
  the server is asked, so a guesser's count is never everyone's.
- ``app.forwarded_for.ForwardedFor``: every request of that browser's client
  names the address in ``X-Forwarded-For``, so a server that trusts this
  app's address (``schedule-server serve --forwarded-allow-ips``) counts
  failures per browser too, and a signed-in person never waits for a
  stranger's guesses.

The web server imports this module before it listens, so it holds nothing
of the client stack (no httpx).
"""

from __future__ import annotations

from dataclasses import dataclass

from starlette.types import ASGIApp
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from app.settings import WebAddress
from auth_throttle import AuthThrottle

LOOPBACK_PROXY = ("127.0.0.1", "::1")
"""A proxy on this machine, in front of a loopback listener."""


def forwarded_browser(app: ASGIApp, address: WebAddress) -> ASGIApp:
    """``app`` seeing each browser's address as the proxy reports it; unchanged without one."""
    if not address.behind_proxy:
        return app
    proxies = [str(network) for network in address.proxy_peers] or list(LOOPBACK_PROXY)
    # uvicorn types an ASGI app more narrowly than Starlette does; the protocol is the same.
    return ProxyHeadersMiddleware(app, trusted_hosts=proxies)  # type: ignore[arg-type, return-value]


@dataclass(frozen=True, slots=True)
class BrowserAttempts:
    """``viewmodels.sign_in.SignInAttempts`` for one browser: its address in the app's throttle."""

    throttle: AuthThrottle
    address: str

    def wait(self) -> int | None:
        return self.throttle.wait(self.address)

    def failed(self) -> None:
        self.throttle.failed(self.address)
