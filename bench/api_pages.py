"""Keyset listing and point reads of the schedule server over 100,000 schedules.

Loads 100,000 Current (ACTIVE/PAUSED) and 2,000 terminal schedules of one
principal into a temporary SQLite file and a throwaway PostgreSQL (analyzed
after the load), then times in-process requests (``httpx.ASGITransport``):
page 1 and page 2,000 of Current at limit 50 (page 2,000's cursor minted with
the app's codec, as a client that paged there would hold it) and the point
read. Each figure is a median; the databases take turns in rounds
(``bench/in_process.py``), so the machine's load hits both columns alike.

    .venv/bin/python bench/api_pages.py
"""

from __future__ import annotations

import asyncio
import sys
import time
from datetime import timedelta
from pathlib import Path
from uuid import UUID

from sqlalchemy import select, text

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.in_process import (
    NOW,
    SECRET,
    alternating_medians,
    definition_template,
    sqlite_and_postgres,
)
from server.api.cursor import CursorCodec
from server.domain.states import PauseReason, ScheduleState
from server.identity import LocalIdentity
from server.storage.records import RevisionRecord, ScheduleRecord, ScheduleView
from server.storage.sql.store import SqlStore
from server.storage.tables import schedules

CURRENT = 100_000
TERMINAL = 2_000
LIMIT = 50
RUNS = 60
ROUNDS = 6


def _populate(store: SqlStore) -> None:
    principal = LocalIdentity().principal
    template = definition_template(
        "Summarize the overnight news from three sources in ten bullets. " * 4
    )
    batch: list[ScheduleView] = []
    total = CURRENT + TERMINAL
    terminal_every = total // TERMINAL
    for index in range(total):
        schedule_id = UUID(int=index + 1)
        state = (
            ScheduleState.CANCELLED
            if index % terminal_every == 0
            else (ScheduleState.PAUSED if index % 7 == 0 else ScheduleState.ACTIVE)
        )
        at = NOW - timedelta(seconds=index * 13)
        record = ScheduleRecord(
            schedule_id,
            principal.owner,
            state,
            PauseReason.USER if state == ScheduleState.PAUSED else None,
            1,
            NOW + timedelta(hours=1) if state == ScheduleState.ACTIVE else None,
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
        .where(schedules.c.state.in_([ScheduleState.ACTIVE, ScheduleState.PAUSED]))
        .order_by(schedules.c.updated_at.desc(), schedules.c.id.desc())
        .offset(rows_before - 1)
        .limit(1)
    )
    with store.engine.connect() as connection:
        updated_at, schedule_id = connection.execute(query).one()
    scope = "schedules|local|local|ACTIVE,PAUSED"
    return CursorCodec(SECRET).encode(scope, [updated_at.isoformat(), str(schedule_id)])


MEASURES = (
    "list Current page 1 (limit 50)",
    "list Current page 2,000 (limit 50)",
    "point read GET /v1/schedules/{id}",
)


async def _measure(stores: dict[str, SqlStore]) -> None:
    base = f"/v1/schedules?state=ACTIVE&state=PAUSED&limit={LIMIT}"
    urls = {
        name: (
            base,
            f"{base}&cursor={_cursor_at(store, (2000 - 1) * LIMIT)}",
            f"/v1/schedules/{UUID(int=50_001)}",
        )
        for name, store in stores.items()
    }
    medians, bodies = await alternating_medians(stores, urls, MEASURES, runs=RUNS, rounds=ROUNDS)
    names = list(stores)
    # The rows of the last database warmed, as before: both hold the same schedules.
    rows = {measure: len(bodies[names[-1], measure].get("items", [None])) for measure in MEASURES}
    print(f"{'measure, median ms':<36}" + "".join(f"{name:>12}" for name in names) + "  rows")
    for measure in MEASURES:
        figures = "".join(f"{medians[name, measure]:>12.2f}" for name in names)
        print(f"{measure:<36}{figures}{rows[measure]:>6}")
    ratios = "".join(
        f"{medians[name, MEASURES[1]] / medians[name, MEASURES[0]]:>12.2f}" for name in names
    )
    print(f"{'ratio page 2,000 / page 1':<36}{ratios}")
    print(
        f"(median of {RUNS} runs in {ROUNDS} alternating rounds after 5 warm-up requests;"
        f" {CURRENT:,} Current + {TERMINAL:,} terminal schedules; SQLite WAL, PostgreSQL"
        " on loopback)"
    )


def main() -> None:
    with sqlite_and_postgres("bench_pages") as stores:
        for name, store in stores.items():
            start = time.perf_counter()
            _populate(store)
            elapsed = time.perf_counter() - start
            print(f"bulk insert of {CURRENT + TERMINAL:,} schedules, {name}: {elapsed:.1f} s")
        with stores["PostgreSQL"].engine.connect() as connection:
            connection.execute(text("ANALYZE"))
            connection.commit()
        asyncio.run(_measure(stores))


if __name__ == "__main__":
    main()
