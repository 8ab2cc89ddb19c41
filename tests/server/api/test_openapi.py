"""The published OpenAPI document declares every route of API.md with its scope."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

API_MD = Path(__file__).resolve().parents[3] / "../shared/API.md"


def _documented_routes() -> dict[tuple[str, str], str | None]:
    """(METHOD, path with {} placeholders) -> scope, from the route table and inline mentions."""
    text = API_MD.read_text(encoding="utf-8")
    routes: dict[tuple[str, str], str | None] = {}
    for method, path, scope in re.findall(
        r"^\| `(GET|POST|PATCH|DELETE) (/v1/[^`?]*)[^`]*` \| ([a-z.]+) \|", text, re.M
    ):
        routes[(method, re.sub(r"\{[^}]*\}", "{}", path))] = scope
    for method, path, scope in re.findall(
        r"`(GET|POST|PATCH|DELETE) (/v1/[^`?]*)[^`]*` \(scope ([a-z.]+)\)", text
    ):
        routes[(method, re.sub(r"\{[^}]*\}", "{}", path))] = scope
    for method, path in re.findall(r"`(GET|POST|PATCH|DELETE) (/v1/[^`?]*)[^`]*`", text):
        routes.setdefault((method, re.sub(r"\{[^}]*\}", "{}", path)), None)
    return routes


@pytest.mark.skipif(not API_MD.exists(), reason="../shared/API.md is not beside the checkout")
async def test_openapi_declares_every_documented_route_and_scope(client: httpx.AsyncClient) -> None:
    document = (await client.get("/openapi.json")).json()
    published: dict[tuple[str, str], str | None] = {}
    unauthenticated: set[tuple[str, str]] = set()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if operation.get("x-no-authentication"):
                unauthenticated.add((method.upper(), path))
                continue
            declared = operation.get("x-required-scope")
            assert declared or operation.get("x-any-authenticated-caller"), (method, path)
            published[(method.upper(), re.sub(r"\{[^}]*\}", "{}", path))] = declared
    documented = _documented_routes()
    assert len(documented) >= 13
    assert set(documented) == set(published)
    for route, scope in documented.items():
        if scope is not None:
            assert published[route] == scope, route
    assert published[("GET", "/v1/principal")] is None
    assert unauthenticated == {("GET", "/healthz"), ("GET", "/readyz")}
