"""The schedule server as an ASGI application.

``create_app`` needs no lifespan events (``httpx.ASGITransport`` does not send
them): everything is wired at construction. Its cursor secret is per process
unless given, so a restart invalidates outstanding cursors, which clients
answer by reloading page one. ``rate_limit`` caps each principal's requests
(``server/api/rate_limit.py``); None, for the embedded one-user server, caps
nothing. ``auth_failures`` slows token guessing per client address
(``auth_throttle``); None turns that off.
``on_schedule_change`` is the schedule worker's wake-up (see
``ScheduleService``); None when no worker runs in this process. ``drain``
is the stand-alone server's SIGTERM drain (``/readyz`` answers 503 once it
has begun); None in the app, which no load balancer asks. ``metrics``
times every request (``RequestTiming``, outermost) and, with
``metrics_route``, is served at ``GET /metrics`` to loopback callers that
came through no proxy; ``proxies`` are the trusted proxies' addresses
(``--forwarded-allow-ips``), whose requests it never answers
(``server/api/metrics.py``).

Two ASGI layers wrap the routes: ``RequestBodyGuard`` (size limit, storable
JSON) inside ``CrashGuard`` (the 500 envelope for anything unexpected), and
``server.api.openapi`` publishes the document at ``GET /openapi.json``.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from datetime import datetime

from fastapi import FastAPI

from auth_throttle import AuthThrottle, FailurePolicy
from server.api.auth import Authenticator
from server.api.cursor import CursorCodec
from server.api.errors import CrashGuard, install_error_handlers
from server.api.health import health_routes
from server.api.metrics import Network, RequestTiming, ServerMetrics, metrics_routes
from server.api.openapi import publish_openapi
from server.api.profiles import profile_routes
from server.api.rate_limit import RateLimit, RequestLimiter
from server.api.request_body import RequestBodyGuard
from server.api.schedules import schedule_routes
from server.api.sessions import session_routes
from server.control.service import ScheduleService
from server.identity import IdentityProvider
from server.stopping import Drain
from server.storage.ports import Store
from server.worker.admission import Admission
from server.worker.observer import SILENT


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
    app.include_router(schedule_routes(service, store, auth, cursors))
    app.include_router(session_routes(store, auth, cursors))
    app.include_router(profile_routes(store, auth, cursors))
    app.include_router(health_routes(store, drain))
    if metrics is not None and metrics_route:
        app.include_router(metrics_routes(metrics, proxies))
    install_error_handlers(app)
    # The last added is the outermost: the crash guard also covers the body guard.
    app.add_middleware(RequestBodyGuard)
    app.add_middleware(CrashGuard)
    if metrics is not None:
        app.add_middleware(RequestTiming, metrics=metrics)
    publish_openapi(app, rate_limited=rate_limit is not None or throttle is not None)
    return app
