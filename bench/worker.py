"""The schedule worker: materialization throughput and the idle scan, on SQLite.

Throughput: 10,000 due DAILY schedules (1,000 principals, 10 each, so the
default admission cap never holds one) are materialized by
``ScheduleWorker.run_once`` in batches of 100, each schedule in its own
transaction (occurrence, session, hidden seed message, QUEUED run, schedule
advance, audit events). Beside it, interleaved with it in ten rounds so that
a change in the machine's load hits both alike, bare transactions of seven
single-row inserts through the same kind of engine (the reference the issue
quotes); then where one materialization's time goes (a second, instrumented
pass over 2,000 more schedules).

Idle scan: one ``run_once`` plus the loop's ``next_wake`` query when nothing
is due, among 10,000 and among 100,000 ACTIVE schedules, side by side
(median of 300 scans after 20 warm-up scans).

    .venv/bin/python bench/worker.py
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import uuid4

from sqlalchemy import insert

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.domain.recurrence import first_after, latest_at_or_before
from server.identity import ALL_SCOPES, Principal, TokenDirectory, make_principal, token_digest
from server.scheduling import materializer
from server.scheduling.definition import parse_definition
from server.scheduling.worker import ScheduleWorker
from server.storage.records import RevisionRecord, ScheduleRecord, ScheduleView
from server.storage.sql.store import SqlStore
from server.storage.sql.write_lock import write_transaction
from server.storage.tables import audit_events

DUE = 10_000
INSTRUMENTED = 2_000
PER_PRINCIPAL = 10
BATCH = 100
IDLE_RUNS = 300
BARE_RUNS = 2_000
ROUNDS = 10
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
DEFINITION = parse_definition(
    {
        "title": "Morning news digest",
        "instruction": "Summarize the overnight news from three sources in ten bullets. " * 4,
        "agent_id": "8a7f1c4e-1b2d-4c3e-9f00-0123456789ab",
        "agent_version": "2026.11.2",
        "policy_profile": "default",
        "requested_scopes": ["session.read"],
        "limits": {"max_steps": 20, "max_model_calls": 20, "max_tool_calls": 40, "max_cost": "5"},
        "run_timeout_seconds": 300,
        "cadence": {"kind": "DAILY", "local_time": "08:55", "timezone": "Europe/Paris"},
        "misfire_grace_seconds": 3600,
        "max_consecutive_failures": 3,
    }
)


def _principals(count: int) -> list[Principal]:
    return [
        make_principal(
            principal_id=f"p{index:05d}", tenant_id="bench", display_name="P", scopes=ALL_SCOPES
        )
        for index in range(count)
    ]


def _directory(principals: list[Principal]) -> TokenDirectory:
    return TokenDirectory((token_digest(p.principal_id), p) for p in principals)


def _populate(store: SqlStore, principals: list[Principal], count: int, fire_at: datetime) -> None:
    """``count`` ACTIVE schedules whose ``next_fire_at`` is ``fire_at``, spread over principals."""
    batch: list[ScheduleView] = []
    for index in range(count):
        schedule_id = uuid4()
        owner = principals[index // PER_PRINCIPAL % len(principals)]
        created = NOW - timedelta(days=2)
        record = ScheduleRecord(
            schedule_id, owner.owner, "ACTIVE", None, 1, fire_at, 0, created, created
        )
        revision = RevisionRecord(
            schedule_id,
            1,
            DEFINITION.text,
            owner.principal_id,
            created,
            authority_version=owner.authority_version,
        )
        batch.append(ScheduleView(record, revision))
        if len(batch) == 5_000:
            store.schedules.import_many(batch)
            batch = []
    store.schedules.import_many(batch)


@contextmanager
def _fresh_store() -> Iterator[SqlStore]:
    with tempfile.TemporaryDirectory() as folder:
        store = SqlStore.open(f"sqlite:///{Path(folder) / 'bench.db'}")
        try:
            yield store
        finally:
            store.close()


def _drain(worker: ScheduleWorker, now: datetime, rounds: int | None = None) -> int:
    """Scan until nothing is due, or for ``rounds`` batches; how many were written."""
    written = 0
    while rounds is None or rounds > 0:
        report = worker.run_once(now)
        written += report.written
        if not report.full:
            break
        rounds = None if rounds is None else rounds - 1
    return written


def _throughput(due_at: datetime, now: datetime) -> tuple[float, float, int, float]:
    """Materialization and bare-transaction timings, interleaved in rounds so load drift hits both.

    Returns (wall seconds, CPU seconds, materializations, bare transactions per second).
    """
    principals = _principals(DUE // PER_PRINCIPAL)
    with _fresh_store() as store, _fresh_store() as bare_store:
        _populate(store, principals, DUE, due_at)
        worker = ScheduleWorker(store, _directory(principals), batch_size=BATCH)
        wall = cpu = bare_wall = 0.0
        written = 0
        for _ in range(ROUNDS):
            start, started_cpu = time.perf_counter(), time.process_time()
            written += _drain(worker, now, rounds=DUE // BATCH // ROUNDS)
            wall += time.perf_counter() - start
            cpu += time.process_time() - started_cpu
            bare_wall += _bare_transactions(bare_store, BARE_RUNS // ROUNDS)
        return wall, cpu, written, BARE_RUNS / bare_wall


def _timed(totals: dict[str, float], key: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            totals[key] += time.perf_counter() - start

    return timed


def _breakdown(due_at: datetime, now: datetime) -> dict[str, float]:
    """Seconds per part over INSTRUMENTED materializations (instrumentation adds a little)."""
    principals = _principals(INSTRUMENTED // PER_PRINCIPAL)
    totals = dict.fromkeys(("total", "sqlite execute", "sqlite commit", "decision"), 0.0)
    with _fresh_store() as store:
        _populate(store, principals, INSTRUMENTED, due_at)
        dialect: Any = store.engine.dialect
        for name in ("do_execute", "do_executemany", "do_execute_no_params"):
            setattr(dialect, name, _timed(totals, "sqlite execute", getattr(dialect, name)))
        dialect.do_commit = _timed(totals, "sqlite commit", dialect.do_commit)
        plan = materializer.plan_occurrence
        materializer.plan_occurrence = _timed(totals, "decision", plan)
        try:
            worker = ScheduleWorker(store, _directory(principals), batch_size=BATCH)
            start = time.perf_counter()
            _drain(worker, now)
            totals["total"] = time.perf_counter() - start
        finally:
            materializer.plan_occurrence = plan
    return totals


def _bare_transactions(store: SqlStore, count: int) -> float:
    """``count`` transactions of seven single-row inserts, write-locked; seconds taken."""
    statement = insert(audit_events)

    def row() -> dict[str, Any]:
        return {
            "event_type": "bench",
            "tenant_id": "bench",
            "principal_id": "p",
            "actor": "bench",
            "schedule_id": uuid4(),
            "revision": 1,
            "payload": "{}",
            "occurred_at": NOW,
        }

    start = time.perf_counter()
    for _ in range(count):
        with write_transaction(store.engine) as connection:
            for _ in range(7):
                connection.execute(statement, row())
    return time.perf_counter() - start


def _idle_scan_ms(count: int, now: datetime, upcoming: datetime) -> float:
    principals = _principals(max(1, count // PER_PRINCIPAL))
    with _fresh_store() as store:
        _populate(store, principals, count, upcoming)
        worker = ScheduleWorker(store, _directory(principals), batch_size=BATCH)
        samples = []
        for index in range(20 + IDLE_RUNS):
            start = time.perf_counter_ns()
            report = worker.run_once(now)
            worker.next_wake(now, report)
            if index >= 20:
                samples.append((time.perf_counter_ns() - start) / 1e6)
            assert report.written == 0
        return statistics.median(samples)


def main() -> None:
    cadence = DEFINITION.cadence
    due_at = latest_at_or_before(cadence, NOW)
    assert due_at is not None
    now = due_at + timedelta(minutes=1)
    upcoming = first_after(cadence, now)
    assert upcoming is not None

    wall, cpu, written, bare = _throughput(due_at, now)
    parts = _breakdown(due_at, now)
    idle_small = _idle_scan_ms(DUE, now, upcoming)
    idle_large = _idle_scan_ms(10 * DUE, now, upcoming)

    print(f"materialized {written:,} due schedules with run_once batches of {BATCH}")
    print(f"{'measure':<52}{'value':>12}")
    print(f"{'materializations per second (wall clock)':<52}{written / wall:>12,.0f}")
    print(f"{'materializations per CPU second of this process':<52}{written / cpu:>12,.0f}")
    print(f"{'bare 7-insert transactions per second (interleaved)':<52}{bare:>12,.0f}")
    print(f"{'ratio materialization / bare transaction (wall)':<52}{written / wall / bare:>12.2f}")
    print(f"{'idle scan among 10,000 schedules, median ms':<52}{idle_small:>12.3f}")
    print(f"{'idle scan among 100,000 schedules, median ms':<52}{idle_large:>12.3f}")
    print(f"{'ratio idle scan 100,000 / 10,000':<52}{idle_large / idle_small:>12.2f}")
    total = parts["total"]
    known = parts["sqlite execute"] + parts["sqlite commit"] + parts["decision"]
    print(f"where one materialization's time goes ({INSTRUMENTED:,} instrumented):")
    for name, seconds in (
        ("SQLite executing statements (C library)", parts["sqlite execute"]),
        ("SQLite committing (C library)", parts["sqlite commit"]),
        ("the decision (plan_occurrence: validation, misfire, rows)", parts["decision"]),
        ("SQLAlchemy Core and the rest of the Python glue", total - known),
    ):
        share = 100 * seconds / total
        print(f"  {name:<58}{1000 * seconds / INSTRUMENTED:>7.3f} ms {share:>5.1f} %")


if __name__ == "__main__":
    main()
