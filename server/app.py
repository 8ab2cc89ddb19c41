"""The schedule server as an ASGI application.

``create_app`` needs no lifespan events (``httpx.ASGITransport`` does not send
them): everything is wired at construction. Its cursor secret is per process
unless given, so a restart invalidates outstanding cursors, which clients
answer by reloading page one. ``rate_limit`` caps each principal's requests
(``server/api/rate_limit.py``); None, for the embedded one-user server, caps
nothing.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import datetime
from typing import Any

from fastapi import FastAPI

from server.api.auth import Authenticator
from server.api.cursor import CursorCodec
from server.api.errors import install_error_handlers
from server.api.health import health_routes
from server.api.profiles import profile_routes
from server.api.rate_limit import RateLimit, RequestLimiter
from server.api.schedules import schedule_routes
from server.api.sessions import session_routes
from server.identity import IdentityProvider
from server.scheduling.service import ScheduleService
from server.storage.ports import Store

_RATE_LIMITED_RESPONSE: dict[int | str, dict[str, Any]] = {
    429: {
        "description": "request.rate_limited: this principal's allowance is spent",
        "headers": {
            "Retry-After": {
                "description": "whole seconds until a request is admitted again",
                "schema": {"type": "integer", "minimum": 1},
            }
        },
    }
}


def create_app(
    store: Store,
    identity: IdentityProvider,
    clock: Callable[[], datetime],
    *,
    cursor_secret: bytes | None = None,
    rate_limit: RateLimit | None = None,
) -> FastAPI:
    app = FastAPI(
        title="Schedule server",
        version="1.0.0",
        summary="Schedules, their occurrences, sessions and website sign-ins (API.md).",
        docs_url=None,
        redoc_url=None,
    )
    limiter = None if rate_limit is None else RequestLimiter(rate_limit, clock)
    auth = Authenticator(identity, limiter)
    cursors = CursorCodec(cursor_secret or secrets.token_bytes(32))
    service = ScheduleService(store, clock)
    responses = {} if rate_limit is None else _RATE_LIMITED_RESPONSE
    app.include_router(schedule_routes(service, store, auth, cursors), responses=responses)
    app.include_router(session_routes(store, auth, cursors), responses=responses)
    app.include_router(profile_routes(store, auth, cursors), responses=responses)
    app.include_router(health_routes(store))
    install_error_handlers(app)
    return app
