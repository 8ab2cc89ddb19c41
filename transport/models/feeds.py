"""Calendar feeds (``/v1/feeds``): a private iCalendar address of one schedule's firings, or all.

``Feed`` is a feed as listed, never with its address; ``CreatedFeed``, the
answer of ``POST /v1/feeds`` only, adds ``url``, which holds the feed's secret
(relative, ``/feeds/<secret>.ics``, unless the server knows its public
address). A server without the routes answers 404/405, which the client hands
back as ``FEEDS_NOT_OFFERED``, not as an error: the app then offers no feed.
"""

from __future__ import annotations

from enum import Enum
from typing import Final, Literal
from uuid import UUID

from transport.models.base import Instant, WireModel


class Feed(WireModel):
    """One of the caller's feeds: what it shows and when it was made."""

    feed_id: UUID
    schedule_id: UUID | None = None
    name: str
    created_at: Instant


class CreatedFeed(Feed):
    """A new feed with its address, the only answer that carries it."""

    url: str


class _NotOffered(Enum):
    FEEDS_NOT_OFFERED = "feeds not offered"


FeedsNotOffered = Literal[_NotOffered.FEEDS_NOT_OFFERED]
"""The type of ``FEEDS_NOT_OFFERED``: the server has no ``/v1/feeds`` (404/405)."""
FEEDS_NOT_OFFERED: Final = _NotOffered.FEEDS_NOT_OFFERED
