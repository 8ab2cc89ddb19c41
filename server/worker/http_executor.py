"""An agent runtime over HTTP: each claimed run POSTed, signed, retried until its deadline.

``HttpExecutor`` implements the ``RunExecutor`` port (docs/API.md, "The
executor protocol"): it POSTs ``executor_documents.delivery_body`` signed in
``X-Schedule-Signature``. A 200 is the answer (``executor_documents.read_answer``);
a connection failure, 408, 429 or 5xx is retried with a jittered doubling
backoff (or a longer ``Retry-After``); any other status fails the run
(``executor_refused``, ``HTTP<status>``). Nothing outlives the deadline: the
run then fails as ``deadline_exceeded``. The body carries the instruction, so
nothing here logs it, the secret stays hidden, proxies are ignored
(``trust_env=False``) and an answer is read up to ``MAX_ANSWER_BYTES``.
"""

from __future__ import annotations

import asyncio
import email.utils
import logging
import random
import time
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Final

import httpx

from server.domain.states import ReasonCode
from server.storage.records import ClaimedRun
from server.worker.executor import RunResult
from server.worker.executor_documents import (
    INVALID_ANSWER,
    MAX_ANSWER_BYTES,
    delivery_body,
    read_answer,
)
from server.worker.executor_signature import SIGNATURE_HEADER, sign

__all__ = ["DEADLINE_EXCEEDED", "HttpExecutor"]

_log = logging.getLogger(__name__)

DEADLINE_EXCEEDED: Final = RunResult.failed(ReasonCode.DEADLINE_EXCEEDED, "DeadlineExceeded")
_RETRIED_STATUSES: Final = frozenset({408, 429})
_CONNECT_SECONDS: Final = 10.0


class HttpExecutor:
    """Hands each run to the agent runtime at ``url`` (see the module docstring)."""

    def __init__(
        self,
        url: str,
        secret: bytes,
        clock: Callable[[], datetime],
        *,
        first_retry: timedelta = timedelta(milliseconds=500),
        longest_retry: timedelta = timedelta(seconds=30),
        transport: httpx.AsyncBaseTransport | None = None,
        wall_seconds: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._url = url
        self._secret = secret
        self._clock = clock
        self._first_retry = first_retry.total_seconds()
        self._longest_retry = longest_retry.total_seconds()
        self._transport = transport
        self._wall_seconds = wall_seconds
        self._sleep = sleep
        self._client: httpx.AsyncClient | None = None

    def __repr__(self) -> str:
        return f"HttpExecutor(url={self._url!r}, secret=<hidden>)"

    async def execute(self, run: ClaimedRun) -> RunResult:
        loop = asyncio.get_running_loop()
        budget = (run.deadline_at - self._clock()).total_seconds()
        if budget <= 0:
            return DEADLINE_EXCEEDED
        ends_at = loop.time() + budget
        try:
            async with asyncio.timeout(budget):
                result = await self._deliver(run, delivery_body(run), ends_at)
        except TimeoutError:
            _log.warning("run %s reached its deadline at the agent runtime", run.run_id)
            return DEADLINE_EXCEEDED
        if loop.time() >= ends_at:  # answered, but too late to count
            return DEADLINE_EXCEEDED
        return result

    async def aclose(self) -> None:
        """Close the connections kept to the runtime."""
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    async def _deliver(self, run: ClaimedRun, body: bytes, ends_at: float) -> RunResult:
        loop = asyncio.get_running_loop()
        attempt = 0
        while True:
            attempt += 1
            wait = await self._attempt(run, body, attempt)
            if isinstance(wait, RunResult):
                return wait
            if loop.time() + wait >= ends_at:
                return DEADLINE_EXCEEDED
            await self._sleep(wait)

    async def _attempt(self, run: ClaimedRun, body: bytes, attempt: int) -> RunResult | float:
        """One POST: the run's result, or how long to wait before the next attempt."""
        headers = {
            "Content-Type": "application/json",
            # The bound on reading holds for the answer's bytes, not a compressed form.
            "Accept-Encoding": "identity",
            SIGNATURE_HEADER: sign(self._secret, int(self._wall_seconds()), body),
        }
        try:
            async with self._http().stream(
                "POST", self._url, content=body, headers=headers
            ) as response:
                status = response.status_code
                if status == 200:
                    return await _bounded_answer(run, response)
        except httpx.TransportError as err:
            _log.warning(
                "run %s: the agent runtime could not be reached (%s); retrying",
                run.run_id,
                type(err).__name__,
            )
            return self._backoff(attempt)
        if status >= 500 or status in _RETRIED_STATUSES:
            _log.warning("run %s: the agent runtime answered %s; retrying", run.run_id, status)
            return max(_retry_after(response) or 0.0, self._backoff(attempt))
        _log.warning("run %s: the agent runtime refused it (%s)", run.run_id, status)
        return RunResult.failed(ReasonCode.EXECUTOR_REFUSED, f"HTTP{status}")

    def _backoff(self, attempt: int) -> float:
        ceiling = min(self._first_retry * (1 << min(attempt - 1, 20)), self._longest_retry)
        return random.uniform(ceiling / 2, ceiling)

    def _http(self) -> httpx.AsyncClient:
        if self._client is None:
            self._client = httpx.AsyncClient(
                transport=self._transport,
                timeout=httpx.Timeout(None, connect=_CONNECT_SECONDS),
                follow_redirects=False,
                trust_env=False,
            )
        return self._client


async def _bounded_answer(run: ClaimedRun, response: httpx.Response) -> RunResult:
    """The 200 answer's outcome, read no further than ``MAX_ANSWER_BYTES``.

    The request asked for no compression; a compressed answer is refused unread,
    since a few kilobytes of it could inflate past any bound in one step.
    """
    if response.headers.get("Content-Encoding", "identity").lower() != "identity":
        _log.warning("run %s: the agent runtime's answer is compressed", run.run_id)
        return INVALID_ANSWER
    declared = response.headers.get("Content-Length", "")
    content = bytearray()
    if not (declared.isdigit() and int(declared) > MAX_ANSWER_BYTES):
        async for chunk in response.aiter_bytes():
            content += chunk
            if len(content) > MAX_ANSWER_BYTES:
                break
        else:
            return read_answer(bytes(content))
    _log.warning(
        "run %s: the agent runtime's answer is over %s bytes", run.run_id, MAX_ANSWER_BYTES
    )
    return INVALID_ANSWER


def _retry_after(response: httpx.Response) -> float | None:
    """The runtime's ``Retry-After`` in seconds (a number or an HTTP date), if it sent one."""
    value = response.headers.get("Retry-After")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())
