"""The schedule server as an ASGI application, wired whole at construction.

``create_app`` needs no lifespan events (``httpx.ASGITransport`` sends none).
Its cursor secret is per process unless given, so a restart ends paging in
progress and clients reload page one. The keyword arguments are what the
stand-alone server adds to the embedded one: a per-principal rate limit, the
token-guessing throttle (``auth_throttle``), the worker's wake-up, the SIGTERM
drain and ``metrics`` (``server/api/metrics.py``, imported only when asked
for, so the embedded server never loads prometheus-client). ``watch`` holds
the overdue, late and stopped thresholds (``server.control.scheduler_status``);
``public_url``, the address clients reach it at, makes feed addresses absolute. ``RequestBodyGuard``
(size, storable JSON) sits inside ``CrashGuard`` (the 500 envelope), and
``server.api.openapi`` publishes ``GET /openapi.json``.
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING

from fastapi import FastAPI

from auth_throttle import AuthThrottle, FailurePolicy
from server.api.agenda import agenda_routes
from server.api.agenda_density import agenda_density_routes
from server.api.auth import Authenticator
from server.api.cursor import CursorCodec
from server.api.errors import CrashGuard, install_error_handlers
from server.api.feeds import feed_routes
from server.api.health import health_routes
from server.api.openapi import publish_openapi
from server.api.profiles import profile_routes
from server.api.rate_limit import RateLimit, RequestLimiter
from server.api.request_body import RequestBodyGuard
from server.api.scheduler import scheduler_routes
from server.api.schedules import schedule_routes
from server.api.sessions import session_routes
from server.control.scheduler_status import SchedulerWatch
from server.control.service import ScheduleService
from server.firing.admission import Admission
from server.firing.observer import SILENT
from server.identity import IdentityProvider
from server.stopping import Drain
from server.storage.ports import Store

if TYPE_CHECKING:
    from server.api.metrics import Network, ServerMetrics


def create_app(
    store: Store,
    identity: IdentityProvider,
    clock: Callable[[], datetime],
    *,
    cursor_secret: bytes | None = None,
    rate_limit: RateLimit | None = None,
    auth_failures: FailurePolicy | None = FailurePolicy(),  # noqa: B008 (frozen, immutable)
    on_schedule_change: Callable[[], None] | None = None,
    admission: Admission | None = None,
    drain: Drain | None = None,
    metrics: ServerMetrics | None = None,
    metrics_route: bool = False,
    proxies: Sequence[Network] = (),
    watch: SchedulerWatch = SchedulerWatch(),  # noqa: B008 (frozen, immutable)
    public_url: str | None = None,
) -> FastAPI:
    app = FastAPI(
        title="Schedule server",
        version="1.0.0",
        summary="Schedules, their occurrences, sessions and website sign-ins (docs/API.md).",
        docs_url=None,
        redoc_url=None,
    )
    limiter = None if rate_limit is None else RequestLimiter(rate_limit, clock)
    throttle = None if auth_failures is None else AuthThrottle(auth_failures, clock)
    auth = Authenticator(identity, limiter, throttle)
    cursors = CursorCodec(cursor_secret or secrets.token_bytes(32))
    service = ScheduleService(
        store,
        clock,
        on_schedule_change,
        identity=identity,
        admission=admission,
        observer=SILENT if metrics is None else metrics,
    )
    with _pydantic_v1_unimportable():
        app.include_router(schedule_routes(service, store, auth, cursors, clock, watch))
        app.include_router(scheduler_routes(store, auth, clock, watch))
        app.include_router(agenda_density_routes(store, auth, clock, watch))
        app.include_router(agenda_routes(store, auth, cursors, clock, watch))
        app.include_router(session_routes(store, auth, cursors))
        app.include_router(
            feed_routes(service, store, auth, identity, cursors, clock, throttle, public_url)
        )
        app.include_router(profile_routes(store, auth, cursors))
        app.include_router(health_routes(store, drain))
        if metrics is not None and metrics_route:
            from server.api.metrics import metrics_routes

            app.include_router(metrics_routes(metrics, proxies))
    install_error_handlers(app)
    # The last added is the outermost: the crash guard also covers the body guard.
    app.add_middleware(RequestBodyGuard)
    app.add_middleware(CrashGuard)
    if metrics is not None:
        from server.api.metrics import RequestTiming

        app.add_middleware(RequestTiming, metrics=metrics)
    publish_openapi(app, rate_limited=rate_limit is not None or throttle is not None)
    return app


@contextmanager
def _pydantic_v1_unimportable() -> Iterator[None]:
    """While routes are declared, ``import pydantic.v1`` fails at once.

    FastAPI imports that whole package on the first route it declares only to
    refuse pydantic v1 models; this server has none (only v2 models), and on an
    ``ImportError`` FastAPI's check answers "not v1", so the start skips loading it.
    A process that has already loaded it keeps it.
    """
    if "pydantic.v1" in sys.modules:
        yield
        return
    sys.modules["pydantic.v1"] = None  # type: ignore[assignment]  # Python's "not importable" mark
    try:
        yield
    finally:
        if sys.modules.get("pydantic.v1", ...) is None:
            del sys.modules["pydantic.v1"]
