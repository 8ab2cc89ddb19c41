"""A client closed while requests were still to be made fails like any unreachable server."""

from __future__ import annotations

import httpx
import pytest

from transport.client import ScheduleClient
from transport.errors import ConnectionFailed


async def test_a_request_on_a_closed_client_is_a_connection_failure_not_a_crash() -> None:
    answered = httpx.MockTransport(lambda request: httpx.Response(200, json={"items": []}))
    client = ScheduleClient("https://schedules.test", token="t", transport=answered)
    await client.aclose()

    with pytest.raises(ConnectionFailed, match="the client was closed"):
        await client.list_schedules()
