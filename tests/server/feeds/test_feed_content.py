"""What a one-schedule feed holds, read back by ``icalendar`` and, independently, expanded by
``recurring-ical-events``: every future firing of the projection route exactly once at the same
instant (New York's 02:30 across both 2027 clock changes), past firings from the ledger with
what became of them in words, stable UIDs, and never the instruction."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import uuid4

import httpx
import pytest
import recurring_ical_events

from server.feeds.events import FeedEvent
from server.feeds.window import nearest
from server.storage.sql.store import SqlStore
from server.worker.worker import ScheduleWorker
from tests.clock import Clock
from tests.server.api.conftest import create
from tests.server.feeds.served import (
    ChangingIdentity,
    calendar_app,
    client,
    fetch_calendar,
    identity,
    new_feed,
    served,
    vevents,
)

__all__ = ["calendar_app", "client", "identity", "served"]  # fixtures

NEW_YORK_0230 = {"kind": "DAILY", "local_time": "02:30:00", "timezone": "America/New_York"}
INSTRUCTION = "Read the inbox of quarterly-figures-7b1c and answer every supplier"
RUN_TIMEOUT = timedelta(seconds=300)  # the test definition's run_timeout_seconds
AHEAD = timedelta(days=61)


def _z(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


async def _projected(client: httpx.AsyncClient, schedule_id: str, now: datetime) -> list[str]:
    """The projection route's future firings over the feed's 60 days ahead."""
    response = await client.get(
        f"/v1/schedules/{schedule_id}/projection",
        params={"from": _z(now), "to": _z(now + timedelta(days=60))},
    )
    assert response.status_code == 200, response.text
    return [firing["at"] for firing in response.json()["firings"]]


def _starts(events: list[Any]) -> list[str]:
    return sorted(_z(event["DTSTART"].dt) for event in events)


@pytest.mark.parametrize(
    ("now", "moved"),
    [
        # 02:30 does not exist on 14 March 2027: it fires at 03:00 EDT.
        pytest.param(datetime(2027, 3, 1, 12, tzinfo=UTC), "2027-03-14T07:00:00Z", id="spring"),
        # 7 November 2027 repeats 01:00-02:00; 02:30 happens once, in EST.
        pytest.param(datetime(2027, 10, 20, 12, tzinfo=UTC), "2027-11-07T07:30:00Z", id="fall"),
    ],
)
async def test_every_future_firing_of_the_projection_is_one_event_at_the_same_instant(
    client: httpx.AsyncClient,
    calendar_app: httpx.AsyncClient,
    clock: Clock,
    now: datetime,
    moved: str,
) -> None:
    clock.now = now
    schedule = await create(client, cadence=NEW_YORK_0230)
    projected = await _projected(client, schedule["schedule_id"], now)
    feed = await new_feed(client, schedule["schedule_id"])

    _text, calendar = await fetch_calendar(calendar_app, feed["url"])
    events = vevents(calendar)
    expanded = recurring_ical_events.of(calendar).between(
        now - timedelta(days=31), now + timedelta(days=61)
    )

    assert moved in projected and len(projected) == 60
    assert _starts(events) == projected
    assert _starts(expanded) == projected
    assert {str(event["DTSTART"].dt.tzinfo) for event in events} == {"America/New_York"}
    assert [zone["TZID"] for zone in calendar.walk("VTIMEZONE")] == ["America/New_York"]
    assert {event["DTSTART"].params["TZID"] for event in events} == {"America/New_York"}
    assert {event["TRANSP"] for event in events} == {"TRANSPARENT"}
    assert {event["DURATION"].dt for event in events} == {RUN_TIMEOUT}


async def test_a_once_schedule_starts_in_utc(
    client: httpx.AsyncClient, calendar_app: httpx.AsyncClient
) -> None:
    schedule = await create(client, cadence={"kind": "ONCE", "at": "2026-12-24T18:15:00+01:00"})
    feed = await new_feed(client, schedule["schedule_id"])
    text, calendar = await fetch_calendar(calendar_app, feed["url"])
    (event,) = vevents(calendar)
    assert event["DTSTART"].dt == datetime(2026, 12, 24, 17, 15, tzinfo=UTC)
    assert "DTSTART:20261224T171500Z" in text.splitlines()
    assert calendar.walk("VTIMEZONE") == []


async def test_uids_are_the_schedule_and_instant_and_equal_across_fetches(
    client: httpx.AsyncClient, calendar_app: httpx.AsyncClient, clock: Clock
) -> None:
    schedule = await create(client, cadence=NEW_YORK_0230)
    feed = await new_feed(client, schedule["schedule_id"])
    _, first = await fetch_calendar(calendar_app, feed["url"])
    clock.advance(minutes=30)
    _, second = await fetch_calendar(calendar_app, feed["url"])

    uids = [str(event["UID"]) for event in vevents(first)]
    assert uids == [str(event["UID"]) for event in vevents(second)]
    assert len(set(uids)) == len(uids)
    at = _z(vevents(first)[0]["DTSTART"].dt).replace("-", "").replace(":", "")
    assert uids[0] == f"{schedule['schedule_id']}-{at}"


async def test_the_instruction_never_appears_in_a_feed(
    client: httpx.AsyncClient, calendar_app: httpx.AsyncClient
) -> None:
    schedule = await create(client, title="Supplier answers", instruction=INSTRUCTION)
    feed = await new_feed(client, schedule["schedule_id"])
    text, calendar = await fetch_calendar(calendar_app, feed["url"])
    unfolded = text.replace("\r\n ", "")
    assert vevents(calendar) and "Supplier answers" in unfolded
    assert "quarterly-figures-7b1c" not in unfolded
    assert "supplier" not in unfolded.lower().replace("supplier answers", "")


async def test_the_calendar_says_its_name_refresh_and_method(
    client: httpx.AsyncClient, calendar_app: httpx.AsyncClient
) -> None:
    schedule = await create(client, title="Water the plants")
    feed = await new_feed(client, schedule["schedule_id"], name="Garden; greenhouse, pots")
    text, calendar = await fetch_calendar(calendar_app, feed["url"])
    lines = text.split("\r\n")
    assert "METHOD:PUBLISH" in lines
    assert "REFRESH-INTERVAL;VALUE=DURATION:PT1H" in lines
    assert "X-PUBLISHED-TTL:PT1H" in lines
    assert "X-WR-CALNAME:Garden\\; greenhouse\\, pots" in lines
    assert "NAME:Garden\\; greenhouse\\, pots" in lines
    assert "“Water the plants”" in str(calendar["X-WR-CALDESC"])
    assert all(len(line.encode()) <= 75 for line in lines)  # folded by the library


async def test_past_firings_come_from_the_ledger_with_what_became_of_them(
    client: httpx.AsyncClient,
    calendar_app: httpx.AsyncClient,
    store: SqlStore,
    clock: Clock,
    identity: ChangingIdentity,
) -> None:
    schedule = await create(client)  # daily at 09:00 in Paris in the test definition
    feed = await new_feed(client, schedule["schedule_id"])
    worker = ScheduleWorker(store, identity)
    for day in (1, 2):
        clock.now = datetime(2026, 12, day, 8, 0, 30, tzinfo=UTC)
        assert worker.run_once(clock.now).written == 1
    clock.now = datetime(2026, 12, 5, 12, tzinfo=UTC)  # the scheduler was down since the 2nd
    assert worker.run_once(clock.now).written == 1

    _, calendar = await fetch_calendar(calendar_app, feed["url"])
    said = {_z(e["DTSTART"].dt): str(e["DESCRIPTION"]).split("\n")[0] for e in vevents(calendar)}
    assert said["2026-12-01T08:00:00Z"] == "Started: the run is waiting for its turn."
    assert said["2026-12-02T08:00:00Z"] == "Skipped: the previous run was still going."
    assert said["2026-12-05T08:00:00Z"] == "Missed: the server was down."
    assert said["2026-12-06T08:00:00Z"] == "Every day at 09:00 (Europe/Paris)."
    assert "2026-12-03T08:00:00Z" not in said  # the ledger coalesced the misses


@pytest.mark.parametrize("change", ["pause", "cancel"])
async def test_a_paused_or_cancelled_schedule_keeps_its_past_and_has_no_future_events(
    client: httpx.AsyncClient,
    calendar_app: httpx.AsyncClient,
    store: SqlStore,
    clock: Clock,
    identity: ChangingIdentity,
    change: str,
) -> None:
    schedule = await create(client)
    path = f"/v1/schedules/{schedule['schedule_id']}"
    feed = await new_feed(client, schedule["schedule_id"])
    clock.now = datetime(2026, 12, 1, 8, 0, 30, tzinfo=UTC)
    assert ScheduleWorker(store, identity).run_once(clock.now).written == 1
    if change == "pause":
        changed = await client.post(f"{path}/pause", json={"expected_revision": 1})
    else:
        changed = await client.delete(path, params={"expected_revision": 1})
    assert changed.status_code == 200

    _, calendar = await fetch_calendar(calendar_app, feed["url"])
    (event,) = vevents(calendar)
    assert _z(event["DTSTART"].dt) == "2026-12-01T08:00:00Z"
    state = str(event["DESCRIPTION"]).split("\n")[-1]
    assert (
        state
        == {
            "pause": "Paused: no firings until it is resumed.",
            "cancel": "Cancelled: it fires no more.",
        }[change]
    )


async def test_the_window_runs_from_thirty_days_ago_to_sixty_ahead(
    client: httpx.AsyncClient,
    calendar_app: httpx.AsyncClient,
    store: SqlStore,
    clock: Clock,
    identity: ChangingIdentity,
) -> None:
    schedule = await create(client)
    feed = await new_feed(client, schedule["schedule_id"])
    clock.now = datetime(2026, 12, 1, 8, 0, 30, tzinfo=UTC)
    assert ScheduleWorker(store, identity).run_once(clock.now).written == 1
    clock.now = datetime(2026, 12, 31, 8, 0, tzinfo=UTC)
    _, within = await fetch_calendar(calendar_app, feed["url"])
    clock.advance(seconds=1)
    _, after = await fetch_calendar(calendar_app, feed["url"])

    assert _starts(vevents(within))[0] == "2026-12-01T08:00:00Z"
    assert _starts(vevents(after))[0] != "2026-12-01T08:00:00Z"
    assert _starts(vevents(after))[-1] == "2027-03-01T08:00:00Z"  # before 31 Dec + 60 days


def test_the_bound_keeps_the_firings_nearest_to_now_in_time_order() -> None:
    now = datetime(2027, 1, 10, tzinfo=UTC)
    schedule = uuid4()
    events = [
        FeedEvent(schedule, now + timedelta(days=offset), "UTC", RUN_TIMEOUT, "t", "d")
        for offset in (-9, 5, -1, 2, 30)
    ]
    kept, cut = nearest(events, now, bound=3)
    assert cut is True
    assert [event.at - now for event in kept] == [timedelta(days=d) for d in (-1, 2, 5)]
    assert nearest(events, now, bound=5) == (sorted(events, key=lambda e: e.at), False)
