"""``GET /v1/agenda`` and its density, read as the lenient client reads any answer.

The window goes as two UTC instants with the filters beside it; unknown states
and outcomes stay raw with their ``known_*`` accessor answering None; optional
fields a server leaves out read as None; a server without the routes (404/405)
answers ``AGENDA_NOT_OFFERED`` instead of raising.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import respx

from devtools import api_bodies as bodies
from transport.client import ScheduleClient
from transport.errors import InvalidRequest
from transport.models import AGENDA_NOT_OFFERED, Disposition, RunStatus, ScheduleState

START = datetime(2026, 12, 1, tzinfo=UTC)
END = START + timedelta(days=7)


async def test_the_window_and_filters_are_sent_with_the_paging(
    router: respx.Router, client: ScheduleClient
) -> None:
    route = router.get("/v1/agenda").respond(200, json=bodies.page_json(next_cursor="c2"))
    await client.list_agenda(
        start=START,
        end=END,
        include_paused=True,
        query="digest",
        needs_attention=True,
        limit=50,
        cursor="c1",
    )
    assert list(route.calls.last.request.url.params.multi_items()) == [
        ("from", "2026-12-01T00:00:00Z"),
        ("to", "2026-12-08T00:00:00Z"),
        ("state", "PAUSED"),
        ("q", "digest"),
        ("needs_attention", "true"),
        ("limit", "50"),
        ("cursor", "c1"),
    ]


async def test_an_item_reads_whole_with_its_outcome(
    router: respx.Router, client: ScheduleClient
) -> None:
    item = bodies.agenda_item_json(
        disposition="MATERIALIZED", run_status="FAILED", clash_count=9, may_overlap=True
    )
    router.get("/v1/agenda").respond(200, json=bodies.page_json(item))
    page = await client.list_agenda(start=START, end=END)
    assert page is not AGENDA_NOT_OFFERED
    [read] = page.items
    assert read.at == datetime(2026, 12, 1, 8, tzinfo=UTC)
    assert read.known_state is ScheduleState.ACTIVE
    assert read.known_disposition is Disposition.MATERIALIZED
    assert read.known_run_status is RunStatus.FAILED
    assert (read.clash_count, read.may_overlap, read.timezone) == (9, True, "Europe/Paris")
    assert read.cadence is not None and read.cadence.local_time == "09:00:00"


async def test_unknown_values_stay_raw_and_read_as_unknown(
    router: respx.Router, client: ScheduleClient
) -> None:
    item = bodies.agenda_item_json(
        state="ARCHIVED", disposition="DEFERRED", run_status="PAUSED_BY_HUMAN"
    )
    router.get("/v1/agenda").respond(200, json=bodies.page_json(item))
    page = await client.list_agenda(start=START, end=END)
    assert page is not AGENDA_NOT_OFFERED
    [read] = page.items
    assert (read.state, read.disposition, read.run_status) == (
        "ARCHIVED",
        "DEFERRED",
        "PAUSED_BY_HUMAN",
    )
    assert read.known_state is None
    assert read.known_disposition is None
    assert read.known_run_status is None


async def test_absent_optional_fields_read_as_none(
    router: respx.Router, client: ScheduleClient
) -> None:
    bare = {
        "schedule_id": str(bodies.SCHEDULE_ID),
        "title": "Bare",
        "state": "ACTIVE",
        "at": "2026-12-01T08:00:00Z",
    }
    router.get("/v1/agenda").respond(200, json=bodies.page_json(bare))
    page = await client.list_agenda(start=START, end=END)
    assert page is not AGENDA_NOT_OFFERED
    [read] = page.items
    assert (read.clash_count, read.may_overlap, read.cadence, read.local_time) == (
        None,
        None,
        None,
        None,
    )


async def test_a_past_item_nothing_was_recorded_for_reads_as_not_fired_only_when_expected(
    router: respx.Router, client: ScheduleClient
) -> None:
    expected = bodies.agenda_item_json(disposition=None, expected=True)
    older = bodies.agenda_item_json(disposition=None)
    recorded = bodies.agenda_item_json(disposition="MISSED", expected=False)
    router.get("/v1/agenda").respond(200, json=bodies.page_json(expected, older, recorded))
    page = await client.list_agenda(start=START, end=END)
    assert page is not AGENDA_NOT_OFFERED
    assert [(item.expected, item.not_fired) for item in page.items] == [
        (True, True),
        (None, False),
        (False, False),
    ]


@pytest.mark.parametrize("status", [404, 405])
async def test_a_server_without_the_agenda_answers_not_offered(
    status: int, router: respx.Router, client: ScheduleClient
) -> None:
    router.get("/v1/agenda").respond(status)
    router.get("/v1/agenda/density").respond(status)
    assert await client.list_agenda(start=START, end=END) is AGENDA_NOT_OFFERED
    density = await client.agenda_density(start=START, end=END, bucket="hour")
    assert density is AGENDA_NOT_OFFERED


async def test_other_refusals_stay_errors(router: respx.Router, client: ScheduleClient) -> None:
    router.get("/v1/agenda").respond(
        400, json=bodies.envelope_json("request.invalid", field="cursor")
    )
    with pytest.raises(InvalidRequest):
        await client.list_agenda(start=START, end=END, cursor="stale")


async def test_density_sends_bucket_and_zone_and_reads_every_bucket(
    router: respx.Router, client: ScheduleClient
) -> None:
    route = router.get("/v1/agenda/density").respond(
        200, json=bodies.agenda_density_json(START, [0, 3, 1], timezone="Europe/Paris")
    )
    density = await client.agenda_density(
        start=START, end=START + timedelta(hours=3), bucket="hour", timezone="Europe/Paris"
    )
    assert density is not AGENDA_NOT_OFFERED
    assert [bucket.count for bucket in density.buckets] == [0, 3, 1]
    assert density.buckets[1].start == START + timedelta(hours=1)
    params = route.calls.last.request.url.params
    assert (params["bucket"], params["timezone"]) == ("hour", "Europe/Paris")
