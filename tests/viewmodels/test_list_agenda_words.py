"""The schedules list and the agenda in the person's language: German and Chinese catalogs.

The device zone carries the locale (``display_zone``), as Settings hand it over;
the compiled catalogs (``viewmodels/catalogs``) give the words. ``NOW`` is
Tuesday 1 December 2026, 07:00 in Europe/London.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import respx
from babel import Locale

from devtools.api_bodies import agenda_density_json, page, page_json
from tests.clock import FakeClock
from tests.viewmodels.agenda.conftest import item
from tests.viewmodels.fake_server import ScriptedRoute, ok
from transport.client import ScheduleClient
from viewmodels.agenda import AgendaViewModel
from viewmodels.formatting.clock_text import HourCycle, display_zone
from viewmodels.schedule_list import ListSection, ScheduleListViewModel

LONDON = ZoneInfo("Europe/London")
GERMAN = display_zone(LONDON, HourCycle.LANGUAGE, Locale.parse("de_DE"))
CHINESE = display_zone(LONDON, HourCycle.LANGUAGE, Locale.parse("zh_Hans_CN"))
MIDNIGHT = datetime(2026, 12, 1, tzinfo=UTC)
CURRENT = ("ACTIVE", "PAUSED")
HISTORY = ("COMPLETED", "CANCELLED")


async def no_sleep(_seconds: float) -> None:
    """The search debounce, made instant."""


async def empty_list(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock, zone: ZoneInfo
) -> ScheduleListViewModel:
    """A list in ``zone`` opened on an empty Current section."""
    schedules_route.script((CURRENT, None), ok(page([])))
    schedules_route.script((HISTORY, None), ok(page([])))
    vm = ScheduleListViewModel(api, clock=clock, device_zone=zone)
    await vm.open()
    return vm


async def agenda_with(
    api: ScheduleClient,
    router: respx.MockRouter,
    clock: FakeClock,
    zone: ZoneInfo,
    *items: dict[str, Any],
) -> AgendaViewModel:
    """Today's agenda in ``zone``: ``items``, and a busy strip of 1, 2, then no firing an hour."""
    ScriptedRoute(router, "GET", "/v1/agenda").script(None, ok(page_json(*items)))
    density = ScriptedRoute(router, "GET", "/v1/agenda/density", key="none")
    density.script(None, ok(agenda_density_json(MIDNIGHT, [1, 2] + [0] * 22)))
    agenda = AgendaViewModel(api, clock=clock, device_zone=zone, sleep=no_sleep)
    await agenda.open()
    return agenda


async def test_an_empty_list_and_its_sections_speak_german(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock
) -> None:
    vm = await empty_list(api, schedules_route, clock, GERMAN)
    shown = vm.snapshot
    assert shown.empty_text == "Keine aktiven oder pausierten Zeitpläne."
    assert shown.section_label(ListSection.CURRENT) == "Aktuell"
    assert shown.section_label(ListSection.RECENT_HISTORY) == "Verlauf"
    assert shown.attention_label == "Braucht Aufmerksamkeit (0)"
    await vm.select_section(ListSection.RECENT_HISTORY)
    assert vm.snapshot.empty_text == "Noch keine abgeschlossenen oder abgebrochenen Zeitpläne."


async def test_an_empty_list_and_its_sections_speak_chinese(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock
) -> None:
    vm = await empty_list(api, schedules_route, clock, CHINESE)
    shown = vm.snapshot
    assert shown.empty_text == "没有活动或已暂停的计划。"
    assert shown.section_label(ListSection.CURRENT) == "当前"
    assert shown.section_label(ListSection.RECENT_HISTORY) == "最近记录"
    assert shown.end_of_list_text == "列表结束"


async def test_a_search_that_finds_nothing_says_so_in_german(
    api: ScheduleClient, schedules_route: ScriptedRoute, clock: FakeClock
) -> None:
    vm = await empty_list(api, schedules_route, clock, GERMAN)
    await vm.type_query("Bericht")
    assert vm.snapshot.empty_text == "Keine aktuellen Zeitpläne passen zu „Bericht“"
    assert vm.snapshot.search_elsewhere_label == "„Verlauf“ durchsuchen"


@pytest.mark.parametrize(
    ("zone", "one", "two", "quiet"),
    [
        (LONDON, "00:00: 1 firing", "01:00: 2 firings", "02:00: no firing (quiet)"),
        (GERMAN, "00:00: 1 Auslösung", "01:00: 2 Auslösungen", "02:00: keine Auslösung (ruhig)"),
        (CHINESE, "00:00：1 次触发", "01:00：2 次触发", "02:00：无触发（空闲）"),  # noqa: RUF001
    ],
    ids=["en", "de", "zh_Hans"],
)
async def test_the_busy_strip_counts_firings_in_the_languages_plural_forms(
    api: ScheduleClient,
    router: respx.MockRouter,
    clock: FakeClock,
    zone: ZoneInfo,
    one: str,
    two: str,
    quiet: str,
) -> None:
    agenda = await agenda_with(api, router, clock, zone)
    names = [cell.name for cell in agenda.snapshot.busy[:3]]
    assert names == [one, two, quiet]


async def test_the_busy_strip_says_its_quiet_hours_in_german(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    agenda = await agenda_with(api, router, clock, GERMAN)
    assert agenda.snapshot.busy_heading == "Belegte Stunden"
    assert agenda.snapshot.quiet_text == "Ruhige Stunden: 02:00 bis 00:00"


async def test_a_shared_instant_says_how_many_schedules_fire_then_in_german(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    at = MIDNIGHT + timedelta(hours=9)
    agenda = await agenda_with(api, router, clock, GERMAN, item("herd", at, clash_count=2))
    [today] = agenda.snapshot.days
    assert today.heading == "Heute"
    assert today.rows[0].clash_text == "2 Zeitpläne um 09:00"
