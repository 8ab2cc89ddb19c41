"""A storage fault drill against a real ``schedule-server`` process, with its figures.

``drill`` writes schedules until the storage refuses (``fault`` is called
after ``before`` writes: fill a tiny file system, make the database
read-only), keeps writing a few more times to count the 503s, reads while the
fault lasts, asks ``/readyz``, then calls ``repair`` and times how long until
``/readyz`` answers 200 again, writes once more, and finally counts the
acknowledged (201) schedules that are not in the database any more. The test
(``tests/server/runtime/test_storage_faults.py``) asserts on the figures;
``bench/faults.py`` prints them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from uuid import uuid4

import httpx

from devtools.api_bodies import definition_json
from devtools.served_process import TOKEN, ServedProcess

RECOVERY_WITHIN_SECONDS = 30
WRITES_AFTER_FAULT = 5
MOST_WRITES = 2000
# About 8 KB a schedule, plain words (a credential-looking text would be refused).
BULK = " ".join(f"Summarize item {n} of the overnight news." for n in range(200))


@dataclass(frozen=True, slots=True)
class DrillFigures:
    """What a drill saw; ``lost`` must be 0."""

    acknowledged: int
    unavailable: int
    other_failures: tuple[int, ...]
    retry_after: tuple[str, ...]
    readyz_during: tuple[int, str]
    reads_during: int
    recovery_seconds: float
    write_after_recovery: int
    lost: int


def _headers() -> dict[str, str]:
    return {"Authorization": f"Bearer {TOKEN}", "Idempotency-Key": uuid4().hex}


def _create(client: httpx.Client, bulky: bool) -> httpx.Response:
    body = definition_json(title="Drill", instruction=BULK if bulky else "Drill.")
    return client.post("/v1/schedules", json=body, headers=_headers())


def _stored_ids(client: httpx.Client) -> set[str]:
    ids: set[str] = set()
    cursor: str | None = None
    while True:
        params: dict[str, str | int] = {"limit": 100}
        if cursor is not None:
            params["cursor"] = cursor
        page = client.get("/v1/schedules", params=params, headers=_headers())
        assert page.status_code == 200, page.text
        body = page.json()
        ids |= {item["schedule_id"] for item in body["items"]}
        cursor = body.get("next_cursor")
        if not cursor:
            return ids


def _readyz(client: httpx.Client) -> tuple[int, str]:
    response = client.get("/readyz")
    reason = response.json().get("error", {}).get("details", {}).get("reason", "")
    return response.status_code, reason


def drill(
    server: ServedProcess,
    *,
    fault: Callable[[], None],
    repair: Callable[[], None],
    before: int = 0,
    bulky: bool = False,
) -> DrillFigures:
    """Write until refused (after ``fault``), then ``repair``; the figures of what happened."""
    acknowledged: list[str] = []
    other: list[int] = []
    unavailable = 0
    retry_after: list[str] = []
    with httpx.Client(base_url=server.base_url, timeout=60) as client:
        for _ in range(before):
            response = _create(client, bulky)
            assert response.status_code == 201, response.text
            acknowledged.append(response.json()["schedule_id"])
        fault()
        after_fault = 0
        for _ in range(MOST_WRITES):
            response = _create(client, bulky)
            if response.status_code == 201:
                acknowledged.append(response.json()["schedule_id"])
            elif response.status_code == 503:
                unavailable += 1
                retry_after.append(response.headers.get("Retry-After", ""))
                assert response.json()["error"]["code"] == "server.unavailable"
            else:
                other.append(response.status_code)
            if unavailable or other:
                after_fault += 1
                if after_fault >= WRITES_AFTER_FAULT:
                    break
        readyz_during = _readyz(client)
        reads_during = client.get("/v1/schedules", headers=_headers()).status_code
        repair()
        started = time.monotonic()
        while _readyz(client)[0] != 200:
            if time.monotonic() - started > RECOVERY_WITHIN_SECONDS:
                break
            time.sleep(0.05)
        recovery = time.monotonic() - started
        again = _create(client, bulky=False)
        if again.status_code == 201:
            acknowledged.append(again.json()["schedule_id"])
        lost = len(set(acknowledged) - _stored_ids(client))
    return DrillFigures(
        acknowledged=len(acknowledged),
        unavailable=unavailable,
        other_failures=tuple(other),
        retry_after=tuple(sorted(set(retry_after))),
        readyz_during=readyz_during,
        reads_during=reads_during,
        recovery_seconds=recovery,
        write_after_recovery=again.status_code,
        lost=lost,
    )
