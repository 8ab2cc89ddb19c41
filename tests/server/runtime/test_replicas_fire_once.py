"""Two ``schedule-server`` replicas on one PostgreSQL database fire each instant once.

200 schedules (one principal each, so both really materialize side by side)
are due when two real servers start. A table lock on ``schedule_occurrences``
gates them: both are seen (``pg_locks``) waiting in a materialization; at half,
A is seen waiting at its insert with its session and run written in the open
transaction, and is killed there (SIGKILL); B finishes the rest. Every
schedule then has one occurrence for its due instant with one session and one
run, nothing of A's transaction remains, and B has taken over A's runs once
their (short) leases lapsed: at most one is still RUNNING when the test looks.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Row, create_engine, text
from sqlalchemy.pool import NullPool

from devtools.served_process import (
    EXIT_WAIT_SECONDS,
    ServedProcess,
    served,
    write_principals,
)
from tests.server.lock_waits import eventually, lock_waiters
from tests.server.runtime.due_schedules import import_due

SCHEDULES = 200
HALF = SCHEDULES // 2
BATCH = ("--worker-batch", "10")  # transactions of ten: many of them before and after HALF
LEASE = ("--run-lease-seconds", "3")  # A's stranded runs lapse in seconds, not the default 30
FINISH_WITHIN = 120.0  # seconds, for the survivor on a loaded 2-core machine
OCCURRENCES = "schedule_occurrences"


def scalar(connection: Connection, query: str) -> int:
    found = connection.execute(text(query)).scalar_one()
    connection.commit()  # each look is a fresh snapshot
    return int(found)


def committed_occurrences(observer: Connection) -> int:
    return scalar(observer, f"SELECT count(*) FROM {OCCURRENCES}")


@contextmanager
def gate_closed(gate: Connection) -> Iterator[None]:
    """No occurrence can be inserted until the block ends (inserts in progress commit first)."""
    gate.execute(text(f"LOCK TABLE {OCCURRENCES} IN SHARE MODE"))
    try:
        yield
    finally:
        gate.commit()


def written_in_open_transaction(observer: Connection, application: str) -> set[str]:
    """Tables the application's backends hold row-write locks on: written, not yet committed."""
    rows = observer.execute(
        text(
            "SELECT DISTINCT CAST(CAST(l.relation AS regclass) AS text) FROM pg_locks AS l"
            " JOIN pg_stat_activity AS a ON a.pid = l.pid"
            " WHERE l.granted AND l.mode = 'RowExclusiveLock' AND a.application_name = :name"
        ),
        {"name": application},
    ).scalars()
    written = set(rows)
    observer.commit()
    return written


def connections_of(observer: Connection, application: str) -> int:
    query = f"SELECT count(*) FROM pg_stat_activity WHERE application_name = '{application}'"
    return scalar(observer, query)


def finished(observer: Connection) -> bool:
    """Nothing due, nothing queued, and at most one run RUNNING.

    A's stranded runs stay RUNNING until B takes them over, and B's own
    are RUNNING while it executes them: both are waited for.
    """
    due, queued, running = observer.execute(
        text(
            "SELECT (SELECT count(*) FROM schedules WHERE next_fire_at <= now()),"
            " (SELECT count(*) FROM runs WHERE status = 'QUEUED'),"
            " (SELECT count(*) FROM runs WHERE status = 'RUNNING')"
        )
    ).one()
    observer.commit()
    return bool(due == 0 and queued == 0 and running <= 1)


@dataclass(frozen=True, slots=True)
class Kill:
    """What was seen when replica A was killed."""

    committed: int
    written_uncommitted: set[str]


def kill_a_halfway(a: ServedProcess, observer: Connection, gate: Connection) -> Kill:
    """Close the gate at half, kill A waiting at it mid-transaction, open it, see A's work go.

    A's backend notices its client is gone only when it next reads from the
    connection, that is once its insert gets past the gate; then PostgreSQL
    rolls the transaction back and the backend ends.
    """
    eventually(
        lambda: committed_occurrences(observer) >= HALF,
        "half the occurrences to be committed",
        FINISH_WITHIN,
    )
    with gate_closed(gate):
        eventually(
            lambda: lock_waiters(observer, relation=OCCURRENCES, application="replica-a") == 1,
            "replica A to wait at its occurrence insert",
        )
        kill = Kill(
            committed_occurrences(observer), written_in_open_transaction(observer, "replica-a")
        )
        a.process.send_signal(signal.SIGKILL)
        a.process.communicate(timeout=EXIT_WAIT_SECONDS)
    eventually(
        lambda: connections_of(observer, "replica-a") == 0,
        "replica A's connections to be gone (its transaction rolled back)",
    )
    return kill


def the_ledger(observer: Connection) -> list[Row[Any]]:
    """Each occurrence with its session and run, as the database holds them."""
    return list(
        observer.execute(
            text(
                "SELECT o.schedule_id, o.nominal_fire_at, o.disposition, s.id, r.id, r.status"
                f" FROM {OCCURRENCES} AS o LEFT JOIN sessions AS s ON s.id = o.session_id"
                " LEFT JOIN runs AS r ON r.id = o.run_id"
            )
        ).all()
    )


def totals(observer: Connection) -> tuple[int, ...]:
    """Occurrences, sessions, runs and opening messages, however linked."""
    row = observer.execute(
        text(
            f"SELECT (SELECT count(*) FROM {OCCURRENCES}), (SELECT count(*) FROM sessions),"
            " (SELECT count(*) FROM runs),"
            " (SELECT count(*) FROM session_messages WHERE scheduler_seed)"
        )
    ).one()
    return tuple(int(value) for value in row)


def test_two_replicas_with_one_killed_mid_materialization_fire_every_instant_once(
    postgres_url: str, tmp_path: Path
) -> None:
    team = [f"p{index:03d}" for index in range(SCHEDULES)]
    principals = write_principals(tmp_path / "principals.toml", ["schedule.read"], team)
    due_at, schedule_ids = import_due(postgres_url, team)
    engine = create_engine(postgres_url, poolclass=NullPool)
    with engine.connect() as observer, engine.connect() as gate:
        gate.execute(text(f"LOCK TABLE {OCCURRENCES} IN SHARE MODE"))  # closed while they start
        with (
            served(f"{postgres_url}?application_name=replica-a", principals, *BATCH, *LEASE) as a,
            served(f"{postgres_url}?application_name=replica-b", principals, *BATCH, *LEASE) as b,
        ):
            for name in ("replica-a", "replica-b"):
                eventually(
                    lambda name=name: lock_waiters(observer, application=name) == 1,
                    f"{name} to wait in a materialization at the closed gate",
                )
            gate.commit()  # open: both materialize side by side
            kill = kill_a_halfway(a, observer, gate)
            eventually(
                lambda: finished(observer),
                "replica B to materialize the rest and run what is queued",
                FINISH_WITHIN,
            )
            assert b.process.poll() is None, "the survivor still serves"
            ledger, counted = the_ledger(observer), totals(observer)
    engine.dispose()

    assert a.process.returncode == -signal.SIGKILL
    assert {"sessions", "session_messages", "runs"} <= kill.written_uncommitted
    assert HALF <= kill.committed < SCHEDULES, "killed about halfway"
    assert sorted(str(row[0]) for row in ledger) == sorted(str(i) for i in schedule_ids)
    assert {(row[1], row[2]) for row in ledger} == {(due_at, "MATERIALIZED")}
    assert all(row[3] is not None and row[4] is not None for row in ledger)
    assert counted == (SCHEDULES,) * 4, "nothing left of A's rolled-back transaction"
    statuses = [row[5] for row in ledger]
    assert statuses.count("RUNNING") <= 1, "A's stranded runs were taken over"
    assert statuses.count("COMPLETED") >= SCHEDULES - 1
