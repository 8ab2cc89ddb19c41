"""Token guessing is slowed per client address: 429 with the envelope and Retry-After after
ten failures in a minute, a doubling wait decided before any token is looked at, and
never a valid token locked out for longer than the window."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI

from auth_throttle import AuthThrottle, FailurePolicy
from server.app import create_app
from server.identity import Principal
from server.storage.sql.store import SqlStore
from tests.server.api.conftest import Clock, as_, error_code
from tests.server.api.test_rate_limit import directory

POLICY = FailurePolicy()
GUESSER = ("203.0.113.7", 40000)
NEIGHBOUR = ("198.51.100.9", 40000)
WRONG = {"Authorization": "Bearer not-a-token"}


class CountingDirectory:
    """The test principals, counting how often a token is looked at."""

    def __init__(self) -> None:
        self.inner = directory()
        self.lookups = 0

    def authenticate(self, bearer_token: str | None) -> Principal | None:
        self.lookups += 1
        return self.inner.authenticate(bearer_token)

    def current(self, tenant_id: str, principal_id: str) -> Principal | None:
        return self.inner.current(tenant_id, principal_id)


@pytest.fixture
def identity() -> CountingDirectory:
    return CountingDirectory()


@pytest.fixture
def served(store: SqlStore, clock: Clock, identity: CountingDirectory) -> FastAPI:
    return create_app(store, identity, clock, cursor_secret=b"s" * 32)


@pytest.fixture
async def guesser(served: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=served, client=GUESSER)
    async with httpx.AsyncClient(transport=transport, base_url="http://server") as http:
        yield http


async def fail(http: httpx.AsyncClient, times: int) -> list[int]:
    return [(await http.get("/v1/principal", headers=WRONG)).status_code for _ in range(times)]


async def test_ten_failures_in_a_minute_then_429_with_envelope_and_retry_after(
    guesser: httpx.AsyncClient,
) -> None:
    assert await fail(guesser, POLICY.failures) == [401] * POLICY.failures
    refused = await guesser.get("/v1/principal", headers=WRONG)
    assert refused.status_code == 429
    assert error_code(refused) == "request.rate_limited"
    assert refused.headers["Retry-After"] == "5"
    assert refused.json()["error"]["details"] == {
        "retry_after_seconds": 5,
        "reason": "authentication_failures",
    }
    assert "not-a-token" not in refused.text


async def test_the_wait_is_decided_before_any_token_is_looked_at(
    guesser: httpx.AsyncClient, identity: CountingDirectory
) -> None:
    await fail(guesser, POLICY.failures)
    looked = identity.lookups
    statuses = await fail(guesser, 50)
    assert statuses == [429] * 50
    assert identity.lookups == looked


async def test_each_further_failure_doubles_the_wait_up_to_the_window(
    guesser: httpx.AsyncClient, clock: Clock
) -> None:
    await fail(guesser, POLICY.failures)
    waits = []
    for _ in range(6):
        refused = await guesser.get("/v1/principal", headers=WRONG)
        wait = int(refused.headers["Retry-After"])
        waits.append(wait)
        clock.advance(seconds=wait)
        assert await fail(guesser, 1) == [401]  # the wait is over: one more guess, one more strike
    assert waits == [5, 10, 20, 40, 60, 60]


async def test_a_valid_token_waits_out_the_address_then_passes_within_the_window(
    guesser: httpx.AsyncClient, clock: Clock
) -> None:
    await fail(guesser, POLICY.failures)
    for _ in range(5):  # the worst case: the wait has doubled to its cap
        clock.advance(seconds=int((await guesser.get("/v1/principal")).headers["Retry-After"]))
        await fail(guesser, 1)
    refused = await guesser.get("/v1/principal", headers=as_("alice"))
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) <= POLICY.window.total_seconds()
    clock.advance(seconds=int(refused.headers["Retry-After"]))
    assert (await guesser.get("/v1/principal", headers=as_("alice"))).status_code == 200


async def test_a_quiet_minute_after_the_last_wait_forgives_and_the_doubling_starts_over(
    guesser: httpx.AsyncClient, clock: Clock
) -> None:
    await fail(guesser, POLICY.failures + 1)
    clock.advance(seconds=5)
    await fail(guesser, 1)  # second strike: 10 s
    clock.advance(seconds=10 + 59)
    assert (await guesser.get("/v1/principal", headers=WRONG)).status_code == 401
    assert (await guesser.get("/v1/principal", headers=WRONG)).status_code == 429  # not yet quiet
    clock.advance(seconds=20 + 60)  # the third strike's wait, then a quiet minute
    assert await fail(guesser, POLICY.failures - 1) == [401] * (POLICY.failures - 1)
    await fail(guesser, 1)
    refused = await guesser.get("/v1/principal", headers=WRONG)
    assert refused.headers["Retry-After"] == "5"


async def test_other_addresses_and_successes_are_not_slowed(
    guesser: httpx.AsyncClient, served: FastAPI
) -> None:
    for _ in range(3 * POLICY.failures):
        assert (await guesser.get("/v1/principal", headers=as_("alice"))).status_code == 200
    await fail(guesser, POLICY.failures)
    transport = httpx.ASGITransport(app=served, client=NEIGHBOUR)
    async with httpx.AsyncClient(transport=transport, base_url="http://server") as neighbour:
        assert (await neighbour.get("/v1/principal", headers=as_("alice"))).status_code == 200
        assert await fail(neighbour, 1) == [401]


async def test_a_success_does_not_forgive_earlier_failures(guesser: httpx.AsyncClient) -> None:
    await fail(guesser, POLICY.failures - 1)
    assert (await guesser.get("/v1/principal", headers=as_("alice"))).status_code == 200
    await fail(guesser, 1)
    assert (await guesser.get("/v1/principal", headers=as_("alice"))).status_code == 429


async def test_the_throttle_can_be_turned_off(store: SqlStore, clock: Clock) -> None:
    app = create_app(store, directory(), clock, cursor_secret=b"s" * 32, auth_failures=None)
    transport = httpx.ASGITransport(app=app, client=GUESSER)
    async with httpx.AsyncClient(transport=transport, base_url="http://server") as http:
        assert await fail(http, 300) == [401] * 300


def test_memory_is_bounded_by_forgetting_quiet_and_least_recent_addresses(clock: Clock) -> None:
    throttle = AuthThrottle(POLICY, clock, max_addresses=3)
    for last in range(5):
        throttle.failed(f"10.0.0.{last}")
    assert len(throttle) == 3
    clock.advance(seconds=61)
    throttle.failed("10.0.1.1")
    assert len(throttle) == 1


def test_the_policy_refuses_a_first_wait_beyond_its_window() -> None:
    with pytest.raises(ValueError, match="within the window"):
        FailurePolicy(first_wait=timedelta(minutes=2))
    with pytest.raises(ValueError, match="at least 1"):
        FailurePolicy(failures=0)
