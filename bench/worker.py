"""The schedule worker: materialization throughput and the idle scan, SQLite and PostgreSQL.

How it measures: bench/README.md, "worker.py". Run: ``.venv/bin/python bench/worker.py``;
``bench/worker.py heartbeat`` runs only the heartbeat's columns: without it, as the
worker loop ticks it (at most every 5 s on the loop's own clock), and at every scan,
each idle loop waiting between scans as the server's does with or without it.
"""

from __future__ import annotations

import math
import multiprocessing
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Literal
from uuid import uuid4

from sqlalchemy import insert

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.cpu_seconds import machine_cpu_seconds
from bench.throwaway_postgres import server_cpu_seconds, throwaway_database
from devtools.postgres_cluster import PostgresCluster
from server.definitions.checks import parse_definition
from server.domain.recurrence import first_after, latest_at_or_before
from server.domain.states import ScheduleState
from server.identity import ALL_SCOPES, Principal, TokenDirectory, make_principal, token_digest
from server.storage.engine import open_engine
from server.storage.records import RevisionRecord, ScheduleRecord, ScheduleView
from server.storage.row_ids import new_row_id
from server.storage.sql.store import SqlStore
from server.storage.sql.write_lock import write_transaction
from server.storage.tables import audit_events
from server.worker import materializer
from server.worker.heartbeat import HEARTBEAT_INTERVAL, Pulse, this_replica
from server.worker.runtime import SchedulingSettings
from server.worker.worker import ScheduleWorker, default_batch_size

DUE = 10_000
INSTRUMENTED = 2_000
PER_PRINCIPAL = 10


def _batch(url: str) -> int:
    """The server's own default for the database (``schedule-server serve --worker-batch``)."""
    return default_batch_size("sqlite" if url.startswith("sqlite") else "postgresql")


IDLE_RUNS = 300
BARE_RUNS = 2_000
ROUNDS = 10
CHUNK = DUE // ROUNDS
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
COLUMNS = 4
HERD = 10_000
HERD_PRINCIPALS = 1_000
# Principals: 100 fresh ones per column and round, the instrumented passes', then the herd's.
ALL_PRINCIPALS = (ROUNDS * COLUMNS * CHUNK + 2 * INSTRUMENTED) // PER_PRINCIPAL + HERD_PRINCIPALS
HERD_FIRST = ALL_PRINCIPALS - HERD_PRINCIPALS


def _principals(count: int, first: int = 0) -> list[Principal]:
    return [
        make_principal(
            principal_id=f"p{index:05d}", tenant_id="bench", display_name="P", scopes=ALL_SCOPES
        )
        for index in range(first, first + count)
    ]


def _directory(principals: list[Principal]) -> TokenDirectory:
    return TokenDirectory((token_digest(p.principal_id), p) for p in principals)


def _populate(
    store: SqlStore,
    principals: list[Principal],
    count: int,
    fire_at: datetime,
    *,
    grouped: bool = False,
) -> None:
    """``count`` ACTIVE schedules due at ``fire_at``, the principals' interleaved or ``grouped``.

    Their ids are made as the server makes a new schedule's (``new_row_id``:
    time-ordered), in the order they are written.
    """
    batch: list[ScheduleView] = []
    for index in range(count):
        schedule_id = new_row_id()
        turn = index // PER_PRINCIPAL if grouped else index
        owner = principals[turn % len(principals)]
        created = NOW - timedelta(days=2)
        record = ScheduleRecord(
            schedule_id, owner.owner, ScheduleState.ACTIVE, None, 1, fire_at, 0, created, created
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


def _drain(
    worker: ScheduleWorker, now: datetime, commits: list[tuple[float, int]] | None = None
) -> int:
    """Scan as the runtime's loop does until nothing is due; how many were written.

    ``commits`` gets the wall time (``time.time``) after each scan and how
    many that scan's transaction committed: when those schedules fired.
    """
    written = 0
    while True:
        report = worker.run_once(now)
        written += report.written
        if commits is not None:
            commits.append((time.time(), report.written))
        if report.full:
            continue
        if not report.passed_over or report.retry_at is None:
            break  # nothing due, or the rest is held by the other replica, which finishes it
        time.sleep((report.retry_at - now).total_seconds())  # as the runtime's loop waits
    return written


def _replica(commands: Connection, url: str) -> None:
    """One worker process on ``url``: drains what is due at each instant it is sent."""
    store = SqlStore(open_engine(url))
    worker = ScheduleWorker(store, _directory(_principals(ALL_PRINCIPALS)), batch_size=_batch(url))
    try:
        while (now := commands.recv()) is not None:
            started_cpu = time.process_time()
            commits: list[tuple[float, int]] = []
            written = _drain(worker, now, commits)
            commands.send((written, time.process_time() - started_cpu, commits))
    finally:
        store.close()


@dataclass
class Column:
    """One throughput column: its database, its worker processes, what they did."""

    name: str
    url: str
    store: SqlStore
    cluster: PostgresCluster | None = None
    workers: list[tuple[multiprocessing.process.BaseProcess, Connection]] = field(
        default_factory=list
    )
    written: int = 0
    wall: float = 0.0
    worker_cpu: float = 0.0
    server_cpu: float = 0.0
    machine_cpu: float = 0.0
    grouped: bool = False

    def start(self, count: int) -> None:
        spawn = multiprocessing.get_context("spawn")
        for _ in range(count):
            ours, theirs = spawn.Pipe()
            process = spawn.Process(target=_replica, args=(theirs, self.url))
            process.start()
            self.workers.append((process, ours))

    def drain(self, now: datetime) -> None:
        """All workers drain what is due at ``now`` side by side; the wall time until the last."""
        server_before = 0.0 if self.cluster is None else server_cpu_seconds(self.cluster)
        machine_before = machine_cpu_seconds()
        start = time.perf_counter()
        for _, pipe in self.workers:
            pipe.send(now)
        answers = [pipe.recv() for _, pipe in self.workers]
        self.wall += time.perf_counter() - start
        self.machine_cpu += machine_cpu_seconds() - machine_before
        if self.cluster is not None:
            self.server_cpu += server_cpu_seconds(self.cluster) - server_before
        written = sum(answer[0] for answer in answers)
        assert written == CHUNK, f"{self.name}: {written} of {CHUNK} materialized"
        self.written += written
        self.worker_cpu += sum(answer[1] for answer in answers)

    def herd(self, due_at: datetime, now: datetime) -> list[float]:
        """HERD schedules of HERD_PRINCIPALS all due at once; each one's lateness, sorted.

        Written untimed; then the workers, already running, are told at
        ``t0``, the nominal instant; a schedule's lateness is when the
        transaction that materialized it committed, less ``t0``.
        """
        principals = _principals(HERD_PRINCIPALS, HERD_FIRST)
        _populate(self.store, principals, HERD, due_at)
        started = time.time()
        for _, pipe in self.workers:
            pipe.send(now)
        lateness: list[float] = []
        for _, pipe in self.workers:
            _written, _cpu, commits = pipe.recv()
            for at, count in commits:
                lateness.extend([at - started] * count)
        assert len(lateness) == HERD, f"{self.name}: {len(lateness)} of {HERD} in the herd"
        return sorted(lateness)

    def stop(self) -> None:
        for process, pipe in self.workers:
            pipe.send(None)
            process.join()
        self.store.close()

    @property
    def per_second(self) -> float:
        return self.written / self.wall


def _throughput(
    columns: list[Column], bare_store: SqlStore, due_at: datetime, now: datetime
) -> tuple[float, float]:
    """Each column drains CHUNK fresh schedules per round, in turns; bare transactions a
    second of wall clock, and a second of this process's CPU."""
    bare_wall = bare_cpu = 0.0
    for round_index in range(ROUNDS):
        turn = columns[round_index % len(columns) :] + columns[: round_index % len(columns)]
        for column_index, column in enumerate(turn):
            first = (round_index * len(columns) + column_index) * (CHUNK // PER_PRINCIPAL)
            principals = _principals(CHUNK // PER_PRINCIPAL, first)
            _populate(column.store, principals, CHUNK, due_at, grouped=column.grouped)
            column.drain(now)
        started_cpu = time.process_time()
        bare_wall += _bare_transactions(bare_store, BARE_RUNS // ROUNDS)
        bare_cpu += time.process_time() - started_cpu
    return BARE_RUNS / bare_wall, BARE_RUNS / bare_cpu


def _timed(totals: dict[str, float], key: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            totals[key] += time.perf_counter() - start

    return timed


def _breakdown(store: SqlStore, due_at: datetime, now: datetime) -> dict[str, float]:
    """Seconds per part over INSTRUMENTED materializations (instrumentation adds a little)."""
    first = ALL_PRINCIPALS - 2 * (INSTRUMENTED // PER_PRINCIPAL)
    if store.engine.dialect.name != "sqlite":
        first += INSTRUMENTED // PER_PRINCIPAL
    principals = _principals(INSTRUMENTED // PER_PRINCIPAL, first)
    totals = dict.fromkeys(("total", "execute", "commit", "decision"), 0.0)
    _populate(store, principals, INSTRUMENTED, due_at)
    dialect: Any = store.engine.dialect
    originals = {
        name: getattr(dialect, name)
        for name in ("do_execute", "do_executemany", "do_execute_no_params", "do_commit")
    }
    for name, function in originals.items():
        setattr(
            dialect, name, _timed(totals, "commit" if name == "do_commit" else "execute", function)
        )
    plan = materializer.plan_occurrence
    materializer.plan_occurrence = _timed(totals, "decision", plan)
    try:
        worker = ScheduleWorker(
            store, _directory(principals), batch_size=_batch(store.engine.url.drivername)
        )
        start = time.perf_counter()
        assert _drain(worker, now) == INSTRUMENTED
        totals["total"] = time.perf_counter() - start
    finally:
        materializer.plan_occurrence = plan
        for name, function in originals.items():
            setattr(dialect, name, function)
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


Heartbeat = Literal["without", "loop", "every scan"]
"""No heartbeat; the loop's (a tick when 5 s passed on its clock); a tick at every scan."""
HEARTBEATS: tuple[Heartbeat, ...] = ("without", "loop", "every scan")
LOOP_POLL = min(SchedulingSettings().fallback_poll, SchedulingSettings().heartbeat)
"""How long the server's idle loop waits between two scans when no firing is nearer."""
BARE_POLL = SchedulingSettings().fallback_poll
"""The idle loop's wait before the heartbeat (its fallback poll): a baseline, not the server."""


@dataclass(frozen=True, slots=True)
class IdleLoop:
    """Idle scans as the loop makes them: the median and mean scan, and their time per minute."""

    median_ms: float
    mean_ms: float
    ms_per_minute: float
    """Milliseconds spent scanning per minute of the loop's clock."""


def _pulse(heartbeat: Heartbeat, now: datetime) -> Pulse | None:
    if heartbeat == "without":
        return None
    every = HEARTBEAT_INTERVAL if heartbeat == "loop" else timedelta(0)
    return Pulse(this_replica(now), every)


def _idle_scan_ms(count: int, now: datetime, upcoming: datetime) -> float:
    """The median idle scan among ``count``, every scan at ``now``."""
    return _idle_loop(count, now, upcoming).median_ms


def _idle_loop(
    count: int,
    now: datetime,
    upcoming: datetime,
    *,
    heartbeat: Heartbeat = "without",
    loop_clock: bool = False,
) -> IdleLoop:
    """Idle scans at ``now`` or, with ``loop_clock``, as the loop scans.

    The loop's clock moves on by each scan's time and the wait the loop would
    make after it (the heartbeat's 5 s, or the fallback poll without one), so
    the heartbeat and the journal's compaction come due as they do in the
    server.
    """
    poll = BARE_POLL if heartbeat == "without" else LOOP_POLL
    principals = _principals(max(1, count // PER_PRINCIPAL))
    with _fresh_store() as store:
        _populate(store, principals, count, upcoming)
        worker = ScheduleWorker(
            store,
            _directory(principals),
            batch_size=_batch("sqlite"),
            pulse=_pulse(heartbeat, now),
        )
        samples = []
        at = began = now
        for index in range(20 + IDLE_RUNS):
            if index == 20:
                began = at
            start = time.perf_counter_ns()
            report = worker.run_once(at)
            wake_at = worker.next_wake(at, report)
            elapsed = time.perf_counter_ns() - start
            if index >= 20:
                samples.append(elapsed / 1e6)
            assert report.written == 0
            scanned = at + timedelta(microseconds=elapsed / 1e3)
            wait = poll if wake_at is None else min(wake_at - scanned, poll)
            at = scanned + max(wait, timedelta(0)) if loop_clock else now
        minutes = (at - began).total_seconds() / 60
        per_minute = sum(samples) / minutes if minutes > 0 else math.nan
        return IdleLoop(statistics.median(samples), statistics.mean(samples), per_minute)


def _print_throughput(columns: list[Column], bare: float, bare_per_cpu: float) -> None:
    sqlite, single, pair, grouped = columns
    names = ("SQLite 1 worker", "PG 1 worker", "PG 2 replicas", "PG 2, grouped")
    print(f"materialized {CHUNK:,} due schedules per column in each of {ROUNDS} rounds,")
    sizes = f"{_batch('sqlite')} on SQLite, {_batch('postgresql')} on PostgreSQL"
    print(f"run_once batches (one transaction each) of {sizes}, each worker in its own process")
    print(f"{'measure':<44}" + "".join(f"{name:>16}" for name in names))
    row = "".join(f"{c.per_second:>16,.0f}" for c in columns)
    print(f"{'materializations per second (wall clock)':<44}{row}")
    row = "".join(f"{c.written / c.worker_cpu:>16,.0f}" for c in columns)
    print(f"{'materializations per CPU second of workers':<44}{row}")
    row = "".join(f"{1000 * c.worker_cpu / c.written:>16.3f}" for c in columns)
    print(f"{'worker CPU ms per materialization':<44}{row}")
    row = f"{'':>16}" + "".join(f"{1000 * c.server_cpu / c.written:>16.3f}" for c in columns[1:])
    print(f"{'PostgreSQL server CPU ms per materialization':<44}{row}")
    row = "".join(f"{(c.worker_cpu + c.server_cpu) / c.wall:>16.2f}" for c in columns)
    print(f"{'cores kept busy (workers + PostgreSQL)':<44}{row}")
    row = "".join(f"{c.machine_cpu / c.wall:>16.2f}" for c in columns)
    print(f"{'cores busy on the machine (anyone, of 2)':<44}{row}")
    ratios = [c.per_second / single.per_second for c in (pair, grouped)]
    row = f"{'':>32}" + "".join(f"{r:>16.2f}" for r in ratios)
    print(f"{'ratio 2 replicas / PG 1 worker':<44}{row}")
    print(
        f"{'ratio PG 1 worker / SQLite 1 worker':<44}{single.per_second / sqlite.per_second:>32.2f}"
    )
    print(f"{'bare 7-insert SQLite transactions per second':<44}{bare:>16,.0f}")
    print(f"{'ratio SQLite materialization / bare (wall)':<44}{sqlite.per_second / bare:>16.2f}")
    print(f"{'bare transactions per CPU second (its process)':<44}{bare_per_cpu:>16,.0f}")
    by_cpu = sqlite.written / sqlite.worker_cpu / bare_per_cpu
    print(f"{'ratio SQLite materialization / bare (CPU)':<44}{by_cpu:>16.2f}")


def _quantile(ordered: list[float], share: float) -> float:
    """The smallest value at or above ``share`` of ``ordered`` (nearest rank)."""
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def _print_herd(herds: dict[str, list[float]]) -> None:
    print(
        f"herd: {HERD:,} schedules of {HERD_PRINCIPALS:,} principals due at one instant,"
        " lateness = committed minus nominal"
    )
    print(f"{'measure':<44}" + "".join(f"{name:>16}" for name in herds))
    for label, share in (("p50", 0.5), ("p99", 0.99), ("max", 1.0)):
        row = "".join(f"{_quantile(h, share):>16.3f}" for h in herds.values())
        print(f"{f'herd lateness {label}, seconds':<44}{row}")


def _print_breakdown(label: str, database: str, parts: dict[str, float]) -> None:
    total = parts["total"]
    known = parts["execute"] + parts["commit"] + parts["decision"]
    print(f"where one materialization's time goes, {label} ({INSTRUMENTED:,} instrumented):")
    for name, seconds in (
        (f"{database} executing statements", parts["execute"]),
        (f"{database} committing", parts["commit"]),
        ("the decision (plan_occurrence: validation, misfire, rows)", parts["decision"]),
        ("SQLAlchemy Core and the rest of the Python glue", total - known),
    ):
        share = 100 * seconds / total
        print(f"  {name:<58}{1000 * seconds / INSTRUMENTED:>7.3f} ms {share:>5.1f} %")


HEARTBEAT_DUE = 3_000
HEARTBEAT_ROUNDS = 5


def _materialized_per_second(due_at: datetime, now: datetime, *, heartbeat: Heartbeat) -> float:
    """SQLite, one worker in this process: ``HEARTBEAT_DUE`` due schedules drained by run_once.

    Each batch scans at ``now`` plus the time the drain has taken so far (the loop's clock).
    """
    principals = _principals(HEARTBEAT_DUE // PER_PRINCIPAL)
    with _fresh_store() as store:
        _populate(store, principals, HEARTBEAT_DUE, due_at)
        worker = ScheduleWorker(
            store,
            _directory(principals),
            batch_size=_batch("sqlite"),
            pulse=_pulse(heartbeat, now),
        )
        start = time.perf_counter()
        written = 0
        while written < HEARTBEAT_DUE:
            at = now + timedelta(seconds=time.perf_counter() - start)
            written += worker.run_once(at).written
        return HEARTBEAT_DUE / (time.perf_counter() - start)


def heartbeat_column() -> None:
    """Materializations/s and the idle scan: no heartbeat, the loop's, its worst; interleaved."""
    cadence = DEFINITION.cadence
    due_at = latest_at_or_before(cadence, NOW)
    assert due_at is not None
    now = due_at + timedelta(minutes=1)
    upcoming = first_after(cadence, now)
    assert upcoming is not None
    rates: dict[Heartbeat, list[float]] = {heartbeat: [] for heartbeat in HEARTBEATS}
    loops: dict[Heartbeat, list[IdleLoop]] = {heartbeat: [] for heartbeat in HEARTBEATS}
    for _ in range(HEARTBEAT_ROUNDS):
        for heartbeat in HEARTBEATS:
            rates[heartbeat].append(_materialized_per_second(due_at, now, heartbeat=heartbeat))
            loops[heartbeat].append(
                _idle_loop(DUE, now, upcoming, heartbeat=heartbeat, loop_clock=True)
            )
    print(f"SQLite, {HEARTBEAT_DUE:,} due per pass, {HEARTBEAT_ROUNDS} interleaved passes, medians")
    print(
        f"idle loop waits {LOOP_POLL.total_seconds():.0f} s between scans with a heartbeat,"
        f" {BARE_POLL.total_seconds():.0f} s without"
    )
    print(f"{'measure':<32}{'without':>10}{'loop':>10}{'/without':>10}{'each':>10}{'/without':>10}")
    for name, figures in (
        ("materialized per second", rates),
        (f"idle scan among {DUE:,}, ms", _idle(loops, lambda loop: loop.median_ms)),
        ("idle scan, mean ms", _idle(loops, lambda loop: loop.mean_ms)),
        ("idle scans, ms per minute", _idle(loops, lambda loop: loop.ms_per_minute)),
    ):
        without, loop, each = (statistics.median(figures[kind]) for kind in HEARTBEATS)
        print(
            f"{name:<32}{without:>10.3f}{loop:>10.3f}{loop / without:>10.3f}"
            f"{each:>10.3f}{each / without:>10.3f}"
        )


def _idle(
    loops: dict[Heartbeat, list[IdleLoop]], figure: Callable[[IdleLoop], float]
) -> dict[Heartbeat, list[float]]:
    return {heartbeat: [figure(loop) for loop in found] for heartbeat, found in loops.items()}


def main() -> None:
    cadence = DEFINITION.cadence
    due_at = latest_at_or_before(cadence, NOW)
    assert due_at is not None
    now = due_at + timedelta(minutes=1)
    upcoming = first_after(cadence, now)
    assert upcoming is not None

    with (
        tempfile.TemporaryDirectory() as folder,
        throwaway_database("bench_worker") as (cluster, pg_url),
    ):
        sqlite_url = f"sqlite:///{Path(folder) / 'bench.db'}"
        columns = [
            Column("SQLite, 1 worker", sqlite_url, SqlStore.open(sqlite_url)),
            Column("PostgreSQL, 1 worker", pg_url, SqlStore(open_engine(pg_url)), cluster),
        ]
        for suffix, grouped in (("pair", False), ("grouped", True)):
            name = f"bench_worker_{suffix}"
            url = cluster.create_database(name)
            SqlStore.open(url).close()
            store = SqlStore(open_engine(url))
            columns.append(Column(name, url, store, cluster, grouped=grouped))
        for column, count in zip(columns, (1, 1, 2, 2), strict=True):
            column.start(count)
        try:
            with _fresh_store() as bare_store:
                bare, bare_per_cpu = _throughput(columns, bare_store, due_at, now)
            herds = {"SQLite 1 worker": columns[0].herd(due_at, now)}
            herds["PG 2 replicas"] = columns[2].herd(due_at, now)
        finally:
            for column in columns:
                column.stop()
        sqlite_parts = _breakdown_on(sqlite_url, due_at, now)
        pg_parts = _breakdown_on(pg_url, due_at, now)
    idle_small = _idle_scan_ms(DUE, now, upcoming)
    idle_large = _idle_scan_ms(10 * DUE, now, upcoming)

    _print_throughput(columns, bare, bare_per_cpu)
    _print_herd(herds)
    print(f"{'idle scan among 10,000 schedules, median ms (SQLite)':<61}{idle_small:>8.3f}")
    print(f"{'idle scan among 100,000 schedules, median ms (SQLite)':<61}{idle_large:>8.3f}")
    print(f"{'ratio idle scan 100,000 / 10,000':<61}{idle_large / idle_small:>8.2f}")
    _print_breakdown("SQLite", "SQLite (C library)", sqlite_parts)
    _print_breakdown("PostgreSQL", "psycopg + PostgreSQL (round trips)", pg_parts)


def _breakdown_on(url: str, due_at: datetime, now: datetime) -> dict[str, float]:
    store = SqlStore(open_engine(url))
    try:
        return _breakdown(store, due_at, now)
    finally:
        store.close()


if __name__ == "__main__":
    if sys.argv[1:] == ["heartbeat"]:
        heartbeat_column()
    else:
        main()
