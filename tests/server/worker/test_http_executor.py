"""``HttpExecutor``'s transport: where a delivery goes, how much of an answer it reads, its waits.

Most cases run against ``httpx.MockTransport`` with the executor's sleep
replaced by a recorder, so a retry costs no time. The proxy case needs the
real network stack (httpx reads proxy variables only when it builds its own
transport): two runtimes from ``tests/agent_runtime.py`` on loopback, one
named in ``HTTP_PROXY``; the delivery must reach the other one directly.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import timedelta
from uuid import uuid4

import httpx
import pytest

from server.domain.states import RunStatus
from server.storage.records import ClaimedRun, Owner
from server.worker.executor import RunResult
from server.worker.executor_documents import INVALID_ANSWER, MAX_ANSWER_BYTES
from server.worker.http_executor import HttpExecutor
from tests.agent_runtime import SECRET, agent_runtime, completes
from tests.clock import NOW, Clock

INSTRUCTION = "Read the quarterly figures and write the board a two-line summary."
FIRST_RETRY = timedelta(milliseconds=500)
COMPLETED = {"status": "COMPLETED", "answers": ["Done."]}


def _run() -> ClaimedRun:
    return ClaimedRun(
        run_id=uuid4(),
        owner=Owner("acme", "alice"),
        session_id=uuid4(),
        schedule_id=None,
        occurrence_id=None,
        nominal_fire_at=None,
        instruction=INSTRUCTION,
        limits={},
        delivered_at=NOW,
        deadline_at=NOW + timedelta(minutes=5),
    )


class _Sleeps:
    """Stands in for ``asyncio.sleep``: records each wait and returns at once."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def _executor(handler: httpx.MockTransport, sleeps: _Sleeps | None = None) -> HttpExecutor:
    return HttpExecutor(
        "http://runtime.test/runs",
        SECRET,
        Clock(),
        first_retry=FIRST_RETRY,
        transport=handler,
        sleep=sleeps or _Sleeps(),
    )


@pytest.mark.parametrize("retry_after", ["0", "0.001", "1e-9", "-1", "nan"])
async def test_a_retry_after_shorter_than_the_backoff_still_waits_the_backoff(
    retry_after: str,
) -> None:
    answers = iter([httpx.Response(503, headers={"Retry-After": retry_after})] * 4)

    def runtime(_request: httpx.Request) -> httpx.Response:
        return next(answers, httpx.Response(200, json=COMPLETED))

    sleeps = _Sleeps()
    executor = _executor(httpx.MockTransport(runtime), sleeps)
    result = await executor.execute(_run())
    await executor.aclose()
    assert result == RunResult.completed("Done.")
    # Jittered between half and all of 0.5 s, 1 s, 2 s, 4 s: never 0.
    floors = [FIRST_RETRY.total_seconds() * 2**n / 2 for n in range(4)]
    assert len(sleeps.waits) == 4
    assert all(wait >= floor for wait, floor in zip(sleeps.waits, floors, strict=True))


async def test_a_longer_retry_after_is_honoured() -> None:
    answers = iter([httpx.Response(429, headers={"Retry-After": "7"})])

    def runtime(_request: httpx.Request) -> httpx.Response:
        return next(answers, httpx.Response(200, json=COMPLETED))

    sleeps = _Sleeps()
    executor = _executor(httpx.MockTransport(runtime), sleeps)
    assert await executor.execute(_run()) == RunResult.completed("Done.")
    await executor.aclose()
    assert sleeps.waits == [7.0]


class _LongAnswer(httpx.AsyncByteStream):
    """An answer body twice the limit; counts what was taken from it."""

    def __init__(self) -> None:
        self.sent = 0

    async def __aiter__(self) -> AsyncIterator[bytes]:
        chunk = b" " * 65536
        while self.sent < 2 * MAX_ANSWER_BYTES:
            self.sent += len(chunk)
            yield chunk


async def test_an_answer_is_read_no_further_than_the_limit_and_fails_the_run() -> None:
    body = _LongAnswer()
    executor = _executor(httpx.MockTransport(lambda _request: httpx.Response(200, stream=body)))
    result = await executor.execute(_run())
    await executor.aclose()
    assert result == INVALID_ANSWER
    assert MAX_ANSWER_BYTES < body.sent <= MAX_ANSWER_BYTES + 65536


async def test_an_answer_declared_over_the_limit_is_not_read_at_all() -> None:
    body = _LongAnswer()

    def runtime(_request: httpx.Request) -> httpx.Response:
        headers = {"Content-Length": str(MAX_ANSWER_BYTES + 1)}
        return httpx.Response(200, headers=headers, stream=body)

    executor = _executor(httpx.MockTransport(runtime))
    assert await executor.execute(_run()) == INVALID_ANSWER
    await executor.aclose()
    assert body.sent == 0


async def test_an_answer_just_under_the_limit_is_read() -> None:
    answer = json.dumps(COMPLETED).encode()
    padded = answer + b" " * (MAX_ANSWER_BYTES - len(answer))
    executor = _executor(httpx.MockTransport(lambda _request: httpx.Response(200, content=padded)))
    result = await executor.execute(_run())
    await executor.aclose()
    assert result.status is RunStatus.COMPLETED


async def test_a_delivery_ignores_http_proxy_and_goes_straight_to_the_runtime(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with (
        agent_runtime(completes("Direct.")) as runtime,
        agent_runtime(completes("Proxied.")) as proxy,
    ):
        for name in ("HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"):
            monkeypatch.setenv(name, f"http://127.0.0.1:{proxy.port}")
        for name in ("NO_PROXY", "no_proxy"):
            monkeypatch.delenv(name, raising=False)
        executor = HttpExecutor(runtime.url, SECRET, Clock())
        result = await executor.execute(_run())
        await executor.aclose()
    assert result == RunResult.completed("Direct.")
    assert proxy.deliveries == []
    assert len(runtime.deliveries) == 1


async def test_a_compressed_answer_is_refused_unread() -> None:
    body = _LongAnswer()

    def runtime(_request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"Content-Encoding": "gzip"}, stream=body)

    executor = _executor(httpx.MockTransport(runtime))
    assert await executor.execute(_run()) == INVALID_ANSWER
    await executor.aclose()
    assert body.sent == 0
