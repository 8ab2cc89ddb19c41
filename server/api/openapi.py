"""The OpenAPI document at ``GET /openapi.json``: what this server really answers.

Each route declares its success body and, through ``answers``, exactly the
refusals it can give, every one with the error envelope's schema and its codes
in the description. ``publish_openapi`` then finishes the document FastAPI
generates: it drops FastAPI's default 422 ``HTTPValidationError`` (this server
answers malformed input with 400 ``request.invalid``), adds 429 to every
operation when a rate limit or the authentication-failure throttle is on,
describes the bearer scheme and adds the request-body schemas routes read by
hand (a definition). Answers that carry a schedule link to the routes taking
its id (``SCHEDULE_LINKS``), so a stateful tester can follow them. Scopes are
the ``x-required-scope`` extension of each operation
(``server.api.auth.scope_extra``).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Final

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from server.api import request_schemas, responses
from server.api.request_body import MAX_BODY_BYTES

_COMPONENT = "#/components/schemas/{model}"


@dataclass(frozen=True, slots=True)
class Refusal:
    """One error code a route can answer, with its status and when it is given."""

    status: int
    code: str
    when: str


MALFORMED = Refusal(400, "request.invalid", "a malformed path, query, header or body")
UNAUTHENTICATED = Refusal(401, "auth.unauthenticated", "no token, or one no principal holds")
SCOPE_MISSING = Refusal(403, "auth.scope_missing", "the token lacks the route's scope")
SCHEDULE_NOT_FOUND = Refusal(404, "schedule.not_found", "unknown, another principal's, or purged")
SESSION_NOT_FOUND = Refusal(404, "session.not_found", "unknown or another principal's session")
FOLDER_NOT_FOUND = Refusal(404, "folder.not_found", "the target folder does not exist")
REVISION_CONFLICT = Refusal(
    409, "schedule.revision_conflict", "expected_revision is stale; details.current_revision"
)
TERMINAL = Refusal(409, "schedule.terminal", "the schedule is COMPLETED or CANCELLED")
IDEMPOTENCY_CONFLICT = Refusal(
    409, "request.idempotency_conflict", "the Idempotency-Key was used for another body"
)
NOT_CHAT = Refusal(409, "session.not_chat", "the session was created by a schedule")
TOO_LARGE = Refusal(413, "request.too_large", f"the body is over {MAX_BODY_BYTES} bytes")
DEFINITION_REFUSED = (
    Refusal(422, "schedule.invalid_definition", "details.field and details.reason say why"),
    Refusal(422, "schedule.browser_profile_unavailable", "not the caller's READY sign-in"),
    Refusal(422, "schedule.scope_not_granted", "a requested scope the caller does not hold"),
    Refusal(422, "schedule.secret_detected", "credential-shaped text (never echoed)"),
)
RATE_LIMITED = Refusal(
    429,
    "request.rate_limited",
    "the principal's allowance is spent, or the client address waits after repeated "
    "authentication failures (details.reason authentication_failures)",
)
NOT_READY = Refusal(
    503,
    "server.not_ready",
    "details.reason: draining (shutting down), database_unreachable (no answer),"
    " migrations_pending (schema behind) or storage_fault (a write failed, none succeeded since)",
)
SERVER_ERROR = Refusal(500, "server.error", "anything unexpected; details.request_id")
SERVER_UNAVAILABLE = Refusal(
    503,
    "server.unavailable",
    "the database cannot take the request now (full, read-only, locked, unreachable);"
    " send it again after header Retry-After",
)

_HEADERS: Final[dict[int, dict[str, Any]]] = {
    401: {"WWW-Authenticate": {"description": "Always `Bearer`.", "schema": {"type": "string"}}},
    429: {
        "Retry-After": {
            "description": "Whole seconds until a request is admitted again.",
            "schema": {"type": "integer", "minimum": 1},
        }
    },
    503: {
        "Retry-After": {
            "description": "Whole seconds to wait before sending the request again"
            " (with server.unavailable).",
            "schema": {"type": "integer", "minimum": 1},
        }
    },
}


def answers(
    success: type[BaseModel],
    *refusals: Refusal,
    status: int = 200,
    links: dict[str, Any] | None = None,
    authenticated: bool = True,
) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` of a route: its success body, then each refusal status it can give.

    Every route can also answer 500 and 503 ``server.unavailable`` (a storage
    fault), and every ``authenticated`` one 401, so those are always included.
    """
    responses: dict[int | str, dict[str, Any]] = {
        status: {"model": success, "description": (success.__doc__ or "Success").strip()}
    }
    if links is not None:
        responses[status]["links"] = links
    grouped: dict[int, list[Refusal]] = defaultdict(list)
    always = (UNAUTHENTICATED,) if authenticated else ()
    for refusal in (*always, *refusals, SERVER_ERROR, SERVER_UNAVAILABLE):
        if refusal not in grouped[refusal.status]:
            grouped[refusal.status].append(refusal)
    for code_status in sorted(grouped):
        responses[code_status] = _refusal_response(grouped[code_status])
    return responses


def _refusal_response(refusals: list[Refusal]) -> dict[str, Any]:
    described = "; ".join(f"`{r.code}`: {r.when}" for r in refusals)
    response: dict[str, Any] = {"model": responses.ErrorEnvelope, "description": described}
    headers = _HEADERS.get(refusals[0].status)
    if headers is not None:
        response["headers"] = headers
    return response


def body_schema(model: type[BaseModel]) -> dict[str, Any]:
    """``openapi_extra`` declaring a JSON request body the route reads by hand."""
    reference = {"$ref": _COMPONENT.format(model=model.__name__)}
    return {
        "requestBody": {"required": True, "content": {"application/json": {"schema": reference}}}
    }


_HAND_READ_BODIES: Final = (request_schemas.Definition, request_schemas.FullUpdate)

_SCHEDULE_ID: Final = {"schedule_id": "$response.body#/schedule_id"}
_REVISION: Final = "$response.body#/current_revision"
SCHEDULE_LINKS: Final[dict[str, Any]] = {
    "GetSchedule": {"operationId": "get_schedule", "parameters": _SCHEDULE_ID},
    "UpdateSchedule": {"operationId": "update_schedule", "parameters": _SCHEDULE_ID},
    "PauseSchedule": {
        "operationId": "pause_schedule",
        "parameters": _SCHEDULE_ID,
        "requestBody": {"expected_revision": _REVISION},
    },
    "ResumeSchedule": {
        "operationId": "resume_schedule",
        "parameters": _SCHEDULE_ID,
        "requestBody": {"expected_revision": _REVISION},
    },
    "CancelSchedule": {
        "operationId": "cancel_schedule",
        "parameters": {**_SCHEDULE_ID, "expected_revision": _REVISION},
    },
    "ListOccurrences": {"operationId": "list_occurrences", "parameters": _SCHEDULE_ID},
}
"""From an answer carrying a schedule to the routes that take its id (and revision)."""


def publish_openapi(app: FastAPI, *, rate_limited: bool) -> None:
    """Replace ``app.openapi`` with the finished document (built once, then cached)."""

    def document() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        built = get_openapi(
            title=app.title,
            version=app.version,
            summary=app.summary,
            description=(
                "The wire contract of docs/API.md. Every non-2xx answer is the error "
                "envelope; each operation names its scope in `x-required-scope`."
            ),
            routes=app.routes,
        )
        schemas = built.setdefault("components", {}).setdefault("schemas", {})
        for name in ("HTTPValidationError", "ValidationError"):
            schemas.pop(name, None)
        _, extra = models_json_schema(
            [(model, "validation") for model in _HAND_READ_BODIES], ref_template=_COMPONENT
        )
        schemas.update(extra.get("$defs", {}))
        for operation in (op for item in built["paths"].values() for op in item.values()):
            for media in operation.get("requestBody", {}).get("content", {}).values():
                if "$ref" in media["schema"]:
                    # body_schema's reference replaces the schema FastAPI derived from the route.
                    media["schema"] = {"$ref": media["schema"]["$ref"]}
            responses = operation["responses"]
            if "HTTPValidationError" in str(responses.get("422", "")):
                del responses["422"]
            if rate_limited:
                responses["429"] = _openapi_refusal(RATE_LIMITED)
        bearer = built["components"].get("securitySchemes", {}).get("HTTPBearer")
        if bearer is not None:
            bearer["description"] = (
                "A principal's bearer token; each operation's scope is in x-required-scope."
            )
        app.openapi_schema = built
        return built

    app.openapi = document  # type: ignore[method-assign]


def _openapi_refusal(refusal: Refusal) -> dict[str, Any]:
    return {
        "description": f"`{refusal.code}`: {refusal.when}",
        "headers": _HEADERS.get(refusal.status, {}),
        "content": {
            "application/json": {"schema": {"$ref": _COMPONENT.format(model="ErrorEnvelope")}}
        },
    }
