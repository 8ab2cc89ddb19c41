"""The person's display choices and their stored form: device state, never sent to a server.

Stored under ``SETTINGS_KEY`` as a small JSON object. A value this version
cannot read (an unknown theme, a zone this machine's database lacks, a regional
format it does not offer) reads as the default, so a stored choice never stops
the app from opening.
"""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from viewmodels.formatting.clock_text import HourCycle
from viewmodels.language import REGIONAL_FORMATS
from viewmodels.ports import JsonValue

SETTINGS_KEY = "settings.display"


class ThemeChoice(StrEnum):
    SYSTEM = "system"
    """Light or dark as the device (or browser) is."""
    LIGHT = "light"
    DARK = "dark"


@cache
def zone_names() -> frozenset[str]:
    """Every IANA zone this machine knows (``zoneinfo``, then the ``tzdata`` package)."""
    return frozenset(zoneinfo.available_timezones())


@dataclass(frozen=True, slots=True)
class DisplayPreferences:
    theme: ThemeChoice = ThemeChoice.SYSTEM
    hour_cycle: HourCycle = HourCycle.LANGUAGE
    zone_name: str | None = None
    """An IANA zone to show times in; None: the device's."""
    locale_name: str | None = None
    """One of ``REGIONAL_FORMATS`` ("en_US"); None: the device's."""

    def to_json(self) -> JsonValue:
        return {
            "theme": self.theme.value,
            "hour_cycle": self.hour_cycle.value,
            "zone": self.zone_name,
            "locale": self.locale_name,
        }

    @classmethod
    def from_json(cls, value: JsonValue) -> DisplayPreferences:
        if not isinstance(value, dict):
            return cls()
        # Only text can name a choice: a list or an object stored there reads as unset.
        theme, cycle, zone, locale = (
            text if isinstance(text := value.get(key), str) else None
            for key in ("theme", "hour_cycle", "zone", "locale")
        )
        return cls(
            theme=ThemeChoice(theme) if theme in set(ThemeChoice) else ThemeChoice.SYSTEM,
            hour_cycle=HourCycle(cycle) if cycle in set(HourCycle) else HourCycle.LANGUAGE,
            zone_name=zone if zone in zone_names() else None,
            locale_name=locale if locale in dict(REGIONAL_FORMATS) else None,
        )
