"""A definition read from the server goes back with every field it carried, unknown ones too."""

from __future__ import annotations

import json
from typing import Any

import respx

from devtools import api_bodies as bodies
from transport.client import ScheduleClient
from transport.models import ScheduleRevision

S = bodies.SCHEDULE_ID
DERIVED = ("revision", "timezone", "created_by_principal_id", "created_at")


def _revision_with_unknowns() -> dict[str, Any]:
    revision = bodies.revision_json()
    revision["approval"] = {"required": True, "approvers": [{"id": "bob", "weight": 1.5}]}
    revision["limits"]["max_browser_minutes"] = {"soft": 10, "hard": None}
    revision["cadence"]["jitter"] = {"seconds": 30}
    revision["labels"] = ["news", {"nested": [1, 2, {"deep": "x"}]}]
    return revision


async def test_unknown_nested_fields_survive_into_the_patch_body(
    router: respx.Router, client: ScheduleClient
) -> None:
    served = _revision_with_unknowns()
    router.get(f"/v1/schedules/{S}").respond(200, json=bodies.detail_json(revision=served))
    patch = router.patch(f"/v1/schedules/{S}").respond(200, json=bodies.detail_json())

    detail = await client.get_schedule(S)
    definition = detail.revision.definition()
    definition["browser_profile_id"] = None
    definition["requested_scopes"] = []
    await client.update_schedule(
        S, expected_revision=detail.current_revision, definition=definition
    )

    sent = json.loads(patch.calls.last.request.content)
    expected = {key: value for key, value in served.items() if key not in DERIVED}
    expected["browser_profile_id"] = None
    expected["requested_scopes"] = []
    assert sent == {"expected_revision": 3, "definition": expected}


def test_definition_carries_every_field_exactly_as_received() -> None:
    served = bodies.revision_json(
        cadence={"kind": "ONCE", "at": "2026-12-24T18:00:00+01:00"},
        limits={"max_cost": "5.00", "reserve_cost": "0.10", "max_steps": 20.0},
    )
    definition = ScheduleRevision.model_validate(served).definition()
    expected = {key: value for key, value in served.items() if key not in DERIVED}
    assert definition == expected
    assert definition["cadence"]["at"] == "2026-12-24T18:00:00+01:00"
    assert definition["limits"]["max_steps"] == 20.0
    assert definition["agent_id"] == str(bodies.AGENT_ID)


def test_unreadable_fields_go_back_unchanged_too() -> None:
    served = bodies.revision_json(
        agent_id="agent-7",
        run_timeout_seconds="five minutes",
        limits={"max_steps": "twenty", "max_cost": "NaN", "x_pages": {"per_site": 3}},
        cadence={"kind": "WEEKLY", "local_time": 800, "weekdays": "MWF", "timezone": None},
        requested_scopes="browser.profile.read",
        timezone=None,
    )
    revision = ScheduleRevision.model_validate(served)
    assert revision.agent_id is None and revision.unreadable("agent_id")
    assert revision.cadence is not None and revision.cadence.weekdays is None
    definition = revision.definition()
    assert definition == {key: value for key, value in served.items() if key not in DERIVED}
    assert json.loads(json.dumps(definition)) == definition


def test_definition_is_a_copy_the_caller_may_change() -> None:
    revision = ScheduleRevision.model_validate(bodies.revision_json())
    first = revision.definition()
    first["limits"]["max_steps"] = 1
    first["title"] = "changed"
    assert revision.definition()["limits"]["max_steps"] == 20
    assert revision.definition()["title"] == "Morning news digest"


def test_definition_omits_fields_the_server_did_not_send() -> None:
    served = bodies.revision_json()
    del served["browser_profile_id"]
    definition = ScheduleRevision.model_validate(served).definition()
    assert "browser_profile_id" not in definition
    assert json.loads(json.dumps(definition)) == definition
