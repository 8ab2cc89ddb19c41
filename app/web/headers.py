"""The security headers on every answer of the web view, and the page's script policy.

``SecurityHeaders`` wraps the whole web app. It sets a ``Content-Security-Policy``
(the app's own scripts, styles, fonts, images and socket; ``'wasm-unsafe-eval'``
for CanvasKit; the page's inline scripts by their SHA-256, computed from the page
as served, so an injected script would not run; ``frame-ancestors 'none'``),
``X-Frame-Options``, ``X-Content-Type-Options``, ``Referrer-Policy``, and HSTS when
browsers reach the app over HTTPS. It removes Flet's ``Access-Control-Allow-Origin: *``
and ``Cross-Origin-Embedder-Policy``: a cross-origin isolated page makes Flutter's
skwasm renderer draw on a worker thread, a pairing that can corrupt the wasm heap
and stop the page (flutter/flutter#190039). A page's validators are dropped, so it
is never answered "Not Modified" from a copy cached under another policy.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterable

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.web.origin import DEFAULT_PORTS, parse_authority

HSTS = "max-age=31536000"
FIXED_HEADERS = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
_INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.DOTALL | re.IGNORECASE)
_VALIDATORS = (b"if-none-match", b"if-modified-since")
_DROPPED = ("access-control-allow-origin", "cross-origin-embedder-policy")
"""Headers Flet adds that this app does not send (see the module docstring)."""


def inline_script_hashes(page: bytes) -> list[str]:
    """CSP sources (``'sha256-…'``) for each inline ``<script>`` of ``page``."""
    return [
        f"'sha256-{base64.b64encode(hashlib.sha256(body).digest()).decode()}'"
        for body in _INLINE_SCRIPT.findall(page)
    ]


def content_security_policy(socket_origin: str | None, script_hashes: Iterable[str]) -> str:
    connect = "'self'" if socket_origin is None else f"'self' {socket_origin}"
    scripts = " ".join(["'self'", "'wasm-unsafe-eval'", *script_hashes])
    return "; ".join(
        [
            "default-src 'self'",
            f"script-src {scripts}",
            "style-src 'self' 'unsafe-inline'",
            "img-src 'self' data: blob:",
            "font-src 'self' data:",
            f"connect-src {connect}",
            "worker-src 'self' blob:",
            "manifest-src 'self'",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


class SecurityHeaders:
    """Adds the headers above to every HTTP answer of ``app``."""

    def __init__(self, app: ASGIApp, *, https: bool) -> None:
        self.app = app
        self.https = https

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if _route_like(scope["path"]):
            scope = dict(scope)
            scope["headers"] = [
                (name, value) for name, value in scope["headers"] if name not in _VALIDATORS
            ]
        socket_origin = self._socket_origin(Headers(scope=scope).get("host"))
        start: Message | None = None
        page = bytearray()

        async def secured(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
                if not _is_html(message):
                    await send(self._with_headers(message, socket_origin, ()))
                    start = None
                return
            if start is None or message["type"] != "http.response.body":
                await send(message)
                return
            # An HTML page: held until whole, to hash its inline scripts.
            page.extend(message.get("body", b""))
            if message.get("more_body", False):
                return
            hashes = inline_script_hashes(bytes(page))
            await send(self._with_headers(start, socket_origin, hashes))
            await send({"type": "http.response.body", "body": bytes(page)})

        await self.app(scope, receive, secured)

    def _socket_origin(self, host: str | None) -> str | None:
        scheme = "https" if self.https else "http"
        authority = None if host is None else parse_authority(host, scheme)
        if authority is None:
            return None
        shown = authority.host if authority.port == DEFAULT_PORTS[scheme] else str(authority)
        return f"{'wss' if self.https else 'ws'}://{shown}"

    def _with_headers(
        self, start: Message, socket_origin: str | None, hashes: Iterable[str]
    ) -> Message:
        headers = MutableHeaders(raw=list(start.get("headers", [])))
        for flets_own in _DROPPED:
            if flets_own in headers:
                del headers[flets_own]
        for name, value in FIXED_HEADERS.items():
            headers[name] = value
        headers["Content-Security-Policy"] = content_security_policy(socket_origin, hashes)
        if self.https:
            headers["Strict-Transport-Security"] = HSTS
        return {**start, "headers": headers.raw}


def _route_like(path: str) -> bool:
    """A path Flet answers with the page (no extension, or ``.html``), as its SPA fallback."""
    last = path.rsplit("/", 1)[-1]
    return "." not in last or last.lower().endswith(".html")


def _is_html(start: Message) -> bool:
    for name, value in start.get("headers", []):
        if name.lower() == b"content-type":
            return bytes(value).lower().startswith(b"text/html")
    return False
