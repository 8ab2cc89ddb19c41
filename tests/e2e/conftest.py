"""The real embedded server with its demo data, read through the app's own client.

``embedded`` opens ``open_embedded(..., demo=True)`` in a fresh folder with the
fixed clock below; ``api`` is a ``ScheduleClient`` over ``httpx.ASGITransport``
into it, as the app's embedded backend reads it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest

from server.embedded import EmbeddedServer, open_embedded
from transport.client import ScheduleClient

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def fixed_clock() -> datetime:
    return NOW


@pytest.fixture
def embedded(tmp_path: Path) -> Iterator[EmbeddedServer]:
    server = open_embedded(tmp_path / "embedded.db", demo=True, clock=fixed_clock)
    yield server
    server.close()


@pytest.fixture
async def api(embedded: EmbeddedServer) -> AsyncIterator[ScheduleClient]:
    transport = httpx.ASGITransport(app=embedded.app)
    async with ScheduleClient("http://embedded", transport=transport) as client:
        yield client
