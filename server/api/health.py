"""The two probes a load balancer or orchestrator asks, with no token and no rate limit.

``GET /healthz`` answers 200 while the process serves HTTP at all; it touches
nothing else, so a slow database never makes a live replica look dead.
``GET /readyz`` answers 200 only when the database answers and its schema is at
the newest migration; otherwise 503 ``server.not_ready`` with ``details.reason``
(``database_unreachable`` or ``migrations_pending``), so traffic goes to another
replica. Neither says anything about the database beyond that reason: no URL,
no host, no driver message.
"""

# No postponed annotations here: FastAPI evaluates the route signatures.

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from server.api.errors import ApiError
from server.api.openapi import NOT_READY, answers
from server.api.wire_schemas import ProbeStatus
from server.storage.ports import Readiness, Store

NO_AUTHENTICATION: dict[str, Any] = {"x-no-authentication": True, "security": []}

_NOT_READY_MESSAGES = {
    Readiness.DATABASE_UNREACHABLE: "The database does not answer.",
    Readiness.MIGRATIONS_PENDING: "The database schema is not at the newest migration.",
}


def health_routes(store: Store) -> APIRouter:
    router = APIRouter(tags=["operations"])

    @router.get(
        "/healthz",
        operation_id="healthz",
        openapi_extra=NO_AUTHENTICATION,
        responses=answers(ProbeStatus, authenticated=False),
    )
    async def healthz() -> JSONResponse:
        """Liveness: the process is up and serving HTTP."""
        return JSONResponse({"status": "ok"}, headers={"Cache-Control": "no-store"})

    @router.get(
        "/readyz",
        operation_id="readyz",
        openapi_extra=NO_AUTHENTICATION,
        responses=answers(ProbeStatus, NOT_READY, authenticated=False),
    )
    def readyz() -> JSONResponse:
        """Readiness: the database answers and its schema is at the newest migration."""
        readiness = store.readiness()
        if readiness is not Readiness.READY:
            raise ApiError(
                503,
                "server.not_ready",
                _NOT_READY_MESSAGES[readiness],
                {"reason": readiness.value},
                headers={"Cache-Control": "no-store"},
            )
        return JSONResponse({"status": "ready"}, headers={"Cache-Control": "no-store"})

    return router
