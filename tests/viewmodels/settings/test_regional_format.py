"""Settings' regional format: the device's locale, or one chosen by name, remembered.

The device's locale is what the session started from (``--locale``, the
browser's or the system's); a chosen one replaces it on every screen at once,
through the display zone every view model is given.
"""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from babel import Locale

from viewmodels.formatting.clock_text import HourCycle, instant_text, locale_of
from viewmodels.ports import MemoryStorage
from viewmodels.settings import SETTINGS_KEY, SettingsViewModel
from viewmodels.settings.snapshot import DEVICE_LOCALE_VALUE, REGION_HEADING

DEVICE = ZoneInfo("Europe/London")
AT = datetime(2026, 11, 30, 14, 30, tzinfo=UTC)
US = Locale.parse("en_US")


def settings(storage: MemoryStorage, device_locale: Locale | None = None) -> SettingsViewModel:
    if device_locale is None:
        return SettingsViewModel(storage, device_zone=DEVICE)
    return SettingsViewModel(storage, device_zone=DEVICE, device_locale=device_locale)


async def test_the_regional_format_starts_as_the_devices_and_offers_four_by_name() -> None:
    vm = settings(MemoryStorage(), US)
    await vm.load()
    assert REGION_HEADING == "Language and region"
    assert vm.snapshot.locale_name == "en_US"
    assert vm.snapshot.locale_value == DEVICE_LOCALE_VALUE
    assert [c.label for c in vm.snapshot.locale_choices] == [
        "Your device's format: English (United States)",
        "English (UK)",
        "English (US)",
        "Deutsch",
        "中文（简体）",  # noqa: RUF001 - Chinese writes full-width brackets
    ]
    assert locale_of(vm.display_zone) == US
    assert instant_text(AT, vm.display_zone) == "Nov 30, 2026, 2:30 PM"
    assert [c.label for c in vm.snapshot.clock_choices][1:] == ["On (13:00)", "Off (1:00 PM)"]


async def test_a_chosen_regional_format_applies_at_once_and_is_remembered() -> None:
    storage = MemoryStorage()
    vm = settings(storage)
    await vm.load()
    assert instant_text(AT, vm.display_zone) == "30 Nov 2026, 14:30"

    await vm.choose_locale("de_DE")
    assert vm.snapshot.locale_value == "de_DE"
    assert instant_text(AT, vm.display_zone) == "30. Nov. 2026, 14:30"
    again = settings(storage)
    await again.load()
    assert str(locale_of(again.display_zone)) == "de_DE"

    await again.choose_locale(DEVICE_LOCALE_VALUE)
    assert str(locale_of(again.display_zone)) == "en_GB"


async def test_the_12_hour_switch_still_wins_over_the_chosen_regional_format() -> None:
    vm = settings(MemoryStorage())
    await vm.load()
    await vm.choose_locale("en_US")
    await vm.choose_clock(HourCycle.H24.value)
    assert instant_text(AT, vm.display_zone) == "Nov 30, 2026, 14:30"


async def test_a_regional_format_not_offered_is_refused_and_a_stored_one_reads_as_the_devices() -> (
    None
):
    storage = MemoryStorage()
    await storage.set(SETTINGS_KEY, {"locale": "fr_FR", "hour_cycle": "h24"})
    vm = settings(storage)
    await vm.load()
    assert vm.snapshot.locale_value == DEVICE_LOCALE_VALUE
    await vm.choose_locale("xx_YY")
    assert vm.snapshot.locale_value == DEVICE_LOCALE_VALUE


async def test_a_device_format_learnt_later_reaches_every_screen_unless_one_was_chosen() -> None:
    vm = settings(MemoryStorage())
    await vm.load()
    before = vm.snapshot.shown_clock
    vm.learn_device_locale(US)
    assert vm.snapshot.shown_clock != before  # the screens are composed again
    assert instant_text(AT, vm.display_zone) == "Nov 30, 2026, 2:30 PM"

    await vm.choose_locale("de_DE")
    vm.learn_device_locale(Locale.parse("en_GB"))
    assert str(locale_of(vm.display_zone)) == "de_DE"
