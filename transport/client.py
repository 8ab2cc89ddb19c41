"""The async client of the schedule server: one method per route of ``API.md``.

It runs over ``httpx.AsyncClient`` and takes an optional httpx transport, so the
app can hand it an ``httpx.ASGITransport`` over the embedded server and tests a
mock transport; both modes run this same code. Every failure surfaces as a
``transport.errors.ApiError`` chained to its cause; no httpx or pydantic
exception escapes. Retries follow ``transport.retry``.

The bearer token, when configured, is sent on every request and appears in no
repr, log line or error; request bodies (which hold instructions) are never put
in errors or logs either.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random as random_module
from collections.abc import Awaitable, Callable, Mapping, Sequence
from types import TracebackType
from typing import Any, NoReturn, Self, TypeVar
from uuid import UUID

import httpx
import pydantic
from pydantic_core import PydanticSerializationError, to_jsonable_python

from transport.errors import (
    ApiError,
    ConnectionFailed,
    ProtocolError,
    ServerRefused,
    TimedOut,
    error_for,
)
from transport.models import (
    BrowserProfile,
    ErrorEnvelope,
    Folder,
    Occurrence,
    Page,
    Principal,
    ScheduleDetail,
    ScheduleSummary,
    SessionMessage,
    SessionSummary,
    WireModel,
)
from transport.retry import Outcome, delay_before_retry, parse_retry_after, should_retry

_log = logging.getLogger(__name__)

M = TypeVar("M", bound=WireModel)

_REDACTED = "[redacted]"


def _reject_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")


def _decode_json(content: bytes) -> Any:
    # NaN and Infinity are accepted by Python's json module but are not JSON.
    return json.loads(content, parse_constant=_reject_constant)


def _validation_summary(err: pydantic.ValidationError) -> str:
    problems = [
        f"{'.'.join(str(part) for part in item['loc']) or 'body'}: {item['type']}"
        for item in err.errors(include_url=False, include_input=False, include_context=False)
    ]
    shown = "; ".join(problems[:3])
    more = f" (+{len(problems) - 3} more)" if len(problems) > 3 else ""
    return shown + more


class ScheduleClient:
    """Talks to one schedule server; use as an async context manager or call ``aclose()``."""

    def __init__(
        self,
        base_url: str,
        *,
        token: str | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        timeout: float = 10.0,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        random: Callable[[], float] = random_module.random,
    ) -> None:
        if timeout <= 0:
            raise ValueError("timeout must be positive seconds")
        self._token = token or None
        self._sleep = sleep
        self._random = random
        # Redirects are not followed: a redirect could carry the token to another host.
        self._http = httpx.AsyncClient(
            base_url=base_url,
            transport=transport,
            timeout=httpx.Timeout(timeout),
            headers={"Accept": "application/json"},
            follow_redirects=False,
        )

    def __repr__(self) -> str:
        authenticated = "token" if self._token else "no token"
        return f"ScheduleClient({str(self._http.base_url)!r}, {authenticated})"

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    # Schedules

    async def list_schedules(
        self,
        *,
        states: Sequence[str] = (),
        limit: int | None = None,
        cursor: str | None = None,
    ) -> Page[ScheduleSummary]:
        """``GET /v1/schedules``; 404/405 raise ``BrowsingUnavailable``."""
        params = [("state", state) for state in states] + self._paging(limit, cursor)
        body = await self._call("GET", "/v1/schedules", params=params, list_route=True)
        return self._read(Page[ScheduleSummary], body)

    async def get_schedule(self, schedule_id: UUID) -> ScheduleDetail:
        """``GET /v1/schedules/{id}``: the only source of the complete instruction."""
        body = await self._call("GET", f"/v1/schedules/{schedule_id}")
        return self._read(ScheduleDetail, body)

    async def create_schedule(
        self, definition: Mapping[str, Any], *, idempotency_key: str
    ) -> ScheduleDetail:
        """``POST /v1/schedules``; retried like a read, since the key makes it safe."""
        body = await self._call(
            "POST",
            "/v1/schedules",
            json_body=dict(definition),
            headers={"Idempotency-Key": idempotency_key},
            idempotent_create=True,
        )
        return self._read(ScheduleDetail, body)

    async def update_schedule(
        self,
        schedule_id: UUID,
        *,
        expected_revision: int,
        definition: Mapping[str, Any],
    ) -> ScheduleDetail:
        """``PATCH /v1/schedules/{id}``: full-definition update, never retried."""
        body = await self._call(
            "PATCH",
            f"/v1/schedules/{schedule_id}",
            json_body={"expected_revision": expected_revision, "definition": dict(definition)},
        )
        return self._read(ScheduleDetail, body)

    async def pause_schedule(self, schedule_id: UUID, *, expected_revision: int) -> ScheduleDetail:
        body = await self._call(
            "POST",
            f"/v1/schedules/{schedule_id}/pause",
            json_body={"expected_revision": expected_revision},
        )
        return self._read(ScheduleDetail, body)

    async def resume_schedule(self, schedule_id: UUID, *, expected_revision: int) -> ScheduleDetail:
        body = await self._call(
            "POST",
            f"/v1/schedules/{schedule_id}/resume",
            json_body={"expected_revision": expected_revision},
        )
        return self._read(ScheduleDetail, body)

    async def cancel_schedule(self, schedule_id: UUID, *, expected_revision: int) -> ScheduleDetail:
        """``DELETE /v1/schedules/{id}``: terminal cancel; the record stays readable."""
        body = await self._call(
            "DELETE",
            f"/v1/schedules/{schedule_id}",
            params=[("expected_revision", str(expected_revision))],
        )
        return self._read(ScheduleDetail, body)

    async def list_occurrences(
        self, schedule_id: UUID, *, limit: int | None = None, cursor: str | None = None
    ) -> Page[Occurrence]:
        body = await self._call(
            "GET",
            f"/v1/schedules/{schedule_id}/occurrences",
            params=self._paging(limit, cursor),
        )
        return self._read(Page[Occurrence], body)

    # Website sign-ins

    async def list_browser_profiles(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> Page[BrowserProfile]:
        body = await self._call("GET", "/v1/browser-profiles", params=self._paging(limit, cursor))
        return self._read(Page[BrowserProfile], body)

    # Sessions

    async def list_sessions(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> Page[SessionSummary]:
        body = await self._call("GET", "/v1/sessions", params=self._paging(limit, cursor))
        return self._read(Page[SessionSummary], body)

    async def list_session_messages(
        self, session_id: UUID, *, limit: int | None = None, cursor: str | None = None
    ) -> Page[SessionMessage]:
        body = await self._call(
            "GET", f"/v1/sessions/{session_id}/messages", params=self._paging(limit, cursor)
        )
        return self._read(Page[SessionMessage], body)

    async def list_folders(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> Page[Folder]:
        """``GET /v1/folders``; a server without folders raises ``NotFound``."""
        body = await self._call("GET", "/v1/folders", params=self._paging(limit, cursor))
        return self._read(Page[Folder], body)

    async def move_session(self, session_id: UUID, *, folder_id: UUID | None) -> SessionSummary:
        """``POST /v1/sessions/{id}/folder``; None takes the session out of its folder."""
        body = await self._call(
            "POST",
            f"/v1/sessions/{session_id}/folder",
            json_body={"folder_id": None if folder_id is None else str(folder_id)},
        )
        return self._read(SessionSummary, body)

    # Principal

    async def get_principal(self) -> Principal:
        body = await self._call("GET", "/v1/principal")
        return self._read(Principal, body)

    # The request cycle

    @staticmethod
    def _paging(limit: int | None, cursor: str | None) -> list[tuple[str, str]]:
        params: list[tuple[str, str]] = []
        if limit is not None:
            params.append(("limit", str(limit)))
        if cursor is not None:
            params.append(("cursor", cursor))
        return params

    def _headers(self, extra: Mapping[str, str] | None) -> dict[str, str]:
        headers = dict(extra or {})
        if self._token is not None:
            headers["Authorization"] = f"Bearer {self._token}"
        return headers

    async def _call(
        self,
        method: str,
        path: str,
        *,
        params: Sequence[tuple[str, str]] = (),
        json_body: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
        idempotent_create: bool = False,
        list_route: bool = False,
    ) -> Any:
        """Send until success or a final failure; answer the decoded JSON of a 2xx body."""
        content = None if json_body is None else self._encode(json_body)
        request_headers = self._headers(headers)
        if content is not None:
            request_headers["Content-Type"] = "application/json"
        attempt = 0
        while True:
            attempt += 1
            failure: ApiError
            cause: BaseException | None = None
            try:
                response = await self._http.request(
                    method, path, params=list(params), content=content, headers=request_headers
                )
            except httpx.TimeoutException as err:
                failure, cause, outcome = TimedOut(), err, Outcome(None)
            except httpx.TransportError as err:
                failure, cause, outcome = ConnectionFailed(), err, Outcome(None)
            except httpx.DecodingError as err:
                raise ProtocolError(f"{ProtocolError.summary}: undecodable content") from err
            except (httpx.HTTPError, httpx.InvalidURL) as err:
                raise ConnectionFailed() from err
            else:
                if response.is_success:
                    return self._decode(response)
                retry_after = parse_retry_after(response.headers.get("Retry-After"))
                failure = self._refusal(response, list_route=list_route, retry_after=retry_after)
                outcome = Outcome(response.status_code, retry_after)
            if not should_retry(method, outcome, attempt, idempotent_create=idempotent_create):
                raise failure from cause
            delay = delay_before_retry(attempt, outcome, self._random())
            _log.info(
                "retrying %s %s in %.2f s after attempt %d (%s)",
                method,
                path,
                delay,
                attempt,
                outcome.status if outcome.status is not None else "no answer",
            )
            await self._sleep(delay)

    @staticmethod
    def _encode(body: Mapping[str, Any]) -> bytes:
        try:
            return json.dumps(to_jsonable_python(body), allow_nan=False).encode()
        except (PydanticSerializationError, ValueError) as err:
            raise TypeError("request body is not JSON-serialisable") from err

    @staticmethod
    def _decode(response: httpx.Response) -> Any:
        try:
            return _decode_json(response.content)
        except (ValueError, RecursionError) as err:
            raise ProtocolError(f"{ProtocolError.summary}: the body is not JSON") from err

    def _scrub(self, text: str) -> str:
        return text.replace(self._token, _REDACTED) if self._token else text

    def _refusal(
        self, response: httpx.Response, *, list_route: bool, retry_after: float | None
    ) -> ServerRefused:
        code: str | None = None
        message: str | None = None
        details: Mapping[str, Any] | None = None
        try:
            envelope = ErrorEnvelope.model_validate(_decode_json(response.content))
        except (ValueError, RecursionError):
            # pydantic.ValidationError is a ValueError: any malformed envelope lands here,
            # and the refusal maps by status alone.
            pass
        else:
            code = envelope.error.code
            message = self._scrub(envelope.error.message)
            details = envelope.error.details
            if self._token and self._token in json.dumps(details, default=str):
                details = {}
        return error_for(
            response.status_code,
            code,
            message,
            details,
            list_route=list_route,
            retry_after=retry_after,
        )

    @staticmethod
    def _read(model: type[M], body: Any) -> M:
        try:
            return model.model_validate(body)
        except pydantic.ValidationError as err:
            sentence = f"{ProtocolError.summary}: {_validation_summary(err)}"
            raise ProtocolError(sentence) from err
