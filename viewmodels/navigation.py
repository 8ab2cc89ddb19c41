"""Where the app is and where each action leads: routes, Back, Escape and the keyboard.

The route is the single source of what is open: ``/`` the schedules sheet,
``/schedules/<id>`` with that detail, ``/sessions/<id>`` a transcript,
``/agenda`` the agenda, ``/agenda/schedules/<id>`` a detail opened from it and
``/settings`` the Settings screen; any other address reads as the sheet and
is rewritten to ``/``. The view model decides (its commands answer the route
to go to; ``follow(route)`` brings the screens along); the view only binds
keys and routes. The keys: viewmodels/README.md. A place's heading is English
(``Place.heading``); ``NavigationViewModel.heading`` says it in the person's language.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from urllib.parse import urlsplit
from uuid import UUID

from babel import Locale

from viewmodels.agenda import AgendaViewModel
from viewmodels.detail import DetailPhase, ScheduleDetailViewModel
from viewmodels.language import DEFAULT_LOCALE, N_, words_for
from viewmodels.observable import Observable
from viewmodels.schedule_list import ScheduleListViewModel
from viewmodels.sidebar import SessionMessagesViewModel, SidebarViewModel

SCHEDULES_ROUTE = "/"
AGENDA_ROUTE = "/agenda"
SETTINGS_ROUTE = "/settings"
AGENDA_PATTERNS = ("agenda", "agenda/schedules/:schedule_id")
"""The agenda's routes as the router's patterns: the agenda, and a detail opened from it."""
SEARCH_KEYS = frozenset({"/", "Slash"})
"""How Flutter names the / key (its label; older clients its name)."""


class Place(StrEnum):
    SCHEDULES = "schedules"
    SCHEDULE = "schedule"
    SESSION = "session"
    AGENDA = "agenda"
    AGENDA_SCHEDULE = "agenda_schedule"
    """A schedule's detail opened from the agenda: Back returns to the agenda."""
    SETTINGS = "settings"

    @property
    def heading(self) -> str:
        """The screen's name in a phone's app bar, in English (``NavigationViewModel.heading``
        says it in the person's language)."""
        return _HEADINGS[self]

    @property
    def in_agenda(self) -> bool:
        """The Agenda destination is the one chosen."""
        return self in (Place.AGENDA, Place.AGENDA_SCHEDULE)

    @property
    def shows_schedules(self) -> bool:
        """The Schedules destination is the one chosen (the sheet, a detail, a transcript)."""
        return not self.in_agenda and self is not Place.SETTINGS


_HEADINGS = {
    Place.SCHEDULES: N_("Schedules"),
    Place.SCHEDULE: N_("Schedule"),
    Place.SESSION: N_("Session"),
    Place.AGENDA: N_("Agenda"),
    Place.AGENDA_SCHEDULE: N_("Schedule"),
    Place.SETTINGS: N_("Settings"),
}


@dataclass(frozen=True, slots=True)
class Location:
    place: Place
    item_id: UUID | None = None

    @property
    def route(self) -> str:
        if self.place is Place.SCHEDULE:
            return schedule_route(self.item_id)
        if self.place is Place.SESSION:
            return session_route(self.item_id)
        if self.place is Place.AGENDA_SCHEDULE and self.item_id is not None:
            return f"{AGENDA_ROUTE}/schedules/{self.item_id}"
        if self.place.in_agenda:
            return AGENDA_ROUTE
        if self.place is Place.SETTINGS:
            return SETTINGS_ROUTE
        return SCHEDULES_ROUTE

    @property
    def schedule_id(self) -> UUID | None:
        """The schedule whose detail is open, from the sheet or from the agenda."""
        return self.item_id if self.place in (Place.SCHEDULE, Place.AGENDA_SCHEDULE) else None

    @property
    def session_id(self) -> UUID | None:
        return self.item_id if self.place is Place.SESSION else None


def schedule_route(schedule_id: UUID | None) -> str:
    return f"/schedules/{schedule_id}" if schedule_id else SCHEDULES_ROUTE


def session_route(session_id: UUID | None) -> str:
    return f"/sessions/{session_id}" if session_id else SCHEDULES_ROUTE


def parse_location(route: str | None) -> Location:
    """The screen ``route`` names; anything unknown is the schedules sheet."""
    path = urlsplit(route or SCHEDULES_ROUTE).path
    parts = [part for part in path.split("/") if part]
    if parts[:1] == ["agenda"]:
        return _agenda_location(parts[1:])
    if parts == ["settings"]:
        return Location(Place.SETTINGS)
    if len(parts) == 2 and parts[0] in ("schedules", "sessions"):
        try:
            item_id = UUID(parts[1])
        except ValueError:
            return Location(Place.SCHEDULES)
        place = Place.SCHEDULE if parts[0] == "schedules" else Place.SESSION
        return Location(place, item_id)
    return Location(Place.SCHEDULES)


def _agenda_location(rest: list[str]) -> Location:
    if len(rest) == 2 and rest[0] == "schedules":
        try:
            return Location(Place.AGENDA_SCHEDULE, UUID(rest[1]))
        except ValueError:
            return Location(Place.AGENDA)
    return Location(Place.AGENDA)


class NavigationViewModel(Observable[Location]):
    """The app's location and the screens it drives; the snapshot is the current location."""

    def __init__(
        self,
        *,
        schedules: ScheduleListViewModel,
        detail: ScheduleDetailViewModel,
        sidebar: SidebarViewModel,
        messages: SessionMessagesViewModel,
        agenda: AgendaViewModel | None = None,
        locale: Locale = DEFAULT_LOCALE,
    ) -> None:
        """``locale``: the language the headings are said in."""
        super().__init__(Location(Place.SCHEDULES))
        self._words = words_for(locale)
        self._agenda = agenda
        self._schedules = schedules
        self._detail = detail
        self._sidebar = sidebar
        self._messages = messages
        self._arrows_lead = True
        """Enter is the list's: no Tab moved the focus since the arrows (or the search) led."""

    def heading(self, place: Place) -> str:
        """``place``'s name in a phone's app bar, in the person's language."""
        return self._words.gettext(place.heading)

    async def start(self) -> None:
        """The app opened: the schedules sheet and the sidebar load side by side."""
        await asyncio.gather(self._schedules.open(), self._sidebar.open())

    async def follow(self, route: str | None) -> str | None:
        """The page now shows ``route``: bring the screens along.

        Answers the canonical route when ``route`` was not one (the view
        rewrites the address to it), else None.
        """
        location = parse_location(route)
        self._publish(location)
        if location.place.in_agenda:
            await self._follow_agenda(location)
        elif location.place is Place.SCHEDULE and location.item_id is not None:
            self._schedules.mark_opened(location.item_id)
            self._sidebar.select_schedules()
            shown = self._detail.snapshot
            if shown.schedule_id != location.item_id or shown.phase is DetailPhase.CLOSED:
                await self._detail.open(location.item_id)
        elif location.place is Place.SESSION and location.item_id is not None:
            self._sidebar.select_session(location.item_id)
            if self._messages.snapshot.session_id != location.item_id:
                await self._messages.open(location.item_id)
        else:
            self._schedules.close_opened()
            self._sidebar.select_schedules()
            if self._detail.snapshot.phase is not DetailPhase.CLOSED:
                await self._detail.close()
        canonical = location.route
        return None if _same_route(route, canonical) else canonical

    async def _follow_agenda(self, location: Location) -> None:
        self._schedules.close_opened()
        if self._agenda is not None:
            await self._agenda.open()
        if location.item_id is not None:
            shown = self._detail.snapshot
            if shown.schedule_id != location.item_id or shown.phase is DetailPhase.CLOSED:
                await self._detail.open(location.item_id)
        elif self._detail.snapshot.phase is not DetailPhase.CLOSED:
            await self._detail.close()

    def open_schedule(self, schedule_id: UUID) -> str:
        return schedule_route(schedule_id)

    def show_agenda(self) -> str:
        return AGENDA_ROUTE

    def show_settings(self) -> str:
        return SETTINGS_ROUTE

    def open_from_agenda(self, schedule_id: UUID, day: date) -> str:
        """A row of the agenda: its schedule's detail; Back returns to ``day``."""
        if self._agenda is not None:
            self._agenda.mark_opened(schedule_id, day)
        return Location(Place.AGENDA_SCHEDULE, schedule_id).route

    def open_session(self, session_id: UUID) -> str:
        return session_route(session_id)

    def show_schedules(self) -> str:
        return SCHEDULES_ROUTE

    def back(self) -> str | None:
        """Where Back, Escape and a detail's close button lead; None on the sheet."""
        place = self.snapshot.place
        if place is Place.AGENDA_SCHEDULE:
            return AGENDA_ROUTE
        return None if place is Place.SCHEDULES else SCHEDULES_ROUTE

    async def press(self, key: str, *, ctrl: bool = False, meta: bool = False) -> str | None:
        """A key pressed anywhere in the window; answers the route to go to, if any."""
        place = self.snapshot.place
        if key == "Tab":
            # The focus went to a control that answers Enter itself (a row's
            # own button too): Enter is that control's until the arrows lead again.
            self._arrows_lead = False
        if self.snapshot.schedule_id is not None and await self._detail.calendar.press(key):
            return None
        if place.in_agenda:
            return await self._press_in_agenda(key, ctrl=ctrl, meta=meta)
        if place is Place.SETTINGS:
            return self.back() if key == "Escape" else None
        if key == "Arrow Down":
            self._arrows_lead = True
            self._schedules.select_next()
        elif key == "Arrow Up":
            self._arrows_lead = True
            self._schedules.select_previous()
        elif key == "Enter":
            selected = self._schedules.snapshot.selected_id
            if (
                selected is not None
                and self._arrows_lead
                and self.snapshot.place is not Place.SESSION
            ):
                self._schedules.focus_detail_heading()
                target = schedule_route(selected)
                return None if target == self.snapshot.route else target
        elif key == "Escape":
            if self.snapshot.place is Place.SCHEDULES and self._schedules.snapshot.query:
                await self._schedules.clear_query()
                return None
            return self.back()
        elif key.upper() == "R" and (ctrl or meta):
            await asyncio.gather(self._schedules.reload(), self._sidebar.refresh())
        elif (key.upper() == "F" and (ctrl or meta)) or key in SEARCH_KEYS:
            self._arrows_lead = True
            self._schedules.focus_search()
        return None

    async def _press_in_agenda(self, key: str, *, ctrl: bool, meta: bool) -> str | None:
        """The agenda's rows are buttons in reading order (Tab).

        Escape clears the agenda's search, then leaves: a detail for the
        agenda, the agenda for the sheet (as Settings does).
        """
        if key == "Escape":
            agenda = self._agenda
            if self.snapshot.place is Place.AGENDA and agenda is not None and agenda.snapshot.query:
                await agenda.clear_query()
                return None
            return self.back()
        if key.upper() == "R" and (ctrl or meta) and self._agenda is not None:
            await self._agenda.reload()
        return None


def _same_route(route: str | None, canonical: str) -> bool:
    path = urlsplit(route or SCHEDULES_ROUTE).path.rstrip("/") or SCHEDULES_ROUTE
    return path == canonical
