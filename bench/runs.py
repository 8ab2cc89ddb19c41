"""Run dispatch: how long short runs wait to start, beside one owner's long run and without it.

50 owners on one SQLite file, one ``SchedulingRuntime`` with its default
settings and the real clock. In the "long run" column, owner 0's schedule
fires first and its run starts and never ends while the bench measures (its
executor waits on an event, as a 10-minute run would hold its slot; it is
released at the end). Then the other 49 owners' 500 ONCE schedules come due,
50 each second for 10 seconds; each of their runs takes 0.1 s at the
executor. A run's start delay is when the executor received it less when the
run was queued (``delivered_at``). The "baseline" column is the same, but
owner 0's run ends at once. The columns take turns over three rounds, each round on a
fresh database, and the figures pool the rounds: p50, p99, max, and how many
of the 1,500 had started within the bound (the arrivals' span plus 20 s).

    .venv/bin/python bench/runs.py
"""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from uuid import uuid4

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from devtools.api_bodies import definition_json
from server.clock import system_clock
from server.definitions.checks import parse_definition
from server.domain.states import ScheduleState
from server.identity import ALL_SCOPES, TokenDirectory, make_principal, token_digest
from server.storage.records import ClaimedRun, Owner, RevisionRecord, ScheduleRecord, ScheduleView
from server.storage.sql.store import SqlStore
from server.worker.executor import RunResult
from server.worker.runtime import SchedulingRuntime, running

OWNERS = 50
SHORT_RUNS = 500
ARRIVAL_SECONDS = 10
SHORT_RUN_SECONDS = 0.1
WAIT_BEYOND_ARRIVALS = 20.0
ROUNDS = 3
TENANT = "acme"
LONG_OWNER = "owner-00"


@dataclass
class BenchExecutor:
    """Owner 0's run holds its slot until ``released`` if ``holds``; every other takes 0.1 s."""

    holds: bool
    delays: list[float] = field(default_factory=list)
    long_started: asyncio.Event = field(default_factory=asyncio.Event)
    released: asyncio.Event = field(default_factory=asyncio.Event)
    all_started: asyncio.Event = field(default_factory=asyncio.Event)

    async def execute(self, run: ClaimedRun) -> RunResult:
        if run.owner.principal_id == LONG_OWNER:
            self.long_started.set()
            if self.holds:
                await self.released.wait()
            return RunResult.completed("The long report.")
        self.delays.append(time.time() - run.delivered_at.timestamp())
        if len(self.delays) == SHORT_RUNS:
            self.all_started.set()
        await asyncio.sleep(SHORT_RUN_SECONDS)
        return RunResult.completed("Done.")


def _owner(index: int) -> str:
    return f"owner-{index:02d}"


def _directory() -> TokenDirectory:
    return TokenDirectory(
        (
            token_digest(f"token-{_owner(i)}"),
            make_principal(
                principal_id=_owner(i),
                tenant_id=TENANT,
                display_name=_owner(i),
                scopes=ALL_SCOPES,
            ),
        )
        for i in range(OWNERS)
    )


def _once(owner: str, at: datetime) -> ScheduleView:
    """An ACTIVE ONCE schedule of ``owner`` due at ``at`` (whole seconds)."""
    checked = parse_definition(
        definition_json(
            cadence={"kind": "ONCE", "at": at.strftime("%Y-%m-%dT%H:%M:%SZ")},
            misfire_grace_seconds=3600,
        )
    )
    created = at - timedelta(days=1)
    schedule_id = uuid4()
    record = ScheduleRecord(
        schedule_id, Owner(TENANT, owner), ScheduleState.ACTIVE, None, 1, at, 0, created, created
    )
    return ScheduleView(record, RevisionRecord(schedule_id, 1, checked.text, owner, created))


def _next_second(after: float) -> datetime:
    return datetime.fromtimestamp(int(time.time() + after) + 1, UTC)


async def _round(folder: Path, with_long_run: bool) -> list[float]:
    """One column's turn: the start delays of the short runs that started within the bound."""
    store = SqlStore.open(f"sqlite:///{folder / f'{uuid4().hex}.db'}")
    executor = BenchExecutor(holds=with_long_run)
    runtime = SchedulingRuntime(store, _directory(), system_clock, executor=executor)
    try:
        async with running(runtime, stop_within=10):
            store.schedules.import_many([_once(LONG_OWNER, _next_second(0.5))])
            runtime.wake.notify()
            await asyncio.wait_for(executor.long_started.wait(), 30)
            first = _next_second(1.0)
            views = [
                _once(_owner(1 + n % (OWNERS - 1)), first + timedelta(seconds=n % ARRIVAL_SECONDS))
                for n in range(SHORT_RUNS)
            ]
            store.schedules.import_many(views)
            runtime.wake.notify()
            bound = ARRIVAL_SECONDS + WAIT_BEYOND_ARRIVALS + (first.timestamp() - time.time())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(executor.all_started.wait(), bound)
            delays = list(executor.delays)
            executor.released.set()
    finally:
        store.close()
    return delays


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    columns: dict[str, list[float]] = {"baseline": [], "long run": []}
    with tempfile.TemporaryDirectory() as folder:
        for _round_number in range(ROUNDS):
            for name in columns:
                columns[name].extend(asyncio.run(_round(Path(folder), name == "long run")))
    expected = SHORT_RUNS * ROUNDS
    print(
        f"start delay of {SHORT_RUNS} short runs of {OWNERS - 1} owners"
        f" ({ROUNDS} rounds pooled; SQLite, default run slots)"
    )
    print(f"{'':14}{'baseline':>12}{'long run':>12}")
    rows: list[tuple[str, Callable[[list[float]], str]]] = [
        ("started", lambda d: f"{len(d)}/{expected}"),
        ("p50 (s)", lambda d: f"{statistics.median(d):.3f}" if d else "-"),
        ("p99 (s)", lambda d: f"{_quantile(d, 0.99):.3f}" if d else "-"),
        ("max (s)", lambda d: f"{max(d):.3f}" if d else "-"),
    ]
    for label, show in rows:
        print(f"{label:14}" + "".join(f"{show(columns[c]):>12}" for c in columns))


if __name__ == "__main__":
    main()
