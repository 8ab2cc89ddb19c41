"""Opening the database named by an SQLAlchemy URL.

SQLite runs in WAL mode (``synchronous=NORMAL``, foreign keys on), shared
across threads, its WAL bounded (``journal_size_limit``, and
``compact_sqlite_journal`` when the worker is idle and the WAL has grown). PostgreSQL goes through
psycopg 3, with a connect timeout unless the URL sets one; pooled connections
are checked before use, and one that met a fault a new session would not is
replaced. A URL's password never appears in a message (``printable_url``).
"""

from __future__ import annotations

import os
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import ExceptionContext, make_url
from sqlalchemy.exc import ArgumentError

from server.storage.faults import needs_new_connection
from server.storage.tables import use_dialect

CONNECT_TIMEOUT_SECONDS = 10
SQLITE_BUSY_TIMEOUT_SECONDS = 30
SQLITE_JOURNAL_SIZE_LIMIT = 4 * 1024 * 1024
"""Bytes of WAL kept after a checkpoint resets it; the rest is given back."""
CHECKPOINT_BUSY_MILLISECONDS = 200
"""An idle-time checkpoint waits this long for readers, then gives up until the next idle scan."""
COMPACT_FROM_BYTES = 1024 * 1024
"""A WAL smaller than this is left as it is: a checkpoint syncs the database file, and the
idle worker's heartbeat alone adds a page or two every few seconds."""


class DatabaseUrlError(ValueError):
    """The database URL cannot be used; the message is one sentence for people."""


def printable_url(url: str) -> str:
    """``url`` as it may appear in a message: any password is masked."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "the database URL"


def open_engine(url: str) -> Engine:
    """Create the engine for ``url`` with the pragmas the server relies on."""
    try:
        parsed = make_url(url)
    except ArgumentError as err:
        # Not echoed: a malformed URL may still carry a password.
        raise DatabaseUrlError(
            "the database URL is not an SQLAlchemy URL (for example sqlite:///schedules.db)."
        ) from err
    if parsed.get_backend_name() == "sqlite":
        engine = create_engine(
            parsed,
            connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_TIMEOUT_SECONDS},
        )
        event.listen(engine, "connect", _sqlite_pragmas)
        use_dialect(engine.dialect.name)
        return engine
    connect_args: dict[str, Any] = {}
    if parsed.get_backend_name() == "postgresql":
        if parsed.drivername == "postgresql":
            parsed = parsed.set(drivername="postgresql+psycopg")
        if "connect_timeout" not in parsed.query:
            connect_args["connect_timeout"] = CONNECT_TIMEOUT_SECONDS
    try:
        engine = create_engine(parsed, pool_pre_ping=True, connect_args=connect_args)
    except Exception as err:
        driver = parsed.drivername
        hint = " (install the postgres extra)" if driver == "postgresql+psycopg" else ""
        raise DatabaseUrlError(f"the database driver {driver!r} is not available{hint}.") from err
    event.listen(engine, "handle_error", _replace_faulted_connection)
    use_dialect(engine.dialect.name)
    return engine


def _replace_faulted_connection(context: ExceptionContext) -> None:
    if needs_new_connection(context.original_exception):
        context.is_disconnect = True


def compact_sqlite_journal(engine: Engine) -> None:
    """Checkpoint the WAL into the database and truncate it, if readers allow it soon.

    Only once it holds ``COMPACT_FROM_BYTES``: below that it is left to grow.
    """
    if _journal_bytes(engine) < COMPACT_FROM_BYTES:
        return
    with engine.connect() as connection:
        raw = connection.connection.dbapi_connection
        assert raw is not None
        cursor = raw.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout = {CHECKPOINT_BUSY_MILLISECONDS}")
            cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        finally:
            cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_SECONDS * 1000}")
            cursor.close()


def _journal_bytes(engine: Engine) -> int:
    """The size of the database's WAL file; as if full when it cannot be told (a URI name)."""
    database = engine.url.database
    try:
        return os.stat(f"{database}-wal").st_size if database else COMPACT_FROM_BYTES
    except OSError:
        return COMPACT_FROM_BYTES


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute(f"PRAGMA journal_size_limit={SQLITE_JOURNAL_SIZE_LIMIT}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
