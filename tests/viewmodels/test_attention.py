"""What went wrong, said in the app's words; the Needs attention chip; the notice when it is new.

Rows and the detail read ``last_outcome``; the chip's number is
``GET /v1/schedules/counts``; the filter is ``needs_attention=true`` across
every state. ``AttentionNotices`` keeps the announced outcomes in device
storage so a restart does not announce them again.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import respx

from devtools.api_bodies import (
    NOW,
    counts_json,
    detail,
    last_outcome_json,
    page,
    principal,
    summary,
    uid,
)
from tests.clock import FakeClock
from tests.viewmodels.fake_server import ScriptedRoute, ok, server_down
from tests.viewmodels.manual_sleep import ManualSleep
from transport.client import ScheduleClient
from transport.models import LastOutcome
from viewmodels.attention import (
    ANNOUNCED_KEY,
    NEVER_FIRED_TEXT,
    AttentionNotice,
    AttentionNotices,
    attention_line,
)
from viewmodels.detail import ScheduleDetailViewModel
from viewmodels.formatting.clock_text import HourCycle, display_zone
from viewmodels.ports import MemoryStorage
from viewmodels.schedule_list import ScheduleListViewModel

CURRENT = ("ACTIVE", "PAUSED")
LONDON = ZoneInfo("Europe/London")
SECRET = "Open the vault and read the secret numbers aloud"


def outcome(**changes: Any) -> LastOutcome:
    return LastOutcome.model_validate(last_outcome_json(**changes))


TODAY_0230 = NOW.replace(hour=2, minute=30)


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        pytest.param(
            {"disposition": "MISSED", "reason_code": "misfire_grace_exceeded", "run_status": None},
            "Missed at 02:30: the server was down",
            id="missed",
        ),
        pytest.param(
            {"disposition": "AUTHORIZATION_FAILED", "reason_code": "scope_revoked"},
            "Refused at 02:30: the schedule's owner lost a scope it asks for",
            id="refused-scope",
        ),
        pytest.param(
            {"disposition": "MATERIALIZED", "failure_reason": "deadline_exceeded"},
            "Run failed at 02:30: it ran past its deadline",
            id="run-failed-deadline",
        ),
        pytest.param(
            {"disposition": "SKIPPED_OVERLAP", "reason_code": "previous_run_in_flight"},
            "Skipped at 02:30: the previous run was still going",
            id="skipped-overlap",
        ),
        pytest.param(
            {"disposition": "CONFIGURATION_FAILED", "reason_code": "definition_invalid"},
            "Not run at 02:30: its saved definition is no longer valid",
            id="not-run",
        ),
        pytest.param(
            {"disposition": "AUTHORIZATION_FAILED", "reason_code": "badge_expired"},
            "Refused at 02:30: permission check failed (badge expired)",
            id="unknown-refusal-code",
        ),
        pytest.param(
            {"disposition": "MATERIALIZED", "failure_reason": "tool_crashed_hard"},
            "Run failed at 02:30: it stopped with an error (tool crashed hard)",
            id="unknown-failure-reason",
        ),
        pytest.param(
            {"disposition": "MATERIALIZED", "run_status": "CANCELLED", "failure_reason": None},
            "Run cancelled at 02:30",
            id="run-cancelled",
        ),
        pytest.param(
            {"disposition": "LOST_IN_SPACE", "run_status": None},
            "The firing at 02:30 did not run as planned (lost in space)",
            id="unknown-disposition",
        ),
    ],
)
def test_a_last_firing_that_needs_attention_reads_in_the_apps_own_words(
    changes: dict[str, Any], expected: str
) -> None:
    said = attention_line(outcome(nominal_fire_at=TODAY_0230, **changes), NOW, LONDON)
    assert said == expected


def test_an_outcome_that_needs_no_attention_has_no_warning_line_and_older_ones_name_the_day() -> (
    None
):
    fine = outcome(run_status="COMPLETED", failure_reason=None, needs_attention=False)
    assert attention_line(fine, NOW, LONDON) is None
    assert attention_line(None, NOW, LONDON) is None
    yesterday = outcome(nominal_fire_at=TODAY_0230 - timedelta(days=1), disposition="MISSED")
    assert attention_line(yesterday, NOW, LONDON) == (
        "Missed at 02:30 yesterday: the server was down"
    )
    earlier = outcome(nominal_fire_at=TODAY_0230 - timedelta(days=2), disposition="MISSED")
    assert attention_line(earlier, NOW, LONDON) == (
        "Missed at 02:30 on 29 Nov 2026: the server was down"
    )


def test_a_person_on_the_12_hour_clock_reads_what_went_wrong_at_2_30_am() -> None:
    twelve_hour = display_zone(LONDON, HourCycle.H12)
    missed = outcome(nominal_fire_at=TODAY_0230, disposition="MISSED", run_status=None)
    assert attention_line(missed, NOW, twelve_hour) == "Missed at 2:30 am: the server was down"
    yesterday = outcome(nominal_fire_at=TODAY_0230 - timedelta(days=1), disposition="MISSED")
    assert attention_line(yesterday, NOW, twelve_hour) == (
        "Missed at 2:30 am yesterday: the server was down"
    )


async def test_a_row_whose_last_firing_needs_attention_carries_one_warning_line(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    failed = last_outcome_json(nominal_fire_at=TODAY_0230)
    fine = last_outcome_json(run_status="COMPLETED", failure_reason=None, needs_attention=False)
    schedules_route.script(
        (CURRENT, None),
        ok(
            page(
                [
                    summary("bad", last_outcome=failed),
                    summary("good", last_outcome=fine),
                    summary("new", last_outcome=None),
                ]
            )
        ),
    )
    vm = ScheduleListViewModel(api, clock=clock, device_zone=device_zone)
    await vm.open()
    bad, good, new = vm.snapshot.rows
    assert bad.attention_text == "Run failed at 02:30: it ran past its deadline"
    assert bad.attention_text in bad.accessibility_label
    assert good.attention_text is None and new.attention_text is None


async def test_the_detail_shows_the_last_firing_in_its_schedule_group(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    ScriptedRoute(router, "GET", "/v1/principal", key="none").script(None, ok(principal()))
    ScriptedRoute(router, "GET", "/v1/browser-profiles").script(None, ok(page([])))
    route = ScriptedRoute(router, "GET", f"/v1/schedules/{uid('s')}", key="none")
    route.script(None, ok(detail("s", last_outcome=last_outcome_json(nominal_fire_at=TODAY_0230))))
    vm = ScheduleDetailViewModel(api, clock=clock, device_zone=device_zone)
    await vm.open(uid("s"))
    fields = vm.snapshot.fields
    assert fields is not None
    assert fields.groups[0].title == "Schedule"
    assert fields.value("Last firing") == (
        "Run failed at 1 Dec 2026, 02:30: it ran past its deadline"
    )
    route.rescript(None, ok(detail("s", last_outcome=None)))
    await vm.retry()
    assert vm.snapshot.fields is not None
    assert vm.snapshot.fields.value("Last firing") == NEVER_FIRED_TEXT


async def test_the_needs_attention_chip_counts_from_the_counts_route_on_open_and_reload(
    api: ScheduleClient,
    schedules_route: ScriptedRoute,
    counts_route: ScriptedRoute,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    schedules_route.script((CURRENT, None), ok(page([summary("a")])))
    counts_route.rescript(
        None, ok(counts_json(needs_attention=3)), ok(counts_json(needs_attention=4))
    )
    vm = ScheduleListViewModel(api, clock=clock, device_zone=device_zone)
    assert vm.snapshot.attention_label == "Needs attention"
    await vm.open()
    assert vm.snapshot.attention_label == "Needs attention (3)"
    await vm.reload()
    assert vm.snapshot.attention_label == "Needs attention (4)"
    assert all("q" not in r.url.params for r in counts_route.requests)


async def test_the_needs_attention_filter_lists_every_state_and_combines_with_the_search(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    route = ScriptedRoute(router, "GET", "/v1/schedules", key="search")
    route.script((CURRENT, None, False, None), ok(page([summary("a")])))
    route.script(((), None, True, None), ok(page([summary("bad", title="Broken")])))
    route.script((CURRENT, "zzz", False, None), ok(page([])))
    route.script(((), "zzz", True, None), ok(page([])))
    sleep = ManualSleep()
    vm = ScheduleListViewModel(api, clock=clock, device_zone=device_zone, sleep=sleep)
    await vm.open()
    await vm.select_attention(True)
    assert vm.snapshot.attention_only
    assert [row.title for row in vm.snapshot.rows] == ["Broken"]
    await vm.clear_query()
    typing = asyncio.create_task(vm.type_query("zzz"))
    await sleep.sleepers(1)
    sleep.pass_time()
    await typing
    assert route.key_of(route.requests[-1]) == ((), "zzz", True, None)
    assert vm.snapshot.empty_text == "Nothing that needs attention matches “zzz”"
    assert vm.snapshot.search_elsewhere is None
    await vm.select_attention(False)
    assert route.key_of(route.requests[-1]) == (CURRENT, "zzz", False, None)


class Recorder:
    def __init__(self) -> None:
        self.told: list[AttentionNotice] = []

    def __call__(self, notice: AttentionNotice) -> None:
        self.told.append(notice)


def attention_route(router: respx.MockRouter) -> ScriptedRoute:
    return ScriptedRoute(router, "GET", "/v1/schedules", key="search")


def failing(name: str, at_hour: int, *, title: str) -> dict[str, Any]:
    return summary(
        name,
        title=title,
        preview=SECRET[:40],
        last_outcome=last_outcome_json(nominal_fire_at=NOW.replace(hour=at_hour)),
    )


ATTENTION = ((), None, True, None)


async def test_the_first_check_on_a_device_learns_what_needs_attention_without_announcing(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    route = attention_route(router)
    route.script(ATTENTION, ok(page([failing("old", 1, title="Old trouble")])))
    storage = MemoryStorage()
    told = Recorder()
    notices = AttentionNotices(api, storage, clock=clock, device_zone=device_zone, on_announce=told)
    assert await notices.check()
    assert notices.snapshot.notice is None and told.told == []
    assert isinstance(await storage.get(ANNOUNCED_KEY), list)


async def test_a_new_outcome_is_announced_once_with_its_title_never_the_instruction(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    route = attention_route(router)
    route.script(
        ATTENTION,
        ok(page([failing("old", 1, title="Old trouble")])),
        ok(
            page(
                [failing("new", 5, title="Nightly backup"), failing("old", 1, title="Old trouble")]
            )
        ),
    )
    storage = MemoryStorage()
    told = Recorder()
    notices = AttentionNotices(api, storage, clock=clock, device_zone=device_zone, on_announce=told)
    await notices.check()
    await notices.check()
    notice = notices.snapshot.notice
    assert notice is not None
    assert notice.schedule_id == uid("new") and notice.others == 0 and not notice.opens_list
    assert notice.text == (
        "“Nightly backup” needs attention: Run failed at 05:00: it ran past its deadline"
    )
    assert told.told == [notice]
    assert SECRET[:20] not in notice.text
    await notices.check()
    assert told.told == [notice], "announced once"
    notices.dismiss()
    assert notices.snapshot.notice is None and notices.snapshot.announced == 1


async def test_a_restart_does_not_announce_again_what_was_announced(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    route = attention_route(router)
    route.script(
        ATTENTION,
        ok(page([])),
        ok(page([failing("new", 5, title="Nightly backup")])),
    )
    storage = MemoryStorage()
    first = AttentionNotices(api, storage, clock=clock, device_zone=device_zone)
    await first.check()
    await first.check()
    assert first.snapshot.notice is not None
    told = Recorder()
    restarted = AttentionNotices(
        api, storage, clock=clock, device_zone=device_zone, on_announce=told
    )
    await restarted.check()
    assert restarted.snapshot.notice is None and told.told == []


async def test_several_new_outcomes_make_one_notice_naming_the_newest_and_opening_the_list(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    route = attention_route(router)
    route.script(
        ATTENTION,
        ok(page([])),
        ok(page([failing("a", 6, title="Alpha"), failing("b", 5, title="Beta")])),
    )
    notices = AttentionNotices(api, MemoryStorage(), clock=clock, device_zone=device_zone)
    await notices.check()
    await notices.check()
    notice = notices.snapshot.notice
    assert notice is not None and notice.title == "Alpha" and notice.others == 1
    assert notice.opens_list and notice.text.endswith("(and 1 other schedule)")


async def test_a_new_firing_of_a_schedule_already_announced_is_announced_again(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    route = attention_route(router)
    route.script(
        ATTENTION,
        ok(page([failing("a", 1, title="Alpha")])),
        ok(page([failing("a", 2, title="Alpha")])),
    )
    notices = AttentionNotices(api, MemoryStorage(), clock=clock, device_zone=device_zone)
    await notices.check()
    await notices.check()
    assert notices.snapshot.notice is not None and notices.snapshot.announced == 1


async def test_a_check_that_cannot_read_the_server_announces_nothing_and_says_so(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, device_zone: ZoneInfo
) -> None:
    route = attention_route(router)
    route.script(ATTENTION, *server_down())
    storage = MemoryStorage()
    notices = AttentionNotices(api, storage, clock=clock, device_zone=device_zone)
    assert await notices.check() is False
    assert notices.snapshot.notice is None and storage.keys() == []
