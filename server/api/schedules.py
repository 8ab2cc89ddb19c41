"""The schedule routes of docs/API.md: list and search, counts, point read, create, update,
lifecycle, occurrences, projection."""

# No postponed annotations here: FastAPI must evaluate the route signatures, whose
# dependency aliases are local to the router factory.

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Body, Depends, Header, Query, Response
from pydantic import BaseModel, ConfigDict
from starlette.exceptions import HTTPException as StarletteHTTPException

from server.api.auth import Authenticator, scope_extra
from server.api.cursor import CursorCodec, instant_key, next_fire_key
from server.api.errors import invalid_request
from server.api.openapi import (
    DEFINITION_REFUSED,
    IDEMPOTENCY_CONFLICT,
    MALFORMED,
    REVISION_CONFLICT,
    SCHEDULE_LINKS,
    SCHEDULE_NOT_FOUND,
    SCOPE_MISSING,
    TERMINAL,
    TOO_LARGE,
    answers,
    body_schema,
)
from server.api.paging import DEFAULT_LIMIT, Cursor, Limit, Listing, QueryInteger
from server.api.request_schemas import (
    MAX_REVISION,
    Definition,
    ExpectedRevision,
    RevisionNumber,
)
from server.api.request_schemas import FullUpdate as FullUpdateSchema
from server.api.responses import answer
from server.api.schedule_responses import (
    Occurrence,
    OccurrencePage,
    Projection,
    ScheduleCounts,
    ScheduleDetail,
    SchedulePage,
    ScheduleSummary,
)
from server.api.window import window
from server.control.scheduler_status import SchedulerWatch
from server.control.service import ScheduleService
from server.domain.json_values import text_refusal
from server.domain.states import ScheduleState
from server.identity import Principal
from server.storage.next_fire_order import next_fire_position
from server.storage.ports import Store
from server.storage.records import OccurrenceRecord, ScheduleView
from server.storage.search_text import MAX_QUERY_LENGTH, search_words


class FullUpdate(BaseModel):
    """Body of PATCH as read: the definition stays raw for ``parse_definition``'s refusals."""

    model_config = ConfigDict(extra="ignore")
    expected_revision: RevisionNumber
    definition: dict[str, Any]


_READ = (MALFORMED, SCOPE_MISSING, SCHEDULE_NOT_FOUND)
_LIFECYCLE = (*_READ, REVISION_CONFLICT, TERMINAL)


def window_edge(name: str, meaning: str) -> Any:
    return Query(
        alias=name,
        min_length=1,
        max_length=64,
        json_schema_extra={"format": "date-time"},
        description=f"{meaning}: an RFC 3339 instant with an offset.",
    )


SearchQuery = Annotated[
    str | None,
    Query(
        description=(
            "Words that must each occur in the current title or instruction, ignoring case"
            f" and accents; every character literal; at most {MAX_QUERY_LENGTH} characters."
            " Empty: no filter."
        ),
        json_schema_extra={"maxLength": MAX_QUERY_LENGTH},
    ),
]
NeedsAttention = Annotated[
    bool,
    Query(
        description="Only schedules paused by the failure limit, whose last outcome"
        " needs attention, or that are overdue."
    ),
]


UPDATED_ORDER = "updated"
NEXT_FIRE_ORDER = "next_fire"
Order = Annotated[
    str,
    Query(
        description=(
            f"`{UPDATED_ORDER}` (default): newest-updated first. `{NEXT_FIRE_ORDER}`: soonest"
            " first, ACTIVE by next firing, then PAUSED, then the rest; its own cursors."
        ),
        json_schema_extra={"enum": [UPDATED_ORDER, NEXT_FIRE_ORDER]},
    ),
]


def _soonest_first(order: str) -> bool:
    """Whether ``order`` asks for the soonest-first order; an unknown one is 400 ``order``."""
    if order not in (UPDATED_ORDER, NEXT_FIRE_ORDER):
        raise invalid_request("The list has no such order.", field="order", reason="unknown")
    return order == NEXT_FIRE_ORDER


def query_words(q: str | None) -> tuple[str, ...]:
    """The folded words of ``q``; a ``q`` over the limit is 400 ``too_long``."""
    if q is not None and len(q) > MAX_QUERY_LENGTH:
        raise invalid_request(
            f"The search is longer than {MAX_QUERY_LENGTH} characters.",
            field="q",
            reason="too_long",
        )
    return search_words(q)


IdempotencyKey = Annotated[
    str,
    Header(
        alias="Idempotency-Key",
        min_length=1,
        max_length=200,
        pattern=r"\S",
        description="Same key and body: the same schedule back; same key, other body: 409.",
    ),
]


def schedule_routes(
    service: ScheduleService,
    store: Store,
    auth: Authenticator,
    cursors: CursorCodec,
    clock: Callable[[], datetime],
    watch: SchedulerWatch,
) -> APIRouter:
    router = APIRouter(prefix="/v1/schedules", tags=["schedules"])

    def summary(now: datetime) -> Callable[[ScheduleView], ScheduleSummary]:
        def of(view: ScheduleView) -> ScheduleSummary:
            return ScheduleSummary.of(view, watch.overdue_since(view.schedule.next_fire_at, now))

        return of

    def detail(view: ScheduleView) -> ScheduleDetail:
        """The detail as answered now: ``overdue_since`` when its firing is overdue."""
        overdue = watch.overdue_since(view.schedule.next_fire_at, clock())
        return ScheduleDetail.of(view, overdue)

    reader = Annotated[Principal, Depends(auth.require("schedule.read"))]
    writer = Annotated[Principal, Depends(auth.require("schedule.write"))]
    canceller = Annotated[Principal, Depends(auth.require("schedule.cancel"))]

    @router.get(
        "",
        operation_id="list_schedules",
        openapi_extra=scope_extra("schedule.read"),
        responses=answers(SchedulePage, MALFORMED, SCOPE_MISSING),
    )
    def list_schedules(
        principal: reader,
        state: Annotated[
            list[ScheduleState] | None, Query(description="Repeatable state filter.")
        ] = None,
        q: SearchQuery = None,
        needs_attention: NeedsAttention = False,
        order: Order = UPDATED_ORDER,
        limit: Limit = DEFAULT_LIMIT,
        cursor: Cursor = None,
    ) -> Response:
        """Schedules newest-updated first, or soonest first by ``order``; filters before paging."""
        soonest = _soonest_first(order)
        states = frozenset(str(s) for s in state or ())
        words = query_words(q)
        qualifiers = [",".join(sorted(states))]
        if needs_attention:
            qualifiers.append("needs_attention")
        if words:
            qualifiers.append(f"q={q}")  # the cursor is bound to the search as sent
        now = clock()
        if soonest:
            return replace(_SOONEST_SCHEDULES, item=summary(now)).respond(
                cursors,
                principal,
                cursor,
                limit,
                lambda after, count: store.schedules.next_fire_page(
                    principal.owner,
                    states,
                    after,
                    count,
                    words=words,
                    needs_attention=needs_attention,
                    overdue_before=watch.overdue_before(now),
                ),
                *qualifiers,
            )
        return replace(_SCHEDULES, item=summary(now)).respond(
            cursors,
            principal,
            cursor,
            limit,
            lambda after, count: store.schedules.page(
                principal.owner,
                states,
                after,
                count,
                words=words,
                needs_attention=needs_attention,
                overdue_before=watch.overdue_before(now),
            ),
            *qualifiers,
        )

    @router.get(
        "/counts",
        operation_id="schedule_counts",
        openapi_extra=scope_extra("schedule.read"),
        responses=answers(ScheduleCounts, MALFORMED, SCOPE_MISSING),
    )
    def schedule_counts(principal: reader, q: SearchQuery = None) -> Response:
        """The caller's current, history and needs-attention totals, with the list's search."""
        words = query_words(q)
        counts = store.schedules.counts(principal.owner, words, watch.overdue_before(clock()))
        return answer(ScheduleCounts.of(counts))

    @router.api_route("/counts", methods=["PATCH", "DELETE"], include_in_schema=False)
    def counts_take_no_writes() -> None:
        """``/counts`` is not a schedule id: its writes are 405, not a malformed id's 400."""
        raise StarletteHTTPException(405)

    @router.get(
        "/{schedule_id}",
        operation_id="get_schedule",
        openapi_extra=scope_extra("schedule.read"),
        responses=answers(ScheduleDetail, *_READ),
    )
    def get_schedule(principal: reader, schedule_id: UUID) -> Response:
        """The point read: the only answer that carries the complete instruction."""
        return answer(detail(service.get(principal, schedule_id)))

    @router.post(
        "",
        status_code=201,
        operation_id="create_schedule",
        openapi_extra=scope_extra("schedule.write") | body_schema(Definition),
        responses=answers(
            ScheduleDetail,
            MALFORMED,
            SCOPE_MISSING,
            IDEMPOTENCY_CONFLICT,
            TOO_LARGE,
            *DEFINITION_REFUSED,
            status=201,
            links=SCHEDULE_LINKS,
        ),
    )
    def create_schedule(
        principal: writer,
        definition: Annotated[dict[str, Any], Body()],
        idempotency_key: IdempotencyKey,
    ) -> Response:
        """Create from a definition; the same key and body returns the same schedule."""
        if not idempotency_key.strip():
            raise invalid_request("Creating a schedule needs an Idempotency-Key header.")
        refused = text_refusal(idempotency_key)
        if refused is not None:
            raise invalid_request(
                "The Idempotency-Key cannot be stored.", field="Idempotency-Key", reason=refused
            )
        view = service.create(principal, definition, idempotency_key)
        return answer(detail(view), status_code=201)

    @router.patch(
        "/{schedule_id}",
        operation_id="update_schedule",
        openapi_extra=scope_extra("schedule.write") | body_schema(FullUpdateSchema),
        responses=answers(
            ScheduleDetail, *_LIFECYCLE, TOO_LARGE, *DEFINITION_REFUSED, links=SCHEDULE_LINKS
        ),
    )
    def update_schedule(principal: writer, schedule_id: UUID, body: FullUpdate) -> Response:
        """Full-definition update; an unchanged canonical definition writes no revision."""
        view = service.update(principal, schedule_id, body.expected_revision, body.definition)
        return answer(detail(view))

    @router.post(
        "/{schedule_id}/pause",
        operation_id="pause_schedule",
        openapi_extra=scope_extra("schedule.write"),
        responses=answers(ScheduleDetail, *_LIFECYCLE, TOO_LARGE, links=SCHEDULE_LINKS),
    )
    def pause_schedule(principal: writer, schedule_id: UUID, body: ExpectedRevision) -> Response:
        """Pause an ACTIVE schedule (pause_reason ``user``); repeating it changes nothing."""
        return answer(detail(service.pause(principal, schedule_id, body.expected_revision)))

    @router.post(
        "/{schedule_id}/resume",
        operation_id="resume_schedule",
        openapi_extra=scope_extra("schedule.write"),
        responses=answers(ScheduleDetail, *_LIFECYCLE, TOO_LARGE, links=SCHEDULE_LINKS),
    )
    def resume_schedule(principal: writer, schedule_id: UUID, body: ExpectedRevision) -> Response:
        """Resume a PAUSED schedule from the next instant after now; never backfills."""
        return answer(detail(service.resume(principal, schedule_id, body.expected_revision)))

    @router.delete(
        "/{schedule_id}",
        operation_id="cancel_schedule",
        openapi_extra=scope_extra("schedule.cancel"),
        responses=answers(ScheduleDetail, *_LIFECYCLE),
    )
    def cancel_schedule(
        principal: canceller,
        schedule_id: UUID,
        expected_revision: Annotated[int, Query(ge=1, le=MAX_REVISION), QueryInteger],
    ) -> Response:
        """Terminal cancel; the record stays readable."""
        return answer(detail(service.cancel(principal, schedule_id, expected_revision)))

    @router.get(
        "/{schedule_id}/occurrences",
        operation_id="list_occurrences",
        openapi_extra=scope_extra("schedule.read"),
        responses=answers(OccurrencePage, *_READ),
    )
    def list_occurrences(
        principal: reader,
        schedule_id: UUID,
        limit: Limit = DEFAULT_LIMIT,
        cursor: Cursor = None,
    ) -> Response:
        """The occurrence ledger, newest nominal instant first."""
        service.get(principal, schedule_id)
        return _OCCURRENCES.respond(
            cursors,
            principal,
            cursor,
            limit,
            lambda after, count: store.occurrences.page(principal.owner, schedule_id, after, count),
            str(schedule_id),
        )

    @router.get(
        "/{schedule_id}/projection",
        operation_id="get_projection",
        openapi_extra=scope_extra("schedule.read"),
        responses=answers(Projection, *_READ),
    )
    def get_projection(
        principal: reader,
        schedule_id: UUID,
        start: Annotated[str, window_edge("from", "The window's first instant")],
        end: Annotated[str, window_edge("to", "The instant after the window")],
    ) -> Response:
        """Firings, non-firing dates and past occurrences in ``[from, to)``, at most 92 days."""
        start_at, end_at = window(start, end)
        return answer(
            Projection.of(
                service.project(principal, schedule_id, start_at, end_at, watch.overdue_after)
            )
        )

    return router


def _schedule_position(view: ScheduleView) -> list[str]:
    return [view.schedule.updated_at.isoformat(), str(view.schedule.schedule_id)]


def _soonest_position(view: ScheduleView) -> list[str]:
    group, instant, schedule_id = next_fire_position(view.schedule)
    return [str(int(group)), instant.isoformat(), str(schedule_id)]


def _occurrence_position(record: OccurrenceRecord) -> list[str]:
    return [record.nominal_fire_at.isoformat(), str(record.occurrence_id)]


_SCHEDULES = Listing("schedules", _schedule_position, instant_key, ScheduleSummary.of, SchedulePage)
# Its own scope name: a cursor of one order replayed under the other is refused.
_SOONEST_SCHEDULES = Listing(
    "schedules.next_fire", _soonest_position, next_fire_key, ScheduleSummary.of, SchedulePage
)
_OCCURRENCES = Listing(
    "occurrences", _occurrence_position, instant_key, Occurrence.of, OccurrencePage
)
