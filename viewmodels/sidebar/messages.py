"""The open session's transcript: read-only, oldest first, paged like the list.

Paging and its safeguards are ``viewmodels.paging.CursorFeed``'s (the newest
``open`` wins, a repeated cursor ends paging, a message already shown is not
shown twice, a failed later page keeps the messages and ``retry()`` asks for
exactly that page). The title is the session's as the sidebar knows it (no
route reads one session), looked up through ``title_of``; the composition root
calls ``refresh_title()`` when the sidebar learns more.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from uuid import UUID
from zoneinfo import ZoneInfo

from transport.models import Page, SessionMessage
from viewmodels.failure_text import failure_text
from viewmodels.formatting import message_time_text, role_label
from viewmodels.observable import Observable
from viewmodels.paging import CursorFeed, FeedState
from viewmodels.ports import ScheduleApi
from viewmodels.sidebar.snapshot import MessageRow, SessionMessagesSnapshot

TitleLookup = Callable[[UUID], str | None]


class SessionMessagesViewModel(Observable[SessionMessagesSnapshot]):
    def __init__(
        self,
        api: ScheduleApi,
        *,
        device_zone: ZoneInfo,
        page_size: int = 50,
        title_of: TitleLookup = lambda _session_id: None,
    ) -> None:
        super().__init__(SessionMessagesSnapshot())
        self._api = api
        self._zone = device_zone
        self._page_size = page_size
        self._title_of = title_of
        self._feed: CursorFeed[SessionMessage, MessageRow] = CursorFeed(
            key=lambda message: message.message_id,
            to_row=self._row,
            on_change=self._show_feed,
        )

    async def open(self, session_id: UUID) -> None:
        """Show ``session_id``'s first page of messages."""
        self._feed.clear()
        self._publish(
            SessionMessagesSnapshot(session_id=session_id, title=self._title_of(session_id))
        )

        async def fetch(cursor: str | None) -> Page[SessionMessage]:
            return await self._api.list_session_messages(
                session_id, limit=self._page_size, cursor=cursor
            )

        await self._feed.reload(fetch)

    async def load_more(self) -> None:
        await self._feed.load_more()

    async def retry(self) -> None:
        """After a failure: exactly the later page that failed, or page one again."""
        await self._feed.retry()

    def close(self) -> None:
        """No session shown; answers still in flight are dropped."""
        self._feed.clear()
        self._publish(SessionMessagesSnapshot())

    def refresh_title(self) -> None:
        """Look the open session's title up again (the sidebar may know it now)."""
        session_id = self.snapshot.session_id
        if session_id is not None:
            title = self._title_of(session_id)
            if title != self.snapshot.title:
                self._publish(replace(self.snapshot, title=title))

    def _row(self, message: SessionMessage) -> MessageRow:
        return MessageRow(
            message_id=message.message_id,
            role=message.role,
            role_label=role_label(message.role),
            text=message.text,
            time_text=message_time_text(message.created_at, self._zone),
        )

    def _show_feed(self, feed: FeedState[MessageRow]) -> None:
        first, later = feed.first_page_failure, feed.later_page_failure
        self._publish(
            replace(
                self.snapshot,
                messages=feed.rows,
                phase=feed.phase,
                first_page_error=None if first is None else failure_text(first),
                later_page_error=None if later is None else failure_text(later),
            )
        )
