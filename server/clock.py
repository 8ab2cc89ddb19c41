"""The wall clock the server reads: aware and in UTC.

Everything else takes a ``clock`` callable, so tests and the demo pass a fixed
one; the two commands (``schedule-server`` and the embedded server) pass this.
"""

from __future__ import annotations

from datetime import UTC, datetime


def system_clock() -> datetime:
    """The wall clock, aware and in UTC (the only place the server reads it)."""
    return datetime.now(UTC)
