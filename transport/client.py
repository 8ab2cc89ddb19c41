"""The async client of the schedule server: one method per route of ``docs/API.md``.

It runs over ``httpx.AsyncClient`` and takes an optional httpx transport, so the
app can hand it an ``httpx.ASGITransport`` over the embedded server and tests a
mock transport; both modes run this same code. The request cycle (retries,
decoding, failure mapping) is ``transport.exchange.Exchange``: every failure
surfaces as a ``transport.errors.ApiError`` chained to its cause.

The bearer token, when configured, is sent on every request and appears in no
repr, log line or error; request bodies (which hold instructions) are never put
in errors or logs either.
"""

from __future__ import annotations

import asyncio
import random as random_module
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import datetime
from types import TracebackType
from typing import Any, Self
from uuid import UUID

import httpx

from transport.errors import InvalidRequest, ListOrderNotOffered
from transport.exchange import Exchange
from transport.models import (
    BrowserProfile,
    Folder,
    ListOrder,
    Occurrence,
    Page,
    Principal,
    Projection,
    ScheduleCounts,
    ScheduleDetail,
    ScheduleSummary,
    SessionMessage,
    SessionSummary,
)
from transport.optional_routes import OptionalRoutes
from transport.query import instant, paging, search


class ScheduleClient(OptionalRoutes):
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
        self._exchange = Exchange(
            base_url, token=token, transport=transport, timeout=timeout, sleep=sleep, random=random
        )

    def __repr__(self) -> str:
        authenticated = "token" if self._exchange.authenticated else "no token"
        return f"ScheduleClient({self._exchange.base_url!r}, {authenticated})"

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
        await self._exchange.aclose()

    # Schedules

    async def list_schedules(
        self,
        *,
        states: Sequence[str] = (),
        limit: int | None = None,
        cursor: str | None = None,
        query: str | None = None,
        needs_attention: bool = False,
        order: ListOrder = ListOrder.UPDATED,
    ) -> Page[ScheduleSummary]:
        """``GET /v1/schedules``; 404/405 raise ``BrowsingUnavailable``.

        ``query`` is the search text (``q``): every word must occur in the
        title or instruction. A blank one is not sent, as the server would
        ignore it. A cursor must be replayed with the same ``query``,
        ``needs_attention`` and ``order`` it came with; the server refuses it
        otherwise. The default order is not sent; a 400 to ``order=next_fire``
        that blames the order or nothing in particular (an older server)
        raises ``ListOrderNotOffered``.
        """
        params = [("state", state) for state in states]
        params += search(query)
        if needs_attention:
            params.append(("needs_attention", "true"))
        if order is not ListOrder.UPDATED:
            params.append(("order", order))
        params += paging(limit, cursor)
        try:
            body = await self._exchange.call("GET", "/v1/schedules", params=params, list_route=True)
        except InvalidRequest as refusal:
            if order is ListOrder.UPDATED or refusal.details.get("field") not in (None, "order"):
                raise
            raise ListOrderNotOffered(
                refusal.status, refusal.code, refusal.message, refusal.details
            ) from refusal
        return self._exchange.read(Page[ScheduleSummary], body)

    async def schedule_counts(self, query: str | None = None) -> ScheduleCounts:
        """``GET /v1/schedules/counts``: current, history and needs-attention totals."""
        body = await self._exchange.call("GET", "/v1/schedules/counts", params=search(query))
        return self._exchange.read(ScheduleCounts, body)

    async def get_schedule(self, schedule_id: UUID) -> ScheduleDetail:
        """``GET /v1/schedules/{id}``: the only source of the complete instruction."""
        body = await self._exchange.call("GET", f"/v1/schedules/{schedule_id}")
        return self._exchange.read(ScheduleDetail, body)

    async def create_schedule(
        self, definition: Mapping[str, Any], *, idempotency_key: str
    ) -> ScheduleDetail:
        """``POST /v1/schedules``; retried like a read, since the key makes it safe."""
        body = await self._exchange.call(
            "POST",
            "/v1/schedules",
            json_body=dict(definition),
            headers={"Idempotency-Key": idempotency_key},
            idempotent_create=True,
        )
        return self._exchange.read(ScheduleDetail, body)

    async def update_schedule(
        self,
        schedule_id: UUID,
        *,
        expected_revision: int,
        definition: Mapping[str, Any],
    ) -> ScheduleDetail:
        """``PATCH /v1/schedules/{id}``: full-definition update, never retried."""
        body = await self._exchange.call(
            "PATCH",
            f"/v1/schedules/{schedule_id}",
            json_body={"expected_revision": expected_revision, "definition": dict(definition)},
        )
        return self._exchange.read(ScheduleDetail, body)

    async def pause_schedule(self, schedule_id: UUID, *, expected_revision: int) -> ScheduleDetail:
        body = await self._exchange.call(
            "POST",
            f"/v1/schedules/{schedule_id}/pause",
            json_body={"expected_revision": expected_revision},
        )
        return self._exchange.read(ScheduleDetail, body)

    async def resume_schedule(self, schedule_id: UUID, *, expected_revision: int) -> ScheduleDetail:
        body = await self._exchange.call(
            "POST",
            f"/v1/schedules/{schedule_id}/resume",
            json_body={"expected_revision": expected_revision},
        )
        return self._exchange.read(ScheduleDetail, body)

    async def cancel_schedule(self, schedule_id: UUID, *, expected_revision: int) -> ScheduleDetail:
        """``DELETE /v1/schedules/{id}``: terminal cancel; the record stays readable."""
        body = await self._exchange.call(
            "DELETE",
            f"/v1/schedules/{schedule_id}",
            params=[("expected_revision", str(expected_revision))],
        )
        return self._exchange.read(ScheduleDetail, body)

    async def list_occurrences(
        self, schedule_id: UUID, *, limit: int | None = None, cursor: str | None = None
    ) -> Page[Occurrence]:
        body = await self._exchange.call(
            "GET",
            f"/v1/schedules/{schedule_id}/occurrences",
            params=paging(limit, cursor),
        )
        return self._exchange.read(Page[Occurrence], body)

    async def get_projection(
        self, schedule_id: UUID, *, start: datetime, end: datetime
    ) -> Projection:
        """``GET /v1/schedules/{id}/projection`` over ``[start, end)`` (aware, at most 92 days)."""
        params = [("from", instant(start)), ("to", instant(end))]
        body = await self._exchange.call(
            "GET", f"/v1/schedules/{schedule_id}/projection", params=params
        )
        return self._exchange.read(Projection, body)

    # Website sign-ins

    async def list_browser_profiles(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> Page[BrowserProfile]:
        body = await self._exchange.call(
            "GET", "/v1/browser-profiles", params=paging(limit, cursor)
        )
        return self._exchange.read(Page[BrowserProfile], body)

    # Sessions

    async def list_sessions(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> Page[SessionSummary]:
        body = await self._exchange.call("GET", "/v1/sessions", params=paging(limit, cursor))
        return self._exchange.read(Page[SessionSummary], body)

    async def list_session_messages(
        self, session_id: UUID, *, limit: int | None = None, cursor: str | None = None
    ) -> Page[SessionMessage]:
        body = await self._exchange.call(
            "GET", f"/v1/sessions/{session_id}/messages", params=paging(limit, cursor)
        )
        return self._exchange.read(Page[SessionMessage], body)

    async def list_folders(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> Page[Folder]:
        """``GET /v1/folders``; a server without folders raises ``NotFound``."""
        body = await self._exchange.call("GET", "/v1/folders", params=paging(limit, cursor))
        return self._exchange.read(Page[Folder], body)

    async def move_session(self, session_id: UUID, *, folder_id: UUID | None) -> SessionSummary:
        """``POST /v1/sessions/{id}/folder``; None takes the session out of its folder."""
        body = await self._exchange.call(
            "POST",
            f"/v1/sessions/{session_id}/folder",
            json_body={"folder_id": None if folder_id is None else str(folder_id)},
        )
        return self._exchange.read(SessionSummary, body)

    # Principal

    async def get_principal(self) -> Principal:
        body = await self._exchange.call("GET", "/v1/principal")
        return self._exchange.read(Principal, body)
