"""The signature on each run handed to an HTTP agent runtime (docs/API.md, "The executor protocol").

``X-Schedule-Signature: t=UNIX_SECONDS,v1=HEX``: HEX is the lowercase hex
HMAC-SHA256, keyed by the shared secret, of ``UNIX_SECONDS``, a ``.``, and
the raw request body. Putting the time under the MAC lets a runtime refuse a
captured request replayed later (``verify``'s tolerance) as well as a forged
one; each retry is signed afresh. ``verify`` is here for runtimes written in
Python; the protocol needs nothing of this package.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from typing import Final

__all__ = ["SIGNATURE_HEADER", "TOLERANCE_SECONDS", "sign", "verify"]

SIGNATURE_HEADER: Final = "X-Schedule-Signature"
TOLERANCE_SECONDS: Final = 300
"""How far a signature's time may be from the runtime's clock, either way."""
_SECONDS: Final = re.compile(r"[0-9]{1,15}")
_HEX_DIGEST: Final = re.compile(r"[0-9a-f]{64}")


def _digest(secret: bytes, timestamp: int, body: bytes) -> str:
    return hmac.new(secret, f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()


def sign(secret: bytes, timestamp: int, body: bytes) -> str:
    """The header value for ``body`` sent at ``timestamp`` (Unix seconds)."""
    return f"t={timestamp},v1={_digest(secret, timestamp, body)}"


def verify(
    secret: bytes, header: str, body: bytes, now: float, tolerance: int = TOLERANCE_SECONDS
) -> bool:
    """Whether ``header`` signs ``body`` with ``secret``, at a time within ``tolerance`` of ``now``.

    ``now`` and ``tolerance`` are Unix seconds. Any header that is not
    ``t=DIGITS,v1=64 HEX`` (ASCII only; other fields ignored) is False, never an exception.
    """
    fields = dict(part.split("=", 1) for part in header.split(",") if "=" in part)
    seconds, signature = fields.get("t", ""), fields.get("v1", "")
    if _SECONDS.fullmatch(seconds) is None or _HEX_DIGEST.fullmatch(signature) is None:
        return False
    timestamp = int(seconds)
    if abs(now - timestamp) > tolerance:
        return False
    return hmac.compare_digest(_digest(secret, timestamp, body), signature)
