"""Opening a database by URL: PostgreSQL's driver and timeout, and a password kept out of sight."""

from __future__ import annotations

import logging
import socket
import time
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError
from sqlalchemy.schema import CreateIndex

from server.storage.engine import CONNECT_TIMEOUT_SECONDS, open_engine, printable_url
from server.storage.sql.store import SqlStore
from server.storage.tables import schedule_occurrences


def test_a_postgresql_url_without_a_driver_uses_psycopg() -> None:
    engine = open_engine("postgresql://alice:hunter2@db.example/schedules")
    assert engine.url.drivername == "postgresql+psycopg"
    assert engine.dialect.driver == "psycopg"
    engine.dispose()


class Captured(Exception):
    """Raised by the test's connect hook once it has seen the driver's arguments."""


def connect_arguments(url: str) -> dict[str, Any]:
    engine = open_engine(url)
    seen: dict[str, Any] = {}

    def capture(_dialect: Any, _record: Any, _args: Any, params: dict[str, Any]) -> None:
        seen.update(params)
        raise Captured

    event.listen(engine, "do_connect", capture)
    with pytest.raises(Captured):
        engine.connect()
    engine.dispose()
    return seen


def test_a_postgresql_connection_attempt_gives_up_after_a_bounded_time() -> None:
    default = connect_arguments("postgresql+psycopg://alice@db.example/schedules")
    chosen = connect_arguments("postgresql+psycopg://alice@db.example/schedules?connect_timeout=3")
    assert int(default["connect_timeout"]) == CONNECT_TIMEOUT_SECONDS
    assert int(chosen["connect_timeout"]) == 3


def test_a_server_that_never_answers_is_an_error_not_a_hang() -> None:
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()  # accepts the TCP connection, never speaks PostgreSQL
        port = silent.getsockname()[1]
        engine = open_engine(f"postgresql://alice:hunter2@127.0.0.1:{port}/x?connect_timeout=1")
        started = time.monotonic()
        with pytest.raises(OperationalError) as refused:
            engine.connect()
        engine.dispose()
    assert time.monotonic() - started < 5
    assert "hunter2" not in str(refused.value)


def test_printable_url_masks_a_postgresql_password() -> None:
    shown = printable_url("postgresql+psycopg://alice:hunter2@db.example:5432/schedules")
    assert shown == "postgresql+psycopg://alice:***@db.example:5432/schedules"


def test_opening_and_using_a_postgresql_store_logs_no_password(
    empty_postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    password = make_url(empty_postgres_url).password
    assert password
    with caplog.at_level(logging.DEBUG):
        store = SqlStore.open(empty_postgres_url)  # a new database: every migration runs
        assert store.is_empty()
        store.close()
    assert caplog.records  # Alembic and SQLAlchemy did log; none of it shows the password
    assert all(password not in record.getMessage() for record in caplog.records)


@pytest.mark.parametrize(
    ("url", "dialect"),
    [("sqlite://", "sqlite"), ("postgresql://alice@db.example/schedules", "postgresql")],
)
def test_an_opened_engine_gives_each_partial_index_its_predicate(url: str, dialect: str) -> None:
    engine = open_engine(url)
    (index,) = (i for i in schedule_occurrences.indexes if i.name == "ix_schedule_occurrences_run")
    assert str(CreateIndex(index).compile(dialect=engine.dialect)).endswith(
        "WHERE run_id IS NOT NULL"
    )
    assert engine.dialect.name == dialect
    engine.dispose()
