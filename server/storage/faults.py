"""Storage faults: the database is there but cannot take a write now, or is out of reach.

A fault is the storage's condition, not the request's mistake: a full disk
(SQLite's ``SQLITE_FULL``, PostgreSQL's class 53), a read-only database
(``SQLITE_READONLY``, PostgreSQL's ``25006`` under
``default_transaction_read_only``), a lock held past its timeout
(``SQLITE_BUSY``, ``55P03``), an I/O error, an operator shutting the database
down or a connection lost (class 08 and 57). ``is_storage_fault`` says which
errors are faults, so the API answers them 503 ``server.unavailable`` (try
again later) instead of 500, and the worker backs off instead of blaming a
schedule. Anything else (a constraint, a bug) is not a fault and stays a 500.

``StorageFaults`` is one store's memory of them: the first fault starts a
spell, during which ``GET /readyz`` answers 503 and probes with a write; the
first write that succeeds again ends it. ``count`` is every fault seen, for
the metrics.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from typing import Final

from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

__all__ = [
    "StorageExhausted",
    "StorageFaults",
    "describe_fault",
    "is_storage_fault",
    "needs_new_connection",
]

_SQLITE_FAULTS: Final = frozenset(
    {
        sqlite3.SQLITE_BUSY,
        sqlite3.SQLITE_LOCKED,
        sqlite3.SQLITE_NOMEM,
        sqlite3.SQLITE_READONLY,
        sqlite3.SQLITE_IOERR,
        sqlite3.SQLITE_FULL,
        sqlite3.SQLITE_CANTOPEN,
        sqlite3.SQLITE_PROTOCOL,
    }
)
_POSTGRES_FAULT_CLASSES: Final = frozenset({"08", "53", "57", "58"})
_POSTGRES_FAULT_STATES: Final = frozenset({"25006", "55P03"})
"""Read-only transaction; lock not available (``lock_timeout``)."""
_POSTGRES_RECONNECT_STATES: Final = frozenset({"25006"})
"""A session that is read-only stays so: a fresh one picks up the database's new default."""


class StorageExhausted(Exception):
    """The volume holding the database has next to no free space (the write probe's own check).

    A small write can still fit in journal space a failed write left behind,
    so on a full disk the probe write alone would call the storage healthy
    while every real write fails.
    """


def _driver_error(err: BaseException) -> BaseException:
    return err.orig if isinstance(err, DBAPIError) and err.orig is not None else err


def _sqlstate(driver_error: BaseException) -> str | None:
    state = getattr(driver_error, "sqlstate", None)
    return state if isinstance(state, str) else None


def is_storage_fault(err: BaseException) -> bool:
    """Whether ``err`` (SQLAlchemy's or the driver's own) says the storage cannot serve now."""
    if isinstance(err, StorageExhausted | PoolTimeoutError):
        return True  # every pooled connection stayed busy past the pool's timeout
    if isinstance(err, DBAPIError) and err.connection_invalidated:
        return True
    driver = _driver_error(err)
    if isinstance(driver, sqlite3.Error):
        code = getattr(driver, "sqlite_errorcode", None)
        return isinstance(code, int) and code & 0xFF in _SQLITE_FAULTS
    if type(driver).__module__.split(".")[0] != "psycopg":
        return False
    state = _sqlstate(driver)
    if state is None:  # psycopg says no state when the connection itself failed
        return any(kind.__name__ == "OperationalError" for kind in type(driver).__mro__)
    return state[:2] in _POSTGRES_FAULT_CLASSES or state in _POSTGRES_FAULT_STATES


def needs_new_connection(err: BaseException) -> bool:
    """Whether the connection that raised ``err`` should be replaced, not reused."""
    state = _sqlstate(_driver_error(err))
    return state is not None and (state in _POSTGRES_RECONNECT_STATES or state[:2] in {"53", "57"})


def describe_fault(err: BaseException) -> str:
    """The fault's class and code for a log line; never the message, which may quote data."""
    driver = _driver_error(err)
    code = getattr(driver, "sqlite_errorname", None) or _sqlstate(driver)
    name = type(driver).__name__
    return name if code is None else f"{name}, {code}"


class StorageFaults:
    """Whether one store is in a fault spell, since when, and how many faults it has seen."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._since: float | None = None
        self._count = 0

    def record(self) -> None:
        """A fault happened: start a spell unless one is on."""
        with self._lock:
            self._count += 1
            if self._since is None:
                self._since = time.monotonic()

    def clear(self) -> float | None:
        """A write succeeded: end the spell; how long it lasted in seconds (None if none was on)."""
        with self._lock:
            since, self._since = self._since, None
        return None if since is None else time.monotonic() - since

    @property
    def faulted(self) -> bool:
        return self._since is not None

    @property
    def count(self) -> int:
        return self._count
