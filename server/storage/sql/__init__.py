"""The SQLAlchemy Core adapter of ``server.storage.ports`` (SQLite now, PostgreSQL-ready)."""
