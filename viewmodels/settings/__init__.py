"""The Settings screen: how this device shows the app, remembered on the device.

- ``preferences``: the person's choices (theme, clock, regional format, zone) and how
  they are stored.
- ``snapshot``: what the Settings view renders, every sentence decided.
- ``view_model``: the commands, and the zone every other screen shows times in.
"""

from __future__ import annotations

from viewmodels.settings.preferences import SETTINGS_KEY, DisplayPreferences, ThemeChoice
from viewmodels.settings.snapshot import SETTINGS_ENTRY_LABEL, SettingsChoice, SettingsSnapshot
from viewmodels.settings.view_model import SettingsViewModel

__all__ = [
    "SETTINGS_ENTRY_LABEL",
    "SETTINGS_KEY",
    "DisplayPreferences",
    "SettingsChoice",
    "SettingsSnapshot",
    "SettingsViewModel",
    "ThemeChoice",
]
