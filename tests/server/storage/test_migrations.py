"""The migrations build exactly the declared schema, and the head step reverses cleanly.

Both run on each backend (``empty_database_url``: SQLite, then PostgreSQL).
"""

from __future__ import annotations

import logging
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, inspect, text

from server.storage.engine import open_engine
from server.storage.migrate import (
    MIGRATIONS,
    alembic_config,
    downgrade,
    head_revisions,
    upgrade,
)
from server.storage.schema_head import HEAD_REVISION, is_at_head
from server.storage.sql.search_index import declared_elsewhere
from server.storage.sql.store import SqlStore
from server.storage.tables import metadata

COMPARISON = {
    "compare_type": True,
    # Each database's own search index (FTS5 on SQLite, pg_trgm on PostgreSQL)
    # is made by the migration, not declared; tests/server/storage/test_search.py
    # proves it is there and used.
    "include_name": lambda name, kind, _parents: not declared_elsewhere(name, kind),
}


def test_migrated_schema_equals_declared_metadata(empty_database_url: str) -> None:
    engine = open_engine(empty_database_url)
    upgrade(engine)
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts=COMPARISON)
        assert compare_metadata(context, metadata) == []
    # Alembic's comparison ignores collations, which decide the order of listings.
    inspector = inspect(engine)
    for table in metadata.sorted_tables:
        migrated = {c["name"]: c["type"] for c in inspector.get_columns(table.name)}
        for column in table.columns:
            declared = column.type.dialect_impl(engine.dialect)
            assert getattr(migrated[column.name], "collation", None) == getattr(
                declared, "collation", None
            ), f"{table.name}.{column.name}"
    engine.dispose()


def test_head_migration_downgrades_and_upgrades_again(empty_database_url: str) -> None:
    engine = open_engine(empty_database_url)
    upgrade(engine)
    head = ScriptDirectory.from_config(alembic_config(engine)).get_current_head()
    assert head is not None
    script = ScriptDirectory.from_config(alembic_config(engine)).get_revision(head)
    downgrade(engine, script.down_revision or "base")  # type: ignore[arg-type]
    with engine.connect() as connection:
        assert MigrationContext.configure(connection).get_current_revision() == (
            script.down_revision
        )
    if script.down_revision is None:
        assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    upgrade(engine)
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts=COMPARISON)
        assert compare_metadata(context, metadata) == []
    engine.dispose()


def test_the_recorded_head_names_the_newest_migration_script() -> None:
    assert head_revisions() == {HEAD_REVISION}


def test_is_at_head_follows_the_version_alembic_records(empty_database_url: str) -> None:
    engine = open_engine(empty_database_url)
    with engine.connect() as connection:
        assert not is_at_head(connection)  # no version table yet
    upgrade(engine)
    with engine.connect() as connection:
        assert is_at_head(connection)
    script = ScriptDirectory(str(MIGRATIONS)).get_revision(HEAD_REVISION)
    assert script is not None
    downgrade(engine, str(script.down_revision))
    with engine.connect() as connection:
        assert not is_at_head(connection)
    engine.dispose()


def test_opening_a_database_at_head_leaves_alembic_unloaded(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'at-head.db'}"
    SqlStore.open(url).close()  # migrates the new file
    # A fresh interpreter, so that nothing this test process imported counts.
    reopen = (
        "import sys\n"
        "from server.storage.sql.store import SqlStore\n"
        f"SqlStore.open({url!r}).close()\n"
        "print(sorted(m for m in sys.modules if m == 'alembic' or m.startswith('alembic.')))\n"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", reopen], capture_output=True, text=True, check=True
    ).stdout
    assert loaded.strip() == "[]"


def test_sqlite_pragmas_are_set(tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path / 'm.db'}")
    with engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    engine.dispose()


def test_replicas_migrating_one_fresh_database_together_migrate_it_once(
    empty_postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    replicas = [open_engine(empty_postgres_url) for _ in range(4)]
    start_together = threading.Barrier(len(replicas))
    failures: list[BaseException] = []

    def start(engine: Engine) -> None:
        start_together.wait()
        try:
            upgrade(engine)
        except BaseException as err:
            failures.append(err)

    threads = [threading.Thread(target=start, args=(engine,)) for engine in replicas]
    with caplog.at_level(logging.INFO, logger="alembic.runtime.migration"):
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    assert failures == []
    steps = [r.getMessage() for r in caplog.records if r.getMessage().startswith("Running upgrade")]
    script = ScriptDirectory(str(MIGRATIONS))
    assert len(steps) == len(list(script.walk_revisions()))  # each step ran once, not per replica
    with replicas[0].connect() as connection:
        assert is_at_head(connection)
        assert connection.execute(text("SELECT count(*) FROM alembic_version")).scalar_one() == len(
            head_revisions()
        )
    for engine in replicas:
        engine.dispose()
