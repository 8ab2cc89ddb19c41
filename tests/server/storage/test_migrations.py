"""The migrations build exactly the declared schema, and the head step reverses cleanly."""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect

from server.storage.engine import open_engine
from server.storage.migrate import alembic_config, downgrade, upgrade
from server.storage.tables import metadata


def test_migrated_schema_equals_declared_metadata(tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path / 'm.db'}")
    upgrade(engine)
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, metadata) == []
    engine.dispose()


def test_head_migration_downgrades_and_upgrades_again(tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path / 'm.db'}")
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
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, metadata) == []
    engine.dispose()


def test_sqlite_pragmas_are_set(tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path / 'm.db'}")
    with engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    engine.dispose()
