"""The app's addresses: what each route shows, so deep links survive a reload.

``/`` (and ``/schedules``) is the schedules sheet, ``/schedules/<id>`` the sheet
with that schedule's detail open, ``/sessions/<id>`` a session's transcript.
Anything else, or an id that is not a UUID, falls back to the sheet rather than
to an error page: the address bar is user input.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import urlsplit
from uuid import UUID


class Place(StrEnum):
    SCHEDULES = "schedules"
    SCHEDULE = "schedule"
    SESSION = "session"


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


SCHEDULES_ROUTE = "/"


def schedule_route(schedule_id: UUID | None) -> str:
    return f"/schedules/{schedule_id}" if schedule_id else SCHEDULES_ROUTE


def session_route(session_id: UUID | None) -> str:
    return f"/sessions/{session_id}" if session_id else SCHEDULES_ROUTE


def parse_location(route: str | None) -> Location:
    path = urlsplit(route or "/").path
    parts = [part for part in path.split("/") if part]
    if len(parts) == 2 and parts[0] in ("schedules", "sessions"):
        try:
            item_id = UUID(parts[1])
        except ValueError:
            return Location(Place.SCHEDULES)
        place = Place.SCHEDULE if parts[0] == "schedules" else Place.SESSION
        return Location(place, item_id)
    return Location(Place.SCHEDULES)
