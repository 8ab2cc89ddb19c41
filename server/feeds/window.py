"""What a feed covers: from 30 days ago to 60 days ahead, at most 2,000 events, nearest first.

A calendar app fetches the whole feed every hour, so its size has a bound
whatever the schedules: when more firings fall in the window, the ones
nearest to now are kept (past and future alike) and the feed says it was cut.
The window fits the projection's 92 days, so it is computed as one window.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Final

from server.feeds.events import FeedEvent

__all__ = ["FEED_AHEAD", "FEED_PAST", "MAX_EVENTS", "feed_window", "nearest"]

FEED_PAST: Final = timedelta(days=30)
FEED_AHEAD: Final = timedelta(days=60)
MAX_EVENTS: Final = 2_000


def feed_window(now: datetime) -> tuple[datetime, datetime]:
    """The half-open window ``[now - 30 days, now + 60 days)``."""
    return now - FEED_PAST, now + FEED_AHEAD


def nearest(
    events: Sequence[FeedEvent], now: datetime, bound: int = MAX_EVENTS
) -> tuple[list[FeedEvent], bool]:
    """At most ``bound`` of ``events``, nearest to ``now`` first, then in time order;
    and whether any was left out."""
    if len(events) <= bound:
        return sorted(events, key=_in_time), False
    kept = sorted(events, key=lambda event: (abs(event.at - now), *_in_time(event)))[:bound]
    return sorted(kept, key=_in_time), True


def _in_time(event: FeedEvent) -> tuple[datetime, str]:
    return event.at, str(event.schedule_id)
