"""SIGTERM on a real ``schedule-server`` process: refuse new connections, drain, exit 0.

A request is held in flight by a lock the test takes on the PostgreSQL table
the request writes to (``LOCK TABLE schedules IN SHARE MODE``); the test sees
it waiting in ``pg_locks``, so no timing guess decides what is in flight.
"""

from __future__ import annotations

import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import Connection, create_engine, text
from sqlalchemy.pool import NullPool

from server.cli import _parser
from tests.server.runtime.served_process import TOKEN, ServedProcess, served, write_principals

DEADLINE_SECONDS = 20
DEFINITION: dict[str, Any] = {
    "title": "Held in flight",
    "instruction": "Summarize the overnight news in ten bullets.",
    "agent_id": "8a7f1c4e-1b2d-4c3e-9f00-0123456789ab",
    "agent_version": "2026.11.2",
    "policy_profile": "default",
    "requested_scopes": [],
    "browser_profile_id": None,
    "limits": {
        "max_steps": 20,
        "max_model_calls": 20,
        "max_tool_calls": 40,
        "max_cost": "5.00",
        "reserve_steps": 2,
        "reserve_model_calls": 2,
        "reserve_cost": "1.00",
    },
    "run_timeout_seconds": 300,
    "cadence": {"kind": "DAILY", "local_time": "09:00:00", "timezone": "Europe/Paris"},
    "misfire_grace_seconds": 3600,
    "max_consecutive_failures": 2,
}


def wait_for(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + DEADLINE_SECONDS
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting: {what}")
        time.sleep(0.05)


def refuses_connections(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return False
    except ConnectionRefusedError:
        return True


class CreateInFlight:
    """``POST /v1/schedules`` from a thread; its answer (or failure) once it ends."""

    def __init__(self, server: ServedProcess) -> None:
        self.response: httpx.Response | None = None
        self.failure: Exception | None = None
        self._thread = threading.Thread(target=self._send, args=(server.base_url,))
        self._thread.start()

    def _send(self, base_url: str) -> None:
        try:
            self.response = httpx.post(
                f"{base_url}/v1/schedules",
                json=DEFINITION,
                headers={"Authorization": f"Bearer {TOKEN}", "Idempotency-Key": "held"},
                timeout=60,
            )
        except httpx.HTTPError as err:
            self.failure = err

    def join(self) -> None:
        self._thread.join(timeout=DEADLINE_SECONDS)
        assert not self._thread.is_alive()


@contextmanager
def schedules_locked(database_url: str) -> Iterator[Connection]:
    """Writes to ``schedules`` wait until the block ends (or the connection commits)."""
    engine = create_engine(database_url, poolclass=NullPool)
    with engine.connect() as connection:
        connection.execute(text("LOCK TABLE schedules IN SHARE MODE"))
        yield connection
        connection.rollback()
    engine.dispose()


def waiting_for_a_lock(connection: Connection) -> bool:
    query = "SELECT count(*) FROM pg_locks WHERE NOT granted AND relation = 'schedules'::regclass"
    return bool(connection.execute(text(query)).scalar_one())


def schedule_count(database_url: str) -> int:
    engine = create_engine(database_url, poolclass=NullPool)
    with engine.connect() as connection:
        count = int(connection.execute(text("SELECT count(*) FROM schedules")).scalar_one())
    engine.dispose()
    return count


@pytest.fixture
def principals(tmp_path: Path) -> Path:
    return write_principals(tmp_path / "principals.toml", ["schedule.read", "schedule.write"])


def test_sigterm_refuses_new_connections_lets_the_request_in_flight_finish_then_exits_0(
    postgres_url: str, principals: Path
) -> None:
    with served(postgres_url, principals) as server:
        observer = create_engine(postgres_url, poolclass=NullPool)
        with observer.connect() as watching, schedules_locked(postgres_url) as lock:
            request = CreateInFlight(server)
            wait_for(lambda: waiting_for_a_lock(watching), "the request to wait on the lock")
            server.process.send_signal(signal.SIGTERM)
            wait_for(lambda: refuses_connections(server.port), "the socket to stop accepting")
            assert server.process.poll() is None  # still draining the request in flight
            lock.commit()  # releases the lock: the request goes on
            request.join()
        observer.dispose()
        out, err = server.process.communicate(timeout=DEADLINE_SECONDS)
    assert request.failure is None
    assert request.response is not None
    assert request.response.status_code == 201
    assert server.process.returncode == 0
    assert "Traceback" not in out + err
    assert schedule_count(postgres_url) == 1


def test_a_request_outliving_the_grace_period_is_abandoned_and_rolled_back_exit_still_0(
    postgres_url: str, principals: Path
) -> None:
    with served(postgres_url, principals, "--shutdown-grace", "1") as server:
        observer = create_engine(postgres_url, poolclass=NullPool)
        with observer.connect() as watching, schedules_locked(postgres_url):
            request = CreateInFlight(server)
            wait_for(lambda: waiting_for_a_lock(watching), "the request to wait on the lock")
            started = time.monotonic()
            status, printed = server.sigterm(timeout=DEADLINE_SECONDS)
            stopped_after = time.monotonic() - started
            request.join()
        observer.dispose()
    assert status == 0
    assert stopped_after < 1 + 5  # the grace period, then a moment for cancelled requests
    assert "1 request(s) or scheduler transaction(s) outlived the shutdown grace" in printed
    assert request.response is None or request.response.status_code >= 500
    assert schedule_count(postgres_url) == 0  # the abandoned transaction rolled back


def test_grace_period_defaults_to_30_seconds_and_refuses_nonsense(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert _parser().parse_args(["serve"]).shutdown_grace == 30
    assert _parser().parse_args(["serve", "--shutdown-grace", "0"]).shutdown_grace == 0
    for value in ("-1", "soon"):
        with pytest.raises(SystemExit) as exited:
            _parser().parse_args(["serve", "--shutdown-grace", value])
        assert exited.value.code == 2
        assert "--shutdown-grace" in capsys.readouterr().err
