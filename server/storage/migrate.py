"""Running the Alembic migrations shipped inside the package, programmatically.

The server upgrades its database to the head revision on every start, so a
fresh file and an older one end with the same schema. On PostgreSQL several
replicas may start at once against one database: each migration runs under a
transaction-scoped advisory lock, so one replica migrates while the others
wait, then find the schema at head and change nothing. The lock goes with the
transaction, so a replica that dies while migrating frees it (and PostgreSQL's
transactional DDL rolls its half-done step back).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, func, select

MIGRATIONS = Path(__file__).resolve().parents[1] / "migrations"

# Any fixed 64-bit number, the same in every replica: the key of the migration lock.
MIGRATION_LOCK_KEY = 0x5CED_0B05_E4A1_0001


def alembic_config(engine: Engine) -> Config:
    """A configuration that points Alembic at our scripts and at ``engine``."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["engine"] = engine
    return config


@contextmanager
def migration_lock(engine: Engine) -> Iterator[None]:
    """Hold the database-wide migration lock (PostgreSQL); elsewhere nothing to hold."""
    if engine.dialect.name != "postgresql":
        yield
        return
    with engine.begin() as connection:
        connection.execute(select(func.pg_advisory_xact_lock(MIGRATION_LOCK_KEY)))
        yield


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database to ``revision`` (the newest by default)."""
    with migration_lock(engine):
        command.upgrade(alembic_config(engine), revision)


def downgrade(engine: Engine, revision: str) -> None:
    """Step the database back to ``revision``; used by the migration tests."""
    with migration_lock(engine):
        command.downgrade(alembic_config(engine), revision)


@cache
def head_revisions() -> frozenset[str]:
    """The revisions a database at head is stamped with (read once; scripts never change)."""
    return frozenset(ScriptDirectory(str(MIGRATIONS)).get_heads())


def is_at_head(connection: Connection) -> bool:
    """Whether the database behind ``connection`` carries exactly the newest migration."""
    current = MigrationContext.configure(connection).get_current_heads()
    return frozenset(current) == head_revisions()
