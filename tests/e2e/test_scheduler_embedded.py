"""The scheduler banner and overdue rows against the real embedded server on SQLite.

The embedded server is opened without its scheduler (as if its task had
died) over demo data, with a clock the test moves: the heartbeat its
scheduler last wrote ages past the server's stopped threshold, the demo's
next firings pass the overdue threshold undecided, and the app's own view
models say so, with the embedded server's way back (restart the app). A new
heartbeat makes the banner go on the next read.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import httpx
import pytest

from server.embedded import EmbeddedServer, open_embedded
from server.storage.records import Heartbeat
from server.worker.heartbeat import this_replica
from tests.clock import NOW, FakeClock
from transport.client import ScheduleClient
from viewmodels.ports import MemoryStorage
from viewmodels.schedule_list import ScheduleListViewModel
from viewmodels.scheduler_health import RESTART_APP_TEXT, SchedulerHealthViewModel
from viewmodels.server_kind import ServerKind

UTC_ZONE = ZoneInfo("UTC")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(NOW)


@pytest.fixture
def embedded(tmp_path: Path, clock: FakeClock) -> Iterator[EmbeddedServer]:
    server = open_embedded(tmp_path / "embedded.db", demo=True, clock=clock)
    yield server
    server.close()


@pytest.fixture
async def api(embedded: EmbeddedServer) -> AsyncIterator[ScheduleClient]:
    transport = httpx.ASGITransport(app=embedded.app)
    async with ScheduleClient("http://embedded", transport=transport) as client:
        yield client


async def test_a_dead_embedded_scheduler_shows_the_banner_the_way_back_and_overdue_rows(
    embedded: EmbeddedServer, api: ScheduleClient, clock: FakeClock
) -> None:
    replica = this_replica(NOW)
    embedded.store.replicas.tick(Heartbeat(replica, NOW))
    health = SchedulerHealthViewModel(
        api, clock=clock, device_zone=UTC_ZONE, server=ServerKind.EMBEDDED
    )
    await health.check()
    assert health.snapshot.banner_text is None, "it ran just now"

    clock.advance(timedelta(days=2))  # the scheduler's task died at NOW
    await health.check()
    assert health.snapshot.banner_text == (
        "Schedules are not firing: the server's scheduler last ran at"
        " 09:00 on 30 Nov 2026 (2 d ago)."
    )
    assert health.snapshot.recovery_text == RESTART_APP_TEXT
    rows = ScheduleListViewModel(
        api, clock=clock, device_zone=UTC_ZONE, server=ServerKind.EMBEDDED, storage=MemoryStorage()
    )
    await rows.open()
    overdue = [row for row in rows.snapshot.rows if row.next_fire_overdue]
    assert overdue, "the demo's daily schedules came due and were not fired"
    assert all(
        row.next_fire_text and row.next_fire_text.startswith("Overdue: due ") for row in overdue
    )

    embedded.store.replicas.tick(Heartbeat(replica, clock()))  # the app was restarted
    await health.check()
    assert health.snapshot.banner_text is None
