"""A definition read from the server goes back with every field it carried, unknown ones too."""

from __future__ import annotations

import json
from typing import Any

import respx

from tests.transport import wire_samples as wire
from transport.client import ScheduleClient
from transport.models import ScheduleRevision

S = wire.SCHEDULE_ID
DERIVED = ("revision", "timezone", "created_by_principal_id", "created_at")


def _revision_with_unknowns() -> dict[str, Any]:
    revision = wire.revision_json()
    revision["approval"] = {"required": True, "approvers": [{"id": "bob", "weight": 1.5}]}
    revision["limits"]["max_browser_minutes"] = {"soft": 10, "hard": None}
    revision["cadence"]["jitter"] = {"seconds": 30}
    revision["labels"] = ["news", {"nested": [1, 2, {"deep": "x"}]}]
    return revision


async def test_unknown_nested_fields_survive_into_the_patch_body(
    router: respx.Router, client: ScheduleClient
) -> None:
    served = _revision_with_unknowns()
    router.get(f"/v1/schedules/{S}").respond(200, json=wire.detail_json(revision=served))
    patch = router.patch(f"/v1/schedules/{S}").respond(200, json=wire.detail_json())

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


def test_definition_keeps_wire_forms() -> None:
    revision = ScheduleRevision.model_validate(
        wire.revision_json(
            cadence={"kind": "ONCE", "at": "2026-12-24T18:00:00+01:00"},
            limits={"max_cost": "5.00", "reserve_cost": "0.10"},
        )
    )
    definition = revision.definition()
    assert definition["limits"] == {"max_cost": "5.00", "reserve_cost": "0.10"}
    assert definition["cadence"] == {"kind": "ONCE", "at": "2026-12-24T17:00:00Z"}
    assert definition["agent_id"] == str(wire.AGENT_ID)
    assert definition["browser_profile_id"] == str(wire.PROFILE_ID)
    assert not set(DERIVED) & set(definition)


def test_definition_omits_fields_the_server_did_not_send() -> None:
    served = wire.revision_json()
    del served["browser_profile_id"]
    definition = ScheduleRevision.model_validate(served).definition()
    assert "browser_profile_id" not in definition
    assert json.loads(json.dumps(definition)) == definition
