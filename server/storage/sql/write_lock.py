"""A transaction that holds the database's write lock from its first statement.

The scheduler's transactions read a row, decide, then write; they must not
decide on a state another writer is about to change. On SQLite a plain
(deferred) transaction takes the write lock only at its first write, and a
reader that later writes can fail with "database is locked" however long it
waits; ``BEGIN IMMEDIATE`` takes the lock up front (waiting up to the busy
timeout), so the transaction decides on the latest committed state and keeps
it until it commits. Other databases lock rows instead (``SELECT … FOR
UPDATE`` in the statements themselves), so this adds nothing there.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Connection, Engine


@contextmanager
def write_transaction(engine: Engine) -> Iterator[Connection]:
    """A connection in a write-locked transaction; commits on success, rolls back on error."""
    with engine.connect() as connection:
        if connection.dialect.name == "sqlite":
            # pysqlite issues no BEGIN of its own once this one is open.
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        yield connection
        connection.commit()
