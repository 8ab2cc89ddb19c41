"""The projection route's cost: a 92-day window next month and fifty years ahead.

Creates a DAILY and a WEEKLY schedule through the API of an in-process server
over a temporary SQLite file, then times ``GET /v1/schedules/{id}/projection``
through ``httpx.ASGITransport`` for a 92-day window starting next month and
the same window fifty years later, side by side in one run. The calculator
starts from each window's own first date, so the far window should cost what
the near one does (target: the far one at most 1.2x the near one, and at most
5 ms in-process). Each figure is the median of RUNS requests after WARM_UP,
the two windows' requests interleaved so both meet the same machine;
the calculator alone (``firings_between`` and ``notices_between``, no HTTP,
no database) is printed beside it, and the point read of the same schedule
(the same reads and layers, no projection) under them, for orientation. A
window starting after now reads no ledger (nothing is recorded ahead of
now); the last column, a window from the start of the current month, also
reads the ledger for its past part.

    .venv/bin/python bench/projection.py
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from server.app import create_app
from server.domain.cadence import parse_cadence
from server.domain.projection import firings_between, notices_between
from server.identity import LocalIdentity
from server.storage.sql.store import SqlStore

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
WINDOW = timedelta(days=92)
THIS = datetime(2026, 11, 1, tzinfo=UTC)
NEAR = datetime(2026, 12, 1, tzinfo=UTC)
FAR = datetime(2076, 12, 1, tzinfo=UTC)
RUNS = 300
WARM_UP = 20
_ONE_DAY = timedelta(days=1)
CADENCES: dict[str, dict[str, Any]] = {
    "DAILY 09:00 Europe/Paris": {
        "kind": "DAILY",
        "local_time": "09:00",
        "timezone": "Europe/Paris",
    },
    "WEEKLY Mon/Wed/Fri 08:30 New York": {
        "kind": "WEEKLY",
        "local_time": "08:30",
        "weekdays": [1, 3, 5],
        "timezone": "America/New_York",
    },
}


def _definition(title: str, cadence: dict[str, Any]) -> dict[str, Any]:
    return {
        "title": title,
        "instruction": "Summarize the overnight news in ten bullets.",
        "agent_id": "8a7f1c4e-1b2d-4c3e-9f00-0123456789ab",
        "agent_version": "2026.11.2",
        "policy_profile": "default",
        "requested_scopes": [],
        "limits": {"max_steps": 20, "max_model_calls": 20, "max_tool_calls": 40, "max_cost": "5"},
        "run_timeout_seconds": 300,
        "cadence": cadence,
        "misfire_grace_seconds": 3600,
        "max_consecutive_failures": 2,
    }


def _window(start: datetime) -> dict[str, str]:
    text = "%Y-%m-%dT%H:%M:%SZ"
    return {"from": start.strftime(text), "to": (start + WINDOW).strftime(text)}


async def _medians_ms(client: httpx.AsyncClient, url: str, *windows: dict[str, str]) -> list[float]:
    """Each window's median, the requests interleaved so a busy machine slows all alike."""
    for _ in range(WARM_UP):
        for params in windows:
            warm = await client.get(url, params=params)
            assert warm.status_code == 200, warm.text
    samples: list[list[float]] = [[] for _ in windows]
    for _ in range(RUNS):
        for index, params in enumerate(windows):
            start = time.perf_counter_ns()
            await client.get(url, params=params)
            samples[index].append((time.perf_counter_ns() - start) / 1e6)
    return [statistics.median(found) for found in samples]


def _calculator_ms(*works: Callable[[], object]) -> list[float]:
    """The same, for the calculator alone."""
    for _ in range(WARM_UP):
        for work in works:
            work()
    samples: list[list[float]] = [[] for _ in works]
    for _ in range(RUNS):
        for index, work in enumerate(works):
            start = time.perf_counter_ns()
            work()
            samples[index].append((time.perf_counter_ns() - start) / 1e6)
    return [statistics.median(found) for found in samples]


async def _measure(store: SqlStore) -> None:
    app = create_app(store, LocalIdentity(), lambda: NOW)
    rows: list[tuple[str, int, float, float, float, float, float]] = []
    floor = 0.0
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://bench"
    ) as client:
        for name, cadence in CADENCES.items():
            created = await client.post(
                "/v1/schedules",
                json=_definition(name, cadence),
                headers={"Idempotency-Key": name},
            )
            assert created.status_code == 201, created.text
            url = f"/v1/schedules/{created.json()['schedule_id']}/projection"
            firings = len((await client.get(url, params=_window(NEAR))).json()["firings"])
            far_firings = len((await client.get(url, params=_window(FAR))).json()["firings"])
            assert firings == far_firings, (firings, far_firings)
            near, far, this = await _medians_ms(
                client, url, _window(NEAR), _window(FAR), _window(THIS)
            )
            if not rows:
                (floor,) = await _medians_ms(client, url.removesuffix("/projection"), {})
            rule = parse_cadence(cadence)

            def calculate(start: datetime, rule: Any = rule) -> None:
                firings_between(rule, start, start + WINDOW)
                notices_between(rule, start.date(), (start + WINDOW).date() - _ONE_DAY)

            near_calc, far_calc = _calculator_ms(lambda: calculate(NEAR), lambda: calculate(FAR))
            rows.append((name, firings, near, far, near_calc, far_calc, this))
    print(
        f"{'92-day window':<34}{'firings':>8}{'next month':>12}{'+50 years':>11}{'ratio':>7}"
        f"{'from 1 Nov':>12}"
    )
    for name, firings, near, far, near_calc, far_calc, this in rows:
        print(
            f"{'route ' + name:<34}{firings:>8}{near:>10.2f}ms{far:>9.2f}ms{far / near:>7.2f}"
            f"{this:>10.2f}ms"
        )
        label = "  calculator alone"
        print(
            f"{label:<34}{'':>8}{near_calc:>10.2f}ms{far_calc:>9.2f}ms{far_calc / near_calc:>7.2f}"
        )
    print(f"{'point read of the same schedule':<34}{'':>8}{floor:>10.2f}ms  (the route's floor)")
    print(
        f"(median of {RUNS} interleaved requests after {WARM_UP} warm-up ones, in-process through"
        f" httpx.ASGITransport, SQLite; windows from {NEAR:%Y-%m-%d} and {FAR:%Y-%m-%d})"
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = SqlStore.open(f"sqlite:///{Path(folder) / 'bench.db'}")
        asyncio.run(_measure(store))
        store.close()


if __name__ == "__main__":
    main()
