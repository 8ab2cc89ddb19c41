"""Whether a database carries the newest migration, known without loading Alembic.

Every start opens the database, and nearly every start finds it at head
already: then there is nothing to migrate, and loading Alembic (its modules,
the script directory, every migration script) would cost the start a few
tenths of a second for nothing. ``HEAD_REVISION`` names the newest migration
(a test holds it equal to the scripts' head), and ``is_at_head`` reads the
version Alembic recorded, with plain SQL. ``server.storage.migrate`` loads
Alembic when there is work.
"""

from __future__ import annotations

from sqlalchemy import Connection, inspect, text

__all__ = ["HEAD_REVISION", "VERSION_TABLE", "is_at_head"]

HEAD_REVISION = "0013_wall_clock_covering"
"""The newest script in ``server/migrations/versions``; a new migration changes it."""
VERSION_TABLE = "alembic_version"
"""Where Alembic records the revisions a database is at (its default name)."""


def is_at_head(connection: Connection) -> bool:
    """Whether the database behind ``connection`` carries exactly the newest migration."""
    if not inspect(connection).has_table(VERSION_TABLE):
        return False
    recorded = connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalars()
    return list(recorded) == [HEAD_REVISION]
