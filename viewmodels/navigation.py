"""Where the app is and where each action leads: routes, Back, Escape and the keyboard.

The route is the single source of what is open: ``/`` the schedules sheet,
``/schedules/<id>`` with that detail, ``/sessions/<id>`` a transcript; any
other address reads as the sheet and is rewritten to ``/``. The view model
decides (its commands answer the route to go to; ``follow(route)`` brings the
screens along); the view only binds keys and routes. The keys: viewmodels/README.md.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import urlsplit
from uuid import UUID

from viewmodels.detail import DetailPhase, ScheduleDetailViewModel
from viewmodels.observable import Observable
from viewmodels.schedule_list import ScheduleListViewModel
from viewmodels.sidebar import SessionMessagesViewModel, SidebarViewModel

SCHEDULES_ROUTE = "/"
SEARCH_KEYS = frozenset({"/", "Slash"})
"""How Flutter names the / key (its label; older clients its name)."""


class Place(StrEnum):
    SCHEDULES = "schedules"
    SCHEDULE = "schedule"
    SESSION = "session"

    @property
    def heading(self) -> str:
        """The screen's name in a phone's app bar."""
        return {"schedules": "Schedules", "schedule": "Schedule", "session": "Session"}[self]


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
        return SCHEDULES_ROUTE

    @property
    def schedule_id(self) -> UUID | None:
        return self.item_id if self.place is Place.SCHEDULE else None

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
    if len(parts) == 2 and parts[0] in ("schedules", "sessions"):
        try:
            item_id = UUID(parts[1])
        except ValueError:
            return Location(Place.SCHEDULES)
        place = Place.SCHEDULE if parts[0] == "schedules" else Place.SESSION
        return Location(place, item_id)
    return Location(Place.SCHEDULES)


class NavigationViewModel(Observable[Location]):
    """The app's location and the screens it drives; the snapshot is the current location."""

    def __init__(
        self,
        *,
        schedules: ScheduleListViewModel,
        detail: ScheduleDetailViewModel,
        sidebar: SidebarViewModel,
        messages: SessionMessagesViewModel,
    ) -> None:
        super().__init__(Location(Place.SCHEDULES))
        self._schedules = schedules
        self._detail = detail
        self._sidebar = sidebar
        self._messages = messages

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
        if location.place is Place.SCHEDULE and location.item_id is not None:
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

    def open_schedule(self, schedule_id: UUID) -> str:
        return schedule_route(schedule_id)

    def open_session(self, session_id: UUID) -> str:
        return session_route(session_id)

    def show_schedules(self) -> str:
        return SCHEDULES_ROUTE

    def back(self) -> str | None:
        """Where Back, Escape and a detail's close button lead; None on the sheet itself."""
        return None if self.snapshot.place is Place.SCHEDULES else SCHEDULES_ROUTE

    async def press(self, key: str, *, ctrl: bool = False, meta: bool = False) -> str | None:
        """A key pressed anywhere in the window; answers the route to go to, if any."""
        if self.snapshot.place is Place.SCHEDULE and await self._detail.calendar.press(key):
            return None
        if key == "Arrow Down":
            self._schedules.select_next()
        elif key == "Arrow Up":
            self._schedules.select_previous()
        elif key == "Enter":
            selected = self._schedules.snapshot.selected_id
            if selected is not None and self.snapshot.place is not Place.SESSION:
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
            self._schedules.focus_search()
        return None


def _same_route(route: str | None, canonical: str) -> bool:
    path = urlsplit(route or SCHEDULES_ROUTE).path.rstrip("/") or SCHEDULES_ROUTE
    return path == canonical
