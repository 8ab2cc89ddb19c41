"""Each client method sends exactly the request of API.md and reads its answer."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from decimal import Decimal

import httpx
import pytest
import respx

from devtools import api_bodies as bodies
from tests.transport.conftest import TOKEN
from tests.transport.route_cases import ROUTE_CASES, RouteCase
from transport.client import ScheduleClient
from transport.models import Disposition, Page, RunStatus, ScheduleCounts, ScheduleDetail

S = bodies.SCHEDULE_ID


def sent_json(route: respx.Route) -> object:
    return json.loads(route.calls.last.request.content)


@pytest.mark.parametrize("case", ROUTE_CASES, ids=lambda case: case.name)
async def test_every_route_sends_method_path_and_bearer_token(
    case: RouteCase, router: respx.Router, client: ScheduleClient
) -> None:
    route = router.route(method=case.method, path=case.path).respond(
        case.status, json=case.valid_body
    )
    await case.call(client)
    request = route.calls.last.request
    assert request.method == case.method
    assert request.url.path == case.path
    assert request.headers["Authorization"] == f"Bearer {TOKEN}"
    assert request.headers["Accept"] == "application/json"


async def test_no_authorization_header_without_token(router: respx.Router) -> None:
    from tests.transport.conftest import FakeSleep, make_client

    route = router.get("/v1/principal").respond(200, json=bodies.principal_json())
    async with make_client(router, FakeSleep(), token=None) as client:
        await client.get_principal()
    assert "Authorization" not in route.calls.last.request.headers


async def test_list_schedules_repeats_state_and_pages(
    router: respx.Router, client: ScheduleClient
) -> None:
    route = router.get("/v1/schedules").respond(
        200, json=bodies.page_json(bodies.summary_json(), next_cursor="c2")
    )
    page = await client.list_schedules(states=["ACTIVE", "PAUSED"], limit=25, cursor="c1")
    params = route.calls.last.request.url.params
    assert params.get_list("state") == ["ACTIVE", "PAUSED"]
    assert params["limit"] == "25"
    assert params["cursor"] == "c1"
    assert page.next_cursor == "c2"
    row = page.items[0]
    assert row.schedule_id == S
    assert row.title == "Morning news digest"
    assert row.next_fire_at == datetime(2026, 12, 1, 16, 0, tzinfo=UTC)
    assert row.cadence.timezone == "Europe/Paris"


async def test_list_without_filters_sends_no_query(
    router: respx.Router, client: ScheduleClient
) -> None:
    route = router.get("/v1/schedules").respond(200, json=bodies.page_json())
    page = await client.list_schedules()
    assert route.calls.last.request.url.query == b""
    assert page == Page(items=[], next_cursor=None)


async def test_list_schedules_sends_the_search_and_needs_attention_with_the_paging(
    router: respx.Router, client: ScheduleClient
) -> None:
    route = router.get("/v1/schedules").respond(200, json=bodies.page_json(bodies.summary_json()))
    await client.list_schedules(
        states=["ACTIVE"], query="café 100%", needs_attention=True, limit=50, cursor="c1"
    )
    params = route.calls.last.request.url.params
    assert params.get_list("state") == ["ACTIVE"]
    assert params["q"] == "café 100%"
    assert params["needs_attention"] == "true"
    assert params["limit"] == "50"
    assert params["cursor"] == "c1"


@pytest.mark.parametrize("query", [None, "", "   "], ids=["none", "empty", "blank"])
async def test_a_blank_search_and_no_needs_attention_are_not_sent(
    query: str | None, router: respx.Router, client: ScheduleClient
) -> None:
    route = router.get("/v1/schedules").respond(200, json=bodies.page_json())
    await client.list_schedules(query=query)
    assert route.calls.last.request.url.query == b""


async def test_a_row_reads_its_last_outcome(router: respx.Router, client: ScheduleClient) -> None:
    router.get("/v1/schedules").respond(200, json=bodies.page_json(bodies.summary_json()))
    outcome = (await client.list_schedules()).items[0].last_outcome
    assert outcome is not None
    assert outcome.nominal_fire_at == datetime(2026, 11, 30, 16, 0, tzinfo=UTC)
    assert outcome.known_disposition is Disposition.MATERIALIZED
    assert outcome.known_run_status is RunStatus.FAILED
    assert outcome.failure_reason == "deadline_exceeded"
    assert outcome.session_id == bodies.SESSION_ID
    assert outcome.needs_attention is True


async def test_a_schedule_that_never_fired_has_no_last_outcome(
    router: respx.Router, client: ScheduleClient
) -> None:
    router.get(f"/v1/schedules/{S}").respond(200, json=bodies.detail_json(last_outcome=None))
    assert (await client.get_schedule(S)).last_outcome is None


async def test_schedule_counts_sends_the_search_and_reads_three_numbers(
    router: respx.Router, client: ScheduleClient
) -> None:
    route = router.get("/v1/schedules/counts").respond(200, json=bodies.counts_json())
    counts = await client.schedule_counts(query="ё digest")
    assert route.calls.last.request.url.params["q"] == "ё digest"
    assert counts == ScheduleCounts(current=12, history=3, needs_attention=2)
    await client.schedule_counts()
    assert route.calls.last.request.url.query == b""


async def test_get_schedule_reads_the_complete_revision(
    router: respx.Router, client: ScheduleClient
) -> None:
    router.get(f"/v1/schedules/{S}").respond(200, json=bodies.detail_json())
    detail = await client.get_schedule(S)
    assert isinstance(detail, ScheduleDetail)
    assert detail.title == "Morning news digest"
    assert detail.revision.instruction == bodies.INSTRUCTION
    assert detail.revision.limits.max_cost == Decimal("5.00")
    assert detail.revision.browser_profile_id == bodies.PROFILE_ID
    assert detail.consecutive_failures == 2
    assert detail.revision.cadence.weekdays == [1, 3, 5]


async def test_create_sends_idempotency_key_and_definition(
    router: respx.Router, client: ScheduleClient
) -> None:
    route = router.post("/v1/schedules").respond(201, json=bodies.detail_json())
    definition = bodies.revision_json()
    for derived in ("revision", "timezone", "created_by_principal_id", "created_at"):
        del definition[derived]
    detail = await client.create_schedule(definition, idempotency_key="create-42")
    request = route.calls.last.request
    assert request.headers["Idempotency-Key"] == "create-42"
    assert request.headers["Content-Type"] == "application/json"
    assert sent_json(route) == definition
    assert detail.schedule_id == S


async def test_update_sends_expected_revision_and_definition(
    router: respx.Router, client: ScheduleClient
) -> None:
    route = router.patch(f"/v1/schedules/{S}").respond(
        200, json=bodies.detail_json(current_revision=4)
    )
    detail = await client.update_schedule(S, expected_revision=3, definition={"title": "New"})
    assert sent_json(route) == {"expected_revision": 3, "definition": {"title": "New"}}
    assert "Idempotency-Key" not in route.calls.last.request.headers
    assert detail.current_revision == 4


@pytest.mark.parametrize("action", ["pause", "resume"])
async def test_pause_and_resume_send_expected_revision(
    action: str, router: respx.Router, client: ScheduleClient
) -> None:
    route = router.post(f"/v1/schedules/{S}/{action}").respond(
        200, json=bodies.detail_json(state="ACTIVE" if action == "resume" else "PAUSED")
    )
    call = client.pause_schedule if action == "pause" else client.resume_schedule
    detail = await call(S, expected_revision=7)
    assert sent_json(route) == {"expected_revision": 7}
    assert detail.state == ("ACTIVE" if action == "resume" else "PAUSED")


async def test_cancel_sends_expected_revision_as_query_without_body(
    router: respx.Router, client: ScheduleClient
) -> None:
    route = router.delete(f"/v1/schedules/{S}").respond(
        200, json=bodies.detail_json(state="CANCELLED", pause_reason=None)
    )
    detail = await client.cancel_schedule(S, expected_revision=5)
    request = route.calls.last.request
    assert request.url.params["expected_revision"] == "5"
    assert request.content == b""
    assert detail.state == "CANCELLED"


async def test_occurrences_page(router: respx.Router, client: ScheduleClient) -> None:
    route = router.get(f"/v1/schedules/{S}/occurrences").respond(
        200, json=bodies.page_json(bodies.occurrence_json(), next_cursor="n")
    )
    page = await client.list_occurrences(S, limit=10, cursor="o1")
    assert dict(route.calls.last.request.url.params) == {"limit": "10", "cursor": "o1"}
    assert page.items[0].run_id == bodies.RUN_ID
    assert page.items[0].schedule_revision == 2
    assert page.next_cursor == "n"


async def test_browser_profiles_page(router: respx.Router, client: ScheduleClient) -> None:
    route = router.get("/v1/browser-profiles").respond(
        200, json=bodies.page_json(bodies.profile_json())
    )
    page = await client.list_browser_profiles(limit=100)
    assert route.calls.last.request.url.params["limit"] == "100"
    assert page.items[0].allowed_origins[0] == "https://mail.google.com"
    assert page.items[0].display_name == "Work Google"


async def test_sessions_page(router: respx.Router, client: ScheduleClient) -> None:
    route = router.get("/v1/sessions").respond(200, json=bodies.page_json(bodies.session_json()))
    page = await client.list_sessions(cursor="s1")
    assert route.calls.last.request.url.params["cursor"] == "s1"
    assert page.items[0].schedule_id == S
    assert page.items[0].folder_id is None


async def test_session_messages_page(router: respx.Router, client: ScheduleClient) -> None:
    path = f"/v1/sessions/{bodies.SESSION_ID}/messages"
    route = router.get(path).respond(200, json=bodies.page_json(bodies.message_json()))
    page = await client.list_session_messages(bodies.SESSION_ID, limit=5)
    assert route.calls.last.request.url.params["limit"] == "5"
    assert page.items[0].text == "Here is your digest."
    assert page.items[0].role == "assistant"


async def test_folders_page(router: respx.Router, client: ScheduleClient) -> None:
    router.get("/v1/folders").respond(200, json=bodies.page_json(bodies.folder_json()))
    page = await client.list_folders()
    assert page.items[0].folder_id == bodies.FOLDER_ID
    assert page.items[0].name == "Travel"


@pytest.mark.parametrize("folder", [bodies.FOLDER_ID, None], ids=["into-folder", "out-of-folder"])
async def test_move_session_sends_folder_id(
    folder: object, router: respx.Router, client: ScheduleClient
) -> None:
    route = router.post(f"/v1/sessions/{bodies.SESSION_ID}/folder").respond(
        200,
        json=bodies.session_json(metadata={}, folder_id=None if folder is None else str(folder)),
    )
    session = await client.move_session(
        bodies.SESSION_ID, folder_id=bodies.FOLDER_ID if folder is not None else None
    )
    assert sent_json(route) == {"folder_id": None if folder is None else str(folder)}
    assert session.folder_id == folder


async def test_principal(router: respx.Router, client: ScheduleClient) -> None:
    router.get("/v1/principal").respond(200, json=bodies.principal_json())
    principal = await client.get_principal()
    assert principal.principal_id == "alice"
    assert principal.holds("schedule.write")
    assert not principal.holds("schedule.cancel")


async def test_base_url_path_prefix_is_kept(router: respx.Router) -> None:
    from tests.transport.conftest import BASE_URL, FakeSleep

    prefixed = respx.Router(base_url=f"{BASE_URL}/api", assert_all_called=False)
    route = prefixed.get("/v1/principal").respond(200, json=bodies.principal_json())
    transport = httpx.MockTransport(prefixed.handler)
    async with ScheduleClient(f"{BASE_URL}/api", transport=transport, sleep=FakeSleep()) as c:
        await c.get_principal()
    assert route.calls.last.request.url.path == "/api/v1/principal"


def test_timeout_must_be_positive() -> None:
    with pytest.raises(ValueError, match="timeout"):
        ScheduleClient("https://x.test", timeout=0)


async def test_timeout_is_applied_to_requests(router: respx.Router) -> None:
    from tests.transport.conftest import BASE_URL, FakeSleep

    route = router.get("/v1/principal").respond(200, json=bodies.principal_json())
    transport = httpx.MockTransport(router.handler)
    async with ScheduleClient(BASE_URL, transport=transport, timeout=2.5, sleep=FakeSleep()) as c:
        await c.get_principal()
    timeouts = route.calls.last.request.extensions["timeout"]
    assert timeouts == httpx.Timeout(2.5).as_dict()
