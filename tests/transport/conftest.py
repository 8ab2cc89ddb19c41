from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
import respx

from transport.client import ScheduleClient

BASE_URL = "https://schedules.example.test"
TOKEN = "tok-7f3c9e1d-very-secret"


class FakeSleep:
    """Records each requested delay instead of waiting."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


def make_client(
    router: respx.Router, sleep: FakeSleep, token: str | None = TOKEN
) -> ScheduleClient:
    return ScheduleClient(
        BASE_URL,
        token=token,
        transport=httpx.MockTransport(router.handler),
        sleep=sleep,
        random=lambda: 0.5,
    )


@pytest.fixture
def router() -> respx.Router:
    return respx.Router(base_url=BASE_URL, assert_all_called=False)


@pytest.fixture
def fake_sleep() -> FakeSleep:
    return FakeSleep()


@pytest.fixture
async def client(router: respx.Router, fake_sleep: FakeSleep) -> AsyncIterator[ScheduleClient]:
    async with make_client(router, fake_sleep) as client:
        yield client
