"""View-model benchmarks: sidebar grouping and list paging. Prints its figures.

How it measures: bench/README.md, "view_models.py". Run: ``.venv/bin/python bench/view_models.py``.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from uuid import UUID, uuid5
from zoneinfo import ZoneInfo

import httpx
from sqlalchemy import text

from server.embedded import open_embedded
from server.storage.records import Owner, ScheduleRecord, ScheduleView
from transport.client import ScheduleClient
from transport.models import SessionSummary
from viewmodels.paging import FeedPhase
from viewmodels.ports import MemoryStorage
from viewmodels.schedule_list import ScheduleListViewModel
from viewmodels.sidebar import SidebarViewModel
from viewmodels.sidebar.grouping import SessionIndex
from viewmodels.sidebar.history_cache import CachedSession

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
ZONE = ZoneInfo("Europe/London")
NAMESPACE = UUID("9b7c0000-0000-4000-8000-000000000000")


def clock() -> datetime:
    return NOW


def cached_sessions(count: int, schedules: int) -> list[CachedSession]:
    return [
        CachedSession(
            session_id=uuid5(NAMESPACE, f"session-{n}"),
            title=f"Firing {n}",
            last_activity_at=NOW - timedelta(minutes=7 * n),
            folder_id=None,
            schedule_id=uuid5(NAMESPACE, f"schedule-{n % schedules}"),
        )
        for n in range(count)
    ]


RUNS = 31


class Samples:
    """Wall time and this thread's CPU time of each run of one action.

    The CPU time (``time.thread_time``) is the figure other processes on a
    shared machine move least: they can delay the action, not make it work more.
    """

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def time(self, action: Callable[..., object], *arguments: object) -> None:
        cpu, wall = time.thread_time(), time.perf_counter()
        action(*arguments)
        self.wall.append(time.perf_counter() - wall)
        self.cpu.append(time.thread_time() - cpu)

    def __str__(self) -> str:
        return (
            f"median {statistics.median(self.wall) * 1e3:.2f} ms "
            f"(CPU {statistics.median(self.cpu) * 1e3:.2f} ms), "
            f"max {max(self.wall) * 1e3:.2f} ms"
        )


def milliseconds(samples: list[float]) -> str:
    return f"median {statistics.median(samples) * 1e3:.2f} ms, max {max(samples) * 1e3:.2f} ms"


class NoApi:
    """The sidebar's api is not called when a session is placed on its own."""


async def bench_sidebar() -> None:
    sessions = cached_sessions(10_000, 500)
    cold, warm, every_row = Samples(), Samples(), Samples()

    def regroup(index: SessionIndex, now: datetime) -> None:
        index.rebuild(sessions, folders=None, now=now)
        _ = (index.scheduled, index.history)

    def read_every_row(index: SessionIndex) -> None:
        for group in index.scheduled:
            _ = group.rows.rows

    for run in range(RUNS):
        index = SessionIndex(ZONE)
        cold.time(regroup, index, NOW)
        read = SessionIndex(ZONE)
        read.rebuild(sessions, folders=None, now=NOW)
        every_row.time(read_every_row, read)
        later = NOW + timedelta(minutes=run + 1)
        warm.time(regroup, index, later)
    print(f"sidebar full regroup, 10,000 sessions / 500 schedules ({RUNS} runs)")
    print(f"  first build: {cold}")
    print(f"  same sessions a minute later (unchanged groups kept): {warm}")
    print(f"  (orientation) every group's rows read after a first build: {every_row}")

    vm = SidebarViewModel(NoApi(), MemoryStorage(), clock=clock, device_zone=ZONE)  # type: ignore[arg-type]
    vm._rebuild(sessions)  # the state after open(): cache painted
    arrivals: list[float] = []
    for n in range(200):
        new = SessionSummary(
            session_id=uuid5(NAMESPACE, f"new-{n}"),
            title=f"New firing {n}",
            last_activity_at=NOW + timedelta(seconds=n),
            folder_id=None,
            metadata={"schedule_id": str(uuid5(NAMESPACE, f"schedule-{n % 500}"))},
        )
        started = time.perf_counter()
        vm._index.upsert(CachedSession.from_summary(new), NOW)  # what catch_up does per session
        vm._render()
        arrivals.append(time.perf_counter() - started)
    groups = vm.snapshot.scheduled
    assert len(groups) == 500 and groups[0].rows[0].title == "New firing 199"
    print(f"sidebar one new session arriving (incremental): {milliseconds(arrivals)}")


def seed_schedules(database: Path, count: int) -> Path:
    """A demo-free embedded database holding ``count`` schedules, inserted via the store."""
    with tempfile.TemporaryDirectory() as scratch:
        demo = open_embedded(Path(scratch) / "demo.db", demo=True, clock=clock)
        owner = Owner(demo.tenant_id, demo.principal_id)
        with demo.store.engine.connect() as connection:
            schedule_id = connection.execute(
                text("SELECT id FROM schedules WHERE state = 'ACTIVE' LIMIT 1")
            ).scalar_one()
        view = demo.store.schedules.get(owner, UUID(str(schedule_id)))
        demo.close()
    assert view is not None
    target = open_embedded(database, demo=False, clock=clock)
    views = []
    for n in range(count):
        sid = uuid5(NAMESPACE, f"bench-schedule-{n}")
        record: ScheduleRecord = replace(
            view.schedule,
            schedule_id=sid,
            owner=Owner(target.tenant_id, target.principal_id),
            updated_at=NOW - timedelta(seconds=n),
        )
        views.append(ScheduleView(record, replace(view.revision, schedule_id=sid)))
    target.store.schedules.import_many(views)
    target.close()
    return database


async def bench_list() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        database = seed_schedules(Path(scratch) / "bench.db", 10_000)
        server = open_embedded(database, demo=False, clock=clock)
        transport = httpx.ASGITransport(app=server.app)
        async with ScheduleClient("http://embedded", transport=transport) as api:
            vm = ScheduleListViewModel(api, clock=clock, device_zone=ZONE, page_size=50)
            timings: list[float] = []
            started = time.perf_counter()
            await vm.open()
            timings.append(time.perf_counter() - started)
            while vm.snapshot.phase is FeedPhase.LOADED:
                started = time.perf_counter()
                await vm.load_more()
                timings.append(time.perf_counter() - started)
            rows = len(vm.snapshot.rows)
        server.close()
    first = statistics.mean(timings[:5]) * 1e3
    last = statistics.mean(timings[-5:]) * 1e3
    print(
        f"list paging, 10,000 schedules at limit 50: {rows} rows in {len(timings)} requests, "
        f"total {sum(timings):.2f} s; first 5 pages {first:.2f} ms/page, "
        f"last 5 pages {last:.2f} ms/page, median {statistics.median(timings) * 1e3:.2f} ms/page"
    )


def main() -> None:
    asyncio.run(bench_sidebar())
    asyncio.run(bench_list())


if __name__ == "__main__":
    main()
