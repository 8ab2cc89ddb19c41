"""Settings: theme, 24-hour clock, language and region, and the zone to show times in.

The choices are device state (``SETTINGS_KEY`` in ``DeviceStorage``), read once
before the first screen and written on each change, and applied at once.
``display_zone`` is what every other view model is given as its zone: the
chosen IANA zone or the device's, carrying the hour cycle and the locale (the
chosen regional format, else the device's: ``--locale``, the browser's or the
system's). The locale gives the formats and the language of the words (this
screen's too, re-worded at once); "Follow the language" writes times as it does.
"""

from __future__ import annotations

from dataclasses import replace
from zoneinfo import ZoneInfo

from babel import Locale
from babel.numbers import format_decimal
from babel.support import Translations

from viewmodels.formatting.clock_text import HourCycle, clock_time, display_zone
from viewmodels.language import DEFAULT_LOCALE, REGIONAL_FORMATS, Words, parsed_locale, words_for
from viewmodels.observable import Observable
from viewmodels.ports import DeviceStorage
from viewmodels.settings.preferences import (
    SETTINGS_KEY,
    DisplayPreferences,
    ThemeChoice,
    zone_names,
)
from viewmodels.settings.snapshot import (
    DEVICE_LOCALE_VALUE,
    DEVICE_ZONE_VALUE,
    SettingsChoice,
    SettingsSnapshot,
)

ZONE_MATCH_LIMIT = 8
"""Matches listed under the search field; typing more narrows them."""


def _theme_choices(words: Words) -> tuple[SettingsChoice, ...]:
    """Light or dark as the device is, or always one of them."""
    return (
        SettingsChoice(ThemeChoice.SYSTEM.value, words.pgettext("theme", "As the device")),
        SettingsChoice(ThemeChoice.LIGHT.value, words.pgettext("theme", "Light")),
        SettingsChoice(ThemeChoice.DARK.value, words.pgettext("theme", "Dark")),
    )


def _clock_choices(locale: Locale, words: Words) -> tuple[SettingsChoice, ...]:
    def example(cycle: HourCycle) -> str:
        return clock_time(13, 0, hour_cycle=cycle, locale=locale)

    # Translators: the 24-hour clock switched on; {example} is 1 pm written so ("13:00").
    on = words.gettext("On ({example})").format(example=example(HourCycle.H24))
    # Translators: the 24-hour clock switched off; {example} is 1 pm written so ("1:00 pm").
    off = words.gettext("Off ({example})").format(example=example(HourCycle.H12))
    return (
        SettingsChoice(HourCycle.LANGUAGE.value, words.gettext("Follow the language")),
        SettingsChoice(HourCycle.H24.value, on),
        SettingsChoice(HourCycle.H12.value, off),
    )


def zone_matches(query: str) -> list[str]:
    """Zones whose name holds every word of ``query``, ignoring case and ``_``."""
    words = query.casefold().replace("_", " ").split()
    if not words:
        return []
    return sorted(
        name
        for name in zone_names()
        if all(word in name.casefold().replace("_", " ") for word in words)
    )


class SettingsViewModel(Observable[SettingsSnapshot]):
    def __init__(
        self,
        storage: DeviceStorage,
        *,
        device_zone: ZoneInfo,
        device_locale: Locale = DEFAULT_LOCALE,
    ) -> None:
        super().__init__(_snapshot(DisplayPreferences(), "", device_zone, device_locale))
        self._storage = storage
        self._device_zone = device_zone
        self._device_locale = device_locale

    @property
    def display_zone(self) -> ZoneInfo:
        """The zone (with the clock and locale) every screen writes its times in."""
        chosen = self.snapshot.preferences
        zone = ZoneInfo(chosen.zone_name) if chosen.zone_name else self._device_zone
        return display_zone(
            zone,
            chosen.hour_cycle,
            _locale(chosen, self._device_locale),
            chosen=chosen.zone_name is not None,
        )

    async def load(self) -> None:
        """Reads the remembered choices (before the first screen is drawn)."""
        stored = DisplayPreferences.from_json(await self._storage.get(SETTINGS_KEY))
        self._show(stored, self.snapshot.zone_query)

    async def choose_theme(self, value: str) -> None:
        if value in set(ThemeChoice):
            await self._remember(replace(self.snapshot.preferences, theme=ThemeChoice(value)))

    async def choose_clock(self, value: str) -> None:
        if value in set(HourCycle):
            await self._remember(replace(self.snapshot.preferences, hour_cycle=HourCycle(value)))

    async def choose_zone(self, value: str) -> None:
        """An IANA zone name, or ``DEVICE_ZONE_VALUE`` for the device's zone."""
        if value == DEVICE_ZONE_VALUE or value in zone_names():
            await self._remember(replace(self.snapshot.preferences, zone_name=value or None))

    async def choose_locale(self, value: str) -> None:
        """One of ``REGIONAL_FORMATS``, or ``DEVICE_LOCALE_VALUE`` for the device's."""
        if value == DEVICE_LOCALE_VALUE or value in dict(REGIONAL_FORMATS):
            await self._remember(replace(self.snapshot.preferences, locale_name=value or None))

    def learn_device_locale(self, locale: Locale) -> None:
        """The device's regional format, learnt after the first screen (a browser's
        languages): the screens follow it unless a format was chosen."""
        if locale != self._device_locale:
            self._device_locale = locale
            self._show(self.snapshot.preferences, self.snapshot.zone_query)

    async def type_zone_query(self, text: str) -> None:
        self._show(self.snapshot.preferences, text)

    async def _remember(self, chosen: DisplayPreferences) -> None:
        if chosen == self.snapshot.preferences:
            return
        self._show(chosen, self.snapshot.zone_query)
        await self._storage.set(SETTINGS_KEY, chosen.to_json())

    def _show(self, chosen: DisplayPreferences, query: str) -> None:
        self._publish(_snapshot(chosen, query, self._device_zone, self._device_locale))


def _locale(chosen: DisplayPreferences, device_locale: Locale) -> Locale:
    return parsed_locale(chosen.locale_name) if chosen.locale_name else device_locale


def _locale_choices(
    device_locale: Locale, words: Words, shown: Locale
) -> tuple[SettingsChoice, ...]:
    """The device's format named in the words' language (English without a catalog), then
    each format offered, named in its own language."""
    names_in = shown if isinstance(words, Translations) else DEFAULT_LOCALE
    device = device_locale.get_display_name(names_in) or str(device_locale)
    # Translators: {locale} is the device's language and region ("English (United States)").
    device_label = words.gettext("Your device's format: {locale}").format(locale=device)
    return (
        SettingsChoice(DEVICE_LOCALE_VALUE, device_label),
        *(SettingsChoice(name, label) for name, label in REGIONAL_FORMATS),
    )


def _zone_choices(
    chosen: DisplayPreferences, matches: list[str], device_zone: ZoneInfo, words: Words
) -> tuple[SettingsChoice, ...]:
    """The device's zone, the chosen one, then the search's first matches (IANA names)."""
    device = words.gettext("Your device's zone ({zone})").format(zone=device_zone.key)
    zones = [SettingsChoice(DEVICE_ZONE_VALUE, device)]
    if chosen.zone_name:
        zones.append(SettingsChoice(chosen.zone_name, chosen.zone_name))
    zones += [
        SettingsChoice(name, name)
        for name in matches[:ZONE_MATCH_LIMIT]
        if name != chosen.zone_name
    ]
    return tuple(zones)


def _snapshot(
    chosen: DisplayPreferences, query: str, device_zone: ZoneInfo, device_locale: Locale
) -> SettingsSnapshot:
    """Every choice and heading, worded in the language of the locale shown."""
    locale = _locale(chosen, device_locale)
    words = words_for(locale)
    matches = zone_matches(query)
    zone_text = (
        words.gettext("Times are shown in {zone}.").format(zone=chosen.zone_name)
        if chosen.zone_name
        else words.gettext("Times are shown in your device's zone, {zone}.").format(
            zone=device_zone.key
        )
    )
    return SettingsSnapshot(
        preferences=chosen,
        theme_choices=_theme_choices(words),
        clock_choices=_clock_choices(locale, words),
        zone_choices=_zone_choices(chosen, matches, device_zone, words),
        locale_choices=_locale_choices(device_locale, words, locale),
        zone_query=query,
        zone_search_text=_search_text(query, len(matches), words, locale),
        zone_text=zone_text,
        locale_name=str(locale),
    )


def _search_text(query: str, found: int, words: Words, locale: Locale) -> str:
    """Under the search field: how many zones match, or that none does."""
    if not query.strip():
        return ""
    if found == 0:
        return words.gettext("No time zone matches “{query}”.").format(query=query.strip())
    count = format_decimal(found, locale=locale)
    if found > ZONE_MATCH_LIMIT:
        shown = format_decimal(ZONE_MATCH_LIMIT, locale=locale)
        return words.ngettext(
            "The first {shown} of {count} zone: type more to narrow them.",
            "The first {shown} of {count} zones: type more to narrow them.",
            found,
        ).format(shown=shown, count=count)
    return words.ngettext("{count} zone matches.", "{count} zones match.", found).format(
        count=count
    )
