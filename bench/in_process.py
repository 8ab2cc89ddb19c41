"""What the in-process API benchmarks share: the two databases, the template, the timing.

``bench/api_pages.py`` and ``bench/search.py`` measure different requests
the same way: one app per database through ``httpx.ASGITransport``, warm-up
requests first, then rounds in which the databases take turns (in
alternating order) so that a change in the machine's load hits both columns
alike. Keeping that method in one place keeps their figures comparable.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from bench.throwaway_postgres import throwaway_database
from server.app import create_app
from server.definitions.checks import parse_definition
from server.identity import LocalIdentity
from server.storage.sql.store import SqlStore

SECRET = b"bench-secret-0123456789abcdef012"
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


DAILY_PARIS: Mapping[str, Any] = {
    "kind": "DAILY",
    "local_time": "09:00",
    "timezone": "Europe/Paris",
}


def definition_template(instruction: str, cadence: Mapping[str, Any] = DAILY_PARIS) -> str:
    """A valid definition's text whose title is the placeholder ``TITLE`` (daily at 09:00 unless
    ``cadence`` says otherwise)."""
    return parse_definition(
        {
            "title": "TITLE",
            "instruction": instruction,
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
            "cadence": dict(cadence),
            "misfire_grace_seconds": 3600,
            "max_consecutive_failures": 2,
        }
    ).text


@contextmanager
def sqlite_and_postgres(database_name: str) -> Iterator[dict[str, SqlStore]]:
    """A temporary SQLite file and a throwaway PostgreSQL, both removed at the end."""
    with (
        tempfile.TemporaryDirectory() as folder,
        throwaway_database(database_name) as (_cluster, postgres_url),
    ):
        stores = {
            "SQLite": SqlStore.open(f"sqlite:///{Path(folder) / 'bench.db'}"),
            "PostgreSQL": SqlStore.open(postgres_url),
        }
        try:
            yield stores
        finally:
            for store in stores.values():
                store.close()


async def _warm(client: httpx.AsyncClient, url: str) -> Any:
    """Five warm-up requests; the last answer's body."""
    for _ in range(5):
        warm = await client.get(url)
        assert warm.status_code == 200, warm.text
    return warm.json()


async def _samples(client: httpx.AsyncClient, url: str, runs: int) -> list[float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        response = await client.get(url)
        samples.append((time.perf_counter_ns() - start) / 1e6)
        assert response.status_code == 200, response.text
    return samples


async def alternating_medians(
    stores: dict[str, SqlStore],
    urls: Mapping[str, Sequence[str]],
    measures: Sequence[str],
    *,
    runs: int,
    rounds: int,
) -> tuple[dict[tuple[str, str], float], dict[tuple[str, str], Any]]:
    """Each (database, measure)'s median in ms, and its warm-up's last body.

    ``urls[name]`` holds one URL a measure, in the order of ``measures``.
    """
    identity = LocalIdentity()
    clients = {
        name: httpx.AsyncClient(
            transport=httpx.ASGITransport(
                app=create_app(store, identity, lambda: NOW, cursor_secret=SECRET)
            ),
            base_url="http://bench",
        )
        for name, store in stores.items()
    }
    samples: dict[tuple[str, str], list[float]] = {}
    bodies: dict[tuple[str, str], Any] = {}
    names = list(clients)
    try:
        for name, client in clients.items():
            for measure, url in zip(measures, urls[name], strict=True):
                bodies[name, measure] = await _warm(client, url)
                samples[name, measure] = []
        for round_index in range(rounds):
            for name in names if round_index % 2 == 0 else names[::-1]:
                for measure, url in zip(measures, urls[name], strict=True):
                    samples[name, measure] += await _samples(clients[name], url, runs // rounds)
    finally:
        for client in clients.values():
            await client.aclose()
    return {key: statistics.median(values) for key, values in samples.items()}, bodies
