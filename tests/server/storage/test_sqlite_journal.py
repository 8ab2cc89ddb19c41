"""SQLite's WAL stays bounded: a size limit on every connection, and a truncating checkpoint.

A reader holding an old snapshot keeps the automatic checkpoints from
resetting the WAL, which then only grows; ``compact_journal`` (the worker's
idle-time call) truncates it once the reader is gone, and leaves a small WAL
(an idle scan's heartbeat tick) as it is: a checkpoint syncs the database file.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from server.storage.engine import COMPACT_FROM_BYTES, SQLITE_JOURNAL_SIZE_LIMIT
from server.storage.sql.store import SqlStore


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqlStore]:
    opened = SqlStore.open(f"sqlite:///{tmp_path / 'journal.db'}")
    yield opened
    opened.close()


def test_every_connection_limits_the_journal(store: SqlStore) -> None:
    with store.engine.connect() as connection:
        limit = connection.execute(text("PRAGMA journal_size_limit")).scalar_one()
        mode = connection.execute(text("PRAGMA journal_mode")).scalar_one()
    assert (limit, mode) == (SQLITE_JOURNAL_SIZE_LIMIT, "wal")


def test_compacting_truncates_a_wal_that_a_long_reader_made_grow(
    store: SqlStore, tmp_path: Path
) -> None:
    wal = tmp_path / "journal.db-wal"
    with store.engine.begin() as connection:
        connection.execute(text("CREATE TABLE filler (payload BLOB)"))
    with store.engine.connect() as reader:
        reader.exec_driver_sql("BEGIN")
        reader.execute(text("SELECT count(*) FROM filler")).scalar_one()  # holds its snapshot
        for _ in range(40):
            with store.engine.begin() as writer:
                writer.execute(text("INSERT INTO filler VALUES (randomblob(100000))"))
        grown = wal.stat().st_size
        store.compact_journal()  # the reader is still there: waits briefly, then gives up
        reader.rollback()
    assert grown > 2 * 1024 * 1024
    store.compact_journal()
    assert wal.stat().st_size == 0
    with store.engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM filler")).scalar_one() == 40


def test_compacting_leaves_a_small_wal_as_it_is(store: SqlStore, tmp_path: Path) -> None:
    wal = tmp_path / "journal.db-wal"
    with store.engine.begin() as connection:
        connection.execute(text("CREATE TABLE filler (payload BLOB)"))
        connection.execute(text("INSERT INTO filler VALUES (randomblob(100))"))
    written = wal.stat().st_size

    store.compact_journal()

    assert 0 < written < COMPACT_FROM_BYTES
    assert wal.stat().st_size == written
