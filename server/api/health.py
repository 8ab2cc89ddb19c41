"""The two probes a load balancer or orchestrator asks, with no token and no rate limit.

``GET /healthz`` answers 200 while the process serves HTTP at all, touching
nothing else, so a slow database never makes a live replica look dead.
``GET /readyz`` answers 200 only when the process takes traffic: not draining
(SIGTERM came), the database answers, is at the newest migration and takes
writes. Otherwise 503 ``server.not_ready`` with ``details.reason``
(``draining``, ``database_unreachable``, ``migrations_pending``,
``storage_fault``) and nothing more about the database. After a storage fault
each ``/readyz`` tries one cheap write; the first that succeeds ends the fault.
"""

# No postponed annotations here: FastAPI evaluates the route signatures.

from typing import Any

from fastapi import APIRouter, Response

from server.api.errors import ApiError
from server.api.openapi import NOT_READY, answers
from server.api.responses import ProbeStatus, answer
from server.stopping import Drain
from server.storage.faults import is_storage_fault
from server.storage.ports import Readiness, Store

NO_AUTHENTICATION: dict[str, Any] = {"x-no-authentication": True, "security": []}

_NOT_READY_MESSAGES = {
    Readiness.DATABASE_UNREACHABLE: "The database does not answer.",
    Readiness.MIGRATIONS_PENDING: "The database schema is not at the newest migration.",
}
DRAINING = "draining"
STORAGE_FAULT = "storage_fault"
_NO_STORE = {"Cache-Control": "no-store"}


def _not_ready(reason: str, message: str) -> ApiError:
    return ApiError(503, "server.not_ready", message, {"reason": reason}, headers=_NO_STORE)


def health_routes(store: Store, drain: Drain | None = None) -> APIRouter:
    router = APIRouter(tags=["operations"])

    @router.get(
        "/healthz",
        operation_id="healthz",
        openapi_extra=NO_AUTHENTICATION,
        responses=answers(ProbeStatus, authenticated=False),
    )
    async def healthz() -> Response:
        """Liveness: the process is up and serving HTTP."""
        return answer(ProbeStatus(status="ok"), headers=_NO_STORE)

    @router.get(
        "/readyz",
        operation_id="readyz",
        openapi_extra=NO_AUTHENTICATION,
        responses=answers(ProbeStatus, NOT_READY, authenticated=False),
    )
    def readyz() -> Response:
        """Readiness: not draining, the database answers, is migrated and takes writes."""
        if drain is not None and drain.begun:
            raise _not_ready(DRAINING, "The server is shutting down.")
        readiness = store.readiness()
        if readiness is not Readiness.READY:
            raise _not_ready(readiness.value, _NOT_READY_MESSAGES[readiness])
        if store.faults.faulted:
            try:
                store.probe_write()
            except Exception as err:
                if not is_storage_fault(err):
                    raise
                raise _not_ready(STORAGE_FAULT, "The database does not take writes.") from None
        return answer(ProbeStatus(status="ready"), headers=_NO_STORE)

    return router
