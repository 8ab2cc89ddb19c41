"""The projection route for calendar scenarios: answers built per window, failed or held.

Registering the route replaces the quiet empty month every test gets from the
``router`` fixture. ``build(schedule_id, start, end)`` makes the answer for a
request's own window (its ``from`` and ``to`` texts); ``queue`` holds answers
used first, in order: a ``Reply`` as is, a ``Held`` waiting for its release
(its ``then`` None means "build it"), None to build.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import httpx
import respx

from devtools.api_bodies import PROJECTION_PATH, projection
from tests.viewmodels.fake_server import Held, Reply, ok

Build = Callable[[str, str, str], dict[str, Any]]


class CalendarServer:
    def __init__(self, router: respx.MockRouter, build: Build | None = None) -> None:
        self.build: Build = build or (
            lambda schedule_id, start, end: projection(schedule_id, start, end)
        )
        self.queue: list[Reply | Held | None] = []
        self.requests: list[httpx.Request] = []
        router.route(method="GET", path__regex=PROJECTION_PATH).mock(side_effect=self._answer)

    def hold(self) -> Held:
        """The next request waits until ``release()``; then it gets the built answer."""
        held = Held(ok(None))
        self.queue.append(held)
        return held

    @property
    def windows(self) -> list[tuple[datetime, datetime]]:
        """Each request's ``[from, to)``."""
        return [
            (
                datetime.fromisoformat(request.url.params["from"]),
                datetime.fromisoformat(request.url.params["to"]),
            )
            for request in self.requests
        ]

    async def _answer(self, request: httpx.Request, schedule_id: str) -> httpx.Response:
        self.requests.append(request)
        queued = self.queue.pop(0) if self.queue else None
        if isinstance(queued, Held):
            queued.arrived.set()
            await queued.gate.wait()
            queued = None if queued.then.body is None else queued.then
        if queued is None:
            params = request.url.params
            queued = ok(self.build(schedule_id, params["from"], params["to"]))
        return httpx.Response(queued.status, json=queued.body)
