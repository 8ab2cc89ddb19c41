"""The sidebar: history cache reconciled with the server, grouping by schedule, device state."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

import respx

from devtools.api_bodies import NOW, page, session, uid
from tests.clock import FakeClock
from tests.viewmodels.calendar_server import CalendarServer
from tests.viewmodels.fake_server import ScriptedRoute, ok, refused, server_down
from transport.client import ScheduleClient
from viewmodels.ports import MemoryStorage
from viewmodels.sidebar import SidebarPhase, SidebarViewModel

H = timedelta(hours=1)


class Sessions:
    def __init__(
        self, router: respx.MockRouter, *, folders: list[dict[str, Any]] | None = None
    ) -> None:
        self.sessions = ScriptedRoute(router, "GET", "/v1/sessions")
        self.folders = ScriptedRoute(router, "GET", "/v1/folders")
        if folders is None:
            self.folders.script(None, refused(404, "not_found"))
        else:
            self.folders.script(None, ok(page(folders)))

    def serve(self, *items: dict[str, Any]) -> None:
        self.sessions.rescript(None, ok(page(list(items))))


def sidebar(
    api: ScheduleClient, storage: MemoryStorage, clock: FakeClock, zone: ZoneInfo
) -> SidebarViewModel:
    return SidebarViewModel(api, storage, clock=clock, device_zone=zone)


def firing(
    n: int, schedule: str = "digest", hours_ago: float = 0, title: str | None = None
) -> dict[str, Any]:
    return session(
        f"{schedule}-{n}",
        schedule=schedule,
        last_activity_at=NOW - timedelta(hours=hours_ago),
        title=title or f"Digest firing {n}",
    )


async def test_two_or_more_sessions_of_a_schedule_are_one_group_labelled_by_the_most_recent(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    server = Sessions(router)
    server.serve(
        firing(3, hours_ago=1, title="Digest (renamed)"),
        session("chat", last_activity_at=NOW - 2 * H),
        firing(2, hours_ago=26),
        firing(1, hours_ago=50),
    )
    vm = sidebar(api, storage, clock, device_zone)
    await vm.open()
    (group,) = vm.snapshot.scheduled
    assert group.schedule_id == uid("digest")
    assert group.label == "Digest (renamed)"
    assert group.count == 3 and group.count_text == "3 sessions"
    assert [row.session_id for row in group.rows] == [
        uid("digest-3"),
        uid("digest-2"),
        uid("digest-1"),
    ]
    assert [row.age_text for row in group.rows] == ["1 h ago", "1 d ago", "2 d ago"]
    assert [row.session_id for row in vm.snapshot.history] == [uid("chat")]
    assert vm.snapshot.phase is SidebarPhase.LOADED


async def test_a_schedule_with_one_session_stays_in_history_where_it_would_have_been(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    server = Sessions(router)
    server.serve(
        session("chat-new", last_activity_at=NOW - H),
        firing(1, schedule="once", hours_ago=2),
        session("chat-old", last_activity_at=NOW - 3 * H),
    )
    vm = sidebar(api, storage, clock, device_zone)
    await vm.open()
    assert vm.snapshot.scheduled == ()
    assert [row.session_id for row in vm.snapshot.history] == [
        uid("chat-new"),
        uid("once-1"),
        uid("chat-old"),
    ]


async def test_groups_order_newest_first_with_the_schedule_id_as_tie_break(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    server = Sessions(router)
    server.serve(
        firing(1, "b", hours_ago=1),
        firing(2, "b", hours_ago=5),
        firing(1, "a", hours_ago=3),
        firing(2, "a", hours_ago=6),
        firing(1, "c", hours_ago=3),
        firing(2, "c", hours_ago=7),
    )
    vm = sidebar(api, storage, clock, device_zone)
    await vm.open()
    tied = sorted([uid("a"), uid("c")], key=str)
    assert [g.schedule_id for g in vm.snapshot.scheduled] == [uid("b"), *tied]


async def test_sections_are_folders_when_offered_then_scheduled_then_history(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    server = Sessions(router, folders=[{"folder_id": str(uid("work")), "name": "Work"}])
    server.serve(
        session("filed", last_activity_at=NOW - H, folder="work"),
        firing(1, hours_ago=2),
        firing(2, hours_ago=3),
        session("unfiled", last_activity_at=NOW - 4 * H),
    )
    vm = sidebar(api, storage, clock, device_zone)
    await vm.open()
    assert vm.snapshot.shows_folders
    (folder,) = vm.snapshot.folders or ()
    assert folder.name == "Work" and [r.session_id for r in folder.rows] == [uid("filed")]
    assert [g.schedule_id for g in vm.snapshot.scheduled] == [uid("digest")]
    assert [r.session_id for r in vm.snapshot.history] == [uid("unfiled")]


async def test_a_404_from_folders_means_no_folder_section_and_grouping_still_works(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    server = Sessions(router)
    server.serve(firing(1), firing(2, hours_ago=1))
    vm = sidebar(api, storage, clock, device_zone)
    await vm.open()
    assert vm.snapshot.folders is None and not vm.snapshot.shows_folders
    assert len(vm.snapshot.scheduled) == 1
    assert vm.snapshot.error is None


async def test_a_server_offering_folders_but_holding_none_shows_no_folder_heading(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    server = Sessions(router, folders=[])
    server.serve()
    vm = sidebar(api, storage, clock, device_zone)
    await vm.open()
    assert vm.snapshot.folders == ()
    assert not vm.snapshot.shows_folders
    assert vm.snapshot.empty_text == "No sessions yet."


async def test_a_schedule_id_that_is_not_a_uuid_string_is_absent(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    server = Sessions(router)
    server.serve(
        session("x1", last_activity_at=NOW - H, metadata={"schedule_id": "not-a-uuid"}),
        session("x2", last_activity_at=NOW - 2 * H, metadata={"schedule_id": "not-a-uuid"}),
        session("x3", last_activity_at=NOW - 3 * H, metadata={"schedule_id": 42}),
    )
    vm = sidebar(api, storage, clock, device_zone)
    await vm.open()
    assert vm.snapshot.scheduled == ()
    assert all(row.schedule_id is None and row.can_move_to_folder for row in vm.snapshot.history)


async def test_the_server_wins_on_reconciliation_and_sessions_gone_from_the_server_drop_out(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    storage = MemoryStorage()
    server = Sessions(router)
    server.serve(
        firing(1, title="Old title"),
        firing(2, hours_ago=1),
        session("gone", last_activity_at=NOW - H),
    )
    first = SidebarViewModel(api, storage, clock=clock, device_zone=device_zone)  # earlier launch
    await first.open()
    server.serve(firing(1, title="New title"), firing(2, hours_ago=1))
    second = SidebarViewModel(api, storage, clock=clock, device_zone=device_zone)
    painted: list[int] = []
    second.subscribe(lambda snap: painted.append(len(snap.history)))
    await second.open()
    assert painted[0] == 1, "the cached 'gone' chat is painted from the device first"
    (group,) = second.snapshot.scheduled
    assert group.label == "New title"
    assert second.snapshot.history == ()
    stored = await storage.get("sidebar.history")
    assert isinstance(stored, list) and len(stored) == 2


async def test_a_failed_reconciliation_keeps_the_cached_rows_and_says_why(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    server = Sessions(router)
    server.serve(firing(1), firing(2, hours_ago=1))
    await sidebar(api, storage, clock, device_zone).open()
    server.sessions.rescript(None, *server_down())
    vm = sidebar(api, storage, clock, device_zone)
    await vm.open()
    assert vm.snapshot.phase is SidebarPhase.FAILED
    assert vm.snapshot.error == "The schedule server failed"
    assert len(vm.snapshot.scheduled) == 1


async def test_groups_start_collapsed_and_expansion_survives_a_restart_without_reaching_the_server(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    server = Sessions(router)
    server.serve(firing(1), firing(2, hours_ago=1))
    vm = sidebar(api, storage, clock, device_zone)
    await vm.open()
    assert not vm.snapshot.scheduled[0].expanded, "collapsed by default"
    requests_before = len(router.calls)
    await vm.toggle_group(uid("digest"))
    assert vm.snapshot.scheduled[0].expanded
    assert len(router.calls) == requests_before, "expansion is never sent to the server"
    restarted = sidebar(api, storage, clock, device_zone)
    await restarted.open()
    assert restarted.snapshot.scheduled[0].expanded, "remembered across launches"
    await restarted.toggle_group(uid("digest"))
    assert not restarted.snapshot.scheduled[0].expanded


async def test_a_new_firing_never_reopens_a_collapsed_group(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    server = Sessions(router)
    server.serve(firing(1, hours_ago=2), firing(2, hours_ago=1))
    vm = sidebar(api, storage, clock, device_zone)
    await vm.open()
    server.serve(firing(3), firing(1, hours_ago=2), firing(2, hours_ago=1))
    await vm.refresh()
    server.serve(firing(4), firing(3), firing(1, hours_ago=2), firing(2, hours_ago=1))
    assert await vm.catch_up()
    (group,) = vm.snapshot.scheduled
    assert group.count == 4
    assert not group.expanded


async def test_the_open_sessions_collapsed_group_shows_a_selection_marker(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    server = Sessions(router)
    server.serve(firing(1), firing(2, hours_ago=1), session("chat", last_activity_at=NOW - H))
    vm = sidebar(api, storage, clock, device_zone)
    await vm.open()
    vm.select_session(uid("digest-2"))
    (group,) = vm.snapshot.scheduled
    assert group.contains_selection and group.shows_selection_marker
    assert [row.selected for row in group.rows] == [False, True]
    await vm.toggle_group(uid("digest"))
    assert not vm.snapshot.scheduled[0].shows_selection_marker, "expanded: the row itself shows it"
    vm.select_session(uid("chat"))
    assert not vm.snapshot.scheduled[0].contains_selection
    assert vm.snapshot.history[0].selected
    vm.select_schedules()
    assert vm.snapshot.schedules_selected and vm.snapshot.selected_session_id is None
    assert not vm.snapshot.history[0].selected


async def test_sessions_with_a_schedule_id_offer_no_move_to_folder(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    server = Sessions(router)
    server.serve(
        firing(1),
        firing(2, hours_ago=1),
        firing(1, "solo", hours_ago=2),
        session("chat", last_activity_at=NOW - 3 * H),
    )
    vm = sidebar(api, storage, clock, device_zone)
    await vm.open()
    grouped = [row.can_move_to_folder for row in vm.snapshot.scheduled[0].rows]
    plain = {row.session_id: row.can_move_to_folder for row in vm.snapshot.history}
    assert grouped == [False, False]
    assert plain == {uid("solo-1"): False, uid("chat"): True}


async def test_a_removed_schedule_still_groups_its_sessions_and_its_failed_read_changes_nothing(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    server = Sessions(router)
    server.serve(firing(1, "removed"), firing(2, "removed", hours_ago=1))
    removed = f"/v1/schedules/{uid('removed')}/projection"
    CalendarServer(router).queue.append(refused(404, "schedule.not_found"))
    vm = sidebar(api, storage, clock, device_zone)
    await vm.open()
    (group,) = vm.snapshot.scheduled
    assert group.schedule_id == uid("removed") and group.ended_text is None
    assert all(row.outcome_text is None for row in group.rows)
    paths = {call.request.url.path for call in router.calls}
    assert paths == {"/v1/sessions", "/v1/folders", removed}, "only its projection is read"


async def test_a_second_firing_turns_a_history_row_into_a_group_and_back(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    server = Sessions(router)
    server.serve(firing(1, hours_ago=1), session("chat", last_activity_at=NOW - 2 * H))
    vm = sidebar(api, storage, clock, device_zone)
    await vm.open()
    assert [r.session_id for r in vm.snapshot.history] == [uid("digest-1"), uid("chat")]
    server.serve(firing(2), firing(1, hours_ago=1), session("chat", last_activity_at=NOW - 2 * H))
    assert await vm.catch_up()
    assert [r.session_id for r in vm.snapshot.history] == [uid("chat")]
    assert vm.snapshot.scheduled[0].count == 2
    server.serve(firing(2), session("chat", last_activity_at=NOW - 2 * H))
    await vm.refresh()
    assert vm.snapshot.scheduled == ()
    assert [r.session_id for r in vm.snapshot.history] == [uid("digest-2"), uid("chat")]
