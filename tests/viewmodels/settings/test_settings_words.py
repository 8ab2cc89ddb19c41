"""Settings reads in the language of the regional format shown: chosen, else the device's.

Choosing de_DE re-words the screen in German at once, zh_Hans_CN in Chinese,
and the device's format back in English; a device format learnt later does the
same while none is chosen. The formats offered keep their own names. The
headings are constants the view looks up in the words of ``locale_name``.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from babel import Locale

from viewmodels.language import Words, parsed_locale, words_for
from viewmodels.ports import MemoryStorage
from viewmodels.settings import SettingsChoice, SettingsSnapshot, SettingsViewModel
from viewmodels.settings.snapshot import (
    DEVICE_LOCALE_VALUE,
    REGION_HEADING,
    SETTINGS_HEADING,
    THEME_HEADING,
    ZONE_SEARCH_LABEL,
)

DEVICE = ZoneInfo("Europe/London")
OWN_NAMES = ["English (UK)", "English (US)", "Deutsch", "中文（简体）"]  # noqa: RUF001


def labels(choices: tuple[SettingsChoice, ...]) -> list[str]:
    return [choice.label for choice in choices]


def shown_words(shown: SettingsSnapshot) -> Words:
    """The words the screen's headings are shown in: those of the locale it writes in."""
    return words_for(parsed_locale(shown.locale_name))


async def test_settings_read_in_german_after_choosing_de_DE() -> None:
    vm = SettingsViewModel(MemoryStorage(), device_zone=DEVICE)
    await vm.load()
    await vm.choose_locale("de_DE")
    shown = vm.snapshot
    assert shown.locale_name == "de_DE"
    german = shown_words(shown)
    assert [german.gettext(SETTINGS_HEADING), german.gettext(REGION_HEADING)] == [
        "Einstellungen",
        "Sprache und Region",
    ]
    assert german.gettext(ZONE_SEARCH_LABEL) == "Zeitzonen durchsuchen"
    assert labels(shown.theme_choices) == ["Wie das Gerät", "Hell", "Dunkel"]
    assert labels(shown.clock_choices) == ["Wie die Sprache", "Ein (13:00)", "Aus (1:00\u202fPM)"]
    assert labels(shown.locale_choices) == [
        "Format Ihres Geräts: Englisch (Vereinigtes Königreich)",
        *OWN_NAMES,
    ]
    assert labels(shown.zone_choices) == ["Zeitzone Ihres Geräts (Europe/London)"]
    assert shown.zone_text == "Zeiten werden in der Zeitzone Ihres Geräts angezeigt: Europe/London."

    await vm.choose_locale(DEVICE_LOCALE_VALUE)
    assert shown_words(vm.snapshot).gettext(REGION_HEADING) == "Language and region"
    assert labels(vm.snapshot.theme_choices) == ["As the device", "Light", "Dark"]


async def test_settings_read_in_chinese_after_choosing_zh_Hans_CN() -> None:
    vm = SettingsViewModel(MemoryStorage(), device_zone=DEVICE)
    await vm.load()
    await vm.choose_locale("zh_Hans_CN")
    shown = vm.snapshot
    chinese = shown_words(shown)
    assert [chinese.gettext(SETTINGS_HEADING), chinese.gettext(REGION_HEADING)] == [
        "设置",
        "语言和地区",
    ]
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
    assert shown_words(vm.snapshot).gettext(THEME_HEADING) == "Design"
    assert labels(vm.snapshot.theme_choices) == ["Wie das Gerät", "Hell", "Dunkel"]
    await vm.choose_locale("en_US")
    vm.learn_device_locale(Locale.parse("zh_Hans_CN"))
    assert shown_words(vm.snapshot).gettext(THEME_HEADING) == "Theme"
    assert labels(vm.snapshot.theme_choices) == ["As the device", "Light", "Dark"]


async def test_the_zone_search_counts_in_the_languages_plural_forms() -> None:
    vm = SettingsViewModel(MemoryStorage(), device_zone=DEVICE, device_locale=Locale.parse("de_DE"))
    await vm.load()
    await vm.type_zone_query("Kolkata")
    assert vm.snapshot.zone_search_text == "1 Zeitzone passt."
    await vm.type_zone_query("Europe/Be")
    assert vm.snapshot.zone_search_text == "3 Zeitzonen passen."
    await vm.type_zone_query("Nowhere at all")
    assert vm.snapshot.zone_search_text == "Keine Zeitzone passt zu „Nowhere at all“."
