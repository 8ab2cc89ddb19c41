"""View-model benchmarks: sidebar grouping, list rows and list paging. Prints its figures.

How it measures: bench/README.md, "view_models.py". Run: ``.venv/bin/python bench/view_models.py``;
``--baseline REV`` prints the same figures for git revision ``REV`` beside the code as it is.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from uuid import UUID, uuid5
from zoneinfo import ZoneInfo

import httpx
from babel import Locale
from sqlalchemy import text

import viewmodels
from server.embedded import open_embedded
from server.storage.records import Owner, ScheduleRecord, ScheduleView
from server.storage.sql.store import SqlStore
from transport.client import ScheduleClient
from transport.models import ScheduleState, ScheduleSummary, SessionSummary
from viewmodels.formatting.clock_text import HourCycle, display_zone
from viewmodels.paging import FeedPhase
from viewmodels.ports import MemoryStorage
from viewmodels.schedule_list import ScheduleListViewModel
from viewmodels.schedule_list.rows import schedule_row
from viewmodels.sidebar import SidebarViewModel
from viewmodels.sidebar.grouping import SessionIndex
from viewmodels.sidebar.history_cache import CachedSession

# Only APIs present at both sides of ``--baseline 8e3ba28`` (before the catalogs):
# the baseline's packages run this file. ``Locale.parse`` is what ``parsed_locale``
# does at both, from a module that moved between them.

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
ZONE = ZoneInfo("Europe/London")
ZONES = {
    "en_GB": ZONE,
    "de_DE": display_zone(ZoneInfo("Europe/Berlin"), HourCycle.LANGUAGE, Locale.parse("de_DE")),
}
"""The default English, and German, whose sentences come from its catalog (formats only
at a revision with no catalogs)."""
NAMESPACE = UUID("9b7c0000-0000-4000-8000-000000000000")
ROOT = Path(__file__).resolve().parents[1]

Figures = dict[str, dict[str, float | None]]
"""Per measure, its median ``wall`` and ``cpu`` milliseconds (``cpu`` None when not taken)."""
FIELDS = ("wall", "cpu")


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

    def figure(self) -> dict[str, float | None]:
        return {
            "wall": statistics.median(self.wall) * 1e3,
            "cpu": statistics.median(self.cpu) * 1e3,
        }

    def __str__(self) -> str:
        return (
            f"median {statistics.median(self.wall) * 1e3:.2f} ms "
            f"(CPU {statistics.median(self.cpu) * 1e3:.2f} ms), "
            f"max {max(self.wall) * 1e3:.2f} ms"
        )


class NoApi:
    """The sidebar's api is not called when a session is placed on its own."""


def bench_sidebar(figures: Figures, language: str) -> None:
    zone = ZONES[language]
    sessions = cached_sessions(10_000, 500)
    cold, warm, every_row = Samples(), Samples(), Samples()

    def regroup(index: SessionIndex, now: datetime) -> None:
        index.rebuild(sessions, folders=None, now=now)
        _ = (index.scheduled, index.history)

    def read_every_row(index: SessionIndex) -> None:
        for group in index.scheduled:
            _ = group.rows.rows

    for run in range(RUNS):
        index = SessionIndex(zone)
        cold.time(regroup, index, NOW)
        read = SessionIndex(zone)
        read.rebuild(sessions, folders=None, now=NOW)
        every_row.time(read_every_row, read)
        later = NOW + timedelta(minutes=run + 1)
        warm.time(regroup, index, later)
    print(f"sidebar full regroup, 10,000 sessions / 500 schedules, {language} ({RUNS} runs)")
    print(f"  first build: {cold}")
    print(f"  same sessions a minute later (unchanged groups kept): {warm}")
    print(f"  (orientation) every group's rows read after a first build: {every_row}")

    vm = SidebarViewModel(NoApi(), MemoryStorage(), clock=clock, device_zone=zone)  # type: ignore[arg-type]
    vm._rebuild(sessions)  # the state after open(): cache painted
    arrivals = Samples()

    def arrive(session: CachedSession) -> None:
        vm._index.upsert(session, NOW)  # what catch_up does per session
        vm._render()

    for n in range(200):
        new = SessionSummary(
            session_id=uuid5(NAMESPACE, f"new-{n}"),
            title=f"New firing {n}",
            last_activity_at=NOW + timedelta(seconds=n),
            folder_id=None,
            metadata={"schedule_id": str(uuid5(NAMESPACE, f"schedule-{n % 500}"))},
        )
        arrivals.time(arrive, CachedSession.from_summary(new))
    groups = vm.snapshot.scheduled
    assert len(groups) == 500 and groups[0].rows[0].title == "New firing 199"
    print(f"sidebar one new session arriving (incremental), {language}: {arrivals}")
    figures[f"sidebar first build, 10,000 sessions, {language}"] = cold.figure()
    figures[f"sidebar regroup a minute later, {language}"] = warm.figure()
    figures[f"sidebar every group's rows read, {language}"] = every_row.figure()
    figures[f"sidebar one new session, {language}"] = arrivals.figure()


def seed_schedules(database: Path, count: int) -> Path:
    """A demo-free embedded database holding ``count`` schedules, inserted via the store."""
    with tempfile.TemporaryDirectory() as scratch:
        demo = open_embedded(Path(scratch) / "demo.db", demo=True, clock=clock)
        owner = Owner(demo.tenant_id, demo.principal_id)
        assert isinstance(demo.store, SqlStore)
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


async def demo_summaries(count: int) -> list[ScheduleSummary]:
    """The demo's schedules (every state, cadence, outcome) repeated to ``count`` rows."""
    with tempfile.TemporaryDirectory() as scratch:
        server = open_embedded(Path(scratch) / "demo.db", demo=True, clock=clock)
        transport = httpx.ASGITransport(app=server.app)
        async with ScheduleClient("http://embedded", transport=transport) as api:
            page = await api.list_schedules(states=tuple(ScheduleState), limit=100)
        server.close()
    demo = page.items
    return [
        demo[n % len(demo)].model_copy(
            update={
                "schedule_id": uuid5(NAMESPACE, f"row-{n}"),
                "title": f"{demo[n % len(demo)].title} {n}",
            }
        )
        for n in range(count)
    ]


def bench_rows(figures: Figures, language: str, summaries: list[ScheduleSummary]) -> None:
    zone = ZONES[language]
    rows = Samples()

    def make_rows() -> None:
        for summary in summaries:
            schedule_row(summary, NOW, zone)

    make_rows()  # warm-up
    for _ in range(RUNS):
        rows.time(make_rows)
    print(f"list rows for {len(summaries):,} schedules, {language} ({RUNS} runs): {rows}")
    figures[f"list rows, 2,000 schedules, {language}"] = rows.figure()


async def bench_list(figures: Figures) -> None:
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
    figures["list paging, first 5 pages, ms/page"] = {"wall": first, "cpu": None}
    figures["list paging, last 5 pages, ms/page"] = {"wall": last, "cpu": None}


def measured() -> Figures:
    figures: Figures = {}
    summaries = asyncio.run(demo_summaries(2_000))
    for language in ZONES:
        bench_sidebar(figures, language)
        bench_rows(figures, language, summaries)
    asyncio.run(bench_list(figures))
    return figures


RUN_IN_TREE = (
    "import runpy, sys; tree, bench = sys.argv[1:3]; sys.argv = [bench, '--json'];"
    " sys.path.insert(0, tree); runpy.run_path(bench, run_name='__main__')"
)
"""This file's measurements over the packages of the tree ``argv[1]`` (first on ``sys.path``)."""


def measured_in(tree: Path) -> Figures:
    """The figures of a fresh process importing the packages of ``tree``."""
    bench = str(Path(__file__).resolve())
    run = [sys.executable, "-c", RUN_IN_TREE, str(tree), bench]
    answer = json.loads(subprocess.run(run, cwd=tree, stdout=subprocess.PIPE, check=True).stdout)
    assert Path(answer["packages"]).is_relative_to(tree), answer["packages"]
    figures: Figures = answer["figures"]
    return figures


def milliseconds(value: float) -> str:
    return f"{value:.2f}" if value >= 1 else f"{value:.3f}"


def shown(figure: dict[str, float | None] | None) -> str:
    if figure is None:
        return "—"
    wall, cpu = figure["wall"], figure["cpu"]
    assert wall is not None
    return milliseconds(wall) if cpu is None else f"{milliseconds(wall)} ({milliseconds(cpu)})"


def ratio(before: dict[str, float | None] | None, after: dict[str, float | None] | None) -> str:
    if before is None or after is None:
        return "—"
    shares = [
        f"{a / b:.2f}"
        for b, a in ((before["wall"], after["wall"]), (before["cpu"], after["cpu"]))
        if a is not None and b
    ]
    return shares[0] if len(shares) == 1 else f"{shares[0]} ({shares[1]})"


def median_of(values: list[float | None]) -> float | None:
    known = [value for value in values if value is not None]
    return statistics.median(known) if len(known) == len(values) else None


def combined(runs: list[Figures]) -> Figures:
    """Per measure taken in every run, the median of the runs' figures."""
    return {
        measure: {field: median_of([each[measure][field] for each in runs]) for field in FIELDS}
        for measure in runs[0]
        if all(measure in each for each in runs)
    }


def compare(revision: str, rounds: int) -> None:
    """The figures at ``revision`` (a temporary worktree) beside the code as it is, one table.

    The two take turns, one process each, in ``rounds`` rounds (baseline first
    in odd rounds, last in even ones), so load that rises or falls through
    the run weighs on both.
    """
    taken: dict[str, list[Figures]] = {"baseline": [], "now": []}
    with tempfile.TemporaryDirectory() as scratch:
        trees = {"baseline": Path(scratch) / "baseline", "now": ROOT}
        git = ["git", "-C", str(ROOT), "worktree"]
        add = [*git, "add", "--detach", str(trees["baseline"]), revision]
        subprocess.run(add, stdout=sys.stderr, check=True)
        try:
            for turn in range(rounds):
                for side in ("baseline", "now") if turn % 2 == 0 else ("now", "baseline"):
                    print(f"--- {side}, round {turn + 1} of {rounds}", file=sys.stderr)
                    taken[side].append(measured_in(trees[side]))
        finally:
            subprocess.run([*git, "remove", "--force", str(trees["baseline"])], check=True)
    before, after = combined(taken["baseline"]), combined(taken["now"])
    print(f"\nmedian ms, wall (CPU), of {rounds} rounds; ratio now / baseline {revision}\n")
    print(f"| measure | baseline {revision} | now | now / baseline |")
    print("|---|---|---|---|")
    for measure in dict.fromkeys([*after, *before]):
        old, new = before.get(measure), after.get(measure)
        print(f"| {measure} | {shown(old)} | {shown(new)} | {ratio(old, new)} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", metavar="REV", help="also measure git revision REV")
    parser.add_argument("--rounds", type=int, default=2, help="turns of each with --baseline")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    arguments = parser.parse_args()
    if arguments.baseline:
        compare(arguments.baseline, arguments.rounds)
    elif arguments.json:
        with contextlib.redirect_stdout(sys.stderr):
            figures = measured()
        packages = str(Path(viewmodels.__file__).resolve().parents[1])
        print(json.dumps({"packages": packages, "figures": figures}))
    else:
        measured()


if __name__ == "__main__":
    main()
