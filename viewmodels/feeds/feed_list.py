"""The person's calendar feeds: name and creation date, each with Revoke, which asks first.

It pages ``GET /v1/feeds`` through the list's ``CursorFeed`` (its safeguards
against repeated items and cursors, and stale loads). Revoke asks in a
sentence, then ``DELETE /v1/feeds/{id}`` and page one again; a feed someone
revoked meanwhile (404) is gone all the same. A server without feeds shows
nothing, as the shared ``FeedOffer`` says.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from uuid import UUID
from zoneinfo import ZoneInfo

from transport.errors import ApiError, NotFound
from transport.models import FEEDS_NOT_OFFERED, Feed, Page
from viewmodels.failure_text import failure_text
from viewmodels.feeds.offer import FeedOffer
from viewmodels.feeds.ports import FeedApi
from viewmodels.feeds.words import (
    CONFIRM_REVOKE_TEXT,
    CREATED_TEXT,
    FEED_ROW_NAME,
    FEEDS_EMPTY_TEXT,
    FEEDS_FAILED_TITLE,
    FEEDS_LOADING_TEXT,
    REVOKE_FAILED_TEXT,
)
from viewmodels.formatting.clock_text import date_text, locale_of, words_of
from viewmodels.language import Words
from viewmodels.observable import Observable
from viewmodels.paging import CursorFeed, FeedPhase, FeedState

PAGE_SIZE = 50


@dataclass(frozen=True, slots=True)
class FeedRow:
    feed_id: UUID
    name: str
    created_text: str
    """ "Created 6 Dec 2026", in the device's zone."""
    accessible_name: str
    confirm_text: str
    """The question Revoke asks first."""


@dataclass(frozen=True, slots=True)
class CalendarFeedsSnapshot:
    offered: bool = False
    loading: bool = False
    loading_text: str = FEEDS_LOADING_TEXT
    rows: tuple[FeedRow, ...] = ()
    empty_text: str | None = None
    error_title: str = FEEDS_FAILED_TITLE
    error: str | None = None
    """Page one failed: why (Retry reads it again)."""
    later_error: str | None = None
    can_load_more: bool = False
    confirming: UUID | None = None
    """The feed whose Revoke asks "Revoke …?" now."""
    revoking: UUID | None = None
    revoke_error: str | None = None


def _fresh(words: Words, *, offered: bool) -> CalendarFeedsSnapshot:
    """The empty list with every label in the person's words."""
    word = words.gettext
    return CalendarFeedsSnapshot(
        offered=offered,
        loading_text=word(FEEDS_LOADING_TEXT),
        error_title=word(FEEDS_FAILED_TITLE),
    )


class CalendarFeedsViewModel(Observable[CalendarFeedsSnapshot]):
    """``load()`` when the list shows; ``ask_revoke``, ``confirm_revoke``, ``cancel_revoke``."""

    def __init__(self, api: FeedApi, offer: FeedOffer, *, device_zone: ZoneInfo) -> None:
        self._api = api
        self._offer = offer
        self._zone = device_zone
        self._words = words_of(device_zone)
        self._feed: CursorFeed[Feed, FeedRow] = CursorFeed(
            key=lambda feed: feed.feed_id, to_row=self._row, on_change=self._paged
        )
        super().__init__(_fresh(self._words, offered=bool(offer.snapshot)))
        offer.subscribe(
            lambda offered: self._publish(replace(self.snapshot, offered=bool(offered)))
        )

    async def load(self) -> None:
        """Page one of the feeds (and, the first time, whether the server has any)."""
        await self._offer.learn()
        if self._offer.snapshot:
            await self._feed.reload(self._page)

    async def refresh(self) -> None:
        """Page one again, if the list was read before (a feed was made meanwhile)."""
        if self._feed.state.phase is not FeedPhase.IDLE:
            await self._feed.reload(self._page)

    async def load_more(self) -> None:
        await self._feed.load_more()

    async def retry(self) -> None:
        await self._feed.retry()

    def ask_revoke(self, feed_id: UUID) -> None:
        self._publish(replace(self.snapshot, confirming=feed_id, revoke_error=None))

    def cancel_revoke(self) -> None:
        self._publish(replace(self.snapshot, confirming=None))

    async def confirm_revoke(self) -> None:
        feed_id = self.snapshot.confirming
        if feed_id is None or self.snapshot.revoking is not None:
            return
        name = next((row.name for row in self.snapshot.rows if row.feed_id == feed_id), "")
        self._publish(replace(self.snapshot, revoking=feed_id))
        try:
            answer = await self._api.revoke_feed(feed_id)
        except NotFound:
            answer = None  # revoked elsewhere meanwhile: gone all the same
        except ApiError as error:
            reason = failure_text(error, words=self._words)
            self._publish(
                replace(
                    self.snapshot,
                    revoking=None,
                    revoke_error=self._words.gettext(REVOKE_FAILED_TEXT).format(
                        name=name, reason=reason
                    ),
                )
            )
            return
        if answer is FEEDS_NOT_OFFERED:
            self._offer.withdrawn()
        self._publish(replace(self.snapshot, revoking=None, confirming=None))
        await self._feed.reload(self._page)

    async def _page(self, cursor: str | None) -> Page[Feed]:
        answer = await self._api.list_feeds(limit=PAGE_SIZE, cursor=cursor)
        if answer is FEEDS_NOT_OFFERED:
            self._offer.withdrawn()
            return Page[Feed](items=[])
        return answer

    def _row(self, feed: Feed) -> FeedRow:
        created = date_text(feed.created_at.astimezone(self._zone), locale_of(self._zone))
        word = self._words.gettext
        return FeedRow(
            feed_id=feed.feed_id,
            name=feed.name,
            created_text=word(CREATED_TEXT).format(date=created),
            accessible_name=word(FEED_ROW_NAME).format(name=feed.name, date=created),
            confirm_text=word(CONFIRM_REVOKE_TEXT).format(name=feed.name),
        )

    def _paged(self, state: FeedState[FeedRow]) -> None:
        done = state.phase in (FeedPhase.LOADED, FeedPhase.END_REACHED)
        self._publish(
            replace(
                self.snapshot,
                loading=state.phase is FeedPhase.LOADING_FIRST_PAGE and not state.rows,
                rows=state.rows,
                empty_text=(
                    self._words.gettext(FEEDS_EMPTY_TEXT) if done and not state.rows else None
                ),
                error=(
                    None
                    if state.first_page_failure is None
                    else failure_text(state.first_page_failure, words=self._words)
                ),
                later_error=(
                    None
                    if state.later_page_failure is None
                    else failure_text(state.later_page_failure, words=self._words)
                ),
                can_load_more=state.can_load_more,
            )
        )
