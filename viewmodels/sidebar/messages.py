"""The open session's transcript: read-only, oldest first, paged like the list.

The newest ``open`` wins (a token per open); a repeated cursor ends paging; a
message already shown is not shown twice; a failed later page keeps the
messages and ``retry()`` asks for exactly that page again.
"""

from __future__ import annotations

from dataclasses import replace
from uuid import UUID
from zoneinfo import ZoneInfo

from transport.errors import ApiError
from transport.models import Page, SessionMessage
from viewmodels.failure_text import failure_text
from viewmodels.formatting import message_time_text, role_label
from viewmodels.observable import Observable
from viewmodels.ports import ScheduleApi
from viewmodels.sidebar.snapshot import MessageRow, MessagesPhase, SessionMessagesSnapshot


class SessionMessagesViewModel(Observable[SessionMessagesSnapshot]):
    def __init__(
        self,
        api: ScheduleApi,
        *,
        device_zone: ZoneInfo,
        page_size: int = 50,
    ) -> None:
        super().__init__(SessionMessagesSnapshot())
        self._api = api
        self._zone = device_zone
        self._page_size = page_size
        self._token = 0
        self._shown: set[UUID] = set()
        self._requested: set[str] = set()
        self._next_cursor: str | None = None
        self._failed_cursor: str | None = None

    async def open(self, session_id: UUID) -> None:
        """Show ``session_id``'s first page of messages."""
        self._token += 1
        token = self._token
        self._shown = set()
        self._requested = set()
        self._next_cursor = None
        self._failed_cursor = None
        self._publish(
            SessionMessagesSnapshot(session_id=session_id, phase=MessagesPhase.LOADING_FIRST_PAGE)
        )
        try:
            page = await self._fetch(session_id, None)
        except ApiError as error:
            if token == self._token:
                self._publish(
                    replace(
                        self.snapshot,
                        phase=MessagesPhase.IDLE,
                        first_page_error=failure_text(error),
                    )
                )
            return
        if token == self._token:
            self._apply(page, None)

    async def load_more(self) -> None:
        if self.snapshot.can_load_more and self._next_cursor is not None:
            await self._load_later(self._next_cursor)

    async def retry(self) -> None:
        snapshot = self.snapshot
        if snapshot.session_id is None:
            return
        if snapshot.later_page_error is not None and self._failed_cursor is not None:
            await self._load_later(self._failed_cursor)
        elif snapshot.first_page_error is not None:
            await self.open(snapshot.session_id)

    def close(self) -> None:
        self._token += 1
        self._publish(SessionMessagesSnapshot())

    async def _load_later(self, cursor: str) -> None:
        session_id = self.snapshot.session_id
        if session_id is None:
            return
        token = self._token
        self._publish(
            replace(self.snapshot, phase=MessagesPhase.LOADING_MORE, later_page_error=None)
        )
        try:
            page = await self._fetch(session_id, cursor)
        except ApiError as error:
            if token == self._token:
                self._failed_cursor = cursor
                self._publish(
                    replace(
                        self.snapshot,
                        phase=MessagesPhase.LOADED,
                        later_page_error=failure_text(error),
                    )
                )
            return
        if token == self._token:
            self._failed_cursor = None
            self._apply(page, cursor)

    async def _fetch(self, session_id: UUID, cursor: str | None) -> Page[SessionMessage]:
        if cursor is not None:
            self._requested.add(cursor)
        return await self._api.list_session_messages(
            session_id, limit=self._page_size, cursor=cursor
        )

    def _apply(self, page: Page[SessionMessage], cursor: str | None) -> None:
        added = []
        for message in page.items:
            if message.message_id in self._shown:
                continue
            self._shown.add(message.message_id)
            added.append(
                MessageRow(
                    message_id=message.message_id,
                    role=message.role,
                    role_label=role_label(message.role),
                    text=message.text,
                    time_text=message_time_text(message.created_at, self._zone),
                )
            )
        following = page.next_cursor
        if following is None or following == cursor or following in self._requested:
            self._next_cursor = None
            phase = MessagesPhase.END_REACHED
        else:
            self._next_cursor = following
            phase = MessagesPhase.LOADED
        self._publish(
            replace(
                self.snapshot,
                messages=(*self.snapshot.messages, *added),
                phase=phase,
                first_page_error=None,
                later_page_error=None,
            )
        )
