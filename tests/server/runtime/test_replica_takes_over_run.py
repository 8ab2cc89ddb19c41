"""A replica killed mid-delivery strands no run: another takes it over, and it completes once.

Two real ``schedule-server`` processes share one PostgreSQL database and one
agent runtime (``tests/agent_runtime.py``), with a short run lease. Replica A
starts alone, fires the due schedule and delivers its run; the runtime holds
that first delivery open. Replica B starts, A is killed with SIGKILL, and once
A's lease lapses B takes the run over and delivers it again with the same
``run_id`` and the same body. The runtime, idempotent on ``run_id``, answers
the repeat; the run is COMPLETED with one answer and accounted for once.
"""

from __future__ import annotations

import signal
from pathlib import Path

from sqlalchemy import create_engine, select
from sqlalchemy.pool import NullPool

from devtools.served_process import EXIT_WAIT_SECONDS, served, write_principals
from server.identity import ALL_SCOPES
from server.storage.tables import audit_events, runs, session_messages
from tests.agent_runtime import SECRET, Delivery, Reply, agent_runtime
from tests.polling import eventually, eventually_found
from tests.server.runtime.due_schedules import import_due

WITHIN_SECONDS = 60.0
LEASE = ("--run-lease-seconds", "3")


def _held_first_then_answered(delivery: Delivery) -> Reply:
    """The first delivery is held open (its replica dies); a repeat gets the outcome."""
    answer = {"status": "COMPLETED", "answers": ["Standup notes are ready."]}
    return Reply(200, answer, hold_seconds=WITHIN_SECONDS if delivery.number == 1 else 0.0)


def _recorded(database_url: str) -> tuple[list[str], list[str], int]:
    """Run statuses, assistant answers and run_accounted events, as committed."""
    engine = create_engine(database_url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            statuses = list(connection.execute(select(runs.c.status)).scalars())
            answers = list(
                connection.execute(
                    select(session_messages.c.text).where(session_messages.c.role == "assistant")
                ).scalars()
            )
            accounted = connection.execute(
                select(audit_events.c.id).where(
                    audit_events.c.event_type == "schedule.run_accounted"
                )
            ).all()
    finally:
        engine.dispose()
    return statuses, answers, len(accounted)


def _once_completed(database_url: str) -> tuple[list[str], list[str], int] | None:
    recorded = _recorded(database_url)
    return recorded if recorded[0] == ["COMPLETED"] else None


def test_a_run_held_by_a_killed_replica_is_delivered_again_by_another_and_completes_once(
    postgres_url: str, tmp_path: Path
) -> None:
    principals = write_principals(tmp_path / "principals.toml", ALL_SCOPES)
    secret_file = tmp_path / "executor-secret"
    secret_file.write_bytes(SECRET)
    import_due(postgres_url, ["alice"])
    with agent_runtime(_held_first_then_answered) as runtime:
        options = ("--executor", runtime.url, "--executor-secret-file", str(secret_file), *LEASE)
        with served(postgres_url, principals, *options) as a:
            eventually(lambda: len(runtime.deliveries) == 1, "replica A to deliver the run")
            with served(postgres_url, principals, *options) as b:
                a.process.send_signal(signal.SIGKILL)
                a.process.communicate(timeout=EXIT_WAIT_SECONDS)
                recorded = eventually_found(
                    lambda: _once_completed(postgres_url),
                    "replica B to take the run over and complete it",
                    WITHIN_SECONDS,
                    every=0.2,
                )
                assert b.process.poll() is None, "the survivor still serves"
    assert a.process.returncode == -signal.SIGKILL
    first, second = runtime.deliveries
    assert [first.number, second.number] == [1, 2]
    assert first.body == second.body, "the same run_id, delivered again as it was first"
    assert first.signed and second.signed
    assert recorded == (["COMPLETED"], ["Standup notes are ready."], 1)
