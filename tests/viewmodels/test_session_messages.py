"""The open session's transcript: read-only, oldest first, paged safely."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import respx

from devtools.api_bodies import NOW, message, page, uid
from tests.viewmodels.fake_server import ScriptedRoute, ok, server_down
from transport.client import ScheduleClient
from viewmodels.formatting import message_time_text
from viewmodels.paging import FeedPhase
from viewmodels.sidebar import SessionMessagesViewModel


def route(router: respx.MockRouter, name: str) -> ScriptedRoute:
    return ScriptedRoute(router, "GET", f"/v1/sessions/{uid(name)}/messages")


def msg(n: int, role: str = "assistant") -> dict[str, object]:
    return message(f"m{n}", role=role, text=f"text {n}", created_at=NOW + timedelta(minutes=n))


async def test_the_transcript_is_shown_oldest_first_with_role_labels_and_pages_on(
    api: ScheduleClient, router: respx.MockRouter, device_zone: ZoneInfo
) -> None:
    r = route(router, "s")
    r.script(None, ok(page([msg(1, "user"), msg(2)], "c2")))
    r.script("c2", ok(page([msg(2), msg(3, "tool")], "c2")))
    vm = SessionMessagesViewModel(api, device_zone=device_zone)
    await vm.open(uid("s"))
    assert [m.role_label for m in vm.snapshot.messages] == ["You", "Assistant"]
    assert vm.snapshot.messages[0].time_text == "1 Dec 2026, 07:01"
    await vm.load_more()
    await vm.load_more()
    assert [m.text for m in vm.snapshot.messages] == ["text 1", "text 2", "text 3"], "no duplicate"
    assert vm.snapshot.messages[-1].role_label == "Tool"
    assert r.cursors == [None, "c2"], "a repeated cursor ends paging"
    assert vm.snapshot.phase is FeedPhase.END_REACHED


async def test_the_persons_own_messages_are_marked_theirs_and_only_the_assistants_are_markdown(
    api: ScheduleClient, router: respx.MockRouter, device_zone: ZoneInfo
) -> None:
    route(router, "s").script(None, ok(page([msg(1, "user"), msg(2), msg(3, "tool")])))
    vm = SessionMessagesViewModel(api, device_zone=device_zone)
    await vm.open(uid("s"))
    assert [m.from_you for m in vm.snapshot.messages] == [True, False, False]
    assert [m.markdown is not None for m in vm.snapshot.messages] == [False, True, False]


async def test_a_failed_later_page_keeps_messages_and_retry_asks_for_that_page(
    api: ScheduleClient, router: respx.MockRouter, device_zone: ZoneInfo
) -> None:
    r = route(router, "s")
    r.script(None, ok(page([msg(1)], "c2")))
    r.script("c2", *server_down(), ok(page([msg(2)])))
    vm = SessionMessagesViewModel(api, device_zone=device_zone)
    await vm.open(uid("s"))
    await vm.load_more()
    assert vm.snapshot.later_page_error == "The schedule server failed"
    assert len(vm.snapshot.messages) == 1
    await vm.retry()
    assert [m.text for m in vm.snapshot.messages] == ["text 1", "text 2"]


async def test_the_newest_open_wins(
    api: ScheduleClient, router: respx.MockRouter, device_zone: ZoneInfo
) -> None:
    slow = route(router, "a").hold(None, ok(page([msg(1)])))
    route(router, "b").script(None, ok(page([msg(2)])))
    vm = SessionMessagesViewModel(api, device_zone=device_zone)
    first = asyncio.create_task(vm.open(uid("a")))
    await slow.arrived.wait()
    await vm.open(uid("b"))
    slow.release()
    await first
    assert vm.snapshot.session_id == uid("b")
    assert [m.text for m in vm.snapshot.messages] == ["text 2"]


async def test_message_times_are_shown_to_the_minute(
    api: ScheduleClient, router: respx.MockRouter, device_zone: ZoneInfo
) -> None:
    written = NOW + timedelta(minutes=32, seconds=4)
    r = route(router, "s")
    r.script(None, ok(page([message("m1", role="user", text="hello", created_at=written)])))
    vm = SessionMessagesViewModel(api, device_zone=device_zone)
    await vm.open(uid("s"))
    assert vm.snapshot.messages[0].time_text == "1 Dec 2026, 07:32", "seconds are dropped"


def test_a_message_time_is_read_in_the_device_zone_and_never_rounded_up() -> None:
    last_second = datetime(2026, 11, 30, 6, 32, 59, tzinfo=UTC)
    assert message_time_text(last_second, ZoneInfo("Europe/Paris")) == "30 Nov 2026, 07:32"
