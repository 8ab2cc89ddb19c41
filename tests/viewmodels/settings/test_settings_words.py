"""Settings reads in the language of the regional format shown: chosen, else the device's.

Choosing de_DE re-words the screen in German at once, zh_Hans_CN in Chinese,
and the device's format back in English; a device format learnt later does the
same while none is chosen. The formats offered keep their own names.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from babel import Locale

from viewmodels.ports import MemoryStorage
from viewmodels.settings import SettingsChoice, SettingsViewModel
from viewmodels.settings.snapshot import DEVICE_LOCALE_VALUE

DEVICE = ZoneInfo("Europe/London")
OWN_NAMES = ["English (UK)", "English (US)", "Deutsch", "中文（简体）"]  # noqa: RUF001


def labels(choices: tuple[SettingsChoice, ...]) -> list[str]:
    return [choice.label for choice in choices]


async def test_settings_read_in_german_after_choosing_de_DE() -> None:
    vm = SettingsViewModel(MemoryStorage(), device_zone=DEVICE)
    await vm.load()
    await vm.choose_locale("de_DE")
    shown = vm.snapshot
    assert (shown.heading, shown.region_heading, shown.zone_search_label) == (
        "Einstellungen",
        "Sprache und Region",
        "Zeitzonen durchsuchen",
    )
    assert labels(shown.theme_choices) == ["Wie das Gerät", "Hell", "Dunkel"]
    assert labels(shown.clock_choices) == ["Wie die Sprache", "Ein (13:00)", "Aus (1:00\u202fPM)"]
    assert labels(shown.locale_choices) == [
        "Format Ihres Geräts: Englisch (Vereinigtes Königreich)",
        *OWN_NAMES,
    ]
    assert labels(shown.zone_choices) == ["Zeitzone Ihres Geräts (Europe/London)"]
    assert shown.zone_text == "Zeiten werden in der Zeitzone Ihres Geräts angezeigt: Europe/London."

    await vm.choose_locale(DEVICE_LOCALE_VALUE)
    assert vm.snapshot.region_heading == "Language and region"


async def test_settings_read_in_chinese_after_choosing_zh_Hans_CN() -> None:
    vm = SettingsViewModel(MemoryStorage(), device_zone=DEVICE)
    await vm.load()
    await vm.choose_locale("zh_Hans_CN")
    shown = vm.snapshot
    assert (shown.heading, shown.region_heading) == ("设置", "语言和地区")
    assert labels(shown.theme_choices) == ["跟随设备", "浅色", "深色"]
    # The device's locale is named by Babel (CLDR), in Chinese.
    assert labels(shown.locale_choices)[0] == "设备的格式：英语 (英国)"  # noqa: RUF001
    await vm.choose_zone("Asia/Kolkata")
    assert vm.snapshot.zone_text == "时间按 Asia/Kolkata 时区显示。"
    await vm.type_zone_query("Kolkata")
    assert vm.snapshot.zone_search_text == "1 个时区匹配。"


async def test_a_device_format_learnt_later_re_words_settings_unless_one_was_chosen() -> None:
    vm = SettingsViewModel(MemoryStorage(), device_zone=DEVICE)
    await vm.load()
    vm.learn_device_locale(Locale.parse("de_AT"))
    assert vm.snapshot.theme_heading == "Design"
    await vm.choose_locale("en_US")
    vm.learn_device_locale(Locale.parse("zh_Hans_CN"))
    assert vm.snapshot.theme_heading == "Theme"


async def test_the_zone_search_counts_in_the_languages_plural_forms() -> None:
    vm = SettingsViewModel(MemoryStorage(), device_zone=DEVICE, device_locale=Locale.parse("de_DE"))
    await vm.load()
    await vm.type_zone_query("Kolkata")
    assert vm.snapshot.zone_search_text == "1 Zeitzone passt."
    await vm.type_zone_query("Europe/Be")
    assert vm.snapshot.zone_search_text == "3 Zeitzonen passen."
    await vm.type_zone_query("Nowhere at all")
    assert vm.snapshot.zone_search_text == "Keine Zeitzone passt zu „Nowhere at all“."
