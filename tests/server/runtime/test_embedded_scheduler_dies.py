"""The embedded scheduler dies: ``GET /v1/scheduler`` says late, then stopped, as silence grows.

The app's own server (SQLite, in-process) runs its scheduler as a task on
the app's loop; here that task is cancelled, as a crash would end it. The
clock is the test's: a live scheduler ticks at the instant it is moved to,
a dead one never again.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx

from server.embedded import EmbeddedServer, running
from tests.clock import Clock
from tests.polling import eventually


async def _state(client: httpx.AsyncClient) -> str:
    response = await client.get("/v1/scheduler")
    assert response.status_code == 200, response.text
    state: str = response.json()["state"]
    return state


async def _ticked_at_the_clock(server: EmbeddedServer, clock: Clock) -> None:
    """The scheduler's next scan, nudged, writes its heartbeat at the clock's instant."""
    server.wake.notify()

    def ticked() -> bool:
        return any(tick.last_tick_at == clock.now for tick in server.store.replicas.ticks())

    await asyncio.to_thread(eventually, ticked, "the embedded scheduler's tick")


async def test_a_dead_embedded_scheduler_reads_stopped_and_a_live_one_running(
    tmp_path: Path,
) -> None:
    clock = Clock()
    async with running(tmp_path / "app.db", demo=False, clock=clock) as server:
        transport = httpx.ASGITransport(app=server.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://embedded") as client:
            await _ticked_at_the_clock(server, clock)
            assert await _state(client) == "running"
            clock.advance(minutes=3)
            await _ticked_at_the_clock(server, clock)
            assert await _state(client) == "running", "alive: it ticked at the new instant"

            (task,) = [t for t in asyncio.all_tasks() if t.get_name() == "scheduling"]
            task.cancel()
            await asyncio.wait({task})
            clock.advance(seconds=31)
            assert await _state(client) == "late"
            clock.advance(seconds=90)
            assert await _state(client) == "stopped"
