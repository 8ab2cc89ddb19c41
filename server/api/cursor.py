"""Opaque, tamper-evident list cursors.

A cursor is ``base64url(JSON keyset position) "." base64url(HMAC-SHA256)``.
The MAC also covers the cursor's *scope* (route, principal, filter), which is
never sent: a cursor edited by hand, minted by another server, or replayed by
another principal or under another filter fails verification and is answered
with 400 ``request.invalid``, never a 500.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
from datetime import datetime
from uuid import UUID

from server.api.errors import invalid_request
from server.storage.next_fire_order import NextFireGroup, NextFirePosition


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class CursorCodec:
    def __init__(self, secret: bytes) -> None:
        self._secret = secret

    def _mac(self, scope: str, body: bytes) -> bytes:
        message = scope.encode("utf-8") + b"\x00" + body
        return hmac.new(self._secret, message, hashlib.sha256).digest()

    def encode(self, scope: str, position: list[str]) -> str:
        body = json.dumps(position, separators=(",", ":")).encode("utf-8")
        return f"{_b64(body)}.{_b64(self._mac(scope, body))}"

    def decode(self, scope: str, cursor: str) -> list[str]:
        try:
            body_text, mac_text = cursor.split(".")
            body, mac = _unb64(body_text), _unb64(mac_text)
        except (ValueError, binascii.Error) as err:
            raise invalid_request("The cursor is not valid here.", field="cursor") from err
        if not hmac.compare_digest(mac, self._mac(scope, body)):
            raise invalid_request("The cursor is not valid here.", field="cursor")
        position = json.loads(body)
        if not isinstance(position, list) or not all(isinstance(v, str) for v in position):
            raise invalid_request("The cursor is not valid here.", field="cursor")
        return position


def instant_key(position: list[str]) -> tuple[datetime, UUID]:
    """A signed (instant, id) position; signed by us, so it parses."""
    try:
        return datetime.fromisoformat(position[0]), UUID(position[1])
    except (IndexError, ValueError) as err:
        raise invalid_request("The cursor is not valid here.", field="cursor") from err


def next_fire_key(position: list[str]) -> NextFirePosition:
    """A signed (group, instant, id) position of the soonest-first order."""
    try:
        group = NextFireGroup(int(position[0]))
        return group, datetime.fromisoformat(position[1]), UUID(position[2])
    except (IndexError, ValueError) as err:
        raise invalid_request("The cursor is not valid here.", field="cursor") from err


def text_key(position: list[str]) -> tuple[str, UUID]:
    try:
        return position[0], UUID(position[1])
    except (IndexError, ValueError) as err:
        raise invalid_request("The cursor is not valid here.", field="cursor") from err
