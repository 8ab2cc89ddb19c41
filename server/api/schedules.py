"""The schedule routes of API.md: list, point read, create, update, lifecycle, occurrences."""

# No postponed annotations here: FastAPI must evaluate the route signatures, whose
# dependency aliases are local to the router factory.

from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Body, Depends, Header, Query
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from server.api import wire
from server.api.auth import Authenticator, scope_extra
from server.api.cursor import CursorCodec, instant_key
from server.api.errors import invalid_request
from server.api.paging import DEFAULT_LIMIT, Cursor, Limit, Listing
from server.identity import Principal
from server.scheduling.service import ScheduleService
from server.storage.ports import Store
from server.storage.records import OccurrenceRecord, ScheduleView

STATES = frozenset({"ACTIVE", "PAUSED", "COMPLETED", "CANCELLED"})


class ExpectedRevision(BaseModel):
    """Body of pause and resume."""

    model_config = ConfigDict(extra="ignore")
    expected_revision: int = Field(strict=True, ge=1)


class FullUpdate(BaseModel):
    """Body of PATCH: the complete definition, unknown fields included."""

    model_config = ConfigDict(extra="ignore")
    expected_revision: int = Field(strict=True, ge=1)
    definition: dict[str, Any]


def schedule_routes(
    service: ScheduleService, store: Store, auth: Authenticator, cursors: CursorCodec
) -> APIRouter:
    router = APIRouter(prefix="/v1/schedules", tags=["schedules"])
    reader = Annotated[Principal, Depends(auth.require("schedule.read"))]
    writer = Annotated[Principal, Depends(auth.require("schedule.write"))]
    canceller = Annotated[Principal, Depends(auth.require("schedule.cancel"))]

    @router.get("", openapi_extra=scope_extra("schedule.read"))
    def list_schedules(
        principal: reader,
        state: Annotated[list[str] | None, Query(description="Repeatable state filter.")] = None,
        limit: Limit = DEFAULT_LIMIT,
        cursor: Cursor = None,
    ) -> JSONResponse:
        """Schedules newest-updated first; the state filter applies before cursor and limit."""
        states = frozenset(state or ())
        if not states <= STATES:
            raise invalid_request("Unknown schedule state in the filter.", field="state")
        return _SCHEDULES.respond(
            cursors,
            principal,
            cursor,
            limit,
            lambda after, count: store.schedules.page(principal.owner, states, after, count),
            ",".join(sorted(states)),
        )

    @router.get("/{schedule_id}", openapi_extra=scope_extra("schedule.read"))
    def get_schedule(principal: reader, schedule_id: UUID) -> JSONResponse:
        """The point read: the only answer that carries the complete instruction."""
        return JSONResponse(wire.schedule_detail(service.get(principal, schedule_id)))

    @router.post("", status_code=201, openapi_extra=scope_extra("schedule.write"))
    def create_schedule(
        principal: writer,
        definition: Annotated[dict[str, Any], Body()],
        idempotency_key: Annotated[
            str | None, Header(alias="Idempotency-Key", max_length=200)
        ] = None,
    ) -> JSONResponse:
        """Create from a definition; the same key and body returns the same schedule."""
        if not idempotency_key or not idempotency_key.strip():
            raise invalid_request("Creating a schedule needs an Idempotency-Key header.")
        view = service.create(principal, definition, idempotency_key)
        return JSONResponse(wire.schedule_detail(view), status_code=201)

    @router.patch("/{schedule_id}", openapi_extra=scope_extra("schedule.write"))
    def update_schedule(principal: writer, schedule_id: UUID, body: FullUpdate) -> JSONResponse:
        """Full-definition update; an unchanged canonical definition writes no revision."""
        view = service.update(principal, schedule_id, body.expected_revision, body.definition)
        return JSONResponse(wire.schedule_detail(view))

    @router.post("/{schedule_id}/pause", openapi_extra=scope_extra("schedule.write"))
    def pause_schedule(
        principal: writer, schedule_id: UUID, body: ExpectedRevision
    ) -> JSONResponse:
        return JSONResponse(
            wire.schedule_detail(service.pause(principal, schedule_id, body.expected_revision))
        )

    @router.post("/{schedule_id}/resume", openapi_extra=scope_extra("schedule.write"))
    def resume_schedule(
        principal: writer, schedule_id: UUID, body: ExpectedRevision
    ) -> JSONResponse:
        return JSONResponse(
            wire.schedule_detail(service.resume(principal, schedule_id, body.expected_revision))
        )

    @router.delete("/{schedule_id}", openapi_extra=scope_extra("schedule.cancel"))
    def cancel_schedule(
        principal: canceller,
        schedule_id: UUID,
        expected_revision: Annotated[int, Query(ge=1)],
    ) -> JSONResponse:
        """Terminal cancel; the record stays readable."""
        return JSONResponse(
            wire.schedule_detail(service.cancel(principal, schedule_id, expected_revision))
        )

    @router.get("/{schedule_id}/occurrences", openapi_extra=scope_extra("schedule.read"))
    def list_occurrences(
        principal: reader,
        schedule_id: UUID,
        limit: Limit = DEFAULT_LIMIT,
        cursor: Cursor = None,
    ) -> JSONResponse:
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

    return router


def _schedule_position(view: ScheduleView) -> list[str]:
    return [view.schedule.updated_at.isoformat(), str(view.schedule.schedule_id)]


def _occurrence_position(record: OccurrenceRecord) -> list[str]:
    return [record.nominal_fire_at.isoformat(), str(record.occurrence_id)]


_SCHEDULES = Listing("schedules", _schedule_position, instant_key, wire.schedule_summary)
_OCCURRENCES = Listing("occurrences", _occurrence_position, instant_key, wire.occurrence)
