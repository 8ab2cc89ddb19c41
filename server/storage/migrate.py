"""Running the Alembic migrations shipped inside the package, programmatically.

The server upgrades its database to the head revision on every start, so a
fresh file and an older one end with the same schema.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine

MIGRATIONS = Path(__file__).resolve().parents[1] / "migrations"


def alembic_config(engine: Engine) -> Config:
    """A configuration that points Alembic at our scripts and at ``engine``."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["engine"] = engine
    return config


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database to ``revision`` (the newest by default)."""
    command.upgrade(alembic_config(engine), revision)


def downgrade(engine: Engine, revision: str) -> None:
    """Step the database back to ``revision``; used by the migration tests."""
    command.downgrade(alembic_config(engine), revision)
