"""gate.schedule.authority_fresh: every firing re-checks the principal's present authority.

Each change to the principal (a scope revoked, the principal disabled, its
authority version changed, the principal removed) fails the next due
occurrence closed, with an audited reason and no session or run. Restoring
the principal affects only a later occurrence, never the recorded one.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from server.identity import ALL_SCOPES, Principal
from server.storage.jsontext import load_object
from tests.server.api.conftest import Clock
from tests.server.scene import ALICE, Scene, directory, principal

REQUESTED = ["browser.profile.read", "session.read"]
CHANGES = [
    pytest.param(
        (principal(scopes=ALL_SCOPES - {"session.read"}),), "scope_revoked", id="scope-revoked"
    ),
    pytest.param((principal(enabled=False),), "principal_disabled", id="principal-disabled"),
    pytest.param(
        (principal(scopes=["browser.profile.read", "session.read", "schedule.read"]),),
        "authority_changed",
        id="authority-version-changed",
    ),
    pytest.param((principal("bob"),), "principal_unknown", id="principal-removed"),
]


@pytest.mark.parametrize(("changed", "reason"), CHANGES)
def test_a_changed_principal_fails_the_firing_closed_and_restoring_only_affects_later_ones(
    scene: Scene, clock: Clock, changed: tuple[Principal, ...], reason: str
) -> None:
    schedule_id = scene.create(
        requested_scopes=REQUESTED, browser_profile_id=None
    ).schedule.schedule_id
    first = scene.schedule(schedule_id).next_fire_at
    assert first is not None
    assert changed[0].authority_version != ALICE.authority_version

    scene.identity = directory(*changed)
    clock.now = first + timedelta(seconds=3)
    assert scene.scan().written == 1
    (refused,) = scene.ledger(schedule_id)
    assert refused.disposition == "AUTHORIZATION_FAILED"
    assert refused.reason_code == reason
    assert (refused.session_id, refused.run_id, refused.materialized_at) == (None, None, None)
    (audited,) = scene.events(schedule_id, "schedule.occurrence.authorization_failed")
    assert audited.payload["reason_code"] == reason
    assert audited.payload["occurrence_id"] == str(refused.occurrence_id)
    assert scene.count("sessions") == scene.count("runs") == 0
    record = scene.schedule(schedule_id)
    assert record.consecutive_failures == 1
    assert record.next_fire_at == first + timedelta(days=1), "the cadence advances"

    scene.identity = directory(ALICE)
    assert scene.scan().written == 0, "restoring does not replay the refused instant"
    clock.now = first + timedelta(days=1, seconds=3)
    scene.scan()
    refused_again, fired = scene.ledger(schedule_id)
    assert refused_again == refused
    assert fired.disposition == "MATERIALIZED"
    assert fired.authority_version == ALICE.authority_version
    (queued,) = scene.events(schedule_id, "run.queued")
    assert queued.payload["requested_scopes"] == REQUESTED, "exactly the requested scopes"


def test_an_update_records_the_present_authority_version_which_later_firings_require(
    scene: Scene, clock: Clock
) -> None:
    view = scene.create(requested_scopes=["session.read"])
    schedule_id = view.schedule.schedule_id
    changed = principal(scopes=ALL_SCOPES - {"schedule.cancel"})
    assert changed.authority_version != ALICE.authority_version
    scene.identity = directory(changed)
    renamed = {**load_object(view.revision.definition), "title": "Renamed"}
    updated = scene.service.update(changed, schedule_id, 1, renamed)
    assert updated.revision.authority_version == changed.authority_version

    first = scene.schedule(schedule_id).next_fire_at
    assert first is not None
    clock.now = first + timedelta(seconds=1)
    scene.scan()
    assert [o.disposition for o in scene.ledger(schedule_id)] == ["MATERIALIZED"]
