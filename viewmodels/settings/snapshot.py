"""What the Settings screen shows: its choices, each with its final words.

The view lays these out as radio groups (theme, 24-hour clock, language and
region, time zone) and a search field for zones; it writes no word of its own:
the choices come worded in the language of the locale shown, and the headings
below are English constants (``N_``) the view shows in the session's words.
"""

from __future__ import annotations

from dataclasses import dataclass

from viewmodels.formatting.clock_text import HourCycle
from viewmodels.language import N_
from viewmodels.settings.preferences import DisplayPreferences, ThemeChoice

SETTINGS_ENTRY_LABEL = N_("Settings")
SETTINGS_HEADING = N_("Settings")
THEME_HEADING = N_("Theme")
CLOCK_HEADING = N_("24-hour clock")
REGION_HEADING = N_("Language and region")
"""The regional format's heading: the format chosen there picks the language too."""
DEVICE_LOCALE_VALUE = ""
"""The regional format choice that means "the device's" (a radio needs a string value)."""
ZONE_HEADING = N_("Time zone")
ZONE_SEARCH_LABEL = N_("Search time zones")
DEVICE_ZONE_VALUE = ""
"""The zone choice that means "the device's zone" (a radio needs a string value)."""
STORED_ON_DEVICE_TEXT = N_("These choices are kept on this device and never sent to a server.")


@dataclass(frozen=True, slots=True)
class SettingsChoice:
    """One radio: the value the command takes back, and its label."""

    value: str
    label: str


@dataclass(frozen=True, slots=True)
class SettingsSnapshot:
    preferences: DisplayPreferences
    theme_choices: tuple[SettingsChoice, ...]
    clock_choices: tuple[SettingsChoice, ...]
    zone_choices: tuple[SettingsChoice, ...]
    """The device's zone, the chosen one, then the search's matches."""
    locale_choices: tuple[SettingsChoice, ...] = ()
    """The device's regional format, then each one offered by name."""
    zone_query: str = ""
    zone_search_text: str = ""
    """Under the search field: how many zones match, or that none does."""
    zone_text: str = ""
    """Which clock every screen's times are in, in one sentence."""
    locale_name: str = ""
    """The regional format every screen writes in: the chosen one, else the device's."""

    @property
    def theme(self) -> ThemeChoice:
        return self.preferences.theme

    @property
    def theme_value(self) -> str:
        return self.preferences.theme.value

    @property
    def clock_value(self) -> str:
        return self.preferences.hour_cycle.value

    @property
    def zone_value(self) -> str:
        return self.preferences.zone_name or DEVICE_ZONE_VALUE

    @property
    def locale_value(self) -> str:
        return self.preferences.locale_name or DEVICE_LOCALE_VALUE

    @property
    def shown_clock(self) -> tuple[str | None, HourCycle, str]:
        """What every other screen's times depend on: a change re-renders them."""
        chosen = self.preferences
        return chosen.zone_name, chosen.hour_cycle, self.locale_name
