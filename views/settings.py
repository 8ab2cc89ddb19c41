"""The Settings screen and its entry in the sidebar (the drawer on a phone).

Four radio groups (theme, 24-hour clock, regional format, time zone) and a
search field for zones, every word from ``SettingsSnapshot``. ``extra_sections`` is where more
settings go under them (the Calendar feeds section, ``views.calendar_feeds``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

import flet as ft

from viewmodels.navigation import Place
from viewmodels.settings import SETTINGS_ENTRY_LABEL, SettingsChoice
from viewmodels.settings.snapshot import (
    CLOCK_HEADING,
    REGION_HEADING,
    SETTINGS_HEADING,
    STORED_ON_DEVICE_TEXT,
    THEME_HEADING,
    ZONE_HEADING,
    ZONE_SEARCH_LABEL,
)
from views.binding import chosen_value, run_command, use_snapshot
from views.screen_models import NavigationModel, SettingsModel, use_models
from views.sidebar_rows import destination_entry
from views.words import use_words

_PADDING = ft.Padding.symmetric(horizontal=24, vertical=16)


@ft.component
def SettingsEntry(
    navigation: NavigationModel,
    show: Callable[[str], None],
    ref: ft.Ref[ft.TextButton] | None = None,
) -> ft.Control:
    """Selected while Settings is shown; nothing where the session offers no Settings."""
    location = use_snapshot(navigation)
    label = use_words().gettext(SETTINGS_ENTRY_LABEL)
    if use_models().settings is None:
        return ft.Container()
    return destination_entry(
        ft.Icons.SETTINGS_OUTLINED,
        label,
        selected=location.place is Place.SETTINGS,
        on_tap=lambda: show(navigation.show_settings()),
        ref=ref,
    )


@ft.component
def SettingsPage(
    model: SettingsModel, *, phone: bool = False, extra_sections: Sequence[ft.Control] = ()
) -> ft.Control:
    """The screen's content; a phone's app bar names it, a wide window a heading."""
    snapshot = use_snapshot(model)
    words = use_words()
    heading: list[ft.Control] = (
        []
        if phone
        else [
            ft.Text(words.gettext(SETTINGS_HEADING), theme_style=ft.TextThemeStyle.HEADLINE_SMALL)
        ]
    )
    return ft.ListView(
        [
            *heading,
            ft.Text(words.gettext(STORED_ON_DEVICE_TEXT)),
            _section(words.gettext(THEME_HEADING)),
            _radios(snapshot.theme_choices, snapshot.theme_value, model.choose_theme),
            _section(words.gettext(CLOCK_HEADING)),
            _radios(snapshot.clock_choices, snapshot.clock_value, model.choose_clock),
            _section(words.gettext(REGION_HEADING)),
            _radios(snapshot.locale_choices, snapshot.locale_value, model.choose_locale),
            _section(words.gettext(ZONE_HEADING)),
            ft.Text(snapshot.zone_text),
            ZoneSearch(model),
            *([ft.Text(snapshot.zone_search_text)] if snapshot.zone_search_text else []),
            _radios(snapshot.zone_choices, snapshot.zone_value, model.choose_zone),
            *extra_sections,
        ],
        padding=_PADDING,
        spacing=8,
        expand=True,
    )


def _section(heading: str) -> ft.Control:
    return ft.Container(
        content=ft.Text(heading, theme_style=ft.TextThemeStyle.TITLE_MEDIUM),
        padding=ft.Padding.only(top=16),
    )


def _radios(
    choices: Sequence[SettingsChoice], value: str, choose: Callable[[str], Awaitable[None]]
) -> ft.Control:
    return ft.RadioGroup(
        value=value,
        on_change=lambda event: run_command(choose, chosen_value(event)),
        content=ft.Column(
            [ft.Radio(value=choice.value, label=choice.label) for choice in choices], spacing=0
        ),
    )


def _zone_search(model: SettingsModel) -> ft.Control:
    """Memoized on the model, so no render sends the field older text."""
    return ft.TextField(
        value=model.snapshot.zone_query,
        label=use_words().gettext(ZONE_SEARCH_LABEL),
        prefix_icon=ft.Icons.SEARCH,
        dense=True,
        on_change=lambda event: run_command(model.type_zone_query, event.control.value or ""),
    )


class _SearchField(Protocol):
    def __call__(self, model: SettingsModel) -> ft.Control: ...


ZoneSearch: _SearchField = ft.memo(ft.component(_zone_search))  # type: ignore[no-untyped-call]
