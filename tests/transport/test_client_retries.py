"""How the client applies the retry rule: attempts, waits, and which requests never repeat."""

from __future__ import annotations

import httpx
import pytest
import respx

from devtools import api_bodies as bodies
from tests.transport.conftest import FakeSleep
from transport import errors
from transport.client import ScheduleClient
from transport.retry import BASE_DELAY_SECONDS

S = bodies.SCHEDULE_ID
JITTER_HALF = 0.75  # equal jitter with random() == 0.5: 3/4 of the step


async def test_read_retries_5xx_then_succeeds(
    router: respx.Router, client: ScheduleClient, fake_sleep: FakeSleep
) -> None:
    route = router.get(f"/v1/schedules/{S}").mock(
        side_effect=[
            httpx.Response(503, json=bodies.envelope_json("server.error")),
            httpx.Response(502),
            httpx.Response(200, json=bodies.detail_json()),
        ]
    )
    detail = await client.get_schedule(S)
    assert detail.schedule_id == S
    assert route.call_count == 3
    assert fake_sleep.delays == [
        BASE_DELAY_SECONDS * JITTER_HALF,
        BASE_DELAY_SECONDS * 2 * JITTER_HALF,
    ]


async def test_read_gives_up_after_three_attempts(
    router: respx.Router, client: ScheduleClient, fake_sleep: FakeSleep
) -> None:
    route = router.get("/v1/sessions").respond(500, json=bodies.envelope_json("server.error"))
    with pytest.raises(errors.ServerError):
        await client.list_sessions()
    assert route.call_count == 3
    assert len(fake_sleep.delays) == 2


async def test_read_retries_connection_errors(
    router: respx.Router, client: ScheduleClient, fake_sleep: FakeSleep
) -> None:
    route = router.get("/v1/principal").mock(
        side_effect=[httpx.ConnectError("down"), httpx.Response(200, json=bodies.principal_json())]
    )
    principal = await client.get_principal()
    assert principal.display_name == "Alice Example"
    assert route.call_count == 2
    assert len(fake_sleep.delays) == 1


async def test_repeated_timeouts_end_as_timed_out(
    router: respx.Router, client: ScheduleClient, fake_sleep: FakeSleep
) -> None:
    route = router.get("/v1/folders").mock(side_effect=httpx.ConnectTimeout("slow"))
    with pytest.raises(errors.TimedOut):
        await client.list_folders()
    assert route.call_count == 3


async def test_retry_after_is_honoured(
    router: respx.Router, client: ScheduleClient, fake_sleep: FakeSleep
) -> None:
    router.get("/v1/schedules").mock(
        side_effect=[
            httpx.Response(429, headers={"Retry-After": "4"}),
            httpx.Response(200, json=bodies.page_json()),
        ]
    )
    await client.list_schedules(states=["ACTIVE"])
    assert fake_sleep.delays == [4.0]


async def test_excessive_retry_after_is_not_waited_for(
    router: respx.Router, client: ScheduleClient, fake_sleep: FakeSleep
) -> None:
    route = router.get("/v1/schedules").respond(
        429, headers={"Retry-After": "3600"}, json=bodies.envelope_json("request.rate_limited")
    )
    with pytest.raises(errors.RateLimited) as caught:
        await client.list_schedules()
    assert caught.value.retry_after == 3600.0
    assert route.call_count == 1
    assert fake_sleep.delays == []


@pytest.mark.parametrize("status", [429, 500, 503])
async def test_patch_is_never_retried(
    status: int, router: respx.Router, client: ScheduleClient, fake_sleep: FakeSleep
) -> None:
    route = router.patch(f"/v1/schedules/{S}").respond(status)
    with pytest.raises(errors.ServerRefused):
        await client.update_schedule(S, expected_revision=3, definition={"title": "t"})
    assert route.call_count == 1
    assert fake_sleep.delays == []


async def test_pause_is_never_retried_even_after_connection_error(
    router: respx.Router, client: ScheduleClient, fake_sleep: FakeSleep
) -> None:
    route = router.post(f"/v1/schedules/{S}/pause").mock(side_effect=httpx.ConnectError("x"))
    with pytest.raises(errors.ConnectionFailed):
        await client.pause_schedule(S, expected_revision=3)
    assert route.call_count == 1
    assert fake_sleep.delays == []


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", f"/v1/schedules/{S}/resume"),
        ("DELETE", f"/v1/schedules/{S}"),
        ("POST", f"/v1/sessions/{bodies.SESSION_ID}/folder"),
    ],
)
async def test_other_writes_are_never_retried(
    method: str, path: str, router: respx.Router, client: ScheduleClient, fake_sleep: FakeSleep
) -> None:
    route = router.route(method=method, path=path).respond(503)
    with pytest.raises(errors.ServerError):
        if path.endswith("resume"):
            await client.resume_schedule(S, expected_revision=1)
        elif method == "DELETE":
            await client.cancel_schedule(S, expected_revision=1)
        else:
            await client.move_session(bodies.SESSION_ID, folder_id=None)
    assert route.call_count == 1


async def test_create_with_idempotency_key_is_retried_with_the_same_key_and_body(
    router: respx.Router, client: ScheduleClient, fake_sleep: FakeSleep
) -> None:
    route = router.post("/v1/schedules").mock(
        side_effect=[
            httpx.ConnectError("reset"),
            httpx.Response(503),
            httpx.Response(201, json=bodies.detail_json()),
        ]
    )
    detail = await client.create_schedule({"title": "Digest"}, idempotency_key="k-9")
    assert detail.schedule_id == S
    assert route.call_count == 3
    assert {call.request.headers["Idempotency-Key"] for call in route.calls} == {"k-9"}
    assert {call.request.content for call in route.calls} == {b'{"title": "Digest"}'}
    assert len(fake_sleep.delays) == 2


async def test_client_errors_are_not_retried(
    router: respx.Router, client: ScheduleClient, fake_sleep: FakeSleep
) -> None:
    route = router.get(f"/v1/schedules/{S}").respond(
        404, json=bodies.envelope_json("schedule.not_found")
    )
    with pytest.raises(errors.NotFound):
        await client.get_schedule(S)
    assert route.call_count == 1
    assert fake_sleep.delays == []
