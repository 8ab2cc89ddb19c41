"""The view models against the real embedded server with its demo data.

Same code as the app: the real ``ScheduleClient`` over ``httpx.ASGITransport``
into ``open_embedded(..., demo=True)`` with a fixed clock. These prove the view
models and the server agree on paging, the website binding protocol and the
sidebar's grouping, not only the scripted respx servers of ``tests/viewmodels``.
"""

from __future__ import annotations

from uuid import UUID
from zoneinfo import ZoneInfo

from tests.e2e.conftest import fixed_clock
from transport.client import ScheduleClient
from transport.models import ScheduleSummary
from transport.paging import iterate_pages
from viewmodels.detail import DetailPhase, ScheduleDetailViewModel
from viewmodels.paging import FeedPhase
from viewmodels.ports import MemoryStorage
from viewmodels.schedule_list import ListSection, ScheduleListViewModel
from viewmodels.sidebar import SidebarPhase, SidebarViewModel

ZONE = ZoneInfo("Europe/London")


async def every_schedule(api: ScheduleClient, states: tuple[str, ...]) -> list[ScheduleSummary]:
    found: list[ScheduleSummary] = []
    async for page in iterate_pages(lambda c: api.list_schedules(states=states, cursor=c)):
        found.extend(page.items)
    return found


async def test_the_current_list_pages_through_every_active_and_paused_demo_schedule(
    api: ScheduleClient,
) -> None:
    expected = await every_schedule(api, ("ACTIVE", "PAUSED"))
    assert len(expected) > 5, "the demo has enough current schedules to need paging"
    vm = ScheduleListViewModel(api, clock=fixed_clock, device_zone=ZONE, page_size=5)
    await vm.open()
    pages = 1
    while vm.snapshot.phase is FeedPhase.LOADED:
        await vm.load_more()
        pages += 1
    assert vm.snapshot.phase is FeedPhase.END_REACHED
    assert [row.schedule_id for row in vm.snapshot.rows] == [s.schedule_id for s in expected]
    assert pages >= -(-len(expected) // 5), "one request per page of five"
    assert {row.state for row in vm.snapshot.rows} <= {"ACTIVE", "PAUSED"}
    assert all(row.cadence_summary for row in vm.snapshot.rows)


async def test_recent_history_shows_only_completed_and_cancelled_demo_schedules(
    api: ScheduleClient,
) -> None:
    vm = ScheduleListViewModel(api, clock=fixed_clock, device_zone=ZONE, page_size=100)
    await vm.select_section(ListSection.RECENT_HISTORY)
    expected = await every_schedule(api, ("COMPLETED", "CANCELLED"))
    assert [row.schedule_id for row in vm.snapshot.rows] == [s.schedule_id for s in expected]
    assert {row.state_label for row in vm.snapshot.rows} <= {"Completed", "Cancelled"}


async def test_binding_a_website_creates_revision_n_plus_1_on_the_server(
    api: ScheduleClient,
) -> None:
    current = await every_schedule(api, ("ACTIVE",))
    unbound = next(s for s in current if s.browser_profile_id is None)
    changed: list[int] = []

    async def on_changed(detail: object) -> None:
        changed.append(1)

    vm = ScheduleDetailViewModel(
        api, clock=fixed_clock, device_zone=ZONE, on_schedule_changed=on_changed
    )
    await vm.open(unbound.schedule_id)
    assert vm.snapshot.phase is DetailPhase.LOADED and vm.snapshot.fields is not None
    before = vm.snapshot.fields.revision
    picker = vm.website_access.snapshot
    assert picker.editable, picker.not_editable_reason
    choice = next(o for o in picker.options if o.profile_id is not None)
    await vm.website_access.choose(choice)
    question = vm.website_access.snapshot.question
    assert question is not None and question.text.startswith("Let \u201c")
    assert (await api.get_schedule(unbound.schedule_id)).current_revision == before, "asked first"
    await vm.website_access.allow()
    assert vm.website_access.snapshot.error is None
    assert vm.website_access.snapshot.saved is not None
    assert vm.website_access.snapshot.current.profile_id == choice.profile_id
    assert vm.snapshot.fields is not None and vm.snapshot.fields.revision == before + 1
    server_side = await api.get_schedule(unbound.schedule_id)
    assert server_side.current_revision == before + 1
    assert server_side.revision.browser_profile_id == choice.profile_id
    assert "browser.profile.read" in server_side.revision.requested_scopes
    assert changed == [1], "the list is told to refresh the row"
    await vm.website_access.undo()
    undone = await api.get_schedule(unbound.schedule_id)
    assert undone.current_revision == before + 2, "Undo is another guarded update"
    assert undone.revision.browser_profile_id is None


async def test_the_sidebar_groups_the_demos_recurring_sessions(api: ScheduleClient) -> None:
    sessions = []
    async for page in iterate_pages(lambda c: api.list_sessions(cursor=c)):
        sessions.extend(page.items)
    per_schedule: dict[UUID, int] = {}
    for s in sessions:
        if s.schedule_id is not None:
            per_schedule[s.schedule_id] = per_schedule.get(s.schedule_id, 0) + 1
    recurring = {sid for sid, n in per_schedule.items() if n >= 2}
    assert recurring, "the demo has schedules that fired more than once"
    vm = SidebarViewModel(api, MemoryStorage(), clock=fixed_clock, device_zone=ZONE)
    await vm.open()
    assert vm.snapshot.phase is SidebarPhase.LOADED
    assert {g.schedule_id for g in vm.snapshot.scheduled} == recurring
    for group in vm.snapshot.scheduled:
        assert group.count == per_schedule[group.schedule_id]
        assert all(row.schedule_id == group.schedule_id for row in group.rows)
        assert not any(row.can_move_to_folder for row in group.rows)
        assert not group.expanded
    shown = sum(g.count for g in vm.snapshot.scheduled) + len(vm.snapshot.history)
    shown += sum(len(f.rows) for f in vm.snapshot.folders or ())
    assert shown == len(sessions), "every session is shown exactly once"
