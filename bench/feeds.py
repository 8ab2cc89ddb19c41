"""A feed of all schedules against one agenda page of the same window, 1,000 ACTIVE schedules.

Prints the median milliseconds of ``GET /v1/agenda`` (one page, limit 100, the
feed's window) and of ``GET /feeds/<secret>.ics`` (the agenda read outward from
now, bounded to 2,000 events, rendered by ``icalendar``), measured alternately in
one run on SQLite, and their ratio. Run: ``.venv/bin/python bench/feeds.py``.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from devtools.api_bodies import definition_json
from server.app import create_app
from server.identity import LocalIdentity
from server.storage.sql.store import SqlStore

SCHEDULES = 1_000
ROUNDS = 15
ZONES = ("UTC", "Europe/London", "America/New_York", "Asia/Kolkata", "Australia/Sydney")


class _Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def _z(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


async def _timed(client: httpx.AsyncClient, url: str) -> float:
    started = time.perf_counter()
    response = await client.get(url)
    elapsed = (time.perf_counter() - started) * 1000
    assert response.status_code == 200, response.text
    return elapsed


async def main() -> None:
    clock = _Clock(datetime(2027, 1, 1, 12, tzinfo=UTC))
    with tempfile.TemporaryDirectory() as folder:
        store = SqlStore.open(f"sqlite:///{folder}/bench.db")
        app = create_app(store, LocalIdentity(), clock, auth_failures=None)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            for n in range(SCHEDULES):
                cadence = {
                    "kind": "DAILY",
                    "local_time": f"{n % 24:02d}:{(n * 7) % 60:02d}:00",
                    "timezone": ZONES[n % len(ZONES)],
                }
                made = await client.post(
                    "/v1/schedules",
                    json=definition_json(title=f"Digest {n}", cadence=cadence),
                    headers={"Idempotency-Key": str(n)},
                )
                assert made.status_code == 201, made.text
            clock.now += timedelta(days=30)  # a month of past firings in the window
            now = clock.now
            agenda = (
                f"/v1/agenda?from={_z(now - timedelta(days=30))}"
                f"&to={_z(now + timedelta(days=60))}&limit=100"
            )
            feed = (await client.post("/v1/feeds", json={"schedule_id": None})).json()["url"]
            await _timed(client, agenda)
            await _timed(client, feed)  # warm both
            pages, feeds = [], []
            for _ in range(ROUNDS):
                pages.append(await _timed(client, agenda))
                feeds.append(await _timed(client, feed))
        store.close()
    page_ms, feed_ms = statistics.median(pages), statistics.median(feeds)
    print(f"{SCHEDULES} ACTIVE schedules, SQLite, median of {ROUNDS} alternating runs")
    print("| agenda page (limit 100) ms | feed of all schedules ms | feed / page |")
    print("|---|---|---|")
    print(f"| {page_ms:.1f} | {feed_ms:.1f} | {feed_ms / page_ms:.1f}x |")


if __name__ == "__main__":
    asyncio.run(main())
