"""Durable state of the schedule server: tables, the engine, migrations and repositories.

``ports`` declares what the rest of the server may ask of storage (Protocols);
``sql`` adapters implement those ports over SQLAlchemy Core. SQLite is the
default; the tables use portable types so a PostgreSQL (psycopg 3) URL is a
configuration change.
"""
