"""What the server takes in: bounded, storable, and refused with the field named.

Each test is a regression for an input that was once stored and then made every
read of the schedule answer 500, or that was accepted without bound.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any
from uuid import uuid4

import httpx
import pytest
from sqlalchemy import text

from server.api.request_body import MAX_BODY_BYTES
from server.definitions.checks import parse_definition
from server.definitions.errors import InvalidDefinition
from server.storage.sql.store import SqlStore
from tests.server.api.conftest import create, definition, definition_of, error_code

JSON = {"Content-Type": "application/json"}


def _raw(body: dict[str, Any], **replacements: str) -> bytes:
    """``body`` as JSON text with placeholder strings swapped for raw JSON tokens."""
    encoded = json.dumps(body)
    for placeholder, token in replacements.items():
        encoded = encoded.replace(f'"{placeholder}"', token)
    return encoded.encode()


def _stored_schedules(store: SqlStore) -> int:
    with store.engine.connect() as connection:
        return int(connection.execute(text("SELECT COUNT(*) FROM schedules")).scalar_one())


@pytest.mark.parametrize(
    ("changes", "token", "field"),
    [
        ({"x_weight": "@"}, "NaN", "x_weight"),
        ({"x_nested": {"deep": ["@"]}}, "Infinity", "x_nested.deep[0]"),
        ({"x_big": "@"}, "1e400", "x_big"),
        ({"x_negative": "@"}, "-Infinity", "x_negative"),
    ],
)
async def test_non_finite_numbers_anywhere_are_refused_at_the_edge_and_never_stored(
    client: httpx.AsyncClient, store: SqlStore, changes: dict[str, Any], token: str, field: str
) -> None:
    body = _raw(definition(**changes), **{"@": token})
    response = await client.post(
        "/v1/schedules", content=body, headers={**JSON, "Idempotency-Key": "k"}
    )
    assert response.status_code == 400
    assert error_code(response) == "request.invalid"
    assert response.json()["error"]["details"] == {"field": field, "reason": "non_finite_number"}
    assert _stored_schedules(store) == 0


async def test_non_finite_limit_in_an_update_leaves_the_schedule_readable_and_unchanged(
    client: httpx.AsyncClient,
) -> None:
    created = await create(client)
    base = f"/v1/schedules/{created['schedule_id']}"
    changed = definition_of(created)
    changed["limits"] = {**changed["limits"], "max_steps": "@"}
    body = _raw({"expected_revision": 1, "definition": changed}, **{"@": "1e400"})
    response = await client.patch(base, content=body, headers=JSON)
    assert response.status_code == 400
    assert response.json()["error"]["details"]["field"] == "definition.limits.max_steps"
    assert (await client.get(base)).json()["current_revision"] == 1
    paused = await client.post(f"{base}/pause", json={"expected_revision": 1})
    assert paused.status_code == 200


def test_the_definition_parser_refuses_unstorable_values_from_any_caller() -> None:
    with pytest.raises(InvalidDefinition) as caught:
        parse_definition(definition(x_ratio=float("nan")))
    assert (caught.value.field, caught.value.reason) == ("x_ratio", "non_finite_number")
    with pytest.raises(InvalidDefinition) as surrogate:
        parse_definition(definition(title="Digest \ud800"))
    assert (surrogate.value.field, surrogate.value.reason) == ("title", "invalid_unicode")


async def test_lone_surrogate_in_the_instruction_is_refused_naming_the_field(
    client: httpx.AsyncClient, store: SqlStore
) -> None:
    body = json.dumps(definition(instruction="Summarize \ud800 the news")).encode()
    assert b"\\ud800" in body
    response = await client.post(
        "/v1/schedules", content=body, headers={**JSON, "Idempotency-Key": "k"}
    )
    assert response.status_code == 400
    assert response.json()["error"]["details"] == {
        "field": "instruction",
        "reason": "invalid_unicode",
    }
    assert _stored_schedules(store) == 0


@pytest.mark.parametrize("at", ["9999-12-31T23:30:00-01:00", "0001-01-01T00:30:00+01:00"])
async def test_once_instant_without_a_utc_date_is_refused_naming_cadence_at(
    client: httpx.AsyncClient, at: str
) -> None:
    response = await client.post(
        "/v1/schedules",
        json=definition(cadence={"kind": "ONCE", "at": at}),
        headers={"Idempotency-Key": "k"},
    )
    assert response.status_code == 422
    assert response.json()["error"]["details"] == {"field": "cadence.at", "reason": "out_of_range"}


async def test_nesting_deeper_than_the_bound_is_refused(client: httpx.AsyncClient) -> None:
    nested: Any = "leaf"
    for _ in range(40):
        nested = [nested]
    response = await client.post(
        "/v1/schedules", json=definition(x_tree=nested), headers={"Idempotency-Key": "k"}
    )
    assert response.status_code == 400
    assert response.json()["error"]["details"]["reason"] == "too_deep"


async def test_body_over_the_limit_is_413_with_the_envelope(
    client: httpx.AsyncClient, store: SqlStore
) -> None:
    big = definition(x_blob="a" * MAX_BODY_BYTES)
    response = await client.post("/v1/schedules", json=big, headers={"Idempotency-Key": "k"})
    assert response.status_code == 413
    assert error_code(response) == "request.too_large"
    assert response.json()["error"]["details"] == {"max_bytes": MAX_BODY_BYTES}
    assert _stored_schedules(store) == 0


async def test_streamed_body_without_length_is_cut_off_at_the_limit(
    client: httpx.AsyncClient,
) -> None:
    async def chunks() -> AsyncIterator[bytes]:
        yield b'{"x_blob": "'
        for _ in range(MAX_BODY_BYTES // 1024 + 1):
            yield b"a" * 1024
        yield b'"}'

    response = await client.post(
        "/v1/schedules", content=chunks(), headers={**JSON, "Idempotency-Key": "k"}
    )
    assert "content-length" not in response.request.headers
    assert response.status_code == 413
    assert error_code(response) == "request.too_large"


async def test_unknown_fields_are_kept_up_to_their_total_bound(client: httpx.AsyncClient) -> None:
    kept = await create(client, x_note="n" * 1000, limits={**definition()["limits"], "x_pages": 3})
    assert kept["revision"]["x_note"] == "n" * 1000
    response = await client.post(
        "/v1/schedules",
        json=definition(x_small="s" * 100, x_large="l" * 20_000),
        headers={"Idempotency-Key": str(uuid4())},
    )
    assert response.status_code == 422
    assert response.json()["error"]["details"] == {
        "field": "x_large",
        "reason": "unknown_fields_too_large",
    }


@pytest.mark.parametrize(
    ("max_cost", "reason"),
    [
        ("1e5000000", "invalid_decimal"),
        ("12345678", "invalid_decimal"),
        ("0.1234567", "invalid_decimal"),
        ("-1", "invalid_decimal"),
        ("Infinity", "invalid_decimal"),
        ("0.00", "not_positive"),
    ],
)
async def test_money_is_a_plain_decimal_with_a_fixed_number_of_digits(
    client: httpx.AsyncClient, max_cost: str, reason: str
) -> None:
    limits = {**definition()["limits"], "max_cost": max_cost, "reserve_cost": None}
    response = await client.post(
        "/v1/schedules", json=definition(limits=limits), headers={"Idempotency-Key": "k"}
    )
    assert response.status_code == 422
    assert response.json()["error"]["details"] == {"field": "limits.max_cost", "reason": reason}


async def test_largest_money_amount_is_accepted(client: httpx.AsyncClient) -> None:
    created = await create(client, limits={**definition()["limits"], "max_cost": "9999999.999999"})
    assert created["revision"]["limits"]["max_cost"] == "9999999.999999"


@pytest.mark.parametrize("count", [10**30, 10_001])
async def test_counts_have_a_ceiling(client: httpx.AsyncClient, count: int) -> None:
    limits = {**definition()["limits"], "max_tool_calls": count}
    response = await client.post(
        "/v1/schedules", json=definition(limits=limits), headers={"Idempotency-Key": "k"}
    )
    assert response.status_code == 422
    assert response.json()["error"]["details"] == {
        "field": "limits.max_tool_calls",
        "reason": "above_ceiling",
    }


async def test_integral_numbers_are_integers_as_json_schema_says(
    client: httpx.AsyncClient,
) -> None:
    created = await create(client, run_timeout_seconds=300.0)
    assert created["revision"]["run_timeout_seconds"] == 300
    base = f"/v1/schedules/{created['schedule_id']}"
    paused = await client.post(f"{base}/pause", json={"expected_revision": 2.0 - 1.0})
    assert paused.status_code == 200
    for wrong in (1.5, "1", True):
        refused = await client.post(f"{base}/resume", json={"expected_revision": wrong})
        assert refused.status_code == 400, wrong


async def test_method_not_allowed_names_every_method_of_the_path(
    client: httpx.AsyncClient,
) -> None:
    response = await client.put(f"/v1/schedules/{uuid4()}")
    assert response.status_code == 405
    assert error_code(response) == "route.method_not_allowed"
    assert response.headers["allow"] == "DELETE, GET, PATCH"


async def test_a_body_on_a_route_that_reads_none_is_left_alone(client: httpx.AsyncClient) -> None:
    response = await client.request("GET", "/v1/principal", content=b"{NaN", headers=JSON)
    assert response.status_code == 200
