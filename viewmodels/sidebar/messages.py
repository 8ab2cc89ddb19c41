"""The open session's transcript: read-only, oldest first, paged like the list.

Paging and its safeguards are ``viewmodels.paging.CursorFeed``'s (the newest
``open`` wins, a repeated cursor ends paging, a message already shown is not
shown twice, a failed later page keeps the messages and ``retry()`` asks for
exactly that page). The title is the session's as the sidebar knows it (no
route reads one session), looked up through ``title_of``; the composition root
calls ``refresh_title()`` when the sidebar learns more.

A session a schedule created opens with a header (``origin``): "Started by
the schedule “Nightly backup check”", when that firing was due, and Open
schedule. The sidebar says which schedule (``metadata.schedule_id``) and
when it fired (``origin_of``); the title is the schedule's own, read with
one point read. A schedule that is gone, or refused, leaves "Started by a
schedule"; a read with no usable answer (none, a server fault) is tried
again the next time the sidebar learns more, so one slow moment does not
leave the header unnamed.
Assistant messages carry safe Markdown (``transcript_markdown``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from uuid import UUID
from zoneinfo import ZoneInfo

from transport.errors import ApiError, RateLimited, ServerRefused
from transport.models import MessageRole, Page, SessionMessage
from viewmodels.failure_text import failure_text
from viewmodels.formatting import message_time_text, role_label
from viewmodels.formatting.clock_text import locale_of
from viewmodels.language import N_, Words, words_for
from viewmodels.observable import Observable
from viewmodels.paging import CursorFeed, FeedState, LatestRequest
from viewmodels.ports import ScheduleApi
from viewmodels.sidebar.snapshot import (
    MessageRow,
    SessionMessagesSnapshot,
    SessionOrigin,
    TranscriptOrigin,
)
from viewmodels.sidebar.transcript_markdown import safe_markdown

TitleLookup = Callable[[UUID], str | None]
OriginLookup = Callable[[UUID], SessionOrigin | None]
UNNAMED_ORIGIN = N_("Started by a schedule")


def origin_text(schedule_title: str, *, words: Words) -> str:
    # Translators: the header of a transcript a schedule started; {title} is the schedule's.
    return words.gettext("Started by the schedule “{title}”").format(title=schedule_title)


class SessionMessagesViewModel(Observable[SessionMessagesSnapshot]):
    def __init__(
        self,
        api: ScheduleApi,
        *,
        device_zone: ZoneInfo,
        page_size: int = 50,
        title_of: TitleLookup = lambda _session_id: None,
        origin_of: OriginLookup = lambda _session_id: None,
    ) -> None:
        super().__init__(SessionMessagesSnapshot())
        self._api = api
        self._zone = device_zone
        self._locale = locale_of(device_zone)
        self._words = words_for(self._locale)
        self._page_size = page_size
        self._title_of = title_of
        self._origin_of = origin_of
        self._origin_reads = LatestRequest()
        self._origin_task: asyncio.Task[None] | None = None
        self._origin_unnamed = False
        """The shown origin still waits for its schedule's title (no read in flight)."""
        self._feed: CursorFeed[SessionMessage, MessageRow] = CursorFeed(
            key=lambda message: message.message_id,
            to_row=self._row,
            on_change=self._show_feed,
        )

    async def open(self, session_id: UUID) -> None:
        """Show ``session_id``'s first page of messages."""
        self._feed.clear()
        self._origin_reads.drop()
        origin = self._origin_of(session_id)
        self._origin_unnamed = False
        self._publish(
            SessionMessagesSnapshot(
                session_id=session_id,
                title=self._title_of(session_id),
                origin=self._unnamed(origin),
                locale=self._locale,
            )
        )

        async def fetch(cursor: str | None) -> Page[SessionMessage]:
            return await self._api.list_session_messages(
                session_id, limit=self._page_size, cursor=cursor
            )

        if origin is None:
            await self._feed.reload(fetch)
        else:
            await asyncio.gather(self._feed.reload(fetch), self._name_origin(session_id, origin))

    async def load_more(self) -> None:
        await self._feed.load_more()

    async def retry(self) -> None:
        """After a failure: exactly the later page that failed, or page one again."""
        await self._feed.retry()

    def close(self) -> None:
        """No session shown; answers still in flight are dropped."""
        self._feed.clear()
        self._origin_reads.drop()
        self._origin_unnamed = False
        self._publish(SessionMessagesSnapshot(locale=self._locale))

    def refresh_title(self) -> None:
        """Look the open session's title up again (the sidebar may know it now).

        A deep link learns here which schedule started the session; a header
        whose schedule read never got an answer is read again.
        """
        session_id = self.snapshot.session_id
        if session_id is None:
            return
        title = self._title_of(session_id)
        if title != self.snapshot.title:
            self._publish(replace(self.snapshot, title=title))
        origin = self._origin_of(session_id)
        if origin is None:
            return
        if self.snapshot.origin is None:
            self._publish(replace(self.snapshot, origin=self._unnamed(origin)))
            self._origin_unnamed = True
        if not self._origin_unnamed:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop to read on: tried again on the next refresh
        self._origin_unnamed = False  # one read in flight, however many refreshes come
        self._origin_task = loop.create_task(self._name_origin(session_id, origin))

    def _unnamed(self, origin: SessionOrigin | None) -> TranscriptOrigin | None:
        if origin is None:
            return None
        words, fired = self._words, None
        if origin.fired_at is not None:
            at = message_time_text(origin.fired_at, self._zone)
            # Translators: under a transcript's header; {at} is when the firing was due.
            fired = words.gettext("Firing of {at}").format(at=at)
        return TranscriptOrigin(origin.schedule_id, words.gettext(UNNAMED_ORIGIN), fired)

    async def _name_origin(self, session_id: UUID, origin: SessionOrigin) -> None:
        ticket = self._origin_reads.begin()
        self._origin_unnamed = False
        try:
            schedule = await self._api.get_schedule(origin.schedule_id)
        except ApiError as error:
            refused = isinstance(error, ServerRefused) and error.status < 500
            refused = refused and not isinstance(error, RateLimited)  # a wait is not a "no"
            if not refused and self._origin_reads.is_current(ticket):
                self._origin_unnamed = True  # no usable answer: the next refresh reads again
            return  # a refusal (gone, not ours) keeps "Started by a schedule"
        shown = self.snapshot.origin
        if not self._origin_reads.is_current(ticket) or shown is None:
            return
        if self.snapshot.session_id != session_id:
            return
        named = origin_text(schedule.title, words=self._words)
        self._publish(replace(self.snapshot, origin=replace(shown, text=named)))

    def _row(self, message: SessionMessage) -> MessageRow:
        return MessageRow(
            message_id=message.message_id,
            role=message.role,
            role_label=role_label(message.role, words=self._words),
            text=message.text,
            time_text=message_time_text(message.created_at, self._zone),
            markdown=(
                safe_markdown(message.text) if message.known_role is MessageRole.ASSISTANT else None
            ),
            from_you=message.known_role is MessageRole.USER,
        )

    def _show_feed(self, feed: FeedState[MessageRow]) -> None:
        first, later = feed.first_page_failure, feed.later_page_failure
        words = self._words
        self._publish(
            replace(
                self.snapshot,
                messages=feed.rows,
                phase=feed.phase,
                first_page_error=None if first is None else failure_text(first, words=words),
                later_page_error=None if later is None else failure_text(later, words=words),
            )
        )
