"""The schedule server as an ASGI application.

``create_app`` needs no lifespan events (``httpx.ASGITransport`` does not send
them): everything is wired at construction. Its cursor secret is per process
unless given, so a restart invalidates outstanding cursors, which clients
answer by reloading page one.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import datetime

from fastapi import FastAPI

from server.api.auth import Authenticator
from server.api.cursor import CursorCodec
from server.api.errors import install_error_handlers
from server.api.profiles import profile_routes
from server.api.schedules import schedule_routes
from server.api.sessions import session_routes
from server.identity import IdentityProvider
from server.scheduling.service import ScheduleService
from server.storage.ports import Store


def create_app(
    store: Store,
    identity: IdentityProvider,
    clock: Callable[[], datetime],
    *,
    cursor_secret: bytes | None = None,
) -> FastAPI:
    app = FastAPI(
        title="Schedule server",
        version="1.0.0",
        summary="Schedules, their occurrences, sessions and website sign-ins (API.md).",
        docs_url=None,
        redoc_url=None,
    )
    auth = Authenticator(identity)
    cursors = CursorCodec(cursor_secret or secrets.token_bytes(32))
    service = ScheduleService(store, clock)
    app.include_router(schedule_routes(service, store, auth, cursors))
    app.include_router(session_routes(store, auth, cursors))
    app.include_router(profile_routes(store, auth, cursors))
    install_error_handlers(app)
    return app
