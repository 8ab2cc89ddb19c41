"""The web view's door: requests from anywhere but its own page are refused with 403.

``OriginGuard`` is our own ASGI layer outside Flet's app, so no Flet upgrade
decides who may open a session. A socket upgrade (``/ws``) passes only with the
app's own ``Origin`` and an allowed ``Host`` (``app.web.origin``), and is refused
before Flet creates a session; any other request needs an allowed ``Host`` and,
when it carries an ``Origin``, the app's own. Behind a proxy reached over the
network (``--forwarded-allow-ips``) only the proxy's addresses pass. The lifespan
channel passes untouched.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from gettext import NullTranslations

from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from app.web.origin import TrustedOrigins
from viewmodels.language import parsed_locale, words_for

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def refusal(words: NullTranslations) -> str:
    """The 403's text, in the browser's language for a page (``browser_words``)."""
    return words.gettext("This address serves Schedule Browser to its own page only.")


REFUSED = refusal(NullTranslations())
"""The refusal in English: a socket's refusal is never shown to a person."""


class OriginGuard:
    """Passes requests from the app's own origin to ``app``; answers the rest 403."""

    def __init__(
        self, app: ASGIApp, origins: TrustedOrigins, *, peers: Sequence[Network] = ()
    ) -> None:
        self.app = app
        self.origins = origins
        self.peers = tuple(peers)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket") or self._admits(scope):
            await self.app(scope, receive, send)
            return
        if kind == "http":
            await PlainTextResponse(refusal(browser_words(scope)), status_code=403)(
                scope, receive, send
            )
            return
        await refuse_handshake(scope, send, 403, REFUSED)

    def _admits(self, scope: Scope) -> bool:
        if self.peers and not peer_in(scope, self.peers):
            return False
        headers = Headers(scope=scope)
        host, origin = headers.get("host"), headers.get("origin")
        if scope["type"] == "websocket" or origin is not None:
            return self.origins.origin_allowed(origin, host)
        return self.origins.host_allowed(host)


def browser_words(scope: Scope) -> NullTranslations:
    """The catalog of the first language of the request's ``Accept-Language`` CLDR knows
    (browsers list them most preferred first, as ``first_known_locale`` reads them);
    English when it names none."""
    header = Headers(scope=scope).get("accept-language", "")
    for part in header.split(","):
        language = part.split(";")[0].strip()
        if language in ("", "*"):
            continue
        try:
            return words_for(parsed_locale(language))
        except ValueError:
            continue
    return NullTranslations()


def peer_address(scope: Scope) -> Address | None:
    """The address of the connection's other end (an IPv4-mapped one as IPv4), if known."""
    client = scope.get("client")
    if not client:
        return None
    try:
        address = ipaddress.ip_address(str(client[0]))
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def peer_in(scope: Scope, peers: Sequence[Network]) -> bool:
    """The connection comes from one of ``peers``."""
    address = peer_address(scope)
    return address is not None and any(address in network for network in peers)


async def refuse_handshake(scope: Scope, send: Send, status: int, reason: str) -> None:
    """``status`` in place of the upgrade: with the ASGI denial-response extension when the
    server offers it, else a close before accepting, which servers answer with 403."""
    if "websocket.http.response" in scope.get("extensions", {}):
        body = reason.encode()
        await send(
            {
                "type": "websocket.http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "websocket.http.response.body", "body": body})
        return
    await send({"type": "websocket.close", "code": 1008})
