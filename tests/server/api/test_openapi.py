"""docs/API.md and the published OpenAPI document describe the same API.

Every operation the server publishes is in one of the document's route tables
with the same scope, and every row of those tables is published; every error
code an operation declares is in the document's code table; the scope
vocabulary is the server's. The document is part of the repository, so these
tests never skip.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx

from server.identity import ALL_SCOPES

API_MD = Path(__file__).resolve().parents[3] / "docs" / "API.md"
ROW = re.compile(r"^\| `(GET|POST|PUT|PATCH|DELETE) (/[^`?\s]*)[^`]*` \| ([^|]+?) \|", re.M)
ANY_CALLER = "any caller"
NO_TOKEN = "none"


def _route(method: str, path: str) -> tuple[str, str]:
    return method.upper(), re.sub(r"\{[^}]*\}", "{}", path)


def _documented_routes() -> dict[tuple[str, str], str]:
    """(METHOD, path with {} placeholders) -> the scope cell of its table row."""
    text = API_MD.read_text(encoding="utf-8")
    return {_route(method, path): scope.strip() for method, path, scope in ROW.findall(text)}


def _published_scope(operation: dict[str, Any]) -> str:
    if operation.get("security") == []:
        return NO_TOKEN
    if operation.get("x-any-authenticated-caller"):
        return ANY_CALLER
    scope = operation.get("x-required-scope")
    assert isinstance(scope, str), operation.get("operationId")
    return scope


async def _document(client: httpx.AsyncClient) -> dict[str, Any]:
    response = await client.get("/openapi.json", headers={"Authorization": ""})
    assert response.status_code == 200
    document: dict[str, Any] = response.json()
    return document


async def test_every_published_route_is_documented_with_its_scope_and_no_more(
    client: httpx.AsyncClient,
) -> None:
    document = await _document(client)
    published = {
        _route(method, path): _published_scope(operation)
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
    }
    documented = _documented_routes()
    assert len(documented) >= 14
    assert documented == published
    assert published[("GET", "/v1/principal")] == ANY_CALLER
    assert published[("POST", "/v1/sessions/{}/folder")] == "session.write"
    assert published[("GET", "/healthz")] == published[("GET", "/readyz")] == NO_TOKEN


async def test_every_declared_error_code_is_in_the_code_table(client: httpx.AsyncClient) -> None:
    document = await _document(client)
    text = API_MD.read_text(encoding="utf-8")
    table = set(re.findall(r"^\| (\d{3}) \| `([a-z_.]+)` \|", text, re.M))
    declared: set[tuple[str, str]] = set()
    for operations in document["paths"].values():
        for operation in operations.values():
            for status, response in operation["responses"].items():
                if int(status) >= 400:
                    codes = re.findall(r"`([a-z_.]+)`", response["description"])
                    assert codes, (operation["operationId"], status)
                    declared |= {(status, code) for code in codes}
                    schema = response["content"]["application/json"]["schema"]
                    assert schema == {"$ref": "#/components/schemas/ErrorEnvelope"}
    assert declared <= table, declared - table


async def test_no_operation_declares_a_validation_answer_the_server_never_sends(
    client: httpx.AsyncClient,
) -> None:
    document = await _document(client)
    assert "HTTPValidationError" not in document["components"]["schemas"]
    for operations in document["paths"].values():
        for operation in operations.values():
            unprocessable = operation["responses"].get("422")
            if unprocessable is not None:
                assert "schedule." in unprocessable["description"], operation["operationId"]


async def test_paging_parameters_carry_their_real_bounds(client: httpx.AsyncClient) -> None:
    document = await _document(client)
    parameters = {
        p["name"]: p["schema"] for p in document["paths"]["/v1/schedules"]["get"]["parameters"]
    }
    assert (parameters["limit"]["minimum"], parameters["limit"]["maximum"]) == (1, 100)
    cursor = next(s for s in parameters["cursor"]["anyOf"] if s.get("type") == "string")
    assert (cursor["minLength"], cursor["maxLength"]) == (1, 2048)
    pause = document["components"]["schemas"]["ExpectedRevision"]["properties"]
    assert pause["expected_revision"]["type"] == "integer"
    assert pause["expected_revision"]["minimum"] == 1


def test_the_scope_vocabulary_is_documented_exactly() -> None:
    text = API_MD.read_text(encoding="utf-8")
    section = text.split("## Authentication and scopes", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"^\| `([a-z.]+)` \|", section, re.M))
    assert documented == ALL_SCOPES
