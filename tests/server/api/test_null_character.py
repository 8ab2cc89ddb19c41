"""U+0000 is refused at the edge on every backend, wherever it sits, and nothing is stored.

PostgreSQL's text cannot hold U+0000; SQLite can. Accepting it on one and not
the other made two products (a schedule that fires on SQLite fails every
firing on PostgreSQL), so it is refused before any route runs: 400
``request.invalid`` naming the field, reason ``null_character``. Each case runs
on SQLite and on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any
from uuid import uuid4

import httpx
import pytest
from sqlalchemy import text

from server.app import create_app
from server.definitions.checks import parse_definition
from server.definitions.errors import InvalidDefinition
from server.identity import ALL_SCOPES, TokenDirectory, make_principal, token_digest
from server.storage.sql.store import SqlStore
from tests.server.api.conftest import Clock, definition, definition_of

NUL = "\x00"


pytestmark = pytest.mark.each_backend


@pytest.fixture
async def http(store: SqlStore) -> AsyncIterator[httpx.AsyncClient]:
    alice = make_principal(
        principal_id="alice", tenant_id="acme", display_name="Alice", scopes=ALL_SCOPES
    )
    app = create_app(
        store,
        TokenDirectory([(token_digest("token-alice"), alice)]),
        Clock(),
        cursor_secret=b"s" * 32,
    )
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url="http://server",
        headers={"Authorization": "Bearer token-alice"},
    ) as client:
        yield client


def _count(store: SqlStore, table: str) -> int:
    with store.engine.connect() as connection:
        return int(connection.execute(text(f"SELECT count(*) FROM {table}")).scalar_one())


def _refusal(response: httpx.Response) -> tuple[int, str, Any, Any]:
    error = response.json()["error"]
    return (
        response.status_code,
        error["code"],
        error["details"].get("field"),
        error["details"].get("reason"),
    )


CREATE_CASES = {
    "title": ({"title": f"Morning{NUL}digest"}, "title"),
    "instruction": ({"instruction": f"Summarize{NUL}"}, "instruction"),
    "unknown field": ({"x_note": f"kept{NUL}"}, "x_note"),
    "nested unknown": ({"x_meta": {"tags": ["a", f"b{NUL}"]}}, "x_meta.tags[1]"),
    "cadence zone": (
        {"cadence": {"kind": "DAILY", "local_time": "09:00", "timezone": f"UTC{NUL}"}},
        "cadence.timezone",
    ),
    "a key": ({f"x{NUL}": "value"}, "body"),
}


@pytest.mark.parametrize("case", CREATE_CASES.values(), ids=list(CREATE_CASES))
async def test_a_create_with_u0000_anywhere_is_400_naming_the_field_and_stores_nothing(
    http: httpx.AsyncClient, store: SqlStore, case: tuple[dict[str, Any], str]
) -> None:
    changes, field = case
    response = await http.post(
        "/v1/schedules", json=definition(**changes), headers={"Idempotency-Key": str(uuid4())}
    )
    assert _refusal(response) == (400, "request.invalid", field, "null_character")
    assert _count(store, "schedules") == 0


async def test_an_update_with_u0000_is_refused_and_the_schedule_keeps_its_revision(
    http: httpx.AsyncClient,
) -> None:
    created = await http.post(
        "/v1/schedules", json=definition(), headers={"Idempotency-Key": str(uuid4())}
    )
    assert created.status_code == 201
    body = created.json()
    changed = {**definition_of(body), "title": f"Renamed{NUL}"}
    response = await http.patch(
        f"/v1/schedules/{body['schedule_id']}",
        json={"expected_revision": 1, "definition": changed},
    )
    assert _refusal(response) == (400, "request.invalid", "definition.title", "null_character")
    detail = (await http.get(f"/v1/schedules/{body['schedule_id']}")).json()
    assert detail["current_revision"] == 1


async def test_an_idempotency_key_with_u0000_is_refused_naming_the_header(
    http: httpx.AsyncClient, store: SqlStore
) -> None:
    response = await http.post(
        "/v1/schedules",
        json=definition(),
        headers={"Idempotency-Key": b"key\x00"},
    )
    assert _refusal(response) == (400, "request.invalid", "Idempotency-Key", "null_character")
    assert _count(store, "schedules") == 0


def test_the_definition_parser_refuses_u0000_from_any_caller() -> None:
    with pytest.raises(InvalidDefinition) as refused:
        parse_definition(definition(instruction=f"a{NUL}b"))
    assert (refused.value.field, refused.value.reason) == ("instruction", "null_character")
