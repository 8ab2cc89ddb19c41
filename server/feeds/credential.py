"""A feed's secret: the credential in its address, minted here and kept only as a digest.

A calendar app cannot send a token, so the address itself is the credential:
256 random bits, URL-safe. The database holds only its SHA-256 digest, found
by an index lookup on the digest; the lookup compares digests, never the
secret, so its timing tells a guesser nothing about any secret (a digest's
preimage is out of reach). Every secret, well-formed or not, costs the same
digest and the same lookup, so an unknown, a revoked and a malformed secret
take the same path.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Final

__all__ = ["SECRET_BYTES", "mint_secret", "secret_digest"]

SECRET_BYTES: Final = 32
"""Random bytes in a secret: 256 bits (at least 128 make a guess hopeless)."""


def mint_secret() -> str:
    """A fresh secret, URL-safe base64 without padding."""
    return secrets.token_urlsafe(SECRET_BYTES)


def secret_digest(secret: str) -> str:
    """Hex SHA-256 of ``secret``: the only form in which it is stored or looked up."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()
