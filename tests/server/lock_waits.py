"""Watching PostgreSQL's lock table, so a test knows what a transaction waits for.

Replica tests hold a lock, start the work that must wait for it, and go on
only once ``pg_locks`` shows that work waiting: what is in flight is seen,
never guessed with a sleep. ``eventually`` polls a condition up to a
generous bound for a loaded machine and fails loudly, naming what it waited
for.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from sqlalchemy import Connection, text

WITHIN_SECONDS = 30.0

_WAITERS = """
SELECT count(*) FROM pg_locks AS l JOIN pg_stat_activity AS a ON a.pid = l.pid
WHERE NOT l.granted
  AND (CAST(:locktype AS text) IS NULL OR l.locktype = :locktype)
  AND (CAST(:relation AS text) IS NULL OR l.relation = to_regclass(:relation))
  AND (CAST(:application AS text) IS NULL OR a.application_name = :application)
"""


def lock_waiters(
    connection: Connection,
    *,
    locktype: str | None = None,
    relation: str | None = None,
    application: str | None = None,
) -> int:
    """How many backends wait for a lock of that type, on that table, from that application."""
    found = connection.execute(
        text(_WAITERS), {"locktype": locktype, "relation": relation, "application": application}
    ).scalar_one()
    connection.commit()  # each look is a fresh snapshot of the lock table
    return int(found)


def eventually(condition: Callable[[], bool], what: str, within: float = WITHIN_SECONDS) -> None:
    """Return once ``condition()`` holds; fail naming ``what`` after ``within`` seconds."""
    deadline = time.monotonic() + within
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting ({within:.0f} s): {what}")
        time.sleep(0.02)
