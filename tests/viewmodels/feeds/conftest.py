"""Feed scenarios: ``/v1/feeds`` scripted on respx, a feed's calendar, and a file saver that
records what it was handed instead of opening a dialog.

``feeds_route`` answers ``GET /v1/feeds`` by cursor, ``new_feed_route``
``POST /v1/feeds``; ``calendar_route`` serves ``CALENDAR`` at the feed's
address and ``revoke_route`` answers ``DELETE /v1/feeds/{id}`` with 204.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import httpx
import pytest
import respx

from tests.viewmodels.fake_server import ScriptedRoute
from transport.client import ScheduleClient
from viewmodels.feeds import AddToCalendarViewModel, FeedOffer, SaveOutcome
from viewmodels.server_kind import ServerKind

FEED_ID = UUID("6f1c2d3e-4b5a-4c6d-8e7f-901234567890")
SCHEDULE_ID = UUID("0b9f7a4e-1c2d-4e3f-8a9b-0c1d2e3f4a5b")
SECRET = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdE"
CALENDAR = b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n"


def feed_json(
    name: str = "Water the plants",
    *,
    feed_id: UUID = FEED_ID,
    schedule_id: UUID | None = SCHEDULE_ID,
    created_at: str = "2026-12-01T09:30:00Z",
    **extra: Any,
) -> dict[str, Any]:
    return {
        "feed_id": str(feed_id),
        "schedule_id": None if schedule_id is None else str(schedule_id),
        "name": name,
        "created_at": created_at,
        **extra,
    }


def created_json(url: str = f"/feeds/{SECRET}.ics", **changes: Any) -> dict[str, Any]:
    return feed_json(url=url, **changes)


def feeds_page(*feeds: dict[str, Any], next_cursor: str | None = None) -> dict[str, Any]:
    return {"items": list(feeds), "next_cursor": next_cursor}


@dataclass
class RecordingSaver:
    """A ``CalendarFileSaver`` that keeps each file it is handed (and the title its dialog
    would show) and answers ``outcome``."""

    outcome: SaveOutcome = SaveOutcome.SAVED
    files: list[tuple[str, bytes]] = field(default_factory=list)
    titles: list[str] = field(default_factory=list)

    async def save(self, file_name: str, content: bytes, *, title: str) -> SaveOutcome:
        self.files.append((file_name, content))
        self.titles.append(title)
        return self.outcome


@pytest.fixture
def feeds_route(router: respx.MockRouter) -> ScriptedRoute:
    return ScriptedRoute(router, "GET", "/v1/feeds")


@pytest.fixture
def new_feed_route(router: respx.MockRouter) -> ScriptedRoute:
    return ScriptedRoute(router, "POST", "/v1/feeds", key="none")


@pytest.fixture
def revoke_route(router: respx.MockRouter) -> respx.Route:
    return router.route(method="DELETE", path__regex=r"^/v1/feeds/[^/]+$").respond(204)


@pytest.fixture
def calendar_route(router: respx.MockRouter) -> respx.Route:
    return router.route(method="GET", path=f"/feeds/{SECRET}.ics").mock(
        return_value=httpx.Response(
            200, content=CALENDAR, headers={"Content-Type": "text/calendar; charset=utf-8"}
        )
    )


@pytest.fixture
def saver() -> RecordingSaver:
    return RecordingSaver()


def adder(
    api: ScheduleClient,
    offer: FeedOffer,
    server: ServerKind = ServerKind.PLATFORM,
    *,
    saver: RecordingSaver | None = None,
    opens_links: bool = False,
) -> AddToCalendarViewModel:
    return AddToCalendarViewModel(api, offer, server=server, saver=saver, opens_links=opens_links)
