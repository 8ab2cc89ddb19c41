"""The embedded server and its demo data, as the app sees them on first run."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import text

from server.demo.entries import demo_data
from server.embedded import open_embedded

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


async def _all(client: httpx.AsyncClient, path: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    cursor = None
    while True:
        sep = "&" if "?" in path else "?"
        page = (await client.get(path + (f"{sep}cursor={cursor}" if cursor else ""))).json()
        items.extend(page["items"])
        cursor = page["next_cursor"]
        if cursor is None:
            return items


async def test_demo_covers_every_state_kind_zone_and_binding(tmp_path: Path) -> None:
    server = open_embedded(tmp_path / "app.db", demo=True, clock=lambda: NOW)
    transport = httpx.ASGITransport(app=server.app)
    async with httpx.AsyncClient(transport=transport, base_url="http://embedded") as client:
        schedules = await _all(client, "/v1/schedules?limit=100")
        first = (await client.get("/v1/schedules?state=ACTIVE&state=PAUSED&limit=20")).json()
        profiles = await _all(client, "/v1/browser-profiles")
        sessions = await _all(client, "/v1/sessions?limit=100")
        folders = await _all(client, "/v1/folders")
        principal = (await client.get("/v1/principal")).json()
        details = [
            (await client.get(f"/v1/schedules/{s['schedule_id']}")).json() for s in schedules
        ]
        occurrences = [
            o
            for s in schedules
            for o in await _all(client, f"/v1/schedules/{s['schedule_id']}/occurrences")
        ]
        scheduled = [s for s in sessions if "schedule_id" in s["metadata"]]
        transcript = (
            await client.get(f"/v1/sessions/{scheduled[0]['session_id']}/messages")
        ).json()
    server.close()

    assert principal["principal_id"] == server.principal_id == "local"
    shipped = demo_data()
    assert len(schedules) == len(shipped.schedules) >= 30, "every TOML entry is loaded"
    assert (len(profiles), len(folders)) == (len(shipped.profiles), len(shipped.folders))
    states = Counter(s["state"] for s in schedules)
    assert set(states) == {"ACTIVE", "PAUSED", "COMPLETED", "CANCELLED"}
    assert states["ACTIVE"] + states["PAUSED"] >= 25
    assert first["next_cursor"] is not None and len(first["items"]) == 20
    assert {s["pause_reason"] for s in schedules if s["state"] == "PAUSED"} == {
        "user",
        "failure_limit",
    }
    assert {s["cadence"]["kind"] for s in schedules} == {
        "ONCE",
        "DAILY",
        "WEEKLY",
        "MONTHLY",
        "YEARLY",
    }
    zones = {s["cadence"].get("timezone") for s in schedules}
    assert {"Europe/Paris", "America/New_York", "Asia/Tokyo", "UTC", "Australia/Sydney"} <= zones
    lengths = [len(d["revision"]["instruction"]) for d in details]
    assert max(lengths) > 5000 and min(lengths) < 120
    assert all(len(s["instruction_preview"]) <= 160 for s in schedules)
    assert all((s["next_fire_at"] is None) == (s["state"] != "ACTIVE") for s in schedules)
    by_id = {p["profile_id"]: p["state"] for p in profiles}
    assert {"READY", "EXPIRED", "PENDING", "REVOKED"} <= set(by_id.values())
    bound = [s["browser_profile_id"] for s in schedules if s["browser_profile_id"]]
    assert {by_id.get(b, "MISSING") for b in bound} >= {"READY", "EXPIRED", "MISSING"}
    assert {o["disposition"] for o in occurrences} == {
        "MATERIALIZED",
        "MISSED",
        "SKIPPED_OVERLAP",
        "AUTHORIZATION_FAILED",
        "CONFIGURATION_FAILED",
    }
    per_schedule = Counter(s["metadata"]["schedule_id"] for s in scheduled)
    assert sum(1 for n in per_schedule.values() if 2 <= n <= 8) >= 4
    assert min(per_schedule.values()) == 1, "one schedule has exactly one session"
    assert len(folders) >= 3
    assert any(s["folder_id"] for s in sessions)
    assert any(not s["metadata"] for s in sessions)
    roles = [m["role"] for m in transcript["items"]]
    assert roles and "user" not in roles  # the opening message (the instruction) is hidden


def test_demo_is_deterministic_for_one_instant_and_loaded_once(tmp_path: Path) -> None:
    dumps = []
    for name in ("a.db", "b.db"):
        server = open_embedded(tmp_path / name, demo=True, clock=lambda: NOW)
        with server.store.engine.connect() as connection:
            dumps.append(
                [
                    connection.execute(text(f"SELECT * FROM {table} ORDER BY 1")).all()
                    for table in (
                        "schedules",
                        "schedule_revisions",
                        "sessions",
                        "schedule_occurrences",
                    )
                ]
            )
        server.close()
    assert dumps[0] == dumps[1]
    reopened = open_embedded(tmp_path / "a.db", demo=True, clock=lambda: NOW)
    with reopened.store.engine.connect() as connection:
        count = connection.execute(text("SELECT count(*) FROM schedules")).scalar_one()
    reopened.close()
    assert count == len(dumps[0][0])


def test_no_demo_gives_an_empty_database(tmp_path: Path) -> None:
    server = open_embedded(tmp_path / "empty.db", demo=False, clock=lambda: NOW)
    assert server.store.is_empty()
    server.close()
