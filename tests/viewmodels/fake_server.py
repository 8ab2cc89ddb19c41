"""A scripted schedule server on respx: answers by route and cursor, can hold answers.

Each route answers from a queue of scripted answers per key (the last one
repeats), records every request, and can hold an answer on an ``asyncio.Event``
so a test decides, deterministically, which of two overlapping requests
completes first. No sleeps: a test waits for ``Held.arrived`` instead.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

import httpx
import respx

from transport.retry import MAX_ATTEMPTS


@dataclass
class Reply:
    """A plain JSON answer."""

    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Held:
    """An answer that waits for ``release()``; ``arrived`` is set when its request came in."""

    then: Reply
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    gate: asyncio.Event = field(default_factory=asyncio.Event)

    def release(self) -> None:
        self.gate.set()


Answer = Reply | Held


def ok(body: Any) -> Reply:
    return Reply(200, body)


def server_down() -> tuple[Reply, ...]:
    """A 500 repeated for every attempt the client makes (reads are retried)."""
    return tuple(refused(500, "server.error") for _ in range(MAX_ATTEMPTS))


def refused(status: int, code: str, message: str = "", **details: Any) -> Reply:
    return Reply(status, {"error": {"code": code, "message": message, "details": details}})


class ScriptedRoute:
    """One method+path; answers by a key derived from the request (cursor by default)."""

    def __init__(
        self, router: respx.MockRouter, method: str, path: str, *, key: str = "cursor"
    ) -> None:
        """``key``: ``"cursor"``, ``"states+cursor"``, ``"order+cursor"``, ``"search"``
        (states, q, needs_attention, cursor) or ``"none"``."""
        self._answers: dict[Hashable, list[Answer]] = defaultdict(list)
        self._key = key
        self.requests: list[httpx.Request] = []
        router.route(method=method, path=path).mock(side_effect=self._answer)

    def script(self, key: Hashable, *answers: Answer) -> None:
        """Answers for requests whose key is ``key``, in order; the last one repeats."""
        self._answers[key].extend(answers)

    def rescript(self, key: Hashable, *answers: Answer) -> None:
        """Replace the answers for ``key`` (e.g. a default set up by a helper)."""
        self._answers[key] = list(answers)

    def hold(self, key: Hashable, then: Reply) -> Held:
        held = Held(then)
        self.script(key, held)
        return held

    @property
    def cursors(self) -> list[str | None]:
        return [request.url.params.get("cursor") for request in self.requests]

    def key_of(self, request: httpx.Request) -> Hashable:
        if self._key == "cursor":
            return request.url.params.get("cursor")
        params = request.url.params
        if self._key == "states+cursor":
            return (tuple(params.get_list("state")), params.get("cursor"))
        if self._key == "order+cursor":
            return (params.get("order"), params.get("cursor"))
        if self._key == "search":
            return (
                tuple(params.get_list("state")),
                params.get("q"),
                params.get("needs_attention") == "true",
                params.get("cursor"),
            )
        return None

    async def _answer(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        queue = self._answers.get(self.key_of(request)) or self._answers.get("*")
        if not queue:
            return httpx.Response(
                404, json={"error": {"code": "test.unscripted", "message": "", "details": {}}}
            )
        answer = queue.pop(0) if len(queue) > 1 else queue[0]
        if isinstance(answer, Held):
            answer.arrived.set()
            await answer.gate.wait()
            answer = answer.then
        return httpx.Response(answer.status, json=answer.body, headers=answer.headers)
