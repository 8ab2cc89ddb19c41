"""Watching PostgreSQL's lock table, so a test knows what a transaction waits for.

Replica tests hold a lock, start the work that must wait for it, and go on
only once ``pg_locks`` shows that work waiting: what is in flight is seen,
never guessed with a sleep (``tests.polling.eventually``, re-exported here).
"""

from __future__ import annotations

from sqlalchemy import Connection, text

from tests.polling import WITHIN_SECONDS, eventually

__all__ = ["WITHIN_SECONDS", "eventually", "lock_waiters"]


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
