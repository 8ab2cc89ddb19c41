"""``CredentialWatch``: a 401 from any request is reported, every answer passes unchanged."""

from __future__ import annotations

import httpx
import pytest

from app.credential_watch import CredentialWatch


def answering(status: int) -> httpx.MockTransport:
    return httpx.MockTransport(lambda request: httpx.Response(status, json={"status": status}))


async def test_a_401_answer_is_reported_once_and_passed_on_unchanged() -> None:
    reported: list[str] = []
    watch = CredentialWatch(answering(401), lambda: reported.append("refused"))
    async with httpx.AsyncClient(transport=watch, base_url="https://schedules.test") as client:
        response = await client.get("/v1/schedules")
    assert response.status_code == 401
    assert response.json() == {"status": 401}
    assert reported == ["refused"]


@pytest.mark.parametrize("status", [200, 403, 404, 500, 503])
async def test_other_answers_are_not_reported(status: int) -> None:
    reported: list[str] = []
    watch = CredentialWatch(answering(status), lambda: reported.append("refused"))
    async with httpx.AsyncClient(transport=watch, base_url="https://schedules.test") as client:
        response = await client.get("/v1/principal")
    assert response.status_code == status
    assert reported == []


class ClosingTransport(httpx.MockTransport):
    def __init__(self) -> None:
        super().__init__(lambda request: httpx.Response(204))
        self.closed = False

    async def aclose(self) -> None:
        self.closed = True


async def test_closing_the_watch_closes_the_transport_it_wraps() -> None:
    inner = ClosingTransport()
    watch = CredentialWatch(inner, lambda: None)
    await watch.aclose()
    assert inner.closed
