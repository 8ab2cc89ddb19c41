"""The calendar feed routes: making, listing and revoking feeds, and a calendar app fetching
one with no token, where the secret in the address is the only credential.

Every way a fetch can fail (unknown, revoked or malformed secret, a disabled
principal, one without ``schedule.read``) is the one 404 of a path no route
has, and counts against the client address like a wrong token.
"""

from __future__ import annotations

import logging
from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from server.api.feeds import MOST_FEEDS
from server.app import create_app
from server.storage.sql.store import SqlStore
from server.storage.tables import calendar_feeds
from server.worker.retention import RETENTION, purge_expired
from tests.clock import Clock
from tests.server.api.conftest import as_, create, definition, error_code
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

NOT_FOUND = {"error": {"code": "route.not_found", "message": "No such route.", "details": {}}}


async def test_a_new_feed_answers_its_address_once_and_the_list_never_shows_it(
    client: httpx.AsyncClient, clock: Clock
) -> None:
    schedule = await create(client, title="Water the plants")
    feed = await new_feed(client, schedule["schedule_id"])

    assert set(feed) == {"feed_id", "schedule_id", "name", "created_at", "url"}
    assert (feed["schedule_id"], feed["name"]) == (schedule["schedule_id"], "Water the plants")
    assert feed["created_at"] == clock().isoformat().replace("+00:00", "Z")
    secret = feed["url"].removeprefix("/feeds/").removesuffix(".ics")
    assert feed["url"] == f"/feeds/{secret}.ics"
    assert len(secret) >= 43 and set(secret) <= set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    )
    listed = (await client.get("/v1/feeds")).json()
    assert listed == {"items": [{k: v for k, v in feed.items() if k != "url"}], "next_cursor": None}
    assert secret not in str(listed)


async def test_a_feed_of_all_schedules_has_a_null_schedule_and_a_name_of_its_own(
    client: httpx.AsyncClient,
) -> None:
    unnamed = await new_feed(client, None)
    named = await new_feed(client, None, name="Agents")
    assert (unnamed["schedule_id"], unnamed["name"]) == (None, "All schedules")
    assert named["name"] == "Agents"


async def test_the_feed_list_pages_newest_first(client: httpx.AsyncClient, clock: Clock) -> None:
    made = []
    for _ in range(3):
        made.append((await new_feed(client, None))["feed_id"])
        clock.advance(minutes=1)
    first = (await client.get("/v1/feeds", params={"limit": 2})).json()
    rest = (await client.get("/v1/feeds", params={"cursor": first["next_cursor"]})).json()
    assert [f["feed_id"] for f in first["items"] + rest["items"]] == made[::-1]
    assert rest["next_cursor"] is None


@pytest.mark.parametrize(
    "body",
    [
        pytest.param({}, id="no_schedule_id"),
        pytest.param({"schedule_id": "tomorrow"}, id="not_a_uuid"),
        pytest.param({"schedule_id": None, "name": ""}, id="empty_name"),
        pytest.param({"schedule_id": None, "name": "x" * 201}, id="long_name"),
    ],
)
async def test_a_malformed_feed_request_is_request_invalid(
    client: httpx.AsyncClient, body: dict[str, object]
) -> None:
    response = await client.post("/v1/feeds", json=body)
    assert (response.status_code, error_code(response)) == (400, "request.invalid")


async def test_a_feed_of_another_principals_or_an_unknown_schedule_is_schedule_not_found(
    client: httpx.AsyncClient,
) -> None:
    theirs = (
        await client.post(
            "/v1/schedules",
            json=definition(),
            headers={**as_("carol"), "Idempotency-Key": "carol-1"},
        )
    ).json()
    for schedule_id in (theirs["schedule_id"], "00000000-0000-0000-0000-000000000000"):
        response = await client.post("/v1/feeds", json={"schedule_id": schedule_id})
        assert (response.status_code, error_code(response)) == (404, "schedule.not_found")


async def test_the_feed_routes_need_a_token_and_schedule_read(
    client: httpx.AsyncClient, identity: ChangingIdentity
) -> None:
    identity.change("alice", without="schedule.read")
    for method, path, body in (
        ("POST", "/v1/feeds", {"schedule_id": None}),
        ("GET", "/v1/feeds", None),
        ("DELETE", "/v1/feeds/00000000-0000-0000-0000-000000000000", None),
    ):
        refused = await client.request(method, path, json=body)
        assert (refused.status_code, error_code(refused)) == (403, "auth.scope_missing")
        anonymous = await client.request(method, path, json=body, headers={"Authorization": ""})
        assert (anonymous.status_code, error_code(anonymous)) == (401, "auth.unauthenticated")


async def test_a_principal_keeps_at_most_the_bound_of_feeds_and_a_revoke_makes_room(
    client: httpx.AsyncClient,
) -> None:
    kept = [await new_feed(client, None) for _ in range(MOST_FEEDS)]
    refused = await client.post("/v1/feeds", json={"schedule_id": None})
    assert (refused.status_code, error_code(refused)) == (409, "feed.limit_reached")
    assert refused.json()["error"]["details"] == {"most": MOST_FEEDS}
    assert "url" not in refused.text, "no address is minted for a refused feed"
    carols = await client.post("/v1/feeds", json={"schedule_id": None}, headers=as_("carol"))
    assert carols.status_code == 201, "the bound is each principal's own"
    await client.delete(f"/v1/feeds/{kept[0]['feed_id']}")
    assert (await client.post("/v1/feeds", json={"schedule_id": None})).status_code == 201


async def test_only_its_owner_revokes_a_feed_and_it_stops_answering_at_once(
    client: httpx.AsyncClient, calendar_app: httpx.AsyncClient
) -> None:
    feed = await new_feed(client, None)
    path = f"/v1/feeds/{feed['feed_id']}"
    assert (await calendar_app.get(feed["url"])).status_code == 200

    carols = await client.delete(path, headers=as_("carol"))
    assert (carols.status_code, error_code(carols)) == (404, "feed.not_found")
    assert (await calendar_app.get(feed["url"])).status_code == 200

    revoked = await client.delete(path)
    assert (revoked.status_code, revoked.content) == (204, b"")
    gone = await calendar_app.get(feed["url"])
    assert (gone.status_code, gone.json()) == (404, NOT_FOUND)
    again = await client.delete(path)
    assert (again.status_code, error_code(again)) == (404, "feed.not_found")
    assert (await client.get("/v1/feeds")).json()["items"] == []


async def test_unknown_revoked_and_malformed_secrets_answer_alike(
    client: httpx.AsyncClient, calendar_app: httpx.AsyncClient
) -> None:
    revoked = await new_feed(client, None)
    await client.delete(f"/v1/feeds/{revoked['feed_id']}")
    known = await new_feed(client, None)
    secret = known["url"].removeprefix("/feeds/").removesuffix(".ics")
    unknown = f"/feeds/{secret[:-1]}{'A' if secret[-1] != 'A' else 'B'}.ics"

    answers = [
        await calendar_app.get(url)
        for url in (revoked["url"], unknown, "/feeds/%00%ff.ics", "/feeds/x.ics", "/feeds/.ics.ics")
    ]
    assert {(a.status_code, a.content, a.headers["content-type"]) for a in answers} == {
        (404, answers[0].content, "application/json")
    }
    assert answers[0].json() == NOT_FOUND
    assert (await calendar_app.get("/no/such/route")).content == answers[0].content


@pytest.mark.parametrize(
    ("enabled", "without"),
    [pytest.param(False, "", id="disabled"), pytest.param(True, "schedule.read", id="no_read")],
)
async def test_a_feed_stops_answering_while_its_principal_may_not_read_schedules(
    client: httpx.AsyncClient,
    calendar_app: httpx.AsyncClient,
    identity: ChangingIdentity,
    enabled: bool,
    without: str,
) -> None:
    feed = await new_feed(client, None)
    identity.change("alice", enabled=enabled, without=without)
    stopped = await calendar_app.get(feed["url"])
    assert (stopped.status_code, stopped.json()) == (404, NOT_FOUND)
    identity.changed.clear()
    assert (await calendar_app.get(feed["url"])).status_code == 200


async def test_failed_feed_fetches_count_toward_the_addresss_authentication_wait(
    served: FastAPI, client: httpx.AsyncClient, calendar_app: httpx.AsyncClient
) -> None:
    feed = await new_feed(client, None)
    failures = [(await calendar_app.get(f"/feeds/guess{n}.ics")).status_code for n in range(10)]
    assert failures == [404] * 10

    held = await calendar_app.get(feed["url"])
    assert (held.status_code, error_code(held)) == (429, "request.rate_limited")
    assert held.json()["error"]["details"]["reason"] == "authentication_failures"
    with_token = await calendar_app.get("/v1/feeds", headers=as_("alice"))
    assert with_token.status_code == 429
    assert (await client.get(feed["url"])).status_code == 200  # another address


async def test_a_fetch_names_a_strong_etag_and_if_none_match_answers_304_without_a_body(
    client: httpx.AsyncClient, calendar_app: httpx.AsyncClient
) -> None:
    schedule = await create(client)
    feed = await new_feed(client, schedule["schedule_id"])
    first = await calendar_app.get(feed["url"])
    tag = first.headers["etag"]
    assert tag.startswith('"') and not tag.startswith("W/")
    assert first.headers["cache-control"] == "private, max-age=300"

    unchanged = await calendar_app.get(feed["url"], headers={"If-None-Match": tag})
    assert (unchanged.status_code, unchanged.content) == (304, b"")
    assert unchanged.headers["etag"] == tag
    other = await calendar_app.get(feed["url"], headers={"If-None-Match": '"other"'})
    assert (other.status_code, other.content) == (200, first.content)

    await client.post(
        f"/v1/schedules/{schedule['schedule_id']}/pause", json={"expected_revision": 1}
    )
    paused = await calendar_app.get(feed["url"], headers={"If-None-Match": tag})
    assert paused.status_code == 200 and paused.headers["etag"] != tag


async def test_a_purged_schedules_feed_answers_an_empty_calendar(
    client: httpx.AsyncClient, calendar_app: httpx.AsyncClient, store: SqlStore, clock: Clock
) -> None:
    schedule = await create(client, title="Gone soon")
    feed = await new_feed(client, schedule["schedule_id"], name="Plants")
    cancel = await client.delete(
        f"/v1/schedules/{schedule['schedule_id']}", params={"expected_revision": 1}
    )
    assert cancel.status_code == 200
    clock.advance(RETENTION + timedelta(days=1))
    assert purge_expired(store, clock()) == 1

    text, calendar = await fetch_calendar(calendar_app, feed["url"])
    assert vevents(calendar) == []
    assert "Gone soon" not in text.replace("\r\n ", "")
    assert calendar["X-WR-CALNAME"] == "Plants"


async def test_the_secret_is_stored_only_as_a_digest_and_never_logged(
    client: httpx.AsyncClient,
    calendar_app: httpx.AsyncClient,
    store: SqlStore,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    feed = await new_feed(client, None)
    secret = feed["url"].removeprefix("/feeds/").removesuffix(".ics")
    await calendar_app.get(feed["url"])
    await calendar_app.get(f"/feeds/{secret}x.ics")

    with store.engine.connect() as connection:
        stored = [tuple(row) for row in connection.execute(select(calendar_feeds))]
    assert stored and not any(secret in str(value) for row in stored for value in row)
    # httpx's own lines are the calendar app's side of the request, not the server's.
    server_side = [r for r in caplog.records if not r.name.startswith(("httpx", "httpcore"))]
    logged = "\n".join(f"{r.getMessage()} {r.args}" for r in server_side)
    assert secret not in logged


async def test_a_server_that_knows_its_public_address_answers_an_absolute_feed_address(
    store: SqlStore, clock: Clock, identity: ChangingIdentity
) -> None:
    app = create_app(store, identity, clock, public_url="https://schedules.example.com/")
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://server", headers=as_("alice")
    ) as http:
        feed = await new_feed(http, None)
    assert feed["url"].startswith("https://schedules.example.com/feeds/")
    assert feed["url"].endswith(".ics")
