"""A point read with a field this client cannot read still opens: that field says "Not available".

docs/API.md lets a ONCE revision's ``timezone`` be null; a server that says so
must not turn every ONCE detail into "could not be loaded".
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

import respx

from devtools import api_bodies as bodies
from tests.clock import FakeClock
from transport.client import ScheduleClient
from viewmodels.detail import DetailPhase, ScheduleDetailViewModel

S = bodies.SCHEDULE_ID


def _serve(router: respx.MockRouter, detail: dict[str, object]) -> None:
    router.get(f"/v1/schedules/{S}").respond(200, json=detail)
    router.get("/v1/principal").respond(200, json=bodies.principal_json())
    router.get("/v1/browser-profiles").respond(200, json=bodies.page_json())


async def test_once_detail_with_a_null_timezone_renders_with_its_instruction(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    revision = bodies.revision_json(cadence=bodies.once_cadence_json(), timezone=None)
    _serve(router, bodies.detail_json(revision=revision))
    vm = ScheduleDetailViewModel(api, clock=clock, device_zone=device_zone)
    await vm.open(S)
    assert vm.snapshot.phase is DetailPhase.LOADED
    fields = vm.snapshot.fields
    assert fields is not None
    assert fields.instruction == bodies.INSTRUCTION
    assert fields.value("Cadence") == "Once on 24 Dec 2026 at 17:00"


async def test_unreadable_fields_show_not_available_and_the_rest_renders(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    revision = bodies.revision_json(
        agent_version=7,
        run_timeout_seconds="five minutes",
        requested_scopes="all of them",
        cadence="every morning",
        limits=bodies.limits_json(max_cost="a lot"),
    )
    detail = bodies.detail_json(
        state="ACTIVE",
        pause_reason=None,
        next_fire_at="tomorrow",
        updated_at=12,
        revision=revision,
    )
    _serve(router, detail)
    vm = ScheduleDetailViewModel(api, clock=clock, device_zone=device_zone)
    await vm.open(S)
    fields = vm.snapshot.fields
    assert fields is not None, vm.snapshot.error
    rows = {line.label: line.value for group in fields.groups for line in group.lines}
    assert rows["Next firing"] == "Not available"
    assert rows["Cadence"] == "Not available"
    assert rows["Requested scopes"] == "Not available"
    assert rows["Agent"] == f"{bodies.AGENT_ID} (version Not available)"
    assert rows["Run timeout"] == "Not available"
    assert rows["Max cost"] == "Not available"
    assert rows["Max steps"] == "20"
    assert rows["Updated"] == "Not available"
    assert rows["Misfire grace"] == "1 h"
    assert fields.instruction == bodies.INSTRUCTION
