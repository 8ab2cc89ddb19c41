"""The app's cold start beside a minimal Flet app, and its memory after 2,000 schedules.

How it measures: bench/README.md, "app_in_browser.py".
Run: ``.venv/bin/python bench/app_in_browser.py`` (``--help`` for its options).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import UUID

from playwright.sync_api import Browser, Locator, Page, ViewportSize, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
REPETITIONS = 5
COLD_START_RUNS = 15
"""Rounds of cold starts: enough for a median and quartiles that a few slow runs do not move."""
CPU_SAMPLE_S = 0.01
BULK_SCHEDULES = 2_000
BULK_TITLE = "Bulk schedule {:04d}"
SPLIT = 500
"""Scrolling is timed in stretches of this many rows, to show how its cost grows."""
SCROLL_STEP_PX = 1_200
"""One wheel step: less than a window and a block of rows (``views.row_blocks``) together,
so no row can pass between two looks at the tree without being in it for one."""
MINIMAL_TEXT = "Hello from a minimal Flet app"
VIEWPORT: ViewportSize = {"width": 1280, "height": 800}

MINIMAL_APP = f'''
"""The smallest Flet web app: one text, served as Flet serves it.

With --not-isolated it is served under the app's cross-origin policy: Flet's
hosting route (flet_web.fastapi.app, as the app serves it) under uvicorn,
without the Cross-Origin-Embedder-Policy header the app drops, so its page
is not cross-origin isolated either and its renderer draws on the page's thread.
"""
import argparse
import os

import flet as ft

arguments = argparse.ArgumentParser()
arguments.add_argument("--web", action="store_true")
arguments.add_argument("--port", type=int, required=True)
arguments.add_argument("--data-dir")
arguments.add_argument("--not-isolated", action="store_true")
options = arguments.parse_args()
os.environ["FLET_FORCE_WEB_SERVER"] = "true"


def main(page: ft.Page) -> None:
    page.add(ft.Text("{MINIMAL_TEXT}"))


def without_embedder_policy(inner):
    async def app(scope, receive, send):
        async def answer(message):
            if message["type"] == "http.response.start":
                headers = [
                    (name, value)
                    for name, value in message["headers"]
                    if name.lower() != b"cross-origin-embedder-policy"
                ]
                message = {{**message, "headers": headers}}
            await send(message)

        await inner(scope, receive, answer if scope["type"] == "http" else send)

    return app


if options.not_isolated:
    import flet_web.fastapi
    import uvicorn

    served = without_embedder_policy(flet_web.fastapi.app(main, no_cdn=True))
    uvicorn.run(served, host="127.0.0.1", port=options.port, log_level="warning")
else:
    ft.run(main, view=ft.AppView.WEB_BROWSER, host="127.0.0.1", port=options.port, no_cdn=True)
'''


@dataclass(frozen=True, slots=True)
class Memory:
    rss_kib: int
    peak_kib: int


def main() -> None:
    # The browser helpers live in devtools/, which is not an installed package.
    sys.path.insert(0, str(ROOT))
    from devtools.browser.chromium import launch_chromium

    options = _options()
    offline_only, cold_start_only = options.offline_only, options.cold_start_only
    runs = options.cold_start_runs
    with tempfile.TemporaryDirectory(prefix="bench-app-") as scratch, sync_playwright() as pw:
        work = Path(scratch)
        browser = launch_chromium(pw)
        try:
            if not offline_only:
                cold_start(browser, work, runs)
            if not (offline_only or cold_start_only):
                memory_after_scrolling(browser, work)
            if not cold_start_only:
                offline_cold_start(browser, work)
        finally:
            browser.close()
    if not cold_start_only:
        view_cache_size()


def _options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="The app in a real browser, measured.")
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--offline-only", action="store_true", help="figures 3 and 4 alone")
    only.add_argument("--cold-start-only", action="store_true", help="figure 1 alone")
    parser.add_argument(
        "--cold-start-runs",
        type=_positive,
        default=COLD_START_RUNS,
        metavar="N",
        help=f"rounds of cold starts for figure 1 (default {COLD_START_RUNS})",
    )
    return parser.parse_args()


def _positive(text: str) -> int:
    number = int(text) if text.isdigit() else 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number above 0")
    return number


MINIMAL = "minimal"
NOT_ISOLATED = "not isolated"
APP = "app"
TABLE_ROWS = (
    (MINIMAL, "minimal Flet app (one text), s"),
    (NOT_ISOLATED, "  the same, not cross-origin isolated, s"),
    (APP, "schedule-browser --web (first row), s"),
)


def cold_start(browser: Browser, work: Path, runs: int) -> None:
    from devtools.browser.accessible_names import ROW_PATTERN, schedule_rows
    from devtools.browser.served_app import app_command

    minimal_script = work / "minimal_app.py"
    minimal_script.write_text(MINIMAL_APP, encoding="utf-8")
    minimal = [sys.executable, str(minimal_script)]
    not_isolated = [*minimal, "--not-isolated"]
    demo_data = work / "demo-data"

    first_row = Target(lambda page: schedule_rows(page).first, "button", ROW_PATTERN.pattern)
    the_text = Target(
        lambda page: page.get_by_text(MINIMAL_TEXT, exact=True), None, f"^{MINIMAL_TEXT}$"
    )

    def minimal_start(command: list[str]) -> Callable[[], ColdStart]:
        return lambda: time_to_first(browser, command, work / "unused", work / "logs", the_text)

    def app_start() -> ColdStart:
        return time_to_first(browser, app_command(), demo_data, work / "logs", first_row)

    starters = {
        MINIMAL: minimal_start(minimal),
        NOT_ISOLATED: minimal_start(not_isolated),
        APP: app_start,
    }
    first_run = app_start()
    starters[MINIMAL]()  # warm-ups
    starters[NOT_ISOLATED]()
    starts: dict[str, list[ColdStart]] = {name: [] for name in starters}
    for _ in range(runs):
        for name, start in starters.items():
            starts[name].append(start())
    times = {name: [run.seconds for run in kind] for name, kind in starts.items()}
    print("Cold start, process spawn -> first content in Chromium's accessibility tree")
    print(
        f"({runs} rounds of three: minimal, minimal not isolated, app; after one warm-up "
        "each; 1280x800)"
    )
    print(f"  {'':<44} {'median':>7} {'quartiles':>11} {'min-max':>11}")
    for name, label in TABLE_ROWS:
        print(f"  {label:<44} {spread_text(times[name])}")
    for baseline, label in ((MINIMAL, "minimal"), (NOT_ISOLATED, "minimal not isolated")):
        ratios = [app / base for app, base in zip(times[APP], times[baseline], strict=True)]
        print(f"  {'ratio app / ' + label + ', per round':<44} {spread_text(ratios)}")
        median_ratio = statistics.median(times[APP]) / statistics.median(times[baseline])
        print(
            f"    ratio of the medians: {median_ratio:.2f}x, median of the rounds' ratios: "
            f"{statistics.median(ratios):.2f}x (target <= 1.5x)"
        )
    for name in starts:
        print(f"  {name} runs, s: {runs_text(times[name])}")
    print(f"  first run on an empty data folder (demo data loaded): {first_run.seconds:.2f} s")
    print_cpu(starts)
    print()


def print_cpu(starts: dict[str, list[ColdStart]]) -> None:
    """Where a cold start's time goes: the CPU spent by the first content, each run."""
    cores = os.cpu_count() or 1
    print(f"  CPU seconds spent by the first content (medians; the machine has {cores} cores):")
    print(f"  {'':<44} {MINIMAL:>8} {NOT_ISOLATED:>13} {APP:>8}")
    for label, field in (
        ("the spawned process (Python)", "process_cpu"),
        ("the whole machine (the browser's included)", "machine_cpu"),
    ):
        minimal, not_isolated, app = (
            statistics.median(getattr(run, field) for run in starts[name])
            for name in (MINIMAL, NOT_ISOLATED, APP)
        )
        print(f"  {label:<44} {minimal:>8.2f} {not_isolated:>13.2f} {app:>8.2f}")
    every_run = [run for kind in starts.values() for run in kind]
    busy = [run.machine_cpu / (run.seconds * cores) for run in every_run]
    print(f"  the cores were {statistics.median(busy):.0%} busy meanwhile (median of all runs)")


def memory_after_scrolling(browser: Browser, work: Path) -> None:
    from devtools.browser.accessible_names import schedule_row, schedule_rows
    from devtools.browser.flutter_page import box_centre, open_app, scroll_until_attached
    from devtools.browser.served_app import served_app

    data_dir = work / "bulk-data"
    started = time.perf_counter()
    fill_schedules(data_dir / "schedules.sqlite3", BULK_SCHEDULES)
    filled = time.perf_counter() - started
    with served_app(data_dir, work / "logs", extra_arguments=["--no-demo"]) as app:
        context = browser.new_context(viewport=VIEWPORT)
        try:
            page = context.new_page()
            open_app(page, app.url)
            first = schedule_rows(page).first
            first.wait_for(state="attached", timeout=60_000)
            at_first_render = memory(app.process.pid)
            # Measured once: after scrolling, the first row in the tree is off screen.
            over_list = box_centre(first)
            splits: list[tuple[int, float, int]] = []
            for mark in range(SPLIT, BULK_SCHEDULES + 1, SPLIT):
                started = time.perf_counter()
                steps = scroll_until_attached(
                    page,
                    over_list,
                    schedule_row(page, BULK_TITLE.format(mark)),
                    step_px=SCROLL_STEP_PX,
                    settle_ms=150,
                    timeout_ms=600_000,
                )
                splits.append((mark, time.perf_counter() - started, steps))
            after_scrolling = memory(app.process.pid)
        finally:
            context.close()
    print(f"Memory of the app process, {BULK_SCHEDULES} schedules in the Current list")
    print(f"(inserted through the server's store in {filled:.1f} s; VmRSS and VmHWM)")
    print(f"  {'':<44} {'RSS MiB':>8} {'peak MiB':>9}")
    print(
        f"  {'after the first rows render':<44} {mib(at_first_render.rss_kib):>8} "
        f"{mib(at_first_render.peak_kib):>9}"
    )
    print(
        f"  {'after scrolling to row ' + str(BULK_SCHEDULES):<44} "
        f"{mib(after_scrolling.rss_kib):>8} {mib(after_scrolling.peak_kib):>9}"
    )
    print("  scrolling down the list (pages of 20 load as the end nears):")
    previous = 0
    for mark, seconds, steps in splits:
        print(f"    rows {previous + 1:>4}-{mark:<4} {seconds:6.1f} s  ({steps} wheel steps)")
        previous = mark
    print(f"    total          {sum(seconds for _, seconds, _ in splits):6.1f} s")


@dataclass(frozen=True, slots=True)
class Target:
    """What a cold start waits for: a locator, and the same test for the page's observer."""

    locate: Callable[[Page], Locator]
    role: str | None
    """The ARIA role of the node that carries the name (None: any node)."""
    name_pattern: str
    """A JavaScript regular expression over the node's accessible name."""


FIRST_SEEN_SCRIPT = """(({ role, pattern }) => {
    const named = new RegExp(pattern);
    const selector = role ? `flt-semantics-host [role="${role}"]` : "flt-semantics-host *";
    const present = () => [...document.querySelectorAll(selector)].some(
        (node) => named.test(node.getAttribute("aria-label") || node.textContent || ""));
    const observer = new MutationObserver(() => {
        if (present()) {
            window.firstSeenAt = performance.timeOrigin + performance.now();
            observer.disconnect();
        }
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true,
                                 characterData: true });
})"""
"""Notes in ``window.firstSeenAt`` (milliseconds since the epoch) when the target appears."""


def time_to_first(
    browser: Browser,
    command: list[str],
    data_dir: Path,
    log_dir: Path,
    target: Target,
) -> ColdStart:
    """From spawning ``command`` to ``target`` in the tree: seconds, and the CPU spent."""
    from bench.cpu_seconds import machine_cpu_seconds
    from devtools.browser.flutter_page import open_app
    from devtools.browser.served_app import served_app

    machine_before = machine_cpu_seconds()
    started = time.time()  # the epoch clock: the page's own instant is compared with it
    with (
        served_app(
            data_dir, log_dir, command=command, startup_timeout=120, until_open=False
        ) as app,
        CpuSampler(app.process.pid, machine_before) as cpu,
    ):
        context = browser.new_context(viewport=VIEWPORT)
        try:
            arguments = json.dumps({"role": target.role, "pattern": target.name_pattern})
            context.add_init_script(f"{FIRST_SEEN_SCRIPT}({arguments});")
            page = context.new_page()
            open_app(page, app.url)
            target.locate(page).wait_for(state="attached", timeout=60_000)
            seen_at: float | None = page.evaluate("window.firstSeenAt")
            if seen_at is None:
                raise RuntimeError("the page's observer did not see the target it was told of")
            process_cpu, machine = cpu.used_by(seen_at / 1000)
            return ColdStart(seen_at / 1000 - started, process_cpu, machine)
        finally:
            context.close()


@dataclass(frozen=True, slots=True)
class ColdStart:
    """One cold start: its seconds, and the CPU spent by its first content (``CpuSampler``)."""

    seconds: float
    process_cpu: float
    """CPU seconds of the spawned process (the app or the minimal app)."""
    machine_cpu: float
    """CPU seconds of every process on the machine (the browser's included)."""


class CpuSampler:
    """A spawned process's CPU seconds and the whole machine's, every ``CPU_SAMPLE_S``.

    Playwright's wait returns up to half a second after the target appears and
    the app works on meanwhile, so the figures are read back at the page's own
    instant (``used_by``): the last sample taken by then. The process counts
    from its spawn (all its CPU), the machine from ``machine_before``.
    """

    def __init__(self, pid: int, machine_before: float) -> None:
        self._pid = pid
        self._machine_before = machine_before
        self._samples: list[tuple[float, float, float]] = []
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> CpuSampler:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stopped.set()
        self._thread.join()

    def used_by(self, instant: float) -> tuple[float, float]:
        """(process, machine) CPU seconds by ``instant`` (seconds since the epoch)."""
        taken = [(process, machine) for at, process, machine in self._samples if at <= instant]
        if not taken:
            raise RuntimeError("no CPU sample was taken before the instant asked for")
        process, machine = taken[-1]
        return process, machine - self._machine_before

    def _sample(self) -> None:
        from bench.cpu_seconds import machine_cpu_seconds, process_cpu_seconds

        while not self._stopped.wait(CPU_SAMPLE_S):
            self._samples.append(
                (time.time(), process_cpu_seconds(self._pid), machine_cpu_seconds())
            )


def offline_cold_start(browser: Browser, work: Path) -> None:
    from devtools.browser.accessible_names import schedule_rows
    from devtools.browser.flutter_page import open_app
    from devtools.browser.schedule_server import TOKEN_ENV, ScheduleServer
    from devtools.browser.served_app import app_command, running_process
    from devtools.ports import LOOPBACK, free_port

    server_dir = work / "offline-server"
    server_dir.mkdir()
    server = ScheduleServer(server_dir)
    port = free_port()
    url = f"http://{LOOPBACK}:{port}/"
    argv = [*app_command(), "--web", "--port", str(port), "--server", server.url]
    # The note of servers read goes to the user data folder: a throwaway one here.
    environment = {TOKEN_ENV: server.token, "XDG_DATA_HOME": str(work / "xdg-data")}
    context = browser.new_context(viewport=VIEWPORT)

    def first_row() -> float:
        started = time.perf_counter_ns()
        with running_process(
            argv, work / "offline-logs", port=port, environment=environment, startup_timeout=120
        ):
            page = context.new_page()
            try:
                page.context.new_cdp_session(page).send("Network.clearBrowserCache")
                open_app(page, url)
                schedule_rows(page).first.wait_for(state="attached", timeout=60_000)
                return (time.perf_counter_ns() - started) / 1e9
            finally:
                page.close()

    online: list[float] = []
    offline: list[float] = []
    try:
        server.start()
        first_row()  # warm-up: reads the lists, fills the view cache and the note
        for _ in range(REPETITIONS):
            online.append(first_row())
            server.stop()
            offline.append(first_row())
            server.start()
    finally:
        server.stop()
        context.close()
    online_median = statistics.median(online)
    offline_median = statistics.median(offline)
    print("Offline cold start, process spawn -> first schedule row (remote schedule-server)")
    print(f"(median of {REPETITIONS} interleaved runs after one warm-up; 1280x800, HTTP cache")
    print(" cleared each run; one browser storage holding the view cache)")
    print(f"  {'':<44} {'median s':>9}  runs")
    for name, median, runs in (
        ("server up (ordinary cold start)", online_median, online),
        ("server stopped (first row from the cache)", offline_median, offline),
    ):
        print(f"  {name:<44} {median:>9.2f}  {runs_text(runs)}")
    print(f"  ratio offline / ordinary: {offline_median / online_median:.2f}x (target <= 1.2x)")
    print()


def view_cache_size() -> None:
    import asyncio

    asyncio.run(_view_cache_size())


async def _view_cache_size() -> None:
    import httpx
    import tzlocal

    from app.view_cache_keys import BUDGET_CHARS, MOST_DETAILS
    from app.view_cache_store import ViewCacheStore
    from devtools.api_bodies import definition_json
    from server.embedded import open_embedded
    from transport.client import ScheduleClient
    from viewmodels.detail import ScheduleDetailViewModel
    from viewmodels.offline import OfflineViewModel
    from viewmodels.ports import MemoryStorage

    zone = tzlocal.get_localzone()
    with tempfile.TemporaryDirectory(prefix="bench-cache-") as scratch:
        embedded = open_embedded(
            Path(scratch) / "schedules.sqlite3", demo=True, clock=lambda: datetime.now(UTC)
        )
        try:
            transport = httpx.ASGITransport(app=embedded.app)
            async with ScheduleClient("http://bench.invalid", transport=transport) as api:
                states = ("ACTIVE", "PAUSED", "COMPLETED", "CANCELLED")
                ids = [s.schedule_id for s in (await api.list_schedules(states=states)).items]
                for number in range(len(ids), MOST_DETAILS):
                    created = await api.create_schedule(
                        definition_json(
                            title=f"Extra schedule {number}",
                            instruction=f"Summarize project {number}'s changes since yesterday.",
                        ),
                        idempotency_key=f"bench-{number}",
                    )
                    ids.append(created.schedule_id)
                storage = MemoryStorage()
                cache = ViewCacheStore(storage)
                offline = OfflineViewModel(cache, clock=lambda: datetime.now(UTC), device_zone=zone)
                detail = ScheduleDetailViewModel(
                    api, clock=lambda: datetime.now(UTC), device_zone=zone, offline=offline
                )
                for schedule_id in ids[:MOST_DETAILS]:
                    await detail.open(schedule_id)
                size = await cache.size()
        finally:
            embedded.close()
    print(f"View cache after {MOST_DETAILS} details, each with its calendar month (demo data)")
    print(
        f"  {size:,} characters of stored JSON ({size / 1e6:.2f} MB), "
        f"{size / BUDGET_CHARS:.1%} of the {BUDGET_CHARS / 1e6:.0f} MB budget; "
        f"{len(storage.keys())} keys"
    )


def fill_schedules(database_path: Path, count: int) -> None:
    """``count`` ACTIVE and PAUSED schedules through the store's bulk insert."""
    from server.definitions.checks import parse_definition
    from server.domain.recurrence import first_after
    from server.domain.states import PauseReason, ScheduleState
    from server.identity import local_principal
    from server.storage.records import RevisionRecord, ScheduleRecord, ScheduleView
    from server.storage.sql.store import SqlStore

    database_path.parent.mkdir(parents=True, exist_ok=True)
    owner = local_principal().owner
    now = datetime.now(UTC).replace(microsecond=0)
    views = []
    for number in range(1, count + 1):
        schedule_id = UUID(int=number)
        definition = parse_definition(_definition(number))
        paused = number % 7 == 0
        # Newest first in the list: schedule 1 has the latest update.
        updated_at = now - timedelta(minutes=number)
        views.append(
            ScheduleView(
                schedule=ScheduleRecord(
                    schedule_id=schedule_id,
                    owner=owner,
                    state=ScheduleState.PAUSED if paused else ScheduleState.ACTIVE,
                    pause_reason=PauseReason.USER if paused else None,
                    current_revision=1,
                    next_fire_at=None if paused else first_after(definition.cadence, now),
                    consecutive_failures=0,
                    created_at=updated_at,
                    updated_at=updated_at,
                ),
                revision=RevisionRecord(
                    schedule_id=schedule_id,
                    revision=1,
                    definition=definition.text,
                    created_by_principal_id=owner.principal_id,
                    created_at=updated_at,
                ),
            )
        )
    store = SqlStore.open(f"sqlite:///{database_path}")
    try:
        store.schedules.import_many(views)
    finally:
        store.close()


def _definition(number: int) -> dict[str, Any]:
    from devtools.api_bodies import definition_json

    return definition_json(
        title=BULK_TITLE.format(number),
        instruction=f"Summarize what changed in project {number} since yesterday.",
        agent_id=UUID(int=10_000 + number % 5),
        cadence={
            "kind": "DAILY",
            "local_time": f"{number % 24:02d}:{number % 60:02d}:00",
            "timezone": "Europe/Paris",
        },
    )


def memory(pid: int) -> Memory:
    """VmRSS and VmHWM of ``pid`` in KiB, from ``/proc/<pid>/status``."""
    fields: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = int(value.split()[0])
    return Memory(rss_kib=fields["VmRSS"], peak_kib=fields["VmHWM"])


def mib(kib: int) -> str:
    return f"{kib / 1024:.0f}"


def runs_text(times: list[float]) -> str:
    return " ".join(f"{seconds:.2f}" for seconds in times)


def spread_text(values: list[float]) -> str:
    """Median, quartiles and range: "3.05  2.90-3.40  2.71-4.62"."""
    if len(values) >= 2:
        first, _, third = statistics.quantiles(values, n=4)
    else:
        first = third = values[0]
    return (
        f"{statistics.median(values):>7.2f} {first:>5.2f}-{third:<5.2f} "
        f"{min(values):>5.2f}-{max(values):<5.2f}"
    )


if __name__ == "__main__":
    main()
