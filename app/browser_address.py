"""A browser's address in the hosted web view: who is slowed when a token is wrong.

The hosted app calls the server from one address for everyone, so each browser
is told apart by its own: ``forwarded_browser`` reads it from a trusted proxy's
``X-Forwarded-For``; ``BrowserAttempts`` slows that browser's sign-in by
``auth_throttle``'s rule before the server is asked; its client names the
address to the server (``app.forwarded_for``), so a stranger's guesses never
make a signed-in person wait. It holds nothing of the client stack (no httpx):
the web server imports it before it listens.
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
