"""``GET /v1/scheduler`` and ``overdue_since``, read as the lenient client reads any answer.

A server without the route (404/405) answers ``SCHEDULER_NOT_OFFERED`` instead
of raising; an unknown ``state`` stays raw with ``known_state`` None; whatever
JSON a hostile server answers with is a model or a transport error, never
anything else; a schedule without ``overdue_since`` (an older server) reads None.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
import respx
from hypothesis import given, settings
from hypothesis import strategies as st

from devtools import api_bodies as bodies
from tests.transport.conftest import BASE_URL, FakeSleep, make_client
from tests.transport.test_fuzz import json_values
from transport import errors
from transport.client import ScheduleClient
from transport.models import (
    SCHEDULER_NOT_OFFERED,
    ScheduleDetail,
    SchedulerState,
    SchedulerStatus,
    ScheduleSummary,
)


async def test_the_scheduler_status_reads_its_state_tick_and_backlog(
    router: respx.Router, client: ScheduleClient
) -> None:
    router.get("/v1/scheduler").respond(200, json=bodies.scheduler_json())
    status = await client.scheduler_status()
    assert isinstance(status, SchedulerStatus)
    assert status.known_state is SchedulerState.STOPPED
    assert status.last_tick_at == datetime(2026, 12, 1, 6, 35, tzinfo=UTC)
    assert (status.replicas_running, status.due_backlog) == (0, 1)


@pytest.mark.parametrize("status", [404, 405])
async def test_a_server_without_the_route_does_not_offer_the_scheduler_status(
    router: respx.Router, client: ScheduleClient, status: int
) -> None:
    router.get("/v1/scheduler").respond(status, text="Not here")
    assert await client.scheduler_status() is SCHEDULER_NOT_OFFERED


async def test_an_unknown_state_is_kept_raw_and_known_as_nothing(
    router: respx.Router, client: ScheduleClient
) -> None:
    router.get("/v1/scheduler").respond(
        200, json=bodies.scheduler_json(state="resting", last_tick_at=12, due_backlog="many")
    )
    status = await client.scheduler_status()
    assert isinstance(status, SchedulerStatus)
    assert (status.state, status.known_state) == ("resting", None)
    assert (status.last_tick_at, status.due_backlog) == (None, None)


async def test_other_refusals_of_the_scheduler_route_stay_errors(
    router: respx.Router, client: ScheduleClient
) -> None:
    router.get("/v1/scheduler").respond(
        403, json=bodies.envelope_json("auth.scope_missing", scope="schedule.read")
    )
    with pytest.raises(errors.ScopeMissing):
        await client.scheduler_status()


@settings(max_examples=60, deadline=None)
@given(
    body=json_values | st.fixed_dictionaries({"state": json_values}, optional={"x": json_values}),
    status=st.sampled_from([200, 400, 403, 404, 405, 418, 500, 503]),
)
def test_any_json_answer_is_a_status_not_offered_or_a_transport_error(
    body: Any, status: int
) -> None:
    async def read() -> object:
        router = respx.Router(base_url=BASE_URL, assert_all_called=False)
        router.get("/v1/scheduler").mock(
            return_value=httpx.Response(status, content=json.dumps(body).encode())
        )
        async with make_client(router, FakeSleep()) as client:
            return await client.scheduler_status()

    try:
        result = asyncio.run(read())
    except errors.ProtocolError:
        assert status == 200
        return
    except errors.ServerRefused as refused:
        assert refused.status == status not in (404, 405)
        return
    if status in (404, 405):
        assert result is SCHEDULER_NOT_OFFERED
    else:
        assert status == 200
        assert isinstance(result, SchedulerStatus)


def test_overdue_since_is_read_on_rows_and_details() -> None:
    at = "2026-12-01T06:48:00Z"
    row = ScheduleSummary.model_validate(bodies.summary_json(overdue_since=at))
    detail = ScheduleDetail.model_validate(bodies.detail_json(overdue_since=at))
    assert row.overdue_since == detail.overdue_since == datetime(2026, 12, 1, 6, 48, tzinfo=UTC)


def test_a_schedule_without_overdue_since_or_with_garbage_in_it_is_not_overdue() -> None:
    assert ScheduleSummary.model_validate(bodies.summary_json()).overdue_since is None
    garbled = ScheduleSummary.model_validate(bodies.summary_json(overdue_since="soon"))
    assert garbled.overdue_since is None
    assert garbled.unreadable("overdue_since")
