"""The error envelope of docs/API.md on every non-2xx answer, whatever raised it.

``{"error": {"code", "message", "details"}}``: control-plane refusals map to
their codes; FastAPI's validation errors become 400 ``request.invalid``
(locations and error types only, never the input, which may hold a secret);
unknown routes and methods keep 404 / 405 (405 with ``Allow``). ``CrashGuard``,
the server's outer layer, answers anything else: a storage fault 503
``server.unavailable`` with ``Retry-After``, the rest 500 ``server.error``. It
logs the exception's type and a request id (sent as ``details.request_id``),
never its text, and returns normally, so the connection stays alive.
"""

from __future__ import annotations

import logging
import re
from typing import Any
from uuid import uuid4

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from server.api.responses import ErrorBody, ErrorEnvelope, answer
from server.definitions import errors as refusal
from server.storage.faults import describe_fault, is_storage_fault

log = logging.getLogger("server.api")

RETRY_AFTER_SECONDS = 5
"""What a 503 ``server.unavailable`` asks a client to wait: a probe interval, about."""


class ApiError(Exception):
    """A refusal that already knows its status, code and details."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        details: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details = details or {}
        self.headers = headers


def invalid_request(message: str, **details: Any) -> ApiError:
    return ApiError(400, "request.invalid", message, details)


def envelope(error: ApiError) -> Response:
    body = ErrorBody(code=error.code, message=error.message, details=error.details)
    return answer(ErrorEnvelope(error=body), error.status, error.headers)


def from_refusal(err: refusal.ControlPlaneRefusal) -> ApiError:
    """The contract's status and code for a control-plane refusal."""
    match err:
        case refusal.ScheduleNotFound():
            return ApiError(404, "schedule.not_found", "No such schedule.")
        case refusal.SessionNotFound():
            return ApiError(404, "session.not_found", "No such session.")
        case refusal.FolderNotFound():
            return ApiError(404, "folder.not_found", "No such folder.")
        case refusal.RevisionConflict(current_revision=current):
            return ApiError(
                409,
                "schedule.revision_conflict",
                "The schedule changed since it was read.",
                {"current_revision": current},
            )
        case refusal.ScheduleTerminal(state=state):
            return ApiError(
                409,
                "schedule.terminal",
                "The schedule has ended and cannot change.",
                {"state": state},
            )
        case refusal.IdempotencyConflict():
            return ApiError(
                409,
                "request.idempotency_conflict",
                "This Idempotency-Key was already used for a different request.",
            )
        case refusal.SessionNotChat():
            return ApiError(
                409, "session.not_chat", "Sessions created by a schedule cannot be filed."
            )
        case refusal.InvalidDefinition(field=field, reason=reason):
            return ApiError(
                422,
                "schedule.invalid_definition",
                f"The definition's {field} is invalid ({reason}).",
                {"field": field, "reason": reason},
            )
        case refusal.BrowserProfileUnavailable(reason=reason):
            return ApiError(
                422,
                "schedule.browser_profile_unavailable",
                "The browser profile is not one of your ready sign-ins.",
                {"field": "browser_profile_id", "reason": reason},
            )
        case refusal.ScopeNotGranted(scope=scope):
            return ApiError(
                422,
                "schedule.scope_not_granted",
                f"You do not hold the requested scope {scope}.",
                {"field": "requested_scopes", "reason": "scope_not_granted", "scope": scope},
            )
        case refusal.SecretDetected(field=field, kind=kind):
            return ApiError(
                422,
                "schedule.secret_detected",
                "The definition contains something that looks like a credential;"
                " schedules never store credentials.",
                {"field": field, "reason": "secret_detected", "kind": kind},
            )
    return ApiError(500, "server.error", "The server could not complete the request.")


def install_error_handlers(app: FastAPI) -> None:
    async def on_api_error(_request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        return envelope(exc)

    async def on_refusal(_request: Request, exc: Exception) -> Response:
        assert isinstance(exc, refusal.ControlPlaneRefusal)
        return envelope(from_refusal(exc))

    async def on_validation(_request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        problems = [
            {"location": [str(part) for part in item.get("loc", ())], "type": item.get("type")}
            for item in exc.errors()
        ]
        return envelope(invalid_request("The request is malformed.", errors=problems))

    async def on_http(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        if exc.status_code == 404:
            error = ApiError(404, "route.not_found", "No such route.")
        elif exc.status_code == 405:
            error = ApiError(
                405,
                "route.method_not_allowed",
                "This route does not take that method.",
                headers={"Allow": ", ".join(_allowed_methods(request))},
            )
        elif exc.status_code < 500:
            error = invalid_request("The request is malformed.")
            error.status = exc.status_code
        else:
            error = ApiError(exc.status_code, "server.error", "The server failed.")
        return envelope(error)

    app.add_exception_handler(ApiError, on_api_error)
    app.add_exception_handler(refusal.ControlPlaneRefusal, on_refusal)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(StarletteHTTPException, on_http)


def _allowed_methods(request: Request) -> list[str]:
    """Every method the published document lists for this path (Starlette names one route's)."""
    paths = request.app.openapi()["paths"]
    literal = paths.get(request.url.path)
    if literal is not None:  # /v1/schedules/counts, not /v1/schedules/{schedule_id}
        return sorted(method.upper() for method in literal)
    methods: set[str] = set()
    for template, operations in paths.items():
        parts = re.split(r"(\{[^}]+\})", template)
        pattern = "".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts)
        if re.fullmatch(pattern, request.url.path):
            methods |= {method.upper() for method in operations}
    return sorted(methods)


class CrashGuard:
    """The ASGI layer that answers every exception no handler took with the 500 envelope."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracked(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except Exception as exc:
            request_id = uuid4().hex
            # The type and an id only: an exception's text may quote a request body.
            if is_storage_fault(exc):
                log.error(
                    "storage fault (%s) while serving request %s; answered 503",
                    describe_fault(exc),
                    request_id,
                )
                error = storage_unavailable(request_id)
            else:
                log.error("unhandled %s while serving request %s", type(exc).__name__, request_id)
                error = ApiError(
                    500,
                    "server.error",
                    "The server could not complete the request.",
                    {"request_id": request_id},
                )
            if not started:
                await envelope(error)(scope, receive, send)


def storage_unavailable(request_id: str) -> ApiError:
    """The 503 for a storage fault: the transaction rolled back; the same request may come again."""
    return ApiError(
        503,
        "server.unavailable",
        "The server cannot store changes right now; try again shortly.",
        {"request_id": request_id, "retry_after_seconds": RETRY_AFTER_SECONDS},
        headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
    )
