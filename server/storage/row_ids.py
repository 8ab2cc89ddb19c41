"""Identifiers for schedules and the rows the scheduler inserts in bulk: time-ordered UUIDs.

A version 7 UUID (RFC 9562) starts with the millisecond it was made, so rows
made together land together at their index's right edge and a batch dirties a
few pages per index, where random ids would dirty a page per row. Schedules
get them too, since the ledger's and audit log's indexes lead with the
schedule id. The other 74 bits are random, so ids stay unguessable; they are
ordinary UUIDs on the wire.
"""

from __future__ import annotations

import os
import time
from uuid import UUID

__all__ = ["new_row_id"]

_VERSION_7 = 0x7 << 76
_VARIANT = 0b10 << 62
_RANDOM_A = (1 << 12) - 1
_RANDOM_B = (1 << 62) - 1


def new_row_id() -> UUID:
    """A fresh version 7 UUID: the current Unix millisecond, then random bits."""
    millis = time.time_ns() // 1_000_000
    random = int.from_bytes(os.urandom(10), "big")
    value = (
        (millis & ((1 << 48) - 1)) << 80
        | _VERSION_7
        | ((random >> 62) & _RANDOM_A) << 64
        | _VARIANT
        | (random & _RANDOM_B)
    )
    return UUID(int=value)
