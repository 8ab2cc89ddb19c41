"""Which database errors are storage faults, on each backend, and how a store remembers them.

Real errors from real databases: a write on a read-only connection (SQLite's
``query_only``, PostgreSQL's read-only session) is a fault; a constraint or
a malformed statement is not, and stays a 500 where it happens.
"""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from server.storage.faults import (
    StorageExhausted,
    StorageFaults,
    describe_fault,
    is_storage_fault,
)
from server.storage.sql.store import SqlStore

pytestmark = pytest.mark.each_backend


def read_only_statement(store: SqlStore) -> str:
    if store.engine.dialect.name == "sqlite":
        return "PRAGMA query_only = ON"
    return "SET TRANSACTION READ ONLY"


def error_of(store: SqlStore, *statements: str) -> DBAPIError:
    with pytest.raises(DBAPIError) as raised, store.engine.connect() as connection:
        for statement in statements:
            connection.execute(text(statement))
    return raised.value


def test_a_write_refused_as_read_only_is_a_fault_recorded_by_the_store(store: SqlStore) -> None:
    err = error_of(
        store,
        read_only_statement(store),
        "UPDATE alembic_version SET version_num = version_num",
    )
    assert is_storage_fault(err)
    expected = "SQLITE_READONLY" if store.engine.dialect.name == "sqlite" else "25006"
    assert describe_fault(err).endswith(expected)
    assert store.faults.faulted
    assert store.faults.count == 1
    if store.engine.dialect.name == "postgresql":
        assert err.connection_invalidated, "a read-only session is replaced, not reused"
    store.engine.dispose()  # the read-only connection goes: the fault is over
    store.probe_write()
    assert not store.faults.faulted


def test_a_broken_statement_or_constraint_is_not_a_fault(store: SqlStore) -> None:
    for statements in (
        ("SELECT * FROM no_such_table",),
        ("INSERT INTO alembic_version (version_num) SELECT version_num FROM alembic_version",),
    ):
        err = error_of(store, *statements)
        assert not is_storage_fault(err), statements
    assert not store.faults.faulted
    assert store.faults.count == 0


def test_a_fault_spell_lasts_from_the_first_fault_to_the_first_success() -> None:
    faults = StorageFaults()
    assert faults.clear() is None
    faults.record()
    faults.record()
    assert faults.faulted
    lasted = faults.clear()
    assert lasted is not None and lasted >= 0
    assert not faults.faulted
    assert faults.count == 2
    assert is_storage_fault(StorageExhausted())
    assert not is_storage_fault(ValueError("not the storage"))
