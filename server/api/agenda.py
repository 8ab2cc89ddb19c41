"""``GET /v1/agenda``: every firing of the caller's schedules in a window, paged (docs/API.md).

The window is read and refused as the projection's (``window``); ``q`` and
``needs_attention`` filter as the list does; ``state=PAUSED`` adds paused
schedules as if resumed; a past instant nothing recorded is ``expected`` by the
projection's rule (``server.agenda.items.with_expected``). The cursor holds the
last item's (instant, schedule id) and how far the next page's first band
should reach; it is bound to the caller, the window and the filters. The
sweep is ``server.agenda``'s.
"""

# No postponed annotations here: FastAPI must evaluate the route signatures, whose
# dependency aliases are local to the router factory.

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query, Response

from server.agenda.items import with_expected
from server.agenda.sweep import AgendaPage as AgendaPageRecord
from server.agenda.sweep import agenda_page
from server.api.agenda_responses import AgendaItem, AgendaPage
from server.api.auth import Authenticator, scope_extra
from server.api.cursor import CursorCodec, instant_key
from server.api.errors import invalid_request
from server.api.openapi import MALFORMED, SCOPE_MISSING, answers
from server.api.paging import Cursor, QueryInteger
from server.api.responses import answer
from server.api.schedules import NeedsAttention, SearchQuery, query_words, window_edge
from server.api.window import window
from server.control.projection import MAX_WINDOW
from server.control.scheduler_status import SchedulerWatch
from server.identity import Principal
from server.storage.agenda_port import AgendaFilter
from server.storage.ports import Store

DEFAULT_LIMIT = 100
MAX_LIMIT = 200
AgendaLimit = Annotated[
    int, Query(ge=1, le=MAX_LIMIT, description=f"Page size, 1..{MAX_LIMIT}."), QueryInteger
]
PausedToo = Annotated[
    Literal["PAUSED"] | None,
    Query(description="PAUSED adds paused schedules' firings as if resumed now."),
]


def agenda_routes(
    store: Store,
    auth: Authenticator,
    cursors: CursorCodec,
    clock: Callable[[], datetime],
    watch: SchedulerWatch,
) -> APIRouter:
    router = APIRouter(prefix="/v1/agenda", tags=["agenda"])
    reader = Annotated[Principal, Depends(auth.require("schedule.read"))]

    @router.get(
        "",
        operation_id="list_agenda",
        openapi_extra=scope_extra("schedule.read"),
        responses=answers(AgendaPage, MALFORMED, SCOPE_MISSING),
    )
    def list_agenda(
        principal: reader,
        start: Annotated[str, window_edge("from", "The window's first instant")],
        end: Annotated[str, window_edge("to", "The instant after the window")],
        state: PausedToo = None,
        q: SearchQuery = None,
        needs_attention: NeedsAttention = False,
        limit: AgendaLimit = DEFAULT_LIMIT,
        cursor: Cursor = None,
    ) -> Response:
        """Every firing in ``[from, to)`` (at most 92 days), by instant, then schedule id."""
        span = window(start, end)
        words = query_words(q)
        scope = "|".join(
            (
                "agenda",
                principal.tenant_id,
                principal.principal_id,
                span[0].isoformat(),
                span[1].isoformat(),
                state or "",
                "needs_attention" if needs_attention else "",
                f"q={q}" if words else "",  # bound to the search as sent
            )
        )
        after, band = None, None
        if cursor is not None:
            position = cursors.decode(scope, cursor)
            after, band = instant_key(position), _band(position)
        now = clock()
        overdue_before = watch.overdue_before(now)
        where = AgendaFilter(
            words=words, needs_attention=needs_attention, overdue_before=overdue_before
        )
        page = agenda_page(
            store.agenda,
            principal.owner,
            span,
            now,
            as_if_resumed=state == "PAUSED",
            where=where,
            after=after,
            limit=limit,
            band=band,
        )
        owner = principal.owner
        items = with_expected(
            page.items,
            lambda ids: store.schedules.active_since(owner, ids),
            overdue_before,
        )
        return answer(
            AgendaPage(
                items=[AgendaItem.of(item) for item in items],
                next_cursor=_next_cursor(cursors, scope, page),
            )
        )

    return router


def _band(position: list[str]) -> timedelta:
    """The band hint a cursor carries; we signed it, so it reads."""
    try:
        seconds = float(position[2])
    except (IndexError, ValueError) as err:
        raise invalid_request("The cursor is not valid here.", field="cursor") from err
    return min(max(timedelta(seconds=seconds), timedelta(0)), MAX_WINDOW)


def _next_cursor(cursors: CursorCodec, scope: str, page: AgendaPageRecord) -> str | None:
    if not page.more:
        return None
    last = page.items[-1]
    position = [last.at.isoformat(), str(last.schedule_id), str(page.band.total_seconds())]
    return cursors.encode(scope, position)
