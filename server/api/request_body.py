"""A request body the routes can trust: bounded in size, and JSON that can be stored.

``RequestBodyGuard`` is an ASGI layer in front of every route that reads a
body (POST, PUT, PATCH). It refuses

- a body over ``MAX_BODY_BYTES`` (declared by ``Content-Length`` or counted as
  it streams in) with 413 ``request.too_large``, before a route reads it;
- a JSON body that Python's parser would take but that is not storable JSON
  (``NaN``, ``Infinity``, ``1e400``, a lone surrogate, nesting deeper than
  ``server.domain.json_values.MAX_DEPTH``, not JSON at all) with 400
  ``request.invalid``, naming the offending field in ``details.field``.

What it lets through, it hands on byte for byte, so FastAPI parses the very
same document. Bodies that are not JSON by their content type are left to the
route, which refuses them.
"""

from __future__ import annotations

import json
from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from server.api.errors import ApiError, envelope, invalid_request
from server.domain.json_values import first_unportable

MAX_BODY_BYTES: Final = 512 * 1024
"""The largest request body: a definition at every field's ceiling fits with room to spare."""


_BODY_METHODS: Final = frozenset({"POST", "PUT", "PATCH"})


class _BodyTooLarge(Exception):
    pass


def too_large() -> ApiError:
    return ApiError(
        413,
        "request.too_large",
        f"The request body is larger than {MAX_BODY_BYTES} bytes.",
        {"max_bytes": MAX_BODY_BYTES},
    )


def _is_json(content_type: str | None) -> bool:
    """FastAPI's own rule: no content type, ``application/json`` or ``application/*+json``."""
    if not content_type:
        return True
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (
        media.startswith("application/") and media.endswith("+json")
    )


def _constant(name: str) -> float:
    # NaN and Infinity are read as the float they spell, so the walk can name their field.
    return float(name)


def body_refusal(body: bytes, content_type: str | None) -> ApiError | None:
    """Why ``body`` must not reach a route, or None."""
    if not body or not _is_json(content_type):
        return None
    try:
        document = json.loads(body, parse_constant=_constant)
    except (ValueError, RecursionError):
        return invalid_request("The request body is not valid JSON.")
    found = first_unportable(document)
    if found is None:
        return None
    return invalid_request(
        "The request body holds a value that is not portable JSON.",
        field=found.path,
        reason=found.reason,
    )


def _repeat(message: Message) -> Receive:
    async def again() -> Message:
        return message

    return again


class RequestBodyGuard:
    """Reads each request body once, refuses it or passes it on unchanged."""

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in _BODY_METHODS:
            # No route reads the body of a GET or DELETE: it is left unread.
            await self.app(scope, receive, send)
            return
        headers = {key.lower(): value for key, value in scope["headers"]}
        declared = headers.get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await envelope(too_large())(scope, receive, send)
            return
        try:
            body, more = await self._read(receive)
        except _BodyTooLarge:
            await envelope(too_large())(scope, receive, send)
            return
        content_type = headers.get(b"content-type", b"").decode("latin-1")
        refusal = body_refusal(body, content_type or None)
        if refusal is not None:
            await envelope(refusal)(scope, receive, send)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await more()

        await self.app(scope, replay, send)

    async def _read(self, receive: Receive) -> tuple[bytes, Receive]:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                # The client left; the route sees the disconnect when it reads.
                return b"".join(chunks), _repeat(message)
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                raise _BodyTooLarge
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks), receive
