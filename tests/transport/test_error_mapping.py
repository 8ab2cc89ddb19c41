"""Every status and envelope code of API.md becomes its documented error class."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import respx

from devtools import api_bodies as bodies
from tests.transport.route_cases import NOT_OFFERED, ROUTE_CASES, RouteCase
from transport import errors
from transport.client import ScheduleClient

S = bodies.SCHEDULE_ID


async def _pause(c: ScheduleClient) -> Any:
    return await c.pause_schedule(S, expected_revision=3)


async def _update(c: ScheduleClient) -> Any:
    return await c.update_schedule(S, expected_revision=3, definition={"title": "t"})


async def _create(c: ScheduleClient) -> Any:
    return await c.create_schedule({"title": "t"}, idempotency_key="k")


async def _move(c: ScheduleClient) -> Any:
    return await c.move_session(bodies.SESSION_ID, folder_id=bodies.FOLDER_ID)


async def _create_feed(c: ScheduleClient) -> Any:
    return await c.create_feed(None)


async def _get(c: ScheduleClient) -> Any:
    return await c.get_schedule(S)


# (id, status, code, details, method, path, call, expected class, expected attributes)
CONTRACT_CODES = [
    (
        "invalid",
        400,
        "request.invalid",
        {},
        "PATCH",
        f"/v1/schedules/{S}",
        _update,
        errors.InvalidRequest,
        {},
    ),
    (
        "unauthenticated",
        401,
        "auth.unauthenticated",
        {},
        "GET",
        f"/v1/schedules/{S}",
        _get,
        errors.Unauthenticated,
        {},
    ),
    (
        "scope-missing",
        403,
        "auth.scope_missing",
        {"scope": "schedule.write"},
        "PATCH",
        f"/v1/schedules/{S}",
        _update,
        errors.ScopeMissing,
        {"scope": "schedule.write"},
    ),
    (
        "schedule-not-found",
        404,
        "schedule.not_found",
        {},
        "GET",
        f"/v1/schedules/{S}",
        _get,
        errors.NotFound,
        {},
    ),
    (
        "session-not-found",
        404,
        "session.not_found",
        {},
        "POST",
        f"/v1/sessions/{bodies.SESSION_ID}/folder",
        _move,
        errors.NotFound,
        {},
    ),
    (
        "revision-conflict",
        409,
        "schedule.revision_conflict",
        {"current_revision": 4},
        "PATCH",
        f"/v1/schedules/{S}",
        _update,
        errors.RevisionConflict,
        {"current_revision": 4},
    ),
    (
        "terminal",
        409,
        "schedule.terminal",
        {},
        "POST",
        f"/v1/schedules/{S}/pause",
        _pause,
        errors.ScheduleTerminal,
        {},
    ),
    (
        "idempotency",
        409,
        "request.idempotency_conflict",
        {},
        "POST",
        "/v1/schedules",
        _create,
        errors.IdempotencyConflict,
        {},
    ),
    (
        "not-chat",
        409,
        "session.not_chat",
        {},
        "POST",
        f"/v1/sessions/{bodies.SESSION_ID}/folder",
        _move,
        errors.SessionNotChat,
        {},
    ),
    (
        "feed-limit",
        409,
        "feed.limit_reached",
        {"most": 100},
        "POST",
        "/v1/feeds",
        _create_feed,
        errors.FeedLimitReached,
        {},
    ),
    (
        "invalid-definition",
        422,
        "schedule.invalid_definition",
        {"field": "cadence.weekdays", "reason": "weekdays_empty"},
        "PATCH",
        f"/v1/schedules/{S}",
        _update,
        errors.ValidationFailed,
        {"field": "cadence.weekdays", "reason": "weekdays_empty"},
    ),
    (
        "profile-unavailable",
        422,
        "schedule.browser_profile_unavailable",
        {},
        "PATCH",
        f"/v1/schedules/{S}",
        _update,
        errors.BrowserProfileUnavailable,
        {},
    ),
    (
        "scope-not-granted",
        422,
        "schedule.scope_not_granted",
        {},
        "POST",
        "/v1/schedules",
        _create,
        errors.ScopeNotGranted,
        {},
    ),
    (
        "secret-detected",
        422,
        "schedule.secret_detected",
        {},
        "POST",
        "/v1/schedules",
        _create,
        errors.SecretDetected,
        {},
    ),
    (
        "rate-limited",
        429,
        "request.rate_limited",
        {},
        "PATCH",
        f"/v1/schedules/{S}",
        _update,
        errors.RateLimited,
        {"retry_after": 7.0},
    ),
    (
        "server-error",
        500,
        "server.error",
        {},
        "POST",
        f"/v1/schedules/{S}/pause",
        _pause,
        errors.ServerError,
        {},
    ),
    (
        "bad-gateway",
        502,
        "server.error",
        {},
        "PATCH",
        f"/v1/schedules/{S}",
        _update,
        errors.ServerError,
        {},
    ),
]


@pytest.mark.parametrize(
    ("status", "code", "details", "method", "path", "call", "expected", "attributes"),
    [pytest.param(*row[1:], id=row[0]) for row in CONTRACT_CODES],
)
async def test_contract_code_maps_to_its_class(
    status: int,
    code: str,
    details: dict[str, Any],
    method: str,
    path: str,
    call: Any,
    expected: type[errors.ServerRefused],
    attributes: dict[str, Any],
    router: respx.Router,
    client: ScheduleClient,
) -> None:
    router.route(method=method, path=path).respond(
        status,
        json=bodies.envelope_json(code, "human text", **details),
        headers={"Retry-After": "7"} if status == 429 else {},
    )
    with pytest.raises(expected) as caught:
        await call(client)
    assert type(caught.value) is expected
    assert caught.value.status == status
    assert caught.value.code == code
    assert caught.value.message == "human text"
    assert dict(caught.value.details) == details
    for name, value in attributes.items():
        assert getattr(caught.value, name) == value


@pytest.mark.parametrize("case", ROUTE_CASES, ids=lambda case: case.name)
async def test_every_route_maps_scope_missing(
    case: RouteCase, router: respx.Router, client: ScheduleClient
) -> None:
    router.route(method=case.method, path=case.path).respond(
        403, json=bodies.envelope_json("auth.scope_missing", scope="session.read")
    )
    with pytest.raises(errors.ScopeMissing) as caught:
        await case.call(client)
    assert caught.value.scope == "session.read"


@pytest.mark.parametrize("status", [404, 405])
@pytest.mark.parametrize("case", ROUTE_CASES, ids=lambda case: case.name)
async def test_404_and_405_mean_no_browsing_on_the_list_route_and_not_offered_on_an_optional_one(
    status: int, case: RouteCase, router: respx.Router, client: ScheduleClient
) -> None:
    router.route(method=case.method, path=case.path).respond(status, text="Not here")
    if case.optional:
        assert await case.call(client) in NOT_OFFERED
        return
    with pytest.raises(errors.ServerRefused) as caught:
        await case.call(client)
    if case.name == "list_schedules":
        assert type(caught.value) is errors.BrowsingUnavailable
    elif status == 404:
        assert type(caught.value) is errors.NotFound
    else:
        assert type(caught.value) is errors.ServerRefused
    assert caught.value.code == f"http.{status}"


@pytest.mark.parametrize(
    ("body", "status", "expected"),
    [
        pytest.param(b"<html>oops</html>", 409, errors.ServerRefused, id="html-409"),
        pytest.param(b'{"error": "nope"}', 422, errors.ValidationFailed, id="flat-error-422"),
        pytest.param(b'{"error": {"message": "x"}}', 401, errors.Unauthenticated, id="no-code"),
        pytest.param(b"", 403, errors.ScopeMissing, id="empty-403"),
        pytest.param(b"[]", 400, errors.InvalidRequest, id="list-400"),
        pytest.param(b"null", 418, errors.ServerRefused, id="teapot"),
        pytest.param(b"NaN", 503, errors.ServerError, id="nan-503"),
    ],
)
async def test_body_that_is_not_an_envelope_maps_by_status(
    body: bytes,
    status: int,
    expected: type[errors.ServerRefused],
    router: respx.Router,
    client: ScheduleClient,
) -> None:
    router.patch(f"/v1/schedules/{S}").respond(status, content=body)
    with pytest.raises(expected) as caught:
        await _update(client)
    assert type(caught.value) is expected
    assert caught.value.code == f"http.{status}"
    assert caught.value.details == {}


async def test_unknown_conflict_code_is_a_plain_refusal(
    router: respx.Router, client: ScheduleClient
) -> None:
    router.patch(f"/v1/schedules/{S}").respond(
        409, json=bodies.envelope_json("schedule.locked_by_admin")
    )
    with pytest.raises(errors.ServerRefused) as caught:
        await _update(client)
    assert type(caught.value) is errors.ServerRefused
    assert caught.value.code == "schedule.locked_by_admin"


def test_current_revision_ignores_non_integers() -> None:
    err = errors.error_for(409, "schedule.revision_conflict", "", {"current_revision": "4"})
    assert isinstance(err, errors.RevisionConflict)
    assert err.current_revision is None
    flag = errors.error_for(409, "schedule.revision_conflict", "", {"current_revision": True})
    assert isinstance(flag, errors.RevisionConflict)
    assert flag.current_revision is None


def test_error_for_without_envelope_uses_generic_code() -> None:
    err = errors.error_for(503, None, None, None)
    assert isinstance(err, errors.ServerError)
    assert (err.code, err.message, dict(err.details)) == ("http.503", "", {})


async def test_connection_failure_is_connection_failed(
    router: respx.Router, client: ScheduleClient
) -> None:
    router.patch(f"/v1/schedules/{S}").mock(side_effect=httpx.ConnectError("refused"))
    with pytest.raises(errors.ConnectionFailed) as caught:
        await _update(client)
    assert type(caught.value) is errors.ConnectionFailed
    assert isinstance(caught.value.__cause__, httpx.ConnectError)


async def test_timeout_is_timed_out(router: respx.Router, client: ScheduleClient) -> None:
    router.patch(f"/v1/schedules/{S}").mock(side_effect=httpx.ReadTimeout("slow"))
    with pytest.raises(errors.TimedOut) as caught:
        await _update(client)
    assert isinstance(caught.value, errors.ConnectionFailed)
    assert isinstance(caught.value.__cause__, httpx.ReadTimeout)


async def test_undecodable_success_body_is_protocol_error(
    router: respx.Router, client: ScheduleClient
) -> None:
    router.get(f"/v1/schedules/{S}").respond(200, content=b"\xff\xfe not json")
    with pytest.raises(errors.ProtocolError) as caught:
        await _get(client)
    assert isinstance(caught.value.__cause__, ValueError)
