"""``GET /v1/schedules/{id}/projection``: the window rules, the states, and the ledger beside it.

The clock is the API fixtures' (2026-11-30 09:00 UTC); past occurrences are
written by the real worker scanning the same store.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from server.identity import ALL_SCOPES, TokenDirectory, make_principal, token_digest
from server.storage.sql.store import SqlStore
from server.worker.worker import ScheduleWorker
from tests.server.api.conftest import NOW, Clock, as_, create, error_code

NEW_YORK_0230 = {"kind": "DAILY", "local_time": "02:30:00", "timezone": "America/New_York"}


def _z(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


async def _project(
    client: httpx.AsyncClient, schedule_id: str, start: datetime, end: datetime
) -> dict[str, Any]:
    response = await client.get(
        f"/v1/schedules/{schedule_id}/projection", params={"from": _z(start), "to": _z(end)}
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_the_projection_lists_firings_with_local_readings_and_the_adjusted_one(
    client: httpx.AsyncClient,
) -> None:
    schedule = await create(client, cadence=NEW_YORK_0230)
    start = datetime(2027, 3, 13, tzinfo=UTC)

    body = await _project(client, schedule["schedule_id"], start, start + timedelta(days=3))

    assert body["schedule_id"] == schedule["schedule_id"]
    assert (body["state"], body["current_revision"], body["timezone"]) == (
        "ACTIVE",
        1,
        "America/New_York",
    )
    assert (body["from"], body["to"]) == ("2027-03-13T00:00:00Z", "2027-03-16T00:00:00Z")
    assert body["as_if_resumed"] is False
    assert body["firings"] == [
        {
            "at": "2027-03-13T07:30:00Z",
            "local_date": "2027-03-13",
            "local_time": "02:30:00",
            "scheduled_date": "2027-03-13",
            "scheduled_time": "02:30:00",
            "adjustment": None,
            "may_overlap": False,
        },
        {
            "at": "2027-03-14T07:00:00Z",
            "local_date": "2027-03-14",
            "local_time": "03:00:00",
            "scheduled_date": "2027-03-14",
            "scheduled_time": "02:30:00",
            "adjustment": "MOVED_TO_TRANSITION",
            "may_overlap": False,
        },
        {
            "at": "2027-03-15T06:30:00Z",
            "local_date": "2027-03-15",
            "local_time": "02:30:00",
            "scheduled_date": "2027-03-15",
            "scheduled_time": "02:30:00",
            "adjustment": None,
            "may_overlap": False,
        },
    ]
    assert body["notices"] == [] and body["past"] == []


async def test_firings_start_after_now_when_the_window_began_before_it(
    client: httpx.AsyncClient,
) -> None:
    schedule = await create(client)  # DAILY 09:00 Europe/Paris = 08:00 UTC; now is 09:00 UTC
    body = await _project(
        client, schedule["schedule_id"], NOW - timedelta(days=2), NOW + timedelta(days=2)
    )
    assert [f["at"] for f in body["firings"]] == ["2026-12-01T08:00:00Z", "2026-12-02T08:00:00Z"]


async def test_notices_name_the_dates_selected_that_never_fire(client: httpx.AsyncClient) -> None:
    cadence = {
        "kind": "MONTHLY",
        "local_time": "08:00:00",
        "days_of_month": [29, 30, 31],
        "last_day": False,
        "timezone": "Europe/Paris",
    }
    schedule = await create(client, cadence=cadence)
    start = datetime(2027, 2, 1, tzinfo=UTC)

    body = await _project(client, schedule["schedule_id"], start, start + timedelta(days=59))

    assert body["notices"] == [
        {"local_date": "2027-02-29", "reason": "NOT_A_LEAP_YEAR"},
        {"local_date": "2027-02-30", "reason": "DAY_NOT_IN_MONTH"},
        {"local_date": "2027-02-31", "reason": "DAY_NOT_IN_MONTH"},
    ]
    assert [f["local_date"] for f in body["firings"]] == ["2027-03-29", "2027-03-30", "2027-03-31"]


async def test_a_paused_schedule_answers_what_it_would_fire_if_resumed_now(
    client: httpx.AsyncClient,
) -> None:
    schedule = await create(client)
    paused = await client.post(
        f"/v1/schedules/{schedule['schedule_id']}/pause", json={"expected_revision": 1}
    )
    assert paused.json()["next_fire_at"] is None

    body = await _project(client, schedule["schedule_id"], NOW, NOW + timedelta(days=1))

    assert body["state"] == "PAUSED" and body["as_if_resumed"] is True
    assert [f["at"] for f in body["firings"]] == ["2026-12-01T08:00:00Z"]


async def test_a_cancelled_schedule_answers_no_firings_and_no_notices(
    client: httpx.AsyncClient,
) -> None:
    cadence = {**NEW_YORK_0230, "kind": "MONTHLY", "days_of_month": [31], "last_day": False}
    schedule = await create(client, cadence=cadence)
    cancelled = await client.delete(
        f"/v1/schedules/{schedule['schedule_id']}", params={"expected_revision": 1}
    )
    assert cancelled.status_code == 200
    start = datetime(2027, 4, 1, tzinfo=UTC)
    body = await _project(client, schedule["schedule_id"], start, start + timedelta(days=30))
    assert (body["state"], body["firings"], body["notices"]) == ("CANCELLED", [], [])


async def test_past_lists_the_ledger_in_the_window_oldest_first(
    client: httpx.AsyncClient, store: SqlStore, clock: Clock
) -> None:
    schedule = await create(client)
    alice = make_principal(
        principal_id="alice", tenant_id="acme", display_name="Alice", scopes=ALL_SCOPES
    )
    worker = ScheduleWorker(store, TokenDirectory([(token_digest("token-alice"), alice)]))
    fired = []
    for day in (1, 2, 3):
        clock.now = datetime(2026, 12, day, 8, 0, 30, tzinfo=UTC)
        assert worker.run_once(clock.now).written == 1
        fired.append(f"2026-12-0{day}T08:00:00Z")

    end = datetime(2026, 12, 5, tzinfo=UTC)
    body = await _project(client, schedule["schedule_id"], datetime(2026, 12, 1, tzinfo=UTC), end)
    later = await _project(client, schedule["schedule_id"], datetime(2026, 12, 2, tzinfo=UTC), end)

    # The first run is still queued, so the next two firings were skipped as overlapping.
    assert [p["nominal_fire_at"] for p in body["past"]] == fired
    assert [p["disposition"] for p in body["past"]] == [
        "MATERIALIZED",
        "SKIPPED_OVERLAP",
        "SKIPPED_OVERLAP",
    ]
    assert body["past"][0]["session_id"] is not None and body["past"][0]["reason_code"] is None
    assert body["past"][1]["session_id"] is None
    assert body["past"][1]["reason_code"] == "previous_run_in_flight"
    assert [f["at"] for f in body["firings"]] == ["2026-12-04T08:00:00Z"]
    assert later["past"] == body["past"][1:]


@pytest.mark.parametrize(
    ("start", "end", "field", "reason"),
    [
        pytest.param("yesterday", "2026-12-02T00:00:00Z", "from", "invalid_datetime", id="text"),
        pytest.param("2026-12-01T00:00:00", "2026-12-02T00:00:00Z", "from", "naive_datetime"),
        pytest.param("2026-12-01T00:00:00Z", "2026-12-02", "to", "naive_datetime", id="date"),
        pytest.param("2026-12-01T00:00:00Z", "2026-12-01T00:00:00Z", "to", "not_after_from"),
        pytest.param("2026-12-01T00:00:00Z", "2027-03-03T00:00:01Z", "to", "window_too_long"),
        pytest.param("2026-12-01T00:00:00Z", "9999-12-31T23:30:00-01:00", "to", "out_of_range"),
    ],
)
async def test_a_bad_window_is_request_invalid_naming_the_parameter(
    client: httpx.AsyncClient, start: str, end: str, field: str, reason: str
) -> None:
    schedule = await create(client)
    response = await client.get(
        f"/v1/schedules/{schedule['schedule_id']}/projection", params={"from": start, "to": end}
    )
    assert response.status_code == 400
    assert error_code(response) == "request.invalid"
    assert response.json()["error"]["details"] == {"field": field, "reason": reason}


async def test_a_window_of_exactly_92_days_is_accepted(client: httpx.AsyncClient) -> None:
    schedule = await create(client)
    body = await _project(client, schedule["schedule_id"], NOW, NOW + timedelta(days=92))
    assert len(body["firings"]) == 92


async def test_missing_window_parameters_are_request_invalid(client: httpx.AsyncClient) -> None:
    schedule = await create(client)
    response = await client.get(f"/v1/schedules/{schedule['schedule_id']}/projection")
    assert response.status_code == 400
    assert error_code(response) == "request.invalid"


async def test_the_projection_follows_the_point_reads_not_found_and_scope_rules(
    client: httpx.AsyncClient,
) -> None:
    schedule = await create(client)
    path = f"/v1/schedules/{schedule['schedule_id']}/projection"
    window = {"from": _z(NOW), "to": _z(NOW + timedelta(days=1))}
    for caller in ("carol", "mallory"):
        response = await client.get(path, params=window, headers=as_(caller))
        assert (response.status_code, error_code(response)) == (404, "schedule.not_found")
    unknown = await client.get(
        "/v1/schedules/00000000-0000-4000-8000-000000000000/projection", params=window
    )
    assert error_code(unknown) == "schedule.not_found"


async def test_rows_and_the_point_read_say_how_the_next_firing_was_adjusted(
    client: httpx.AsyncClient, clock: Clock
) -> None:
    clock.now = datetime(2027, 3, 13, 12, tzinfo=UTC)
    moved = await create(client, cadence=NEW_YORK_0230)
    plain = await create(client)

    assert moved["next_fire_at"] == "2027-03-14T07:00:00Z"
    assert moved["next_fire_adjustment"] == "MOVED_TO_TRANSITION"
    assert plain["next_fire_adjustment"] is None
    rows = (await client.get("/v1/schedules")).json()["items"]
    by_id = {row["schedule_id"]: row["next_fire_adjustment"] for row in rows}
    assert by_id == {moved["schedule_id"]: "MOVED_TO_TRANSITION", plain["schedule_id"]: None}

    clock.now = datetime(2026, 10, 31, 12, tzinfo=UTC)
    earlier = await create(client, cadence={**NEW_YORK_0230, "local_time": "01:30:00"})
    assert earlier["next_fire_adjustment"] == "EARLIER_OF_TWO"
    paused = await client.post(
        f"/v1/schedules/{earlier['schedule_id']}/pause", json={"expected_revision": 1}
    )
    assert paused.json()["next_fire_adjustment"] is None


async def test_a_firing_may_overlap_exactly_where_the_agenda_says_it_may(
    client: httpx.AsyncClient, clock: Clock
) -> None:
    clock.now = datetime(2027, 3, 20, tzinfo=UTC)
    schedule = await create(client, run_timeout_seconds=86_400)  # a day's limit: a short day
    start, end = datetime(2027, 3, 26, tzinfo=UTC), datetime(2027, 3, 31, tzinfo=UTC)
    window = {"from": _z(start), "to": _z(end)}

    body = await _project(client, schedule["schedule_id"], start, end)
    agenda = (await client.get("/v1/agenda", params=window)).json()["items"]

    projected = [(f["at"], f["may_overlap"]) for f in body["firings"]]
    assert projected == [(i["at"], i["may_overlap"]) for i in agenda]
    assert [overlap for _, overlap in projected] == [False, False, True, False, False]


def _expected(body: dict[str, Any]) -> list[str]:
    return [p["nominal_fire_at"] for p in body["past"] if p["expected"]]


async def test_instants_since_creation_with_no_record_are_expected_in_the_past(
    client: httpx.AsyncClient, clock: Clock
) -> None:
    schedule = await create(client)  # daily 08:00 UTC, created 2026-11-30 09:00
    clock.now = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)

    body = await _project(
        client, schedule["schedule_id"], datetime(2026, 11, 28, tzinfo=UTC), clock.now
    )

    assert body["past"] == [
        {
            "occurrence_id": None,
            "nominal_fire_at": f"2026-12-0{day}T08:00:00Z",
            "disposition": None,
            "reason_code": None,
            "session_id": None,
            "run_status": None,
            "failure_reason": None,
            "expected": True,
        }
        for day in (1, 2, 3)
    ]


async def test_an_instant_due_within_the_overdue_threshold_is_not_yet_expected(
    client: httpx.AsyncClient, clock: Clock
) -> None:
    schedule = await create(client)
    clock.now = datetime(2026, 12, 1, 8, 0, 59, tzinfo=UTC)

    body = await _project(client, schedule["schedule_id"], NOW, NOW + timedelta(days=2))

    assert body["past"] == []


async def test_recorded_instants_are_not_expected(
    client: httpx.AsyncClient, store: SqlStore, clock: Clock
) -> None:
    schedule = await create(client)
    alice = make_principal(
        principal_id="alice", tenant_id="acme", display_name="Alice", scopes=ALL_SCOPES
    )
    worker = ScheduleWorker(store, TokenDirectory([(token_digest("token-alice"), alice)]))
    for day in (1, 2, 3):
        clock.now = datetime(2026, 12, day, 8, 0, 30, tzinfo=UTC)
        assert worker.run_once(clock.now).written == 1
    clock.now = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)

    body = await _project(client, schedule["schedule_id"], NOW, clock.now)

    assert [(p["nominal_fire_at"], p["expected"]) for p in body["past"]] == [
        (f"2026-12-0{day}T08:00:00Z", False) for day in (1, 2, 3)
    ]


async def test_a_paused_schedule_expects_only_what_fell_before_its_pause(
    client: httpx.AsyncClient, clock: Clock
) -> None:
    schedule = await create(client)
    clock.now = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
    paused = await client.post(
        f"/v1/schedules/{schedule['schedule_id']}/pause", json={"expected_revision": 1}
    )
    assert paused.status_code == 200, paused.text
    clock.now = datetime(2026, 12, 5, 9, 0, tzinfo=UTC)

    body = await _project(client, schedule["schedule_id"], NOW, clock.now)

    # Pausing decided the instant due at 08:00 that day; nothing after the pause is expected.
    assert [(p["nominal_fire_at"], p["expected"]) for p in body["past"]] == [
        ("2026-12-01T08:00:00Z", True),
        ("2026-12-02T08:00:00Z", False),
    ]


async def test_a_resumed_schedule_expects_nothing_from_its_paused_days(
    client: httpx.AsyncClient, clock: Clock
) -> None:
    schedule = await create(client)
    clock.now = datetime(2026, 11, 30, 10, 0, tzinfo=UTC)
    pause = await client.post(
        f"/v1/schedules/{schedule['schedule_id']}/pause", json={"expected_revision": 1}
    )
    assert pause.status_code == 200, pause.text
    clock.now = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
    resume = await client.post(
        f"/v1/schedules/{schedule['schedule_id']}/resume", json={"expected_revision": 1}
    )
    assert resume.status_code == 200, resume.text
    clock.now = datetime(2026, 12, 5, 9, 0, tzinfo=UTC)

    body = await _project(client, schedule["schedule_id"], NOW, clock.now)

    assert _expected(body) == ["2026-12-04T08:00:00Z", "2026-12-05T08:00:00Z"]
