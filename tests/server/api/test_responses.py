"""Every answer is the rendering of the model its route declares in OpenAPI, byte for byte.

The demo data (every cadence kind, outcomes, sessions, folders, profiles in
each state) is read through every route; each body, parsed by the model the
route declares for its status and written out again, gives back the same
bytes. A body built beside its model, not by it, differs somewhere (a field's
place, an instant's spelling, a default filled in).
"""

from __future__ import annotations

import re
from typing import Any
from uuid import uuid4

import httpx
from pydantic import BaseModel

from server.api import responses, schedule_responses
from server.demo import load_demo_if_empty
from server.domain.states import ScheduleState
from server.storage.sql.store import SqlStore
from tests.server.api.conftest import NOW, create


def _declared_model(document: dict[str, Any], response: httpx.Response) -> type[BaseModel]:
    """The model the published document names for this answer's route and status."""
    request = response.request
    # Literal paths first: /v1/schedules/counts is not a schedule id.
    for template, operations in sorted(document["paths"].items(), key=lambda p: "{" in p[0]):
        pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template))
        if re.fullmatch(pattern, request.url.path) and request.method.lower() in operations:
            declared = operations[request.method.lower()]["responses"][str(response.status_code)]
            reference = declared["content"]["application/json"]["schema"]["$ref"]
            name = reference.rsplit("/", 1)[1]
            model: type[BaseModel] = getattr(schedule_responses, name, None) or getattr(
                responses, name
            )
            return model
    raise AssertionError(f"no route declares {request.method} {request.url.path}")


async def _answers(client: httpx.AsyncClient) -> list[httpx.Response]:
    answers = [
        await client.get("/v1/schedules", params={"limit": 100}),
        await client.get("/v1/schedules/counts"),
        await client.get("/v1/browser-profiles", params={"limit": 100}),
        await client.get("/v1/principal"),
        await client.get("/v1/folders", params={"limit": 100}),
        await client.get("/healthz"),
        await client.get("/readyz"),
    ]
    for summary in answers[0].json()["items"]:
        path = f"/v1/schedules/{summary['schedule_id']}"
        answers.append(await client.get(path))
        answers.append(await client.get(f"{path}/occurrences", params={"limit": 100}))
        window = {"from": "2026-10-01T00:00:00+02:00", "to": "2026-12-31T00:00:00Z"}
        answers.append(await client.get(f"{path}/projection", params=window))
    sessions = await client.get("/v1/sessions", params={"limit": 100})
    answers.append(sessions)
    for session in sessions.json()["items"]:
        path = f"/v1/sessions/{session['session_id']}/messages"
        answers.append(await client.get(path, params={"limit": 100}))
    return answers


async def test_every_answer_is_its_declared_models_own_rendering(
    client: httpx.AsyncClient, store: SqlStore
) -> None:
    load_demo_if_empty(store, "alice", "acme", NOW)
    created = await create(client, unknown_field={"kept": True})
    answers = await _answers(client)
    answers.append(
        await client.post(
            f"/v1/schedules/{created['schedule_id']}/pause",
            json={"expected_revision": created["current_revision"] + 1},
        )
    )
    answers.append(await client.get(f"/v1/schedules/{uuid4()}"))
    document = (await client.get("/openapi.json")).json()
    statuses = {response.status_code for response in answers}
    assert {200, 409, 404} <= statuses
    states = {item["state"] for item in answers[0].json()["items"]}
    assert states == set(ScheduleState)  # the demo shows every state
    for response in answers:
        model = _declared_model(document, response)
        rendered = model.model_validate_json(response.content).model_dump_json(by_alias=True)
        assert rendered.encode() == response.content, (model.__name__, response.request.url)


def _schema(document: dict[str, Any], reference: str) -> dict[str, Any]:
    schema: dict[str, Any] = document["components"]["schemas"][reference.rsplit("/", 1)[1]]
    return schema


async def test_the_state_filter_is_the_servers_schedule_states(
    client: httpx.AsyncClient,
) -> None:
    document = (await client.get("/openapi.json")).json()
    parameters = document["paths"]["/v1/schedules"]["get"]["parameters"]
    state = next(p for p in parameters if p["name"] == "state")
    array = next(s for s in state["schema"]["anyOf"] if s.get("type") == "array")
    assert array["items"]["$ref"].endswith("/ScheduleState")
    assert _schema(document, array["items"]["$ref"])["enum"] == list(ScheduleState)
