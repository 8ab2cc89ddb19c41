"""SIGTERM on a real ``schedule-server`` process: not ready at once, drain, refuse, exit 0.

A request is held in flight by a lock the test takes on the PostgreSQL table
the request writes to (``LOCK TABLE schedules IN SHARE MODE``); a
materialization, by the same lock on ``schedule_occurrences``. The test sees
the work waiting in ``pg_locks``, so no timing guess decides what is in flight.
"""

from __future__ import annotations

import signal
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from sqlalchemy import Connection, create_engine, text
from sqlalchemy.pool import NullPool

from devtools.api_bodies import definition_json
from devtools.served_process import TOKEN, ServedProcess, served, write_principals
from server.cli import _parser
from tests.server.lock_waits import eventually, lock_waiters
from tests.server.runtime.due_schedules import import_due

DEADLINE_SECONDS = 20
DEFINITION = definition_json(title="Held in flight")


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
def table_locked(database_url: str, table: str) -> Iterator[Connection]:
    """Writes to ``table`` wait until the block ends (or the connection commits)."""
    engine = create_engine(database_url, poolclass=NullPool)
    with engine.connect() as connection:
        connection.execute(text(f"LOCK TABLE {table} IN SHARE MODE"))
        yield connection
        connection.rollback()
    engine.dispose()


def row_count(database_url: str, table: str = "schedules") -> int:
    engine = create_engine(database_url, poolclass=NullPool)
    with engine.connect() as connection:
        count = int(connection.execute(text(f"SELECT count(*) FROM {table}")).scalar_one())
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
        with observer.connect() as watching, table_locked(postgres_url, "schedules") as lock:
            request = CreateInFlight(server)
            eventually(
                lambda: lock_waiters(watching, relation="schedules") > 0,
                "the request to wait on the lock",
            )
            server.process.send_signal(signal.SIGTERM)
            eventually(lambda: refuses_connections(server.port), "the socket to stop accepting")
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
    assert row_count(postgres_url) == 1


def test_a_request_outliving_the_grace_period_is_abandoned_and_rolled_back_exit_still_0(
    postgres_url: str, principals: Path
) -> None:
    with served(
        postgres_url, principals, "--shutdown-grace", "1", "--drain-seconds", "0"
    ) as server:
        observer = create_engine(postgres_url, poolclass=NullPool)
        with observer.connect() as watching, table_locked(postgres_url, "schedules"):
            request = CreateInFlight(server)
            eventually(
                lambda: lock_waiters(watching, relation="schedules") > 0,
                "the request to wait on the lock",
            )
            started = time.monotonic()
            status, printed = server.sigterm(timeout=DEADLINE_SECONDS)
            stopped_after = time.monotonic() - started
            request.join()
        observer.dispose()
    assert status == 0
    assert stopped_after < 1 + 5  # the grace period, then a moment for cancelled requests
    assert "1 request(s) or scheduler transaction(s) outlived the shutdown grace" in printed
    assert request.response is None or request.response.status_code >= 500
    assert row_count(postgres_url) == 0  # the abandoned transaction rolled back


def ledger_counts(database_url: str) -> tuple[int, int, int]:
    """Occurrences, sessions and runs."""
    return tuple(  # type: ignore[return-value]
        row_count(database_url, table) for table in ("schedule_occurrences", "sessions", "runs")
    )


def run_statuses(database_url: str) -> list[str]:
    engine = create_engine(database_url, poolclass=NullPool)
    with engine.connect() as connection:
        statuses = list(connection.execute(text("SELECT status FROM runs")).scalars())
    engine.dispose()
    return statuses


def still_due(database_url: str) -> int:
    engine = create_engine(database_url, poolclass=NullPool)
    with engine.connect() as connection:
        query = "SELECT count(*) FROM schedules WHERE next_fire_at <= now()"
        count = int(connection.execute(text(query)).scalar_one())
    engine.dispose()
    return count


def test_sigterm_lets_the_materialization_in_flight_commit_starts_no_other_and_exits_0(
    postgres_url: str, principals: Path
) -> None:
    import_due(postgres_url, ["alice", "alice"])
    url = f"{postgres_url}?application_name=stopping"
    with (
        table_locked(postgres_url, "schedule_occurrences") as gate,
        served(url, principals, "--worker-batch", "1") as server,
    ):
        observer = create_engine(postgres_url, poolclass=NullPool)
        with observer.connect() as watching:
            eventually(
                lambda: lock_waiters(watching, application="stopping") == 1,
                "the worker to wait in its first materialization",
            )
            server.process.send_signal(signal.SIGTERM)
            eventually(lambda: refuses_connections(server.port), "the socket to stop accepting")
            assert server.process.poll() is None, "still finishing the materialization"
            assert lock_waiters(watching, application="stopping") == 1
        observer.dispose()
        gate.commit()  # the materialization goes on and commits
        out, err = server.process.communicate(timeout=DEADLINE_SECONDS)
    assert server.process.returncode == 0
    assert "Traceback" not in out + err
    assert ledger_counts(postgres_url) == (1, 1, 1), "the one in flight, whole"
    assert run_statuses(postgres_url) == ["QUEUED"], "no run taken while stopping"
    assert still_due(postgres_url) == 1, "the second was not started"


def test_a_materialization_outliving_the_grace_period_is_abandoned_and_rolled_back(
    postgres_url: str, principals: Path
) -> None:
    import_due(postgres_url, ["alice"])
    url = f"{postgres_url}?application_name=stopping"
    observer = create_engine(postgres_url, poolclass=NullPool)
    with (
        observer.connect() as watching,
        table_locked(postgres_url, "schedule_occurrences") as gate,
        served(url, principals, "--shutdown-grace", "1", "--drain-seconds", "0") as server,
    ):
        eventually(
            lambda: lock_waiters(watching, application="stopping") == 1,
            "the worker to wait in its materialization",
        )
        started = time.monotonic()
        status, printed = server.sigterm(timeout=DEADLINE_SECONDS)
        stopped_after = time.monotonic() - started
        gate.commit()  # the abandoned backend now notices its client is gone
        eventually(
            lambda: (
                row_count(postgres_url, "pg_stat_activity WHERE application_name = 'stopping'") == 0
            ),
            "the abandoned transaction's connection to end",
        )
    observer.dispose()
    assert status == 0
    assert stopped_after < 1 + 1 + 5  # no request to drain, the scheduler's second, a moment
    assert "outlived the 1 s stop bound" in printed
    assert "Traceback" not in printed
    assert ledger_counts(postgres_url) == (0, 0, 0), "rolled back"
    assert still_due(postgres_url) == 1


def test_sigterm_makes_readyz_503_at_once_and_keeps_serving_through_the_drain_then_exits_0(
    database_url: str, principals: Path
) -> None:
    drain = 3.0
    with served(database_url, principals, "--drain-seconds", str(int(drain))) as server:
        client = httpx.Client(base_url=server.base_url, timeout=10)
        assert client.get("/readyz").status_code == 200
        server.process.send_signal(signal.SIGTERM)
        signalled = time.monotonic()
        eventually(lambda: client.get("/readyz").status_code == 503, "/readyz to say draining")
        said_within = time.monotonic() - signalled
        readyz = client.get("/readyz").json()["error"]
        created = client.post(
            "/v1/schedules",
            json=DEFINITION,
            headers={"Authorization": f"Bearer {TOKEN}", "Idempotency-Key": "draining"},
        )
        listed = client.get("/v1/schedules", headers={"Authorization": f"Bearer {TOKEN}"})
        served_until = time.monotonic() - signalled
        client.close()
        eventually(lambda: refuses_connections(server.port), "the socket to stop accepting")
        refused_after = time.monotonic() - signalled
        out, err = server.process.communicate(timeout=DEADLINE_SECONDS)
    assert said_within < 1, "not ready at once"
    assert readyz["code"] == "server.not_ready"
    assert readyz["details"] == {"reason": "draining"}
    assert served_until < drain
    assert created.status_code == 201, "writes are still served while draining"
    assert listed.status_code == 200
    assert listed.json()["items"][0]["schedule_id"] == created.json()["schedule_id"]
    assert refused_after >= drain, "the listener stayed open for the whole drain"
    assert server.process.returncode == 0
    assert "Traceback" not in out + err


def test_drain_defaults_to_5_seconds_and_refuses_nonsense(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert _parser().parse_args(["serve"]).drain_seconds == 5
    assert _parser().parse_args(["serve", "--drain-seconds", "0"]).drain_seconds == 0
    for value in ("-1", "a while"):
        with pytest.raises(SystemExit) as exited:
            _parser().parse_args(["serve", "--drain-seconds", value])
        assert exited.value.code == 2
        assert "--drain-seconds" in capsys.readouterr().err


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
