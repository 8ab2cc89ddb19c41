"""Alembic environment: always online, always on the engine the server handed over."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Engine

from server.storage.sql.search_index import declared_elsewhere
from server.storage.tables import metadata

engine = context.config.attributes["engine"]
assert isinstance(engine, Engine)

with engine.connect() as connection:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
        # Each database's own search index is made by its migration, not declared.
        include_name=lambda name, kind, _parents: not declared_elsewhere(name, kind),
    )
    with context.begin_transaction():
        context.run_migrations()
    connection.commit()
