"""``GET /v1/agenda/density``: the agenda's items counted per hour or local day (docs/API.md).

The window, ``state``, ``q`` and ``needs_attention`` are read and refused
exactly as ``GET /v1/agenda`` reads them; ``bucket`` is ``hour`` or ``day``
(else 400 naming ``bucket``), ``timezone`` any zone a cadence may name
(default ``UTC``; else 400 naming ``timezone``) and sets where day buckets
end. The counting is ``server.agenda.density``'s.
"""

# No postponed annotations here: FastAPI must evaluate the route signatures, whose
# dependency aliases are local to the router factory.

from collections.abc import Callable
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Response
from pydantic import Field

from server.agenda.density import MAX_BUCKETS, BucketSize, Density, TooManyBuckets, busy_hours
from server.api.agenda import PausedToo
from server.api.auth import Authenticator, scope_extra
from server.api.errors import invalid_request
from server.api.openapi import MALFORMED, SCOPE_MISSING, answers
from server.api.request_schemas import Open
from server.api.responses import Instant, answer
from server.api.schedules import NeedsAttention, SearchQuery, query_words, window_edge
from server.api.window import window
from server.control.scheduler_status import SchedulerWatch
from server.domain.cadence import CadenceError, parse_cadence
from server.identity import Principal
from server.storage.agenda_port import AgendaFilter
from server.storage.ports import Store


class DensityBucket(Open):
    start: Instant = Field(description="The bucket's first instant; it ends where the next starts.")
    count: int = Field(ge=0, description="The agenda's items in the bucket.")


class AgendaDensity(Open):
    """The agenda's items counted per bucket of the window, every bucket listed."""

    from_: Instant = Field(alias="from")
    to: Instant
    bucket: str = Field(description="hour or day.")
    timezone: str = Field(description="The zone whose midnights end day buckets.")
    buckets: list[DensityBucket]

    @classmethod
    def of(cls, density: Density) -> "AgendaDensity":
        return cls.model_validate(
            {
                "from": density.start,
                "to": density.end,
                "bucket": density.size,
                "timezone": density.zone,
                "buckets": [DensityBucket(start=s, count=n) for s, n in density.buckets],
            }
        )


def agenda_density_routes(
    store: Store, auth: Authenticator, clock: Callable[[], datetime], watch: SchedulerWatch
) -> APIRouter:
    router = APIRouter(prefix="/v1/agenda", tags=["agenda"])
    reader = Annotated[Principal, Depends(auth.require("schedule.read"))]

    @router.get(
        "/density",
        operation_id="agenda_density",
        openapi_extra=scope_extra("schedule.read"),
        responses=answers(AgendaDensity, MALFORMED, SCOPE_MISSING),
    )
    def agenda_density(
        principal: reader,
        start: Annotated[str, window_edge("from", "The window's first instant")],
        end: Annotated[str, window_edge("to", "The instant after the window")],
        bucket: Annotated[
            str, Query(description="hour or day.", json_schema_extra={"enum": list(BucketSize)})
        ],
        timezone: Annotated[
            str, Query(description="The IANA zone whose midnights end days.")
        ] = "UTC",
        state: PausedToo = None,
        q: SearchQuery = None,
        needs_attention: NeedsAttention = False,
    ) -> Response:
        """The agenda's items per hour or local day of ``[from, to)``, at most 2,208 buckets."""
        span = window(start, end)
        size = _bucket_size(bucket)
        zone = _zone(timezone)
        now = clock()
        where = AgendaFilter(
            words=query_words(q),
            needs_attention=needs_attention,
            overdue_before=watch.overdue_before(now),
        )
        try:
            density = busy_hours(
                store.density,
                principal.owner,
                span,
                size,
                zone,
                now,
                as_if_resumed=state == "PAUSED",
                where=where,
            )
        except TooManyBuckets as err:
            raise invalid_request(
                f"The window holds more than {MAX_BUCKETS} buckets of one {size}.",
                field="bucket",
                reason="too_many_buckets",
            ) from err
        return answer(AgendaDensity.of(density))

    return router


def _bucket_size(text: str) -> BucketSize:
    try:
        return BucketSize(text)
    except ValueError as err:
        raise invalid_request(
            "The parameter bucket must be hour or day.", field="bucket", reason="invalid_bucket"
        ) from err


def _zone(name: str) -> str:
    """``name`` when a cadence may name it (the same zones, ``localtime`` refused)."""
    try:
        parse_cadence({"kind": "DAILY", "local_time": "00:00", "timezone": name})
    except CadenceError as err:
        raise invalid_request(
            "The parameter timezone must be an IANA zone such as Europe/Paris.",
            field="timezone",
            reason="invalid_timezone",
        ) from err
    return name
