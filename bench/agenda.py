"""The agenda and its busy hours over 1,000, 10,000 and 100,000 schedules, SQLite and PostgreSQL.

How it measures: bench/README.md, "agenda.py". Run: ``.venv/bin/python bench/agenda.py``
(``--sizes 1000,10000`` leaves out the largest size, whose PostgreSQL load takes longest).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
import tracemalloc
from collections.abc import Iterator, Sequence
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlencode
from uuid import UUID

import httpx
from sqlalchemy import text

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.app_in_browser import memory
from bench.in_process import (
    NOW,
    SECRET,
    alternating_medians,
    definition_template,
    sqlite_and_postgres,
)
from server.app import create_app
from server.domain.cadence import parse_cadence
from server.domain.recurrence import first_after
from server.domain.states import ScheduleState
from server.identity import LocalIdentity
from server.storage.records import RevisionRecord, ScheduleRecord, ScheduleView
from server.storage.sql.store import SqlStore

SIZES = (1_000, 10_000, 100_000)
MEMORY_AT = 10_000
WINDOW = {"from": "2026-11-30T09:00:00Z", "to": "2026-12-07T09:00:00Z"}
LIMIT = 100
WALK_LIMIT = 200
RUNS = 30
ROUNDS = 6
ZONES = (
    "UTC",
    "Europe/London",
    "Europe/Paris",
    "Europe/Berlin",
    "America/New_York",
    "America/Chicago",
    "America/Los_Angeles",
    "America/Sao_Paulo",
    "America/Nuuk",
    "Asia/Kolkata",
    "Asia/Tokyo",
    "Australia/Sydney",
    "Australia/Lord_Howe",
    "Pacific/Auckland",
)
WALL_TIMES = ("06:00", "07:30", "08:00", "09:00", "12:00", "17:30", "18:00", "22:15")
# (kind, share in percent): what people schedule, most of it daily or on weekdays.
KINDS = (("DAILY", 40), ("WEEKLY", 25), ("MONTHLY", 15), ("YEARLY", 5), ("ONCE", 15))
WEEKDAYS = ([1, 2, 3, 4, 5], [1], [1, 3, 5])
MONTH_DAYS: tuple[dict[str, Any], ...] = (
    {"days_of_month": [1]},
    {"days_of_month": [1, 15]},
    {"days_of_month": [], "last_day": True},
)
YEAR_DATES = ([{"month": 12, "day": 1}], [{"month": 1, "day": 1}, {"month": 7, "day": 1}])

MEASURES = (
    f"list page 1 (limit {LIMIT})",
    f"agenda page 1 (limit {LIMIT})",
    "agenda last page",
    "density, hour x 7 days",
)


def _cadence(rng: random.Random) -> dict[str, Any]:
    """One cadence as people choose them: a round wall time in one of the zones."""
    kind = rng.choices([k for k, _ in KINDS], [share for _, share in KINDS])[0]
    if kind == "ONCE":
        at = NOW + timedelta(hours=rng.randrange(14 * 24))
        return {"kind": "ONCE", "at": at.isoformat().replace("+00:00", "Z")}
    rule: dict[str, Any] = {
        "kind": kind,
        "local_time": rng.choice(WALL_TIMES),
        "timezone": rng.choice(ZONES),
    }
    if kind == "WEEKLY":
        rule["weekdays"] = rng.choice(WEEKDAYS)
    elif kind == "MONTHLY":
        rule.update(rng.choice(MONTH_DAYS))
    elif kind == "YEARLY":
        rule["dates"] = rng.choice(YEAR_DATES)
    return rule


@cache
def _template(cadence_text: str) -> tuple[str, datetime | None]:
    """The definition's text for a cadence (title ``TITLE``) and its first firing after now."""
    cadence = json.loads(cadence_text)
    return definition_template("Summarize the overnight news in ten bullets.", cadence), (
        first_after(parse_cadence(cadence), NOW)
    )


def _schedules(first: int, last: int) -> Iterator[ScheduleView]:
    """Schedules ``first``..``last - 1`` of the local principal, ACTIVE, made before now."""
    owner = LocalIdentity().principal.owner
    for index in range(first, last):
        rng = random.Random(index)
        definition, next_fire_at = _template(json.dumps(_cadence(rng), sort_keys=True))
        schedule_id = UUID(int=index + 1)
        made = NOW - timedelta(days=30) - timedelta(seconds=index * 13)
        record = ScheduleRecord(
            schedule_id,
            owner,
            ScheduleState.ACTIVE,
            None,
            1,
            next_fire_at,
            0,
            made,
            made,
        )
        revision = RevisionRecord(
            schedule_id, 1, definition.replace("TITLE", f"Schedule {index:06d}"), "local", made
        )
        yield ScheduleView(record, revision)


def _populate(store: SqlStore, first: int, last: int) -> None:
    batch: list[ScheduleView] = []
    for view in _schedules(first, last):
        batch.append(view)
        if len(batch) == 5_000:
            store.schedules.import_many(batch)
            batch = []
    store.schedules.import_many(batch)


def _url(path: str, **params: Any) -> str:
    return f"{path}?{urlencode({**WINDOW, **params})}"


async def _walk(client: httpx.AsyncClient) -> tuple[int, str]:
    """Every item of the week, page by page; the item count and the last page's URL."""
    cursors: list[dict[str, str]] = [{}]  # each walk page's cursor parameter
    items = 0
    while True:
        response = await client.get(_url("/v1/agenda", limit=WALK_LIMIT, **cursors[-1]))
        assert response.status_code == 200, response.text
        body = response.json()
        items += len(body["items"])
        if body["next_cursor"] is None:
            break
        cursors.append({"cursor": body["next_cursor"]})
    # The last page at LIMIT: from the walk's last full page, skip what comes before it.
    start, tail = (cursors[-1], len(body["items"]))
    if len(cursors) > 1:
        start, tail = cursors[-2], WALK_LIMIT + tail
    if tail > LIMIT:
        response = await client.get(_url("/v1/agenda", limit=tail - LIMIT, **start))
        start = {"cursor": response.json()["next_cursor"]}
    last = _url("/v1/agenda", limit=LIMIT, **start)
    body = (await client.get(last)).json()
    assert body["next_cursor"] is None and len(body["items"]) == min(LIMIT, items), last
    return items, last


def _client(store: SqlStore) -> httpx.AsyncClient:
    app = create_app(store, LocalIdentity(), lambda: NOW, cursor_secret=SECRET)
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://bench")


async def _last_pages(
    stores: dict[str, SqlStore], size: int
) -> tuple[dict[str, str], dict[str, int], dict[str, tuple[float, float]]]:
    """Each database's last-page URL and item count; at ``MEMORY_AT`` the memory of a walk.

    Memory: VmRSS growth over a second walk of the whole week, and the peak
    of Python's allocations during it above its start (``tracemalloc``), in MiB.
    """
    urls: dict[str, str] = {}
    counts: dict[str, int] = {}
    grown: dict[str, tuple[float, float]] = {}
    for name, store in stores.items():
        async with _client(store) as client:
            counts[name], urls[name] = await _walk(client)
            if size == MEMORY_AT:
                before = memory_now()
                tracemalloc.start()
                base = tracemalloc.get_traced_memory()[0]
                await _walk(client)
                peak = tracemalloc.get_traced_memory()[1]
                tracemalloc.stop()
                grown[name] = ((memory_now() - before) / 1024, (peak - base) / 2**20)
    return urls, counts, grown


def memory_now() -> int:
    """This process's VmRSS in KiB: the in-process server's."""
    return memory(os.getpid()).rss_kib


def _print(
    size: int,
    medians: dict[tuple[str, str], float],
    names: Sequence[str],
    items: dict[str, int],
) -> None:
    cadences = _template.cache_info().currsize
    print(
        f"{size:,} ACTIVE schedules ({cadences:,} distinct cadences),"
        f" {items[names[0]]:,} agenda items in the week"
    )
    for measure in MEASURES:
        figures = "".join(f"{medians[name, measure]:>12.2f}" for name in names)
        print(f"  {measure:<38}{figures}")
    list_p1, page1, last, density = MEASURES
    for label, over, under, target in (
        ("agenda page 1 / list page 1", page1, list_p1, "<= 3"),
        ("agenda last page / page 1", last, page1, "<= 1.3"),
        ("density / agenda page 1", density, page1, "<= 10"),
    ):
        ratios = "".join(f"{medians[n, over] / medians[n, under]:>12.2f}" for n in names)
        print(f"  {label:<38}{ratios}   target {target}")


async def _measure(stores: dict[str, SqlStore], size: int) -> None:
    last, items, grown = await _last_pages(stores, size)
    urls = {
        name: (
            f"/v1/schedules?state=ACTIVE&state=PAUSED&limit={LIMIT}",
            _url("/v1/agenda", limit=LIMIT),
            last[name],
            _url("/v1/agenda/density", bucket="hour"),
        )
        for name in stores
    }
    medians, _ = await alternating_medians(stores, urls, MEASURES, runs=RUNS, rounds=ROUNDS)
    _print(size, medians, list(stores), items)
    if grown:
        figures = "".join(f"{rss:>+7.1f}/{peak:<4.1f}" for rss, peak in grown.values())
        print(f"  {'paging the week: VmRSS / tracemalloc MiB':<38}{figures}   target < +20")


def _options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--sizes",
        default=",".join(str(s) for s in SIZES),
        help="schedule counts to measure, ascending, comma-separated (default: %(default)s)",
    )
    return parser.parse_args()


def main() -> None:
    sizes = [int(part) for part in _options().sizes.split(",")]
    with sqlite_and_postgres("bench_agenda") as stores:
        names = list(stores)
        print(f"{'':<40}" + "".join(f"{name:>12}" for name in names))
        loaded = 0
        for size in sizes:
            for name, store in stores.items():
                start = time.perf_counter()
                _populate(store, loaded, size)
                if name == "PostgreSQL":
                    with store.engine.connect() as connection:
                        connection.execution_options(isolation_level="AUTOCOMMIT").execute(
                            text("VACUUM ANALYZE")
                        )
                elapsed = time.perf_counter() - start
                print(f"(load to {size:,} schedules, {name}: {elapsed:.1f} s)")
            loaded = size
            asyncio.run(_measure(stores, size))
        print(
            f"(median ms of {RUNS} runs in {ROUNDS} alternating rounds after 5 warm-up requests;"
            f" window {WINDOW['from']} + 7 days; {len(ZONES)} zones; in-process, PostgreSQL on"
            " loopback; memory: a second walk of the week at limit"
            f" {WALK_LIMIT}, {MEMORY_AT:,} schedules)"
        )


if __name__ == "__main__":
    main()
