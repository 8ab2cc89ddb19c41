"""The sidebar: the cached history first, then reconciled with the server.

``open()`` paints from the device's history cache, then ``refresh()`` reads
every ``GET /v1/sessions`` page: the server wins, sessions it no longer lists
drop out, and the cache is saved back. Folders show only when the server
offers them (404 from ``/v1/folders`` means none). Expanded groups are device
state: collapsed by default, changed only by ``toggle_group``, remembered
through the storage port and never sent to the server, so a new firing never
reopens a collapsed group. The ``SessionIndex`` owns the sessions, the
expanded groups and the open session; this view model owns loading.
Age lines ("5 min ago") read the clock: ``refresh_clock_texts`` measures
them again. After a reconciliation, and for a group a new firing joined, each
group's schedule is read (its projection, a few at a time): an ended one's
group says so and each row its firing's outcome. A schedule that cannot be
read keeps what was known, quietly.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from uuid import UUID
from zoneinfo import ZoneInfo

from transport.errors import ApiError, NotFound, RepeatedCursor
from transport.models import Folder, SessionSummary
from transport.paging import iterate_pages
from viewmodels.failure_text import failure_text
from viewmodels.formatting.clock_text import locale_of
from viewmodels.language import words_for
from viewmodels.observable import Observable
from viewmodels.paging import LatestRequest
from viewmodels.ports import Clock, DeviceStorage, ScheduleApi
from viewmodels.sidebar.firings import firing_window, group_facts
from viewmodels.sidebar.grouping import SessionIndex
from viewmodels.sidebar.history_cache import (
    CachedSession,
    load_expanded,
    load_history,
    save_expanded,
    save_history,
)
from viewmodels.sidebar.snapshot import (
    ScheduleSessions,
    SessionOrigin,
    SidebarPhase,
    SidebarSnapshot,
)

SESSIONS_PAGE_SIZE = 100
SCHEDULE_READS = 4
"""At most this many groups' schedules are read at once."""


class SidebarViewModel(Observable[SidebarSnapshot]):
    """Folders (when offered), Scheduled groups and History, with the selection."""

    def __init__(
        self,
        api: ScheduleApi,
        storage: DeviceStorage,
        *,
        clock: Clock,
        device_zone: ZoneInfo | None = None,
    ) -> None:
        super().__init__(SidebarSnapshot())
        self._api = api
        self._storage = storage
        self._clock = clock
        self._locale = locale_of(device_zone)
        self._words = words_for(self._locale)
        self._index = SessionIndex(device_zone or ZoneInfo("UTC"))
        self._folders: list[Folder] | None = None
        self._schedules_selected = False
        self._phase = SidebarPhase.IDLE
        self._error: str | None = None
        self._refreshes = LatestRequest()
        self._complete = False
        """The last reconciliation read every session page."""
        self._revealed: UUID | None = None
        self._reveals = 0

    def title_of(self, session_id: UUID) -> str | None:
        """The session's title as last listed, or None when it is not in the history."""
        return self._index.title_of(session_id)

    def origin_of(self, session_id: UUID) -> SessionOrigin | None:
        """The schedule that created the session, and when it fired; None for a chat."""
        session = self._index.cached(session_id)
        if session is None or session.schedule_id is None:
            return None
        return SessionOrigin(session.schedule_id, session.fired_at)

    def schedule_sessions(self, schedule_id: UUID) -> ScheduleSessions:
        """How many of the schedule's sessions the sidebar knows, and whether that is all.

        All is known once every session page was read (a reconciliation that
        finished); the device's cache alone, or a failed read, is a part.
        """
        return ScheduleSessions(
            schedule_id,
            self._index.session_count(schedule_id),
            complete=self._complete,
            locale=self._locale,
        )

    async def reveal_schedule(self, schedule_id: UUID) -> None:
        """Show in the sidebar: the schedule's group is expanded (remembered) and marked."""
        self._revealed = schedule_id
        self._reveals += 1
        if self._index.session_count(schedule_id) >= 2 and schedule_id not in self._index.expanded:
            self._index.set_expanded(schedule_id, True)
            self._render()
            await save_expanded(self._storage, self._index.expanded)
            return
        self._render()

    async def open(self) -> None:
        """Show the cached history at once, then reconcile with the server."""
        self._index.restore_expanded(await load_expanded(self._storage))
        self._rebuild(await load_history(self._storage))
        await self.refresh()

    async def refresh(self) -> None:
        """Read every session page (and the folders); the server's values win."""
        ticket = self._refreshes.begin()
        self._phase = SidebarPhase.LOADING
        self._error = None
        self._render()
        try:
            folders = await self._load_folders()
            sessions, complete = await self._load_sessions()
        except ApiError as error:
            if self._refreshes.is_current(ticket):
                self._complete = False
                self._phase = SidebarPhase.FAILED
                self._error = failure_text(error, words=self._words)
                self._render()
            return
        if not self._refreshes.is_current(ticket):
            return
        self._folders = folders
        fresh = {s.session_id: s for s in (CachedSession.from_summary(x) for x in sessions)}
        if not complete:
            # Paging stopped early (a repeated cursor): update what was seen, drop nothing.
            kept = {s.session_id: s for s in self._index.sessions}
            kept.update(fresh)
            fresh = kept
        self._complete = complete
        self._rebuild(list(fresh.values()))
        await save_history(self._storage, self._index.sessions)
        self._phase = SidebarPhase.LOADED
        self._render()
        await self._read_schedules(self._index.group_ids)

    async def catch_up(self) -> bool:
        """The newest sessions page, each new or changed session placed on its own.

        How a firing's session reaches the sidebar without a reload: no
        progress, no error line, no regroup; a collapsed group stays
        collapsed. Skipped while a full reconciliation runs (it reads
        everything anyway). Answers False when the server could not be read.
        """
        if self._reconciling():
            return True
        try:
            page = await self._api.list_sessions(limit=SESSIONS_PAGE_SIZE)
        except ApiError:
            return False
        if self._phase is SidebarPhase.LOADING:
            return True
        fresh = [CachedSession.from_summary(summary) for summary in page.items]
        changed = [
            session for session in fresh if self._index.cached(session.session_id) != session
        ]
        if changed:
            now = self._clock()
            for session in changed:
                self._index.upsert(session, now)
            self._render()
            await save_history(self._storage, self._index.sessions)
            touched = {s.schedule_id for s in changed if s.schedule_id is not None}
            await self._read_schedules(touched)
        return True

    def refresh_clock_texts(self) -> None:
        """Every age line measured again at the current time; shown when one changed."""
        if self._reconciling():
            return
        sections = (self._index.scheduled, self._index.history, self._index.folders)
        self._index.rebuild(self._index.sessions, folders=self._folders, now=self._clock())
        if (self._index.scheduled, self._index.history, self._index.folders) != sections:
            self._render()

    async def toggle_group(self, schedule_id: UUID) -> None:
        """Expand or collapse a group; remembered on the device across launches."""
        self._index.set_expanded(schedule_id, schedule_id not in self._index.expanded)
        self._render()
        await save_expanded(self._storage, self._index.expanded)

    def select_session(self, session_id: UUID) -> None:
        """Open a session: its row is marked, and its collapsed group shows a marker."""
        self._schedules_selected = False
        self._index.select(session_id)
        self._render()

    def select_schedules(self) -> None:
        """The Schedules entry (the schedules sheet) becomes the selection."""
        self._schedules_selected = True
        self._index.select(None)
        self._render()

    def _reconciling(self) -> bool:
        return self._phase is SidebarPhase.LOADING

    async def _load_folders(self) -> list[Folder] | None:
        folders: list[Folder] = []
        try:
            async for page in iterate_pages(lambda cursor: self._api.list_folders(cursor=cursor)):
                folders.extend(page.items)
        except NotFound:
            return None
        except RepeatedCursor:
            pass
        return folders

    async def _load_sessions(self) -> tuple[list[SessionSummary], bool]:
        sessions: list[SessionSummary] = []
        try:
            async for page in iterate_pages(
                lambda cursor: self._api.list_sessions(limit=SESSIONS_PAGE_SIZE, cursor=cursor)
            ):
                sessions.extend(page.items)
        except RepeatedCursor:
            return sessions, False
        return sessions, True

    async def _read_schedules(self, schedule_ids: Iterable[UUID]) -> None:
        """Each group's schedule read (a few at a time), and what it says shown."""
        gate = asyncio.Semaphore(SCHEDULE_READS)

        async def read(schedule_id: UUID) -> None:
            sessions = self._index.grouped(schedule_id)
            if not sessions:
                return
            start, end = firing_window(sessions, self._clock())
            async with gate:
                try:
                    projection = await self._api.get_projection(schedule_id, start=start, end=end)
                except ApiError:
                    return  # removed, or an older server: the group shows what it knew
            self._index.set_facts(schedule_id, group_facts(projection, words=self._words))
            self._render()

        await asyncio.gather(*(read(schedule_id) for schedule_id in schedule_ids))

    def _rebuild(self, sessions: list[CachedSession]) -> None:
        self._index.rebuild(sessions, folders=self._folders, now=self._clock())
        self._render()

    def _render(self) -> None:
        self._publish(
            SidebarSnapshot(
                phase=self._phase,
                folders=self._index.folders,
                scheduled=self._index.scheduled,
                history=self._index.history,
                selected_session_id=self._index.selected,
                schedules_selected=self._schedules_selected,
                error=self._error,
                revealed_schedule_id=self._revealed,
                reveals=self._reveals,
                locale=self._locale,
            )
        )
