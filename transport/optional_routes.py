"""The routes our server adds to the contract, which a compliant server may lack.

The agenda and its busy strip, the scheduler's health and calendar feeds:
each answers a "not offered" value on 404/405 (the app then hides the
feature) instead of an error, except a 404 that names an item the route has.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any
from uuid import UUID

import httpx

from transport.errors import ProtocolError, ServerRefused
from transport.exchange import Exchange
from transport.models import (
    AGENDA_NOT_OFFERED,
    FEEDS_NOT_OFFERED,
    SCHEDULER_NOT_OFFERED,
    AgendaBucket,
    AgendaDensity,
    AgendaItem,
    AgendaNotOffered,
    CreatedFeed,
    Feed,
    FeedsNotOffered,
    Page,
    SchedulerNotOffered,
    SchedulerStatus,
)
from transport.query import instant, paging, search

_FEED_ROUTE_CODES = frozenset({"schedule.not_found", "feed.not_found"})
"""The 404s of a server that has the feed routes: the item, not the route, is unknown."""


class OptionalRoutes:
    """The client's methods for the routes a server may lack (``ScheduleClient`` has them)."""

    _exchange: Exchange

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
        params += paging(limit, cursor)
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
        params = [("from", instant(start)), ("to", instant(end))]
        if include_paused:
            params.append(("state", "PAUSED"))
        params += search(query)
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
        answer = await self._feeds_call("GET", "/v1/feeds", params=paging(limit, cursor))
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
