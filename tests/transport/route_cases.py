"""Every client method with its HTTP route and a valid answer, for table-driven tests."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from devtools import api_bodies as bodies
from transport.client import ScheduleClient
from transport.models import AGENDA_NOT_OFFERED, FEEDS_NOT_OFFERED, SCHEDULER_NOT_OFFERED


@dataclass(frozen=True, slots=True)
class RouteCase:
    name: str
    method: str
    path: str
    call: Callable[[ScheduleClient], Awaitable[Any]]
    valid_body: dict[str, Any]
    status: int = 200
    optional: bool = False
    """A route a compliant server may lack: its 404/405 answers a "not offered" value."""


NOT_OFFERED = (AGENDA_NOT_OFFERED, FEEDS_NOT_OFFERED, SCHEDULER_NOT_OFFERED)
"""What an optional route's call answers when the server lacks the route."""

S = bodies.SCHEDULE_ID
WINDOW = (datetime(2027, 3, 1, tzinfo=UTC), datetime(2027, 4, 1, tzinfo=UTC))
ROUTE_CASES = [
    RouteCase(
        "list_schedules",
        "GET",
        "/v1/schedules",
        lambda c: c.list_schedules(states=["ACTIVE", "PAUSED"]),
        bodies.page_json(bodies.summary_json()),
    ),
    RouteCase(
        "schedule_counts",
        "GET",
        "/v1/schedules/counts",
        lambda c: c.schedule_counts(query="digest"),
        bodies.counts_json(),
    ),
    RouteCase(
        "get_schedule",
        "GET",
        f"/v1/schedules/{S}",
        lambda c: c.get_schedule(S),
        bodies.detail_json(),
    ),
    RouteCase(
        "create_schedule",
        "POST",
        "/v1/schedules",
        lambda c: c.create_schedule({"title": "t"}, idempotency_key="key-1"),
        bodies.detail_json(),
        status=201,
    ),
    RouteCase(
        "update_schedule",
        "PATCH",
        f"/v1/schedules/{S}",
        lambda c: c.update_schedule(S, expected_revision=3, definition={"title": "t"}),
        bodies.detail_json(),
    ),
    RouteCase(
        "pause_schedule",
        "POST",
        f"/v1/schedules/{S}/pause",
        lambda c: c.pause_schedule(S, expected_revision=3),
        bodies.detail_json(),
    ),
    RouteCase(
        "resume_schedule",
        "POST",
        f"/v1/schedules/{S}/resume",
        lambda c: c.resume_schedule(S, expected_revision=3),
        bodies.detail_json(),
    ),
    RouteCase(
        "cancel_schedule",
        "DELETE",
        f"/v1/schedules/{S}",
        lambda c: c.cancel_schedule(S, expected_revision=3),
        bodies.detail_json(),
    ),
    RouteCase(
        "list_occurrences",
        "GET",
        f"/v1/schedules/{S}/occurrences",
        lambda c: c.list_occurrences(S),
        bodies.page_json(bodies.occurrence_json()),
    ),
    RouteCase(
        "get_projection",
        "GET",
        f"/v1/schedules/{S}/projection",
        lambda c: c.get_projection(S, start=WINDOW[0], end=WINDOW[1]),
        bodies.projection(
            S,
            "2027-03-01T00:00:00Z",
            "2027-04-01T00:00:00Z",
            firings=[bodies.firing(datetime(2027, 3, 2, 9, tzinfo=UTC))],
            notices=[bodies.notice("2027-02-29", "NOT_A_LEAP_YEAR")],
            past_items=[bodies.past("o1", datetime(2027, 3, 1, 9, tzinfo=UTC))],
        ),
    ),
    RouteCase(
        "list_browser_profiles",
        "GET",
        "/v1/browser-profiles",
        lambda c: c.list_browser_profiles(),
        bodies.page_json(bodies.profile_json()),
    ),
    RouteCase(
        "list_sessions",
        "GET",
        "/v1/sessions",
        lambda c: c.list_sessions(),
        bodies.page_json(bodies.session_json()),
    ),
    RouteCase(
        "list_session_messages",
        "GET",
        f"/v1/sessions/{bodies.SESSION_ID}/messages",
        lambda c: c.list_session_messages(bodies.SESSION_ID),
        bodies.page_json(bodies.message_json()),
    ),
    RouteCase(
        "list_folders",
        "GET",
        "/v1/folders",
        lambda c: c.list_folders(),
        bodies.page_json(bodies.folder_json()),
    ),
    RouteCase(
        "move_session",
        "POST",
        f"/v1/sessions/{bodies.SESSION_ID}/folder",
        lambda c: c.move_session(bodies.SESSION_ID, folder_id=None),
        bodies.session_json(metadata={}),
    ),
    RouteCase(
        "get_principal",
        "GET",
        "/v1/principal",
        lambda c: c.get_principal(),
        bodies.principal_json(),
    ),
    RouteCase(
        "list_agenda",
        "GET",
        "/v1/agenda",
        lambda c: c.list_agenda(start=WINDOW[0], end=WINDOW[1], query="digest"),
        bodies.page_json(bodies.agenda_item_json()),
        optional=True,
    ),
    RouteCase(
        "agenda_density",
        "GET",
        "/v1/agenda/density",
        lambda c: c.agenda_density(start=WINDOW[0], end=WINDOW[1], bucket="day"),
        bodies.agenda_density_json(WINDOW[0], [2, 0, 1], step=timedelta(days=1), bucket="day"),
        optional=True,
    ),
    RouteCase(
        "scheduler_status",
        "GET",
        "/v1/scheduler",
        lambda c: c.scheduler_status(),
        bodies.scheduler_json(),
        optional=True,
    ),
    RouteCase(
        "create_feed",
        "POST",
        "/v1/feeds",
        lambda c: c.create_feed(S, name="Digest"),
        bodies.feed_json(url="/feeds/s3cr3t.ics"),
        status=201,
        optional=True,
    ),
    RouteCase(
        "list_feeds",
        "GET",
        "/v1/feeds",
        lambda c: c.list_feeds(),
        bodies.page_json(bodies.feed_json()),
        optional=True,
    ),
]
