"""Running the Alembic migrations shipped inside the package, programmatically.

The server upgrades its database to the head revision on every start, so a
fresh file and an older one end with the same schema. On PostgreSQL several
replicas may start at once against one database: each migration runs under a
transaction-scoped advisory lock, so one replica migrates while the others
wait, then find the schema at head and change nothing. The lock goes with the
transaction, so a replica that dies while migrating frees it (and PostgreSQL's
transactional DDL rolls its half-done step back).

A database at head needs none of this: ``server.storage.schema_head`` says so
without loading Alembic, and the store imports this module only when there is
work.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import Engine

from server.storage.sql.advisory_locks import MIGRATION, holding

MIGRATIONS = Path(__file__).resolve().parents[1] / "migrations"


def alembic_config(engine: Engine) -> Config:
    """A configuration that points Alembic at our scripts and at ``engine``."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["engine"] = engine
    return config


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database to ``revision`` (the newest by default)."""
    with holding(engine, MIGRATION):
        command.upgrade(alembic_config(engine), revision)


def downgrade(engine: Engine, revision: str) -> None:
    """Step the database back to ``revision``; used by the migration tests."""
    with holding(engine, MIGRATION):
        command.downgrade(alembic_config(engine), revision)


@cache
def head_revisions() -> frozenset[str]:
    """The revisions the scripts end in (read once; scripts never change); one, by design."""
    return frozenset(ScriptDirectory(str(MIGRATIONS)).get_heads())
