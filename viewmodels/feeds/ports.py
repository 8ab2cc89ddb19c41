"""What the calendar feed view models need from outside: the feed routes and a file saver.

``FeedApi`` is the structural subset of ``transport.client.ScheduleClient``
the feed screens call (the real client satisfies it). ``CalendarFileSaver``
hands an ``.ics`` file to the person: a save dialog on the desktop, a
download in the browser; the app implements it with Flet's ``FilePicker``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Protocol
from uuid import UUID

if TYPE_CHECKING:
    from transport.models import CreatedFeed, Feed, FeedsNotOffered, Page


class FeedApi(Protocol):
    async def create_feed(
        self, schedule_id: UUID | None, *, name: str | None = None
    ) -> CreatedFeed | FeedsNotOffered: ...

    async def list_feeds(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> Page[Feed] | FeedsNotOffered: ...

    async def revoke_feed(self, feed_id: UUID) -> FeedsNotOffered | None: ...

    async def feed_calendar(self, address: str) -> bytes: ...


class SaveOutcome(StrEnum):
    SAVED = "saved"
    """The person chose where, and the file is written (the desktop's save dialog)."""
    DOWNLOADED = "downloaded"
    """The browser was handed the file as a download (where it goes is the browser's)."""
    CANCELLED = "cancelled"
    """The person closed the save dialog without choosing a place."""
    UNWRITABLE = "unwritable"
    """The place chosen could not be written (no permission, a full disk)."""


class CalendarFileSaver(Protocol):
    async def save(self, file_name: str, content: bytes, *, title: str) -> SaveOutcome:
        """Hands ``content`` over as ``file_name``; ``title`` heads the save dialog, in the
        person's words."""
        ...
