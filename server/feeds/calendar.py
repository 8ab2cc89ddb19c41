"""A feed as RFC 5545 text, written by the ``icalendar`` library (folding, escaping, VTIMEZONE).

Each event starts in its schedule's zone with that zone's VTIMEZONE, built
from the zone database for the window's dates (ONCE schedules start in UTC).
Events are transparent, so firings never mark a person busy. The calendar
asks to be fetched again hourly (``REFRESH-INTERVAL``, ``X-PUBLISHED-TTL``).
``DTSTAMP`` is the feed's creation, so equal content renders equal bytes and
the route's ETag holds until something changes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Final
from zoneinfo import ZoneInfo

from icalendar import Calendar, Event, vDuration, vText

from server.feeds.events import FeedEvent

__all__ = ["FeedCalendar", "render"]

PRODUCT: Final = "-//Schedule Browser//Schedule server//EN"
REFRESH: Final = timedelta(hours=1)
_WHITESPACE: Final = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class FeedCalendar:
    """What the calendar says of itself, and its events in time order."""

    name: str
    description: str
    events: Sequence[FeedEvent]
    stamp: datetime
    """DTSTAMP of every event: when the feed was made."""
    first_day: date
    last_day: date
    """The window's dates: the VTIMEZONE components cover them."""


def render(feed: FeedCalendar) -> bytes:
    """The feed's iCalendar text, UTF-8."""
    calendar = Calendar()
    calendar.add("prodid", PRODUCT)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    name = vText(_one_line(feed.name))
    calendar.add("name", name)
    calendar.add("x-wr-calname", name)
    calendar.add("description", feed.description)
    calendar.add("x-wr-caldesc", feed.description)
    calendar.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", vDuration(REFRESH))
    stamp = feed.stamp.astimezone(UTC)
    for event in feed.events:
        calendar.add_component(_vevent(event, stamp))
    calendar.add_missing_timezones(
        first_date=feed.first_day - timedelta(days=1), last_date=feed.last_day + timedelta(days=1)
    )
    text: bytes = calendar.to_ical()
    return text


def _vevent(event: FeedEvent, stamp: datetime) -> Event:
    vevent = Event()
    vevent.add("uid", event.uid)
    vevent.add("dtstamp", stamp)
    zone = UTC if event.zone == "UTC" else ZoneInfo(event.zone)
    vevent.add("dtstart", event.at.astimezone(zone))
    vevent.add("duration", event.duration)
    vevent.add("summary", _one_line(event.summary))
    vevent.add("description", event.description)
    vevent.add("transp", "TRANSPARENT")
    return vevent


def _one_line(text: str) -> str:
    """A title or name as one line: a calendar shows it in a cell."""
    return _WHITESPACE.sub(" ", text).strip()
