"""Settings: theme, 24-hour clock and display zone, remembered on the device.

The rules of viewmodels/README.md ("Settings"), each a test, on the view
model alone with ``MemoryStorage``: it takes no server client at all, so
nothing it holds can be sent to one.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from tests.clock import NOW
from viewmodels.formatting.clock_text import (
    HourCycle,
    instant_text,
    instant_text_naming_zone,
    your_time_text,
)
from viewmodels.formatting.relative_text import next_firing_text
from viewmodels.navigation import Place, parse_location
from viewmodels.ports import JsonValue, MemoryStorage
from viewmodels.settings import SETTINGS_KEY, DisplayPreferences, SettingsViewModel, ThemeChoice
from viewmodels.settings.snapshot import DEVICE_ZONE_VALUE
from viewmodels.settings.view_model import ZONE_MATCH_LIMIT

DEVICE = ZoneInfo("Europe/London")
KOLKATA = "Asia/Kolkata"
AT = datetime(2026, 11, 30, 14, 30, tzinfo=UTC)
"""Later the same day as ``NOW`` (09:00 UTC): 14:30 in London, 20:00 in Kolkata."""


def settings(storage: MemoryStorage | None = None) -> SettingsViewModel:
    return SettingsViewModel(storage or MemoryStorage(), device_zone=DEVICE)


def labels(vm: SettingsViewModel) -> list[str]:
    return [choice.label for choice in vm.snapshot.zone_choices]


async def test_settings_start_as_the_device_with_the_language_clock_and_the_device_zone() -> None:
    vm = settings()
    await vm.load()
    assert vm.snapshot.preferences == DisplayPreferences()
    assert vm.snapshot.theme is ThemeChoice.SYSTEM
    assert vm.snapshot.clock_value == HourCycle.LANGUAGE.value
    assert vm.snapshot.zone_value == DEVICE_ZONE_VALUE
    assert vm.display_zone.key == DEVICE.key
    assert vm.snapshot.zone_text == "Times are shown in your device's zone, Europe/London."
    assert [c.label for c in vm.snapshot.theme_choices] == ["As the device", "Light", "Dark"]
    assert [c.label for c in vm.snapshot.clock_choices] == [
        "Follow the language",
        "On (13:00)",
        "Off (1:00 pm)",
    ]
    assert labels(vm) == ["Your device's zone (Europe/London)"]


async def test_every_choice_is_device_state_read_back_by_the_next_session() -> None:
    storage = MemoryStorage()
    vm = settings(storage)
    await vm.load()
    await vm.choose_theme(ThemeChoice.DARK.value)
    await vm.choose_clock(HourCycle.H12.value)
    await vm.choose_zone(KOLKATA)
    assert storage.keys() == [SETTINGS_KEY]

    again = settings(storage)
    await again.load()
    assert again.snapshot.preferences == DisplayPreferences(
        theme=ThemeChoice.DARK, hour_cycle=HourCycle.H12, zone_name=KOLKATA
    )
    assert again.display_zone.key == KOLKATA


async def test_choosing_what_is_already_chosen_writes_nothing() -> None:
    storage = MemoryStorage()
    vm = settings(storage)
    await vm.choose_theme(ThemeChoice.SYSTEM.value)
    await vm.choose_zone(DEVICE_ZONE_VALUE)
    assert storage.writes == 0


@pytest.mark.parametrize(
    "stored",
    [
        pytest.param({"theme": "sepia", "hour_cycle": "h11", "zone": "Mars/Olympus"}, id="unknown"),
        pytest.param("dark", id="not-an-object"),
        pytest.param({"zone": ["Europe/Paris"]}, id="wrong-type"),
        pytest.param(
            {"theme": ["dark"], "hour_cycle": {"h": 23}, "locale": ["de"]}, id="unhashable"
        ),
    ],
)
async def test_a_stored_value_this_version_cannot_read_reads_as_the_default(
    stored: JsonValue,
) -> None:
    vm = settings(MemoryStorage({SETTINGS_KEY: stored}))
    await vm.load()
    assert vm.snapshot.preferences == DisplayPreferences()


async def test_a_theme_clock_or_zone_the_app_does_not_know_is_refused() -> None:
    storage = MemoryStorage()
    vm = settings(storage)
    await vm.choose_theme("sepia")
    await vm.choose_clock("h11")
    await vm.choose_zone("Mars/Olympus")
    assert vm.snapshot.preferences == DisplayPreferences()
    assert storage.writes == 0


async def test_the_zone_search_matches_every_word_ignoring_case_and_underscores() -> None:
    vm = settings()
    await vm.type_zone_query("new YORK")
    assert labels(vm)[1:] == ["America/New_York"]
    assert vm.snapshot.zone_search_text == "1 zone matches."


async def test_the_zone_search_lists_a_few_matches_and_says_how_many_there_are() -> None:
    vm = settings()
    await vm.type_zone_query("america")
    assert len(labels(vm)) == 1 + ZONE_MATCH_LIMIT
    assert vm.snapshot.zone_search_text.startswith(f"The first {ZONE_MATCH_LIMIT} of ")
    assert vm.snapshot.zone_search_text.endswith(" zones: type more to narrow them.")


async def test_a_zone_search_that_matches_nothing_says_so() -> None:
    vm = settings()
    await vm.type_zone_query("atlantis")
    assert labels(vm) == ["Your device's zone (Europe/London)"]
    assert vm.snapshot.zone_search_text == "No time zone matches “atlantis”."


async def test_the_chosen_zone_stays_offered_whatever_is_searched() -> None:
    vm = settings()
    await vm.choose_zone(KOLKATA)
    await vm.type_zone_query("paris")
    assert labels(vm) == ["Your device's zone (Europe/London)", KOLKATA, "Europe/Paris"]
    assert vm.snapshot.zone_value == KOLKATA
    assert vm.snapshot.zone_text == "Times are shown in Asia/Kolkata."


async def test_the_screens_name_a_chosen_zone_as_chosen_and_the_devices_as_the_devices() -> None:
    vm = settings()
    assert your_time_text(vm.display_zone) == "Times in Europe/London, your device's zone"
    await vm.choose_zone(KOLKATA)
    assert your_time_text(vm.display_zone) == "Times in Asia/Kolkata, chosen in Settings"


async def test_a_chosen_zone_is_the_zone_every_time_is_shown_in() -> None:
    vm = settings()
    await vm.choose_zone(KOLKATA)
    assert instant_text(AT, vm.display_zone) == "30 Nov 2026, 20:00"
    assert next_firing_text(AT, NOW, vm.display_zone) == "Next: today at 20:00"
    await vm.choose_zone(DEVICE_ZONE_VALUE)
    assert vm.display_zone.key == DEVICE.key
    assert instant_text(AT, vm.display_zone) == "30 Nov 2026, 14:30"


async def test_clock_off_writes_every_time_12_hour() -> None:
    vm = settings()
    await vm.choose_clock(HourCycle.H12.value)
    zone = vm.display_zone
    assert next_firing_text(AT, NOW, zone) == "Next: today at 2:30 pm"
    assert next_firing_text(AT + timedelta(seconds=5), NOW, zone) == "Next: today at 2:30:05 pm"
    assert (
        instant_text_naming_zone(AT, zone, KOLKATA) == "30 Nov 2026, 2:30 pm (8:00 pm Asia/Kolkata)"
    )


@pytest.mark.parametrize("cycle", [HourCycle.LANGUAGE, HourCycle.H24], ids=["language", "on"])
async def test_clock_on_or_following_english_writes_every_time_24_hour(cycle: HourCycle) -> None:
    vm = settings()
    await vm.choose_clock(cycle.value)
    assert next_firing_text(AT, NOW, vm.display_zone) == "Next: today at 14:30"
    assert instant_text(AT.replace(hour=9), vm.display_zone) == "30 Nov 2026, 09:30"


def test_the_settings_route_is_its_own_screen_beside_schedules_and_agenda() -> None:
    location = parse_location("/settings")
    assert location.place is Place.SETTINGS
    assert location.route == "/settings"
    assert location.place.heading == "Settings"
    assert not location.place.shows_schedules
    assert not location.place.in_agenda
    assert parse_location("/settings/elsewhere").place is Place.SCHEDULES
