"""Offline: the screens show what the view cache kept, say when it was read, and write nothing.

The server is "away" when it answers 503 to every attempt (a proxy in front
of a stopped server) or refuses the connection; a server that answers with
a refusal (404, 401) is reached, and the ordinary failures apply.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import httpx
import pytest
import respx

from app.view_cache_store import ViewCacheStore
from devtools.api_bodies import NOW, detail, page, principal, profile, revision_body, summary, uid
from tests.clock import FakeClock
from tests.viewmodels.fake_server import Reply, ScriptedRoute, ok, refused
from transport.client import ScheduleClient
from transport.errors import ConnectionFailed, NotFound, ServerError
from transport.retry import MAX_ATTEMPTS
from viewmodels.detail import DetailPhase, ScheduleDetailViewModel, WebsiteOption
from viewmodels.detail.snapshot import NOT_READ_TEXT, NOT_READ_TITLE
from viewmodels.detail.website_access import OFFLINE_REASON
from viewmodels.formatting.clock_text import HourCycle, display_zone
from viewmodels.live_updates import OFFLINE_RECHECK, LiveUpdates
from viewmodels.offline import NoViewCache, OfflineViewModel, banner_text, unreachable
from viewmodels.paging import FeedPhase
from viewmodels.ports import MemoryStorage
from viewmodels.schedule_list import ListSection, ScheduleListViewModel
from viewmodels.sidebar import SidebarViewModel

CURRENT = (("ACTIVE", "PAUSED"), None)
HISTORY = (("COMPLETED", "CANCELLED"), None)


def away() -> tuple[Reply, ...]:
    """A 503 for every attempt the client makes: the server cannot be reached."""
    return tuple(refused(503, "server.unavailable") for _ in range(MAX_ATTEMPTS))


class Window:
    """The list, detail, sidebar and rounds of one window over one device storage."""

    def __init__(
        self,
        api: ScheduleClient,
        storage: MemoryStorage,
        clock: FakeClock,
        zone: ZoneInfo,
    ) -> None:
        self.offline = OfflineViewModel(ViewCacheStore(storage), clock=clock, device_zone=zone)
        self.schedules = ScheduleListViewModel(
            api, clock=clock, device_zone=zone, offline=self.offline
        )
        self.detail = ScheduleDetailViewModel(
            api, clock=clock, device_zone=zone, offline=self.offline
        )
        self.sidebar = SidebarViewModel(api, storage, clock=clock, device_zone=zone)
        self.live = LiveUpdates(
            schedules=self.schedules,
            detail=self.detail,
            sidebar=self.sidebar,
            clock=clock,
            offline=self.offline,
        )


class Server:
    """The routes a window reads, scripted; ``go_away`` makes every one answer 503."""

    def __init__(self, router: respx.MockRouter) -> None:
        self.schedules = ScriptedRoute(router, "GET", "/v1/schedules", key="states+cursor")
        self.principal = ScriptedRoute(router, "GET", "/v1/principal", key="none")
        self.profiles = ScriptedRoute(router, "GET", "/v1/browser-profiles")
        self.sessions = ScriptedRoute(router, "GET", "/v1/sessions")
        self.folders = ScriptedRoute(router, "GET", "/v1/folders")
        self.details = {
            name: ScriptedRoute(router, "GET", f"/v1/schedules/{uid(name)}", key="none")
            for name in ("a", "b", "c")
        }
        self.writes = router.route(method="PUT", path__regex=r"^/v1/schedules/")
        self.principal.script(None, ok(principal()))
        self.profiles.script(None, ok(page([profile("mail", origins=["https://mail.example"])])))
        self.sessions.script(None, ok(page([])))
        self.folders.script(None, ok(page([])))

    def serve(self, *, next_fire_at: datetime | None = None) -> None:
        self.principal.rescript(None, ok(principal()))
        self.sessions.rescript(None, ok(page([])))
        rows = [
            summary("a", title="Alpha", next_fire_at=next_fire_at),
            summary("b", title="Beta"),
            summary("c", title="Gamma"),
        ]
        self.schedules.rescript(CURRENT, ok(page(rows)))
        self.schedules.rescript(HISTORY, ok(page([summary("h", title="Done", state="COMPLETED")])))
        for name, route in self.details.items():
            body = detail(
                name,
                revision=revision_body(3, title=f"Detail {name}"),
                next_fire_at=next_fire_at,
            )
            route.rescript(None, ok(body))

    def go_away(self) -> None:
        for route in (self.schedules,):
            route.rescript(CURRENT, *away())
            route.rescript(HISTORY, *away())
        for route in (*self.details.values(), self.principal, self.sessions):
            route.rescript(None, *away())


async def read_online(window: Window, server: Server, *names: str) -> None:
    server.serve(next_fire_at=NOW + timedelta(minutes=30))
    await window.schedules.open()
    for name in names:
        await window.detail.open(uid(name))


@pytest.fixture
def server(router: respx.MockRouter) -> Server:
    return Server(router)


@pytest.fixture
def new_window(
    api: ScheduleClient, storage: MemoryStorage, clock: FakeClock, device_zone: ZoneInfo
) -> Callable[[], Window]:
    """Opens a window, as a new session (a reload, a new tab) over the same device storage."""
    return lambda: Window(api, storage, clock, device_zone)


async def reopened_while_away(
    new_window: Callable[[], Window], server: Server, *names: str
) -> Window:
    """A window opened once the server is away, after another read the list and ``names``."""
    await read_online(new_window(), server, *names)
    server.go_away()
    return new_window()


async def test_a_reload_that_cannot_reach_the_server_shows_the_rows_last_read_with_the_banner(
    clock: FakeClock,
    server: Server,
    new_window: Callable[[], Window],
) -> None:
    await read_online(new_window(), server)
    server.go_away()
    clock.advance(hours=3)

    later = new_window()  # a new session: the page reloaded
    await later.schedules.open()

    shown = later.schedules.snapshot
    assert [row.title for row in shown.rows] == ["Alpha", "Beta", "Gamma"]
    assert shown.first_page_error is None
    assert shown.cached_at == NOW
    assert later.offline.snapshot.offline
    assert later.offline.snapshot.banner_text == (
        "Can't reach the schedule server. Showing what was read at 07:00 (3 h ago)."
    )


async def test_the_banner_names_the_read_time_and_its_age_follows_the_clock(
    clock: FakeClock, device_zone: ZoneInfo, storage: MemoryStorage
) -> None:
    offline = OfflineViewModel(ViewCacheStore(storage), clock=clock, device_zone=device_zone)
    offline.showing_cached(NOW - timedelta(minutes=5))
    assert offline.snapshot.banner_text == (
        "Can't reach the schedule server. Showing what was read at 06:55 (5 min ago)."
    )
    published: list[str | None] = []
    offline.subscribe(lambda snapshot: published.append(snapshot.banner_text))

    offline.refresh_clock_texts()
    assert published == []  # unchanged: nothing published
    clock.advance(hours=3)
    offline.refresh_clock_texts()
    assert published == [
        "Can't reach the schedule server. Showing what was read at 06:55 (3 h ago)."
    ]
    clock.advance(days=1)
    assert banner_text(NOW, clock(), device_zone) == (
        "Can't reach the schedule server. Showing what was read at 07:00 yesterday (1 d ago)."
    )
    clock.advance(days=1)
    assert banner_text(NOW, clock(), device_zone) == (
        "Can't reach the schedule server. Showing what was read at 07:00 on 1 Dec 2026 (2 d ago)."
    )

    offline.reached()
    assert not offline.snapshot.offline
    assert offline.snapshot.banner_text is None


async def test_a_person_on_the_12_hour_clock_reads_the_banners_read_time_as_6_55_am(
    clock: FakeClock, device_zone: ZoneInfo, storage: MemoryStorage
) -> None:
    twelve_hour = display_zone(device_zone, HourCycle.H12)
    offline = OfflineViewModel(ViewCacheStore(storage), clock=clock, device_zone=twelve_hour)
    offline.showing_cached(NOW - timedelta(minutes=5))
    assert offline.snapshot.banner_text == (
        "Can't reach the schedule server. Showing what was read at 6:55 am (5 min ago)."
    )
    clock.advance(days=1)
    assert banner_text(NOW, clock(), twelve_hour) == (
        "Can't reach the schedule server. Showing what was read at 7:00 am yesterday (1 d ago)."
    )


async def test_a_passed_next_firing_offline_reads_due_as_of_the_read_time_never_a_guess(
    clock: FakeClock,
    server: Server,
    new_window: Callable[[], Window],
) -> None:
    window = await reopened_while_away(new_window, server, "a")
    await window.schedules.open()
    assert (
        window.schedules.snapshot.rows[0].next_fire_text
        == "Next: today at 07:30 (08:30 Europe/Paris)"
    )

    clock.advance(hours=1)  # the firing passes while the server is away
    await window.live.check()

    row = window.schedules.snapshot.rows[0]
    assert row.next_fire_text == "Next: due (as of 07:00)"
    assert "Next: due (as of 07:00)" in row.accessibility_label
    await window.detail.open(uid("a"))
    fields = window.detail.snapshot.fields
    assert fields is not None
    assert fields.value("Next firing") == "due (as of 07:00)"


async def test_a_detail_read_before_is_shown_offline_with_its_binding_and_a_read_only_picker(
    server: Server,
    new_window: Callable[[], Window],
) -> None:
    window = await reopened_while_away(new_window, server, "a", "b")

    for name in ("a", "b"):
        await window.detail.open(uid(name))
        shown = window.detail.snapshot
        assert shown.phase is DetailPhase.LOADED
        assert shown.fields is not None and shown.fields.title == f"Detail {name}"
        assert shown.cached_at == NOW
        picker = window.detail.website_access.snapshot
        assert picker.current.display_text == "None"
        assert not picker.editable and not picker.picker_enabled
        assert picker.not_editable_reason == OFFLINE_REASON
    assert window.offline.snapshot.offline


async def test_a_detail_never_read_says_it_was_not_read_while_online(
    server: Server,
    new_window: Callable[[], Window],
) -> None:
    window = await reopened_while_away(new_window, server, "a")

    await window.detail.open(uid("c"))

    shown = window.detail.snapshot
    assert shown.phase is DetailPhase.NOT_READ
    assert shown.error_title == NOT_READ_TITLE
    assert shown.error == NOT_READ_TEXT
    assert shown.can_retry


async def test_a_server_that_answers_with_a_refusal_is_not_offline(
    server: Server, new_window: Callable[[], Window]
) -> None:
    await read_online(new_window(), server, "a")
    server.details["a"].rescript(None, refused(404, "schedule.not_found"))
    server.schedules.rescript(CURRENT, *(refused(500, "server.error"),) * MAX_ATTEMPTS)
    window = new_window()

    await window.schedules.open()
    await window.detail.open(uid("a"))

    assert window.schedules.snapshot.first_page_error is not None
    assert window.schedules.snapshot.rows == ()
    assert window.detail.snapshot.phase is DetailPhase.NOT_FOUND
    assert not window.offline.snapshot.offline
    assert unreachable(ConnectionFailed()) and unreachable(ServerError(503, "x", "", {}))
    assert not unreachable(NotFound(404, "schedule.not_found", "", {}))


async def test_a_connection_refused_at_start_shows_the_cached_rows_at_once(
    api: ScheduleClient,
    router: respx.MockRouter,
    clock: FakeClock,
    device_zone: ZoneInfo,
    storage: MemoryStorage,
) -> None:
    cache = ViewCacheStore(storage)
    from transport.models import ScheduleSummary

    kept = [ScheduleSummary.model_validate(summary("a", title="Alpha"))]
    await cache.keep_section(ListSection.CURRENT.value, kept, NOW)
    route = router.get("/v1/schedules").mock(side_effect=httpx.ConnectError("refused"))
    offline = OfflineViewModel(ViewCacheStore(storage), clock=clock, device_zone=device_zone)
    schedules = ScheduleListViewModel(api, clock=clock, device_zone=device_zone, offline=offline)
    seen: list[tuple[tuple[str, ...], int, bool]] = []
    schedules.subscribe(
        lambda shown: seen.append(
            (tuple(row.title for row in shown.rows), route.call_count, bool(shown.first_page_error))
        )
    )

    await schedules.open()

    painted = next(index for index, (titles, _, _) in enumerate(seen) if titles)
    assert seen[painted][:2] == (("Alpha",), 0)  # painted before the server was asked
    assert all(titles == ("Alpha",) for titles, _, _ in seen[painted:])  # never emptied again
    assert not any(failed for _, _, failed in seen)
    assert schedules.snapshot.phase is FeedPhase.END_REACHED
    assert offline.snapshot.offline


async def test_back_online_a_round_reads_the_server_again_and_the_banner_goes(
    server: Server,
    new_window: Callable[[], Window],
) -> None:
    window = await reopened_while_away(new_window, server, "a")
    await window.schedules.open()
    await window.detail.open(uid("a"))
    await window.live.check()  # still away: no backing off while offline
    assert window.offline.snapshot.offline
    assert window.live.delay() == OFFLINE_RECHECK

    server.serve()
    await window.live.check()

    assert not window.offline.snapshot.offline
    assert window.schedules.snapshot.cached_at is None
    assert window.detail.snapshot.cached_at is None
    assert window.detail.snapshot.phase is DetailPhase.LOADED
    assert window.detail.website_access.snapshot.picker_enabled


async def test_nothing_read_from_the_cache_is_written_to_the_server(
    server: Server,
    new_window: Callable[[], Window],
) -> None:
    window = await reopened_while_away(new_window, server, "a")
    await window.detail.open(uid("a"))
    picker = window.detail.website_access
    requests_before = len(server.details["a"].requests)

    assert picker.snapshot.options == (picker.snapshot.current,)  # nothing else is offered
    await picker.choose(WebsiteOption(uid("mail"), "mail.example"))

    assert not server.writes.called
    assert len(server.details["a"].requests) == requests_before  # not even a point read


async def test_the_banners_retry_starts_a_round_at_once(
    clock: FakeClock, device_zone: ZoneInfo, storage: MemoryStorage
) -> None:
    offline = OfflineViewModel(ViewCacheStore(storage), clock=clock, device_zone=device_zone)
    woken: list[str] = []
    offline.set_retry(lambda: woken.append("round"))
    offline.retry()
    assert woken == []  # online: there is nothing to retry
    offline.showing_cached(NOW)
    offline.retry()
    assert woken == ["round"]
    assert offline.snapshot.retrying
    offline.still_unreachable()
    assert not offline.snapshot.retrying and offline.snapshot.offline


async def test_the_calendar_month_last_shown_is_shown_offline_and_another_says_it_was_not_read(
    router: respx.MockRouter,
    server: Server,
    new_window: Callable[[], Window],
) -> None:
    from viewmodels.calendar import CalendarPhase
    from viewmodels.calendar.view_model import NOT_READ_MONTH

    await read_online(new_window(), server, "a")
    server.go_away()
    for route in router.routes:
        if "projection" in repr(route.pattern):
            route.mock(side_effect=httpx.ConnectError("refused"))
    window = new_window()
    await window.detail.open(uid("a"))
    calendar = window.detail.calendar
    assert calendar.snapshot.phase is CalendarPhase.LOADED
    assert calendar.snapshot.month_title == "December 2026"

    await calendar.next_month()

    assert calendar.snapshot.phase is CalendarPhase.FAILED
    assert calendar.snapshot.error == NOT_READ_MONTH


async def test_a_round_that_cannot_reach_the_server_turns_the_open_screens_to_the_kept_copy(
    clock: FakeClock,
    server: Server,
    new_window: Callable[[], Window],
) -> None:
    window = new_window()
    await read_online(window, server, "a")
    assert window.detail.website_access.snapshot.picker_enabled
    server.go_away()
    clock.advance(minutes=10)

    await window.live.check()

    assert window.offline.snapshot.banner_text == (
        "Can't reach the schedule server. Showing what was read at 07:00 (10 min ago)."
    )
    assert window.schedules.snapshot.cached_at == NOW
    assert window.detail.snapshot.cached_at == NOW
    assert window.detail.website_access.snapshot.not_editable_reason == OFFLINE_REASON


async def test_the_screens_say_each_time_the_server_answered_and_a_copy_says_whether_it_holds_any(
    storage: MemoryStorage,
    server: Server,
    new_window: Callable[[], Window],
) -> None:
    assert not await ViewCacheStore(storage).holds_anything()
    assert not await NoViewCache().holds_anything()
    await read_online(new_window(), server)
    assert await ViewCacheStore(storage).holds_anything()  # a new tab finds it

    server.go_away()
    window = new_window()
    answered: list[bool] = []
    window.offline.set_on_reached(lambda: answered.append(window.offline.snapshot.offline))
    await window.schedules.open()
    await window.live.check()
    assert answered == []  # never told while the server is away

    server.serve()
    await window.live.check()
    assert answered == [False]  # told once the banner has gone
