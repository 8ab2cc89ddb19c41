"""Each principal's request allowance: burst, 429 with Retry-After, refill, independence."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI

from server.api.rate_limit import Bucket, RateLimit, RequestLimiter, take
from server.app import create_app
from server.identity import TokenDirectory, make_principal, token_digest
from server.storage.records import Owner
from server.storage.sql.store import SqlStore
from tests.server.api.conftest import NOW, TOKENS, Clock, as_, error_code
from transport.client import ScheduleClient
from transport.errors import RateLimited

# Six a minute is one token every ten seconds; three may be spent at once.
LIMIT = RateLimit(requests_per_minute=6, burst=3)


def directory() -> TokenDirectory:
    entries = []
    for name, (tenant, scopes) in TOKENS.items():
        digest = token_digest(f"token-{name}")
        principal = make_principal(
            principal_id=name,
            tenant_id=tenant,
            display_name=name.title(),
            scopes=scopes,
        )
        entries.append((digest, principal))
    return TokenDirectory(entries)


@pytest.fixture
def limited_app(store: SqlStore, clock: Clock) -> FastAPI:
    return create_app(store, directory(), clock, cursor_secret=b"s" * 32, rate_limit=LIMIT)


@pytest.fixture
async def limited(limited_app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=limited_app), base_url="http://server"
    ) as http:
        yield http


async def test_burst_passes_then_429_with_retry_after_and_envelope(
    limited: httpx.AsyncClient,
) -> None:
    for _ in range(LIMIT.burst):
        assert (await limited.get("/v1/principal", headers=as_("alice"))).status_code == 200
    refused = await limited.get("/v1/schedules", headers=as_("alice"))
    assert refused.status_code == 429
    assert error_code(refused) == "request.rate_limited"
    assert refused.headers["Retry-After"] == "10"
    assert refused.json()["error"]["details"] == {"retry_after_seconds": 10}


async def test_bucket_refills_with_the_injected_clock(
    limited: httpx.AsyncClient, clock: Clock
) -> None:
    for _ in range(LIMIT.burst):
        await limited.get("/v1/principal", headers=as_("alice"))
    clock.advance(seconds=4)
    refused = await limited.get("/v1/principal", headers=as_("alice"))
    assert refused.headers["Retry-After"] == "6"  # 4 s of the 10 s token already back
    clock.advance(seconds=6)
    assert (await limited.get("/v1/principal", headers=as_("alice"))).status_code == 200
    assert (await limited.get("/v1/principal", headers=as_("alice"))).status_code == 429


async def test_principals_are_limited_independently(limited: httpx.AsyncClient) -> None:
    for _ in range(LIMIT.burst):
        await limited.get("/v1/principal", headers=as_("alice"))
    assert (await limited.get("/v1/principal", headers=as_("alice"))).status_code == 429
    # Same tenant, another principal; and another tenant.
    assert (await limited.get("/v1/principal", headers=as_("carol"))).status_code == 200
    assert (await limited.get("/v1/principal", headers=as_("mallory"))).status_code == 200


async def test_unauthenticated_requests_get_401_and_spend_nothing(
    limited: httpx.AsyncClient,
) -> None:
    for _ in range(LIMIT.burst + 2):
        denied = await limited.get("/v1/principal", headers={"Authorization": "Bearer nope"})
        assert denied.status_code == 401
    assert (await limited.get("/v1/principal", headers=as_("alice"))).status_code == 200


async def test_scope_refusals_count_against_the_allowance(limited: httpx.AsyncClient) -> None:
    for _ in range(LIMIT.burst):
        assert (await limited.get("/v1/sessions", headers=as_("reader"))).status_code == 403
    assert (await limited.get("/v1/schedules", headers=as_("reader"))).status_code == 429


async def test_without_a_rate_limit_nothing_is_refused(client: httpx.AsyncClient) -> None:
    statuses = {(await client.get("/v1/principal")).status_code for _ in range(50)}
    assert statuses == {200}


async def test_openapi_declares_the_429_answer(limited: httpx.AsyncClient) -> None:
    document = (await limited.get("/openapi.json")).json()
    answer = document["paths"]["/v1/schedules"]["get"]["responses"]["429"]
    assert "Retry-After" in answer["headers"]


async def test_client_gets_rate_limited_after_its_retries_waiting_retry_after(
    limited_app: FastAPI,
) -> None:
    slept: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        slept.append(seconds)

    async with ScheduleClient(
        "http://server",
        token="token-alice",
        transport=httpx.ASGITransport(app=limited_app),
        sleep=fake_sleep,
        random=lambda: 0.0,
    ) as schedules:
        for _ in range(LIMIT.burst):
            await schedules.get_principal()
        with pytest.raises(RateLimited) as refused:
            await schedules.get_principal()
    assert refused.value.retry_after == 10.0
    assert slept == [10.0, 10.0]  # three attempts, each refused, the server's wait honoured


async def test_client_retry_succeeds_once_the_clock_reaches_retry_after(
    limited_app: FastAPI, clock: Clock
) -> None:
    slept: list[float] = []

    async def sleep_on_the_test_clock(seconds: float) -> None:
        slept.append(seconds)
        clock.advance(seconds=seconds)

    async with ScheduleClient(
        "http://server",
        token="token-alice",
        transport=httpx.ASGITransport(app=limited_app),
        sleep=sleep_on_the_test_clock,
    ) as schedules:
        for _ in range(LIMIT.burst):
            await schedules.get_principal()
        principal = await schedules.get_principal()
    assert principal.principal_id == "alice"
    assert slept == [10.0]


def test_retry_after_is_whole_seconds_and_at_least_one() -> None:
    fast = RateLimit(requests_per_minute=600, burst=1)  # a token every 0.1 s
    decision = take(Bucket(0.0, NOW), fast, NOW)
    assert decision.retry_after_seconds == 1
    slow = RateLimit(requests_per_minute=7, burst=1)  # a token every 8.57 s
    assert take(Bucket(0.0, NOW), slow, NOW).retry_after_seconds == 9


def test_clock_stepping_back_neither_refills_nor_breaks() -> None:
    spent = take(Bucket(1.0, NOW), LIMIT, NOW).bucket
    later = take(spent, LIMIT, NOW - timedelta(minutes=5))
    assert later.retry_after_seconds == 10
    assert later.bucket.updated == NOW


def test_rate_limit_rejects_nonsense() -> None:
    with pytest.raises(ValueError):
        RateLimit(requests_per_minute=0, burst=1)
    with pytest.raises(ValueError):
        RateLimit(requests_per_minute=1, burst=0)


def test_idle_buckets_are_forgotten_so_memory_stays_bounded() -> None:
    clock = Clock()
    limiter = RequestLimiter(LIMIT, clock, max_callers=1000)
    for n in range(100):
        limiter.admit(Owner("acme", f"p{n}"))
    assert len(limiter) == 100
    clock.advance(seconds=LIMIT.burst / LIMIT.tokens_per_second)  # an empty bucket refills
    limiter.admit(Owner("acme", "late"))
    assert len(limiter) == 1


def test_bucket_count_never_exceeds_the_cap() -> None:
    clock = Clock()
    limiter = RequestLimiter(LIMIT, clock, max_callers=10)
    for n in range(50):
        limiter.admit(Owner("acme", f"p{n}"))
        assert len(limiter) <= 10
    # The most recent caller kept its spent token.
    limiter.admit(Owner("acme", "p49"))
    limiter.admit(Owner("acme", "p49"))
    assert limiter.admit(Owner("acme", "p49")) == 10
