"""Deep links: every route the app writes reads back as the same screen."""

from __future__ import annotations

from uuid import UUID

import pytest

from views.locations import Location, Place, parse_location, schedule_route, session_route

ID = UUID("6a305594-85dc-5c5b-a98b-c6797d9b2615")


@pytest.mark.parametrize(
    ("route", "expected"),
    [
        ("/", Location(Place.SCHEDULES)),
        ("", Location(Place.SCHEDULES)),
        (None, Location(Place.SCHEDULES)),
        ("/schedules", Location(Place.SCHEDULES)),
        (f"/schedules/{ID}", Location(Place.SCHEDULE, ID)),
        (f"/schedules/{ID}/", Location(Place.SCHEDULE, ID)),
        (f"/schedules/{ID}?from=mail", Location(Place.SCHEDULE, ID)),
        (f"/sessions/{ID}", Location(Place.SESSION, ID)),
        ("/schedules/not-a-uuid", Location(Place.SCHEDULES)),
        ("/elsewhere/entirely", Location(Place.SCHEDULES)),
    ],
)
def test_routes_read_as_screens(route: str | None, expected: Location) -> None:
    assert parse_location(route) == expected


def test_written_routes_round_trip() -> None:
    for route in ("/", schedule_route(ID), session_route(ID)):
        assert parse_location(route).route == route
    assert parse_location(schedule_route(ID)).schedule_id == ID
    assert parse_location(session_route(ID)).session_id == ID
    assert schedule_route(None) == "/"
