"""The feed routes' request body and answers (docs/API.md, "Calendar feeds").

``NewFeed`` is what ``POST /v1/feeds`` reads and ``CreatedFeed`` its answer,
the only one that carries the feed's address (its secret); ``Feed`` and
``FeedPage`` are the list's, without it.
"""

# No postponed annotations: pydantic builds these schemas from the annotations.

from typing import Annotated
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field

from server.api.request_schemas import NonBlank, Open
from server.api.responses import Instant
from server.storage.records import CalendarFeed

MAX_FEED_NAME = 200


class NewFeed(BaseModel):
    """Body of ``POST /v1/feeds``: one schedule's id, or null for all the caller's schedules."""

    model_config = ConfigDict(extra="allow")
    schedule_id: UUID | None
    name: Annotated[str, Field(min_length=1, max_length=MAX_FEED_NAME, pattern=NonBlank)] | None = (
        None
    )


class Feed(Open):
    """A feed as listed: never its address, whose secret is shown once at creation."""

    feed_id: UUID
    schedule_id: UUID | None
    name: str
    created_at: Instant

    @classmethod
    def of(cls, record: CalendarFeed) -> "Feed":
        return cls(
            feed_id=record.feed_id,
            schedule_id=record.schedule_id,
            name=record.name,
            created_at=record.created_at,
        )


class CreatedFeed(Feed):
    """The new feed with its address, ``/feeds/<secret>.ics``: the only answer holding it."""

    url: str = Field(
        description="The feed's address, absolute when the server knows its public address."
    )


class FeedPage(Open):
    items: list[Feed]
    next_cursor: str | None
