"""Alembic environment: always online, always on the engine the server handed over."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Engine

from server.storage.tables import metadata

engine = context.config.attributes["engine"]
assert isinstance(engine, Engine)

with engine.connect() as connection:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()
    connection.commit()
