"""Alembic migrations of the schedule server, run by ``server.storage.migrate``."""
