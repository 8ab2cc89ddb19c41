"""Settings: theme, 24-hour clock, regional format and the zone to show times in.

The choices are device state (``SETTINGS_KEY`` in ``DeviceStorage``), read once
before the first screen and written on each change, and applied at once.
``display_zone`` is what every other view model is given as its zone: the
chosen IANA zone or the device's, carrying the hour cycle and the locale (the
chosen regional format, else the device's: ``--locale``, the browser's or the
system's). "Follow the language" writes times as that locale does.
"""

from __future__ import annotations

from dataclasses import replace
from zoneinfo import ZoneInfo

from babel import Locale

from viewmodels.formatting.clock_text import DEFAULT_LOCALE, HourCycle, clock_time, display_zone
from viewmodels.formatting.locales import REGIONAL_FORMATS, parsed_locale
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

_THEME_LABELS = {
    ThemeChoice.SYSTEM: "As the device",
    ThemeChoice.LIGHT: "Light",
    ThemeChoice.DARK: "Dark",
}


def _clock_choices(locale: Locale) -> tuple[SettingsChoice, ...]:
    def example(cycle: HourCycle) -> str:
        return clock_time(13, 0, hour_cycle=cycle, locale=locale)

    return (
        SettingsChoice(HourCycle.LANGUAGE.value, "Follow the language"),
        SettingsChoice(HourCycle.H24.value, f"On ({example(HourCycle.H24)})"),
        SettingsChoice(HourCycle.H12.value, f"Off ({example(HourCycle.H12)})"),
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


def _locale_choices(device_locale: Locale) -> tuple[SettingsChoice, ...]:
    device = device_locale.get_display_name(DEFAULT_LOCALE) or str(device_locale)
    return (
        SettingsChoice(DEVICE_LOCALE_VALUE, f"Your device's format: {device}"),
        *(SettingsChoice(name, label) for name, label in REGIONAL_FORMATS),
    )


def _snapshot(
    chosen: DisplayPreferences, query: str, device_zone: ZoneInfo, device_locale: Locale
) -> SettingsSnapshot:
    zones = [SettingsChoice(DEVICE_ZONE_VALUE, f"Your device's zone ({device_zone.key})")]
    if chosen.zone_name:
        zones.append(SettingsChoice(chosen.zone_name, chosen.zone_name))
    matches = zone_matches(query)
    zones += [
        SettingsChoice(name, name)
        for name in matches[:ZONE_MATCH_LIMIT]
        if name != chosen.zone_name
    ]
    return SettingsSnapshot(
        preferences=chosen,
        theme_choices=tuple(
            SettingsChoice(theme.value, label) for theme, label in _THEME_LABELS.items()
        ),
        clock_choices=_clock_choices(_locale(chosen, device_locale)),
        zone_choices=tuple(zones),
        locale_choices=_locale_choices(device_locale),
        zone_query=query,
        zone_search_text=_search_text(query, len(matches)),
        zone_text=(
            f"Times are shown in {chosen.zone_name}."
            if chosen.zone_name
            else f"Times are shown in your device's zone, {device_zone.key}."
        ),
        locale_name=str(_locale(chosen, device_locale)),
    )


def _search_text(query: str, found: int) -> str:
    if not query.strip():
        return ""
    if found == 0:
        return f"No time zone matches “{query.strip()}”."
    if found > ZONE_MATCH_LIMIT:
        return f"The first {ZONE_MATCH_LIMIT} of {found} zones: type more to narrow them."
    return f"{found} zone matches." if found == 1 else f"{found} zones match."
