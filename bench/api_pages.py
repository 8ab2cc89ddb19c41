"""Keyset listing and point reads of the schedule server over 100,000 schedules.

Bulk-inserts 100,000 Current (ACTIVE/PAUSED) schedules plus 2,000 terminal
ones for one principal into a temporary SQLite file, straight through the
store, then times requests in-process through ``httpx.ASGITransport``:
page 1 and page 2,000 of Current at limit 50, and the point read. Each figure
is the median of RUNS runs after a warm-up; page 2,000's cursor is minted with
the app's own codec at the 99,950th row, as a client that had paged there
would hold it.

    .venv/bin/python bench/api_pages.py
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from uuid import UUID

import httpx
from sqlalchemy import select

from server.api.cursor import CursorCodec
from server.app import create_app
from server.identity import LocalIdentity
from server.scheduling.definition import parse_definition
from server.storage.records import RevisionRecord, ScheduleRecord, ScheduleView
from server.storage.sql.store import SqlStore
from server.storage.tables import schedules

CURRENT = 100_000
TERMINAL = 2_000
LIMIT = 50
RUNS = 60
SECRET = b"bench-secret-0123456789abcdef012"
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def _populate(store: SqlStore) -> None:
    principal = LocalIdentity().principal
    template = parse_definition(
        {
            "title": "TITLE",
            "instruction": "Summarize the overnight news from three sources in ten bullets. " * 4,
            "agent_id": "8a7f1c4e-1b2d-4c3e-9f00-0123456789ab",
            "agent_version": "2026.11.2",
            "policy_profile": "default",
            "requested_scopes": [],
            "limits": {
                "max_steps": 20,
                "max_model_calls": 20,
                "max_tool_calls": 40,
                "max_cost": "5",
            },
            "run_timeout_seconds": 300,
            "cadence": {"kind": "DAILY", "local_time": "09:00", "timezone": "Europe/Paris"},
            "misfire_grace_seconds": 3600,
            "max_consecutive_failures": 2,
        }
    ).text
    batch: list[ScheduleView] = []
    total = CURRENT + TERMINAL
    terminal_every = total // TERMINAL
    for index in range(total):
        schedule_id = UUID(int=index + 1)
        state = (
            "CANCELLED"
            if index % terminal_every == 0
            else ("PAUSED" if index % 7 == 0 else "ACTIVE")
        )
        at = NOW - timedelta(seconds=index * 13)
        record = ScheduleRecord(
            schedule_id,
            principal.owner,
            state,
            "user" if state == "PAUSED" else None,
            1,
            NOW + timedelta(hours=1) if state == "ACTIVE" else None,
            0,
            at,
            at,
        )
        text = template.replace("TITLE", f"Schedule {index:06d}")
        batch.append(ScheduleView(record, RevisionRecord(schedule_id, 1, text, "local", at)))
        if len(batch) == 5_000:
            store.schedules.import_many(batch)
            batch = []
    store.schedules.import_many(batch)


def _cursor_at(store: SqlStore, rows_before: int) -> str:
    query = (
        select(schedules.c.updated_at, schedules.c.id)
        .where(schedules.c.state.in_(["ACTIVE", "PAUSED"]))
        .order_by(schedules.c.updated_at.desc(), schedules.c.id.desc())
        .offset(rows_before - 1)
        .limit(1)
    )
    with store.engine.connect() as connection:
        updated_at, schedule_id = connection.execute(query).one()
    scope = "schedules|local|local|ACTIVE,PAUSED"
    return CursorCodec(SECRET).encode(scope, [updated_at.isoformat(), str(schedule_id)])


async def _median_ms(client: httpx.AsyncClient, url: str) -> tuple[float, int]:
    for _ in range(5):
        warm = await client.get(url)
        assert warm.status_code == 200, warm.text
    samples = []
    for _ in range(RUNS):
        start = time.perf_counter_ns()
        response = await client.get(url)
        samples.append((time.perf_counter_ns() - start) / 1e6)
    return statistics.median(samples), len(response.json().get("items", [None]))


async def _measure(store: SqlStore) -> None:
    app = create_app(store, LocalIdentity(), lambda: NOW, cursor_secret=SECRET)
    page_2000 = _cursor_at(store, (2000 - 1) * LIMIT)
    base = f"/v1/schedules?state=ACTIVE&state=PAUSED&limit={LIMIT}"
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://bench"
    ) as client:
        first, first_rows = await _median_ms(client, base)
        deep, deep_rows = await _median_ms(client, f"{base}&cursor={page_2000}")
        point, _ = await _median_ms(client, f"/v1/schedules/{UUID(int=50_001)}")
    print(f"{'measure':<34}{'median ms':>10}{'rows':>6}")
    print(f"{'list Current page 1 (limit 50)':<34}{first:>10.2f}{first_rows:>6}")
    print(f"{'list Current page 2,000 (limit 50)':<34}{deep:>10.2f}{deep_rows:>6}")
    print(f"{'point read GET /v1/schedules/{id}':<34}{point:>10.2f}{1:>6}")
    print(f"{'ratio page 2,000 / page 1':<34}{deep / first:>10.2f}")
    print(
        f"(median of {RUNS} runs after 5 warm-up requests; {CURRENT:,} Current +"
        f" {TERMINAL:,} terminal schedules, SQLite WAL)"
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = SqlStore.open(f"sqlite:///{Path(folder) / 'bench.db'}")
        start = time.perf_counter()
        _populate(store)
        print(
            f"bulk insert of {CURRENT + TERMINAL:,} schedules: {time.perf_counter() - start:.1f} s"
        )
        asyncio.run(_measure(store))
        store.close()


if __name__ == "__main__":
    main()
