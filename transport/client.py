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
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, Self
from uuid import UUID

import httpx

from transport.errors import InvalidRequest, ListOrderNotOffered, ProtocolError, ServerRefused
from transport.exchange import Exchange
from transport.models import (
    AGENDA_NOT_OFFERED,
    FEEDS_NOT_OFFERED,
    SCHEDULER_NOT_OFFERED,
    AgendaBucket,
    AgendaDensity,
    AgendaItem,
    AgendaNotOffered,
    BrowserProfile,
    CreatedFeed,
    Feed,
    FeedsNotOffered,
    Folder,
    ListOrder,
    Occurrence,
    Page,
    Principal,
    Projection,
    ScheduleCounts,
    ScheduleDetail,
    SchedulerNotOffered,
    SchedulerStatus,
    ScheduleSummary,
    SessionMessage,
    SessionSummary,
)


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
        params += self._search(query)
        if needs_attention:
            params.append(("needs_attention", "true"))
        if order is not ListOrder.UPDATED:
            params.append(("order", order))
        params += self._paging(limit, cursor)
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
        body = await self._exchange.call("GET", "/v1/schedules/counts", params=self._search(query))
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
            params=self._paging(limit, cursor),
        )
        return self._exchange.read(Page[Occurrence], body)

    async def get_projection(
        self, schedule_id: UUID, *, start: datetime, end: datetime
    ) -> Projection:
        """``GET /v1/schedules/{id}/projection`` over ``[start, end)`` (aware, at most 92 days)."""
        params = [("from", _instant(start)), ("to", _instant(end))]
        body = await self._exchange.call(
            "GET", f"/v1/schedules/{schedule_id}/projection", params=params
        )
        return self._exchange.read(Projection, body)

    # Agenda

    async def list_agenda(
        self,
        *,
        start: datetime,
        end: datetime,
        include_paused: bool = False,
        query: str | None = None,
        needs_attention: bool = False,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> Page[AgendaItem] | AgendaNotOffered:
        """``GET /v1/agenda`` over ``[start, end)``; without the route: ``AGENDA_NOT_OFFERED``.

        ``include_paused`` sends ``state=PAUSED`` (paused schedules as if resumed).
        A cursor must be replayed with the window and filters it came with.
        """
        params = self._agenda_filters(start, end, include_paused, query, needs_attention)
        params += self._paging(limit, cursor)
        body = await self._offered("/v1/agenda", params)
        return body if body is AGENDA_NOT_OFFERED else self._exchange.read(Page[AgendaItem], body)

    async def agenda_density(
        self,
        *,
        start: datetime,
        end: datetime,
        bucket: AgendaBucket,
        timezone: str | None = None,
        include_paused: bool = False,
        query: str | None = None,
        needs_attention: bool = False,
    ) -> AgendaDensity | AgendaNotOffered:
        """``GET /v1/agenda/density``: the agenda's items per hour or local day of ``timezone``."""
        params = self._agenda_filters(start, end, include_paused, query, needs_attention)
        params.append(("bucket", bucket))
        if timezone is not None:
            params.append(("timezone", timezone))
        body = await self._offered("/v1/agenda/density", params)
        return body if body is AGENDA_NOT_OFFERED else self._exchange.read(AgendaDensity, body)

    async def _offered(self, path: str, params: list[tuple[str, str]]) -> Any:
        """The decoded answer of ``GET path``, or ``AGENDA_NOT_OFFERED`` on 404/405."""
        try:
            return await self._exchange.call("GET", path, params=params)
        except ServerRefused as refusal:
            if refusal.status in (404, 405):
                return AGENDA_NOT_OFFERED
            raise

    def _agenda_filters(
        self,
        start: datetime,
        end: datetime,
        include_paused: bool,
        query: str | None,
        needs_attention: bool,
    ) -> list[tuple[str, str]]:
        params = [("from", _instant(start)), ("to", _instant(end))]
        if include_paused:
            params.append(("state", "PAUSED"))
        params += self._search(query)
        if needs_attention:
            params.append(("needs_attention", "true"))
        return params

    # The scheduler

    async def scheduler_status(self) -> SchedulerStatus | SchedulerNotOffered:
        """``GET /v1/scheduler``: whether firings happen; 404/405 is ``SCHEDULER_NOT_OFFERED``."""
        body = await self._offered("/v1/scheduler", [])
        if body is AGENDA_NOT_OFFERED:  # _offered's answer to 404/405, whatever the route
            return SCHEDULER_NOT_OFFERED
        return self._exchange.read(SchedulerStatus, body)

    # Calendar feeds

    async def create_feed(
        self, schedule_id: UUID | None, *, name: str | None = None
    ) -> CreatedFeed | FeedsNotOffered:
        """``POST /v1/feeds``: a feed of one schedule (None: all); never retried.

        The answer's ``url`` is made absolute against this client's server
        when the server sent only its path.
        """
        body: dict[str, Any] = {"schedule_id": None if schedule_id is None else str(schedule_id)}
        if name is not None:
            body["name"] = name
        answer = await self._feeds_call("POST", "/v1/feeds", json_body=body)
        if answer is FEEDS_NOT_OFFERED:
            return answer
        created = self._exchange.read(CreatedFeed, answer)
        address = str(httpx.URL(self._exchange.base_url).join(created.url))
        return created.model_copy(update={"url": address})

    async def list_feeds(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> Page[Feed] | FeedsNotOffered:
        """``GET /v1/feeds``: the caller's feeds, newest first, without their addresses."""
        answer = await self._feeds_call("GET", "/v1/feeds", params=self._paging(limit, cursor))
        return answer if answer is FEEDS_NOT_OFFERED else self._exchange.read(Page[Feed], answer)

    async def revoke_feed(self, feed_id: UUID) -> FeedsNotOffered | None:
        """``DELETE /v1/feeds/{id}``; an unknown feed raises ``NotFound``."""
        answer = await self._feeds_call("DELETE", f"/v1/feeds/{feed_id}", raw=True)
        return FEEDS_NOT_OFFERED if answer is FEEDS_NOT_OFFERED else None

    async def feed_calendar(self, address: str) -> bytes:
        """The iCalendar text a feed's address serves, fetched from this client's server.

        Only the address's ``/feeds/…`` path is used, so the request (and the
        token) never goes to another host whatever the address says.
        """
        path = httpx.URL(address).path
        start = path.rfind("/feeds/")
        if start < 0:
            raise ProtocolError(f"{ProtocolError.summary}: the feed's address has no /feeds/ path")
        content: bytes = await self._exchange.call(
            "GET", path[start:], headers={"Accept": "text/calendar"}, raw=True
        )
        return content

    async def _feeds_call(
        self,
        method: str,
        path: str,
        *,
        params: list[tuple[str, str]] | None = None,
        json_body: Mapping[str, Any] | None = None,
        raw: bool = False,
    ) -> Any:
        """The answer of a feed route, or ``FEEDS_NOT_OFFERED`` when the server has none.

        404 naming the schedule or the feed stays a ``NotFound``; any other 404
        (no such route) or a 405 means the server offers no feeds.
        """
        try:
            return await self._exchange.call(
                method, path, params=params or [], json_body=json_body, raw=raw
            )
        except ServerRefused as refusal:
            if refusal.status == 405 or (
                refusal.status == 404 and refusal.code not in _FEED_ROUTE_CODES
            ):
                return FEEDS_NOT_OFFERED
            raise

    # Website sign-ins

    async def list_browser_profiles(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> Page[BrowserProfile]:
        body = await self._exchange.call(
            "GET", "/v1/browser-profiles", params=self._paging(limit, cursor)
        )
        return self._exchange.read(Page[BrowserProfile], body)

    # Sessions

    async def list_sessions(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> Page[SessionSummary]:
        body = await self._exchange.call("GET", "/v1/sessions", params=self._paging(limit, cursor))
        return self._exchange.read(Page[SessionSummary], body)

    async def list_session_messages(
        self, session_id: UUID, *, limit: int | None = None, cursor: str | None = None
    ) -> Page[SessionMessage]:
        body = await self._exchange.call(
            "GET", f"/v1/sessions/{session_id}/messages", params=self._paging(limit, cursor)
        )
        return self._exchange.read(Page[SessionMessage], body)

    async def list_folders(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> Page[Folder]:
        """``GET /v1/folders``; a server without folders raises ``NotFound``."""
        body = await self._exchange.call("GET", "/v1/folders", params=self._paging(limit, cursor))
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

    @staticmethod
    def _search(query: str | None) -> list[tuple[str, str]]:
        return [] if query is None or not query.strip() else [("q", query)]

    @staticmethod
    def _paging(limit: int | None, cursor: str | None) -> list[tuple[str, str]]:
        params: list[tuple[str, str]] = []
        if limit is not None:
            params.append(("limit", str(limit)))
        if cursor is not None:
            params.append(("cursor", cursor))
        return params


_FEED_ROUTE_CODES = frozenset({"schedule.not_found", "feed.not_found"})
"""The 404s of a server that has the feed routes: the item, not the route, is unknown."""


def _instant(moment: datetime) -> str:
    """RFC 3339 in UTC with ``Z``, as the contract writes instants; naive ones are refused."""
    if moment.utcoffset() is None:
        raise ValueError("an instant sent to the server must be timezone-aware")
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")
