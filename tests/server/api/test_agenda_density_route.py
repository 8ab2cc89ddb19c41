"""``GET /v1/agenda/density``: every bucket listed, the caller's firings only, and its refusals,
on both databases.

The counts themselves are held against the agenda in
``tests/server/agenda/test_density_agrees_with_agenda.py``.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.server.api.conftest import as_, create, error_code

pytestmark = pytest.mark.each_backend
WEEK = {"from": "2026-11-30T09:00:00Z", "to": "2026-12-07T09:00:00Z"}
PARIS_9 = {"kind": "DAILY", "local_time": "09:00", "timezone": "Europe/Paris"}


async def _density(client: httpx.AsyncClient, **params: str) -> httpx.Response:
    return await client.get("/v1/agenda/density", params={**WEEK, "bucket": "hour", **params})


def _refusal(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["code"] == "request.invalid"
    details: dict[str, Any] = error["details"]
    return details


async def test_every_bucket_is_listed_with_zero_counts_too(client: httpx.AsyncClient) -> None:
    response = await _density(client)
    assert response.status_code == 200, response.text
    body = response.json()
    assert {k: body[k] for k in ("from", "to", "bucket", "timezone")} == {
        **WEEK,
        "bucket": "hour",
        "timezone": "UTC",
    }
    assert len(body["buckets"]) == 7 * 24
    assert body["buckets"][1] == {"start": "2026-11-30T10:00:00Z", "count": 0}


async def test_a_schedule_s_firings_land_in_their_hours(client: httpx.AsyncClient) -> None:
    await create(client, title="Paris digest", cadence=PARIS_9)
    await create(client, title="Paris report", cadence=PARIS_9)
    body = (await _density(client)).json()
    busy = {b["start"]: b["count"] for b in body["buckets"] if b["count"]}
    assert busy == {f"2026-12-0{day}T08:00:00Z": 2 for day in range(1, 8)}


async def test_another_principal_s_firings_are_never_counted(client: httpx.AsyncClient) -> None:
    await create(client, title="Alice's", cadence=PARIS_9)
    for name in ("carol", "mallory"):
        client.headers.update(as_(name))
        await create(client, title=f"{name}'s", cadence=PARIS_9)
    client.headers.update(as_("alice"))
    days = (await _density(client, bucket="day", timezone="Europe/Paris")).json()["buckets"]
    assert [b["count"] for b in days] == [0, 1, 1, 1, 1, 1, 1, 1]


async def test_day_buckets_start_at_the_zone_s_midnights(client: httpx.AsyncClient) -> None:
    days = {"from": "2027-03-25T00:00:00Z", "to": "2027-04-08T00:00:00Z"}
    response = await _density(client, **days, bucket="day", timezone="Europe/London")
    starts = [b["start"] for b in response.json()["buckets"]]
    assert len(starts) == 15  # the last, from 23:00Z on 7 April (BST midnight), is partial
    assert starts[2:5] == ["2027-03-27T00:00:00Z", "2027-03-28T00:00:00Z", "2027-03-28T23:00:00Z"]


async def test_filters_count_what_the_list_would_show(client: httpx.AsyncClient) -> None:
    await create(client, title="Morning digest", cadence=PARIS_9)
    await create(client, title="Evening report", cadence={**PARIS_9, "local_time": "18:00"})
    digest = (await _density(client, bucket="day", q="DIGEST")).json()["buckets"]
    attention = (await _density(client, bucket="day", needs_attention="true")).json()["buckets"]
    assert sum(b["count"] for b in digest) == 7
    assert sum(b["count"] for b in attention) == 0


@pytest.mark.parametrize(
    ("params", "field", "reason"),
    [
        pytest.param({"bucket": "week"}, "bucket", "invalid_bucket", id="bucket"),
        pytest.param({"timezone": "Mars/Olympus"}, "timezone", "invalid_timezone", id="zone"),
        pytest.param({"timezone": "localtime"}, "timezone", "invalid_timezone", id="localtime"),
        pytest.param({"to": "2026-11-30T08:00:00Z"}, "to", "not_after_from", id="reversed"),
        pytest.param({"to": "2027-03-02T09:00:01Z"}, "to", "window_too_long", id="too-long"),
        pytest.param({"from": "2026-11-30T09:00:00"}, "from", "naive_datetime", id="naive"),
        pytest.param({"q": "x" * 501}, "q", "too_long", id="q-too-long"),
    ],
)
async def test_a_bad_parameter_is_refused_naming_it(
    client: httpx.AsyncClient, params: dict[str, str], field: str, reason: str
) -> None:
    details = _refusal(await _density(client, **params))
    assert (details["field"], details["reason"]) == (field, reason)


async def test_state_may_only_add_paused_schedules(client: httpx.AsyncClient) -> None:
    assert (await _density(client, state="PAUSED")).status_code == 200
    refused = await _density(client, state="ACTIVE")
    assert (refused.status_code, error_code(refused)) == (400, "request.invalid")


async def test_a_window_of_92_days_by_hour_is_the_most_buckets_there_are(
    client: httpx.AsyncClient,
) -> None:
    response = await _density(client, to="2027-03-02T09:00:00Z")
    assert len(response.json()["buckets"]) == 2_208
