"""``GET /v1/scheduler``: whether firings are happening (docs/API.md, The scheduler).

Read from storage (``server.control.scheduler_status``), so a replica
running without the scheduler answers for the cluster. Never cached: the
answer ages by the second.
"""

# No postponed annotations here: FastAPI evaluates the route signatures.

from collections.abc import Callable
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Response

from server.api.auth import Authenticator, scope_extra
from server.api.openapi import SCOPE_MISSING, answers
from server.api.responses import SchedulerStatus, answer
from server.control.scheduler_status import SchedulerWatch, scheduler_status
from server.identity import Principal
from server.storage.ports import Store

_NO_STORE = {"Cache-Control": "no-store"}


def scheduler_routes(
    store: Store, auth: Authenticator, clock: Callable[[], datetime], watch: SchedulerWatch
) -> APIRouter:
    router = APIRouter(tags=["scheduler"])
    reader = Annotated[Principal, Depends(auth.require("schedule.read"))]

    @router.get(
        "/v1/scheduler",
        operation_id="get_scheduler",
        openapi_extra=scope_extra("schedule.read"),
        responses=answers(SchedulerStatus, SCOPE_MISSING),
    )
    def get_scheduler(principal: reader) -> Response:
        """running, late or stopped by the newest heartbeat; the caller's due backlog."""
        status = scheduler_status(store, principal.owner, clock(), watch)
        return answer(SchedulerStatus.of(status), headers=_NO_STORE)

    return router
