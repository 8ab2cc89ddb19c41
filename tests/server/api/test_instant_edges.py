"""Every instant the API takes, from year 1 to 9999 in any offset, answers 2xx or a 4xx envelope.

Hypothesis draws instants over the whole range datetime can hold (with any
offset from -23:59 to +23:59, so some have no UTC date at all) and sends
them where the API takes an instant: a projection window's ``from`` and
``to`` (over schedules in zones on both sides of UTC and of every cadence
kind), and a ONCE cadence's ``at`` on create and update. A 500 is never the
answer: an instant is either served or refused with the envelope naming it.
The count parameters (``limit``, a cancel's ``expected_revision``) take
integers only: ``100.0`` is 400.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from uuid import uuid4

import httpx
import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.app import create_app
from server.identity import ALL_SCOPES, TokenDirectory, make_principal, token_digest
from server.storage.sql.store import SqlStore
from tests.server.api.conftest import Clock, definition

CADENCES = [
    {"kind": "DAILY", "local_time": "23:30", "timezone": "America/Los_Angeles"},
    {"kind": "DAILY", "local_time": "00:30", "timezone": "Pacific/Kiritimati"},
    {"kind": "WEEKLY", "local_time": "12:00", "weekdays": [1, 7], "timezone": "UTC"},
    {"kind": "MONTHLY", "local_time": "23:59", "days_of_month": [31], "last_day": True,
     "timezone": "America/Adak"},
    {"kind": "YEARLY", "local_time": "00:00", "dates": [{"month": 12, "day": 31},
     {"month": 1, "day": 1}], "timezone": "Pacific/Apia"},
]  # fmt: skip

EDGE_SETTINGS = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

offsets = st.integers(-(24 * 60 - 1), 24 * 60 - 1).map(lambda m: timezone(timedelta(minutes=m)))
naive = st.one_of(
    st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(1, 1, 3)),
    st.datetimes(min_value=datetime(9999, 12, 29), max_value=datetime(9999, 12, 31, 23, 59, 59)),
    st.datetimes(),
)
instants = st.builds(lambda moment, zone: moment.replace(tzinfo=zone), naive, offsets)


def _text(instant: datetime) -> str:
    return instant.isoformat()


class Http:
    """A blocking face on the in-process app, for hypothesis's synchronous examples."""

    def __init__(self, portal: BlockingPortal, client: httpx.AsyncClient) -> None:
        self._portal = portal
        self._client = client

    def request(self, method: str, url: str, **options: Any) -> httpx.Response:
        async def send() -> httpx.Response:
            return await self._client.request(method, url, **options)

        return self._portal.call(send)

    def get(self, url: str, **options: Any) -> httpx.Response:
        return self.request("GET", url, **options)

    def post(self, url: str, **options: Any) -> httpx.Response:
        return self.request("POST", url, **options)

    def patch(self, url: str, **options: Any) -> httpx.Response:
        return self.request("PATCH", url, **options)

    def delete(self, url: str, **options: Any) -> httpx.Response:
        return self.request("DELETE", url, **options)


@pytest.fixture
def http(tmp_path: Path) -> Iterator[Http]:
    store = SqlStore.open(f"sqlite:///{tmp_path / 'edges.db'}")
    alice = make_principal(
        principal_id="alice", tenant_id="acme", display_name="Alice", scopes=ALL_SCOPES
    )
    directory = TokenDirectory([(token_digest("token-alice"), alice)])
    app = create_app(store, directory, Clock(), cursor_secret=b"s" * 32)
    client = httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url="http://server",
        headers={"Authorization": "Bearer token-alice"},
    )
    with start_blocking_portal() as portal:
        yield Http(portal, client)
        portal.call(client.aclose)
    store.close()


def _created(http: Http, cadence: dict[str, Any]) -> str:
    response = http.post(
        "/v1/schedules", json=definition(cadence=cadence), headers={"Idempotency-Key": str(uuid4())}
    )
    assert response.status_code == 201, response.text
    schedule_id: str = response.json()["schedule_id"]
    return schedule_id


def _served_or_refused(response: Any) -> None:
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert set(response.json()["error"]) == {"code", "message", "details"}


def test_the_issues_year_1_projection_is_served_not_500(http: Http) -> None:
    schedule_id = _created(http, CADENCES[0])
    response = http.get(
        f"/v1/schedules/{schedule_id}/projection",
        params={"from": "0001-01-01T00:00:00Z", "to": "0001-01-02T00:00:00Z"},
    )
    assert response.status_code == 200, response.text
    assert response.json()["firings"] == []


def test_a_projection_window_anywhere_in_the_range_is_served_or_refused(http: Http) -> None:
    schedules = [_created(http, cadence) for cadence in CADENCES]

    @EDGE_SETTINGS
    @given(
        which=st.integers(0, len(CADENCES) - 1),
        start=instants,
        length=st.one_of(
            st.timedeltas(min_value=timedelta(seconds=1), max_value=timedelta(days=92)),
            st.timedeltas(min_value=timedelta(days=-3), max_value=timedelta(days=200)),
        ),
    )
    def check(which: int, start: datetime, length: timedelta) -> None:
        try:
            end = start + length
        except OverflowError:
            end = start
        response = http.get(
            f"/v1/schedules/{schedules[which]}/projection",
            params={"from": _text(start), "to": _text(end)},
        )
        _served_or_refused(response)

    check()


def test_a_once_instant_anywhere_in_the_range_is_created_or_refused(http: Http) -> None:
    schedule_id = _created(http, CADENCES[2])

    @EDGE_SETTINGS
    @given(at=instants)
    def check(at: datetime) -> None:
        cadence = {"kind": "ONCE", "at": _text(at)}
        created = http.post(
            "/v1/schedules",
            json=definition(cadence=cadence),
            headers={"Idempotency-Key": str(uuid4())},
        )
        _served_or_refused(created)
        current = http.get(f"/v1/schedules/{schedule_id}").json()
        revision = current["current_revision"]
        changed = {**definition(cadence=cadence)}
        updated = http.patch(
            f"/v1/schedules/{schedule_id}",
            json={"expected_revision": revision, "definition": changed},
        )
        _served_or_refused(updated)

    check()


@pytest.mark.parametrize("value", ["100.0", "1e2", "10.5", "+5", " 5", "0x10", "5_0"])
def test_limit_takes_integers_only(http: Http, value: str) -> None:
    response = http.get("/v1/schedules", params={"limit": value})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "request.invalid"


def test_a_cancels_expected_revision_takes_integers_only(http: Http) -> None:
    schedule_id = _created(http, CADENCES[2])
    response = http.delete(f"/v1/schedules/{schedule_id}", params={"expected_revision": "1.0"})
    assert response.status_code == 400
    assert (
        http.delete(f"/v1/schedules/{schedule_id}", params={"expected_revision": "1"}).status_code
        == 200
    )
