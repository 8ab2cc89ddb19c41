"""The calendar, the notices, the sidebar and the banners in the person's language.

Each view model is built with a display zone carrying a German (de_DE) or
Chinese (zh_Hans_CN) locale, and says its sentences from the compiled
catalogs: one message each, dates and times from Babel in the same locale.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
import respx
from babel import Locale

from app.view_cache_store import ViewCacheStore
from devtools.api_bodies import NOW, firing, page, scheduler_json, uid
from tests.clock import FakeClock
from tests.viewmodels.calendar_server import CalendarServer
from tests.viewmodels.fake_server import ScriptedRoute, ok
from tests.viewmodels.test_attention import ATTENTION, attention_route, failing
from tests.viewmodels.test_calendar import _cell, _daily
from tests.viewmodels.test_sidebar import Sessions, sidebar
from tests.viewmodels.test_sidebar import firing as session_firing
from transport.client import ScheduleClient
from viewmodels.attention import AttentionNotices
from viewmodels.calendar import CalendarViewModel
from viewmodels.formatting.clock_text import HourCycle, display_zone, words_of
from viewmodels.offline import OfflineViewModel
from viewmodels.ports import MemoryStorage
from viewmodels.scheduler_health import SchedulerHealthViewModel

NEW_YORK = ZoneInfo("America/New_York")
LONDON = ZoneInfo("Europe/London")


def shown_in(zone: str, locale: str) -> ZoneInfo:
    return display_zone(ZoneInfo(zone), HourCycle.LANGUAGE, Locale.parse(locale))


@pytest.fixture(autouse=True)
def _catalogs_are_compiled() -> None:
    if words_of(shown_in("UTC", "de_DE")).gettext("Next month") == "Next month":
        pytest.fail("the catalogs are not compiled (scripts/catalogs)")


async def spring_forward_in(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, locale: str
) -> CalendarViewModel:
    """A daily 02:30 New York schedule on 14 March 2027 (03:00 then), read on a UTC device."""
    clock.now = datetime(2027, 3, 10, 12, tzinfo=UTC)
    moved = firing(
        datetime(2027, 3, 14, 7, 0, tzinfo=UTC),
        local=datetime(2027, 3, 14, 3, 0),
        scheduled=datetime(2027, 3, 14, 2, 30),
        adjustment="MOVED_TO_TRANSITION",
    )
    CalendarServer(router, _daily(time(2, 30), NEW_YORK, {date(2027, 3, 14): moved}))
    calendar = CalendarViewModel(api, clock=clock, device_zone=shown_in("UTC", locale))
    await calendar.show(uid("s1"))
    await calendar.select_day(date(2027, 3, 14))
    return calendar


@pytest.mark.parametrize(
    ("locale", "sentence"),
    [
        pytest.param(
            "de_DE",
            "In New York werden die Uhren am 14. März vorgestellt:"
            " Diese Auslösung ist dort um 03:00 (07:00 Ihre Zeit)",
            id="german",
        ),
        pytest.param(
            "zh_Hans_CN",
            "New York的时钟将于3月14日拨快：此次触发在当地时间 03:00（您的时间 07:00）",  # noqa: RUF001
            id="chinese",
        ),
    ],
)
async def test_the_spring_forward_of_new_york_is_one_sentence_in_the_persons_language(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock, locale: str, sentence: str
) -> None:
    calendar = await spring_forward_in(api, router, clock, locale)
    assert calendar.snapshot.notes == (sentence,)


async def test_a_day_cells_label_says_the_date_and_its_firing_in_german(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    calendar = await spring_forward_in(api, router, clock, "de_DE")
    assert _cell(calendar, date(2027, 3, 10)).label == (
        "Mittwoch, 10. März 2027, heute: löst um 07:30 aus"
    )
    assert _cell(calendar, date(2027, 4, 1)).label.startswith(
        "Donnerstag, 1. April 2027, außerhalb von März 2027: "
    )


async def test_a_notice_counts_the_other_schedules_in_german(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    attention_route(router).script(
        ATTENTION,
        ok(page([])),
        ok(
            page(
                [
                    failing("a", 6, title="Alpha"),
                    failing("b", 5, title="Beta"),
                    failing("c", 4, title="Gamma"),
                ]
            )
        ),
    )
    zone = shown_in("Europe/London", "de_DE")
    notices = AttentionNotices(api, MemoryStorage(), clock=clock, device_zone=zone)
    await notices.check()
    await notices.check()
    notice = notices.snapshot.notice
    assert notice is not None
    assert notice.text.startswith("„Alpha“ braucht Aufmerksamkeit: ")
    assert notice.text.endswith(" (und 2 weitere Zeitpläne)")


@pytest.mark.parametrize(
    ("locale", "five", "one"),
    [
        pytest.param("de_DE", "5 Sitzungen", "1 Sitzung", id="german"),
        pytest.param("zh_Hans_CN", "5 个会话", "1 个会话", id="chinese"),
    ],
)
async def test_a_schedules_sessions_are_counted_in_the_persons_language(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    locale: str,
    five: str,
    one: str,
) -> None:
    server = Sessions(router)
    server.serve(
        *(session_firing(n, hours_ago=n) for n in range(1, 6)),
        session_firing(1, schedule="lone"),
    )
    bar = sidebar(api, storage, clock, shown_in("Europe/London", locale))
    await bar.open()
    assert bar.schedule_sessions(uid("digest")).text == five
    assert bar.schedule_sessions(uid("lone")).text == one
    (group,) = bar.snapshot.scheduled
    assert group.count_text == five


async def test_the_offline_banner_reads_in_chinese(
    clock: FakeClock, storage: MemoryStorage
) -> None:
    zone = shown_in("Europe/London", "zh_Hans_CN")
    offline = OfflineViewModel(ViewCacheStore(storage), clock=clock, device_zone=zone)
    offline.showing_cached(NOW - timedelta(minutes=5))
    assert offline.snapshot.banner_text == (
        "无法连接计划服务器。显示的是 06:55（5分钟前）读取的内容。"  # noqa: RUF001
    )


async def test_the_stopped_scheduler_banner_reads_in_german(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    route = ScriptedRoute(router, "GET", "/v1/scheduler", key="none")
    route.script(None, ok(scheduler_json()))
    zone = shown_in("Europe/London", "de_DE")
    health = SchedulerHealthViewModel(api, clock=clock, device_zone=zone)
    await health.check()
    assert health.snapshot.banner_text == (
        "Zeitpläne werden nicht ausgelöst: Der Scheduler des Servers lief zuletzt um 06:35"
        " (vor 25 Min.)."
    )
    assert health.snapshot.stopped
