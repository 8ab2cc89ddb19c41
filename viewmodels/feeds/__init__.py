"""Calendar feeds in the app: Add to calendar, Subscribe to all schedules, the feeds list.

- ``offer``: whether the server has ``/v1/feeds`` (404/405 hides every control).
- ``add_to_calendar``: a feed's address to subscribe to, or on the embedded
  server an ``.ics`` file saved once (a snapshot).
- ``feed_list``: the person's feeds, each with Revoke that asks first.
- ``words``: every sentence; ``ports``: the feed routes and the file saver.
"""

from __future__ import annotations

from viewmodels.feeds.add_to_calendar import (
    ALL,
    AddToCalendarSnapshot,
    AddToCalendarViewModel,
    CalendarPhase,
)
from viewmodels.feeds.feed_list import CalendarFeedsSnapshot, CalendarFeedsViewModel, FeedRow
from viewmodels.feeds.offer import FeedOffer
from viewmodels.feeds.ports import CalendarFileSaver, FeedApi, SaveOutcome

__all__ = [
    "ALL",
    "AddToCalendarSnapshot",
    "AddToCalendarViewModel",
    "CalendarFeedsSnapshot",
    "CalendarFeedsViewModel",
    "CalendarFileSaver",
    "CalendarPhase",
    "FeedApi",
    "FeedOffer",
    "FeedRow",
    "SaveOutcome",
]
