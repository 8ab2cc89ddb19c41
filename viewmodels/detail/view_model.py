"""The detail pane: one point read per open; the newest open wins.

A 404 on the point read means the schedule was removed or became inaccessible
since the list was read: the ordinary not-found message with a retry, never a
"version skew" story. Other failures show their reason with a retry.

The detail owns the website picker (``website_access``) and the Calendar
section (``calendar``); both load beside the point read once it is in.

Offline (``viewmodels.offline``): each detail read is kept in the view cache
with the binding its picker showed. When the server cannot be reached, an
open shows that copy (passed next firing "due (as of 10:42)", the picker
read-only with the reason); a schedule never read before says it was not
read while online (``NOT_READ``).

Every text is said in the language of the locale ``device_zone`` carries.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from datetime import date, datetime
from uuid import UUID
from zoneinfo import ZoneInfo

from transport.errors import ApiError, NotFound
from transport.models import ScheduleDetail
from viewmodels.calendar import CalendarViewModel
from viewmodels.detail.fields import detail_fields
from viewmodels.detail.snapshot import (
    NOT_FOUND_TEXT,
    NOT_READ_TEXT,
    DetailPhase,
    ScheduleDetailSnapshot,
)
from viewmodels.detail.website_access import WebsiteAccessViewModel
from viewmodels.failure_text import failure_text
from viewmodels.formatting.clock_text import locale_of
from viewmodels.language import words_for
from viewmodels.observable import Observable
from viewmodels.offline import CachedDetail, CachedWebsite, OfflineViewModel, unreachable
from viewmodels.paging import LatestRequest
from viewmodels.ports import Clock, ScheduleApi
from viewmodels.server_kind import ServerKind


def ending_day(detail: ScheduleDetail, zone: ZoneInfo) -> date | None:
    """The day an ended schedule's calendar opens on: its last firing's, else its ending's.

    An ended schedule fires no more, so the current month would show nothing;
    the month of its last firing shows what it did. None for a running one.
    """
    state = detail.known_state
    if state is None or not state.ended:
        return None
    last = detail.last_outcome
    instant = last.nominal_fire_at if last is not None else detail.updated_at
    return None if instant is None else instant.astimezone(zone).date()


ScheduleChanged = Callable[[ScheduleDetail], Awaitable[None] | None]


class ScheduleDetailViewModel(Observable[ScheduleDetailSnapshot]):
    """Shows one schedule's full record; owns its ``website_access`` picker and ``calendar``."""

    def __init__(
        self,
        api: ScheduleApi,
        *,
        clock: Clock,
        device_zone: ZoneInfo,
        on_schedule_changed: ScheduleChanged | None = None,
        offline: OfflineViewModel | None = None,
        server: ServerKind = ServerKind.PLATFORM,
    ) -> None:
        self._locale = locale_of(device_zone)
        self._words = words_for(self._locale)
        super().__init__(ScheduleDetailSnapshot(locale=self._locale))
        self._server = server
        self._api = api
        self._clock = clock
        self._zone = device_zone
        self._on_schedule_changed = on_schedule_changed
        self._offline = offline
        self._opens = LatestRequest()
        self._shown: ScheduleDetail | None = None
        self._copy: CachedDetail | None = None
        self.website_access = WebsiteAccessViewModel(
            api, on_detail=self._website_changed, locale=self._locale
        )
        self.calendar = CalendarViewModel(
            api, clock=clock, device_zone=device_zone, offline=offline
        )

    async def open(self, schedule_id: UUID) -> None:
        """Point-read ``schedule_id``; a slower earlier open never overwrites this one."""
        ticket = self._opens.begin()
        self._shown = None
        self._copy = None
        self.website_access.clear()
        self.calendar.clear()
        self._publish(
            ScheduleDetailSnapshot(
                schedule_id=schedule_id, phase=DetailPhase.LOADING, locale=self._locale
            )
        )
        try:
            detail = await self._api.get_schedule(schedule_id)
        except ApiError as error:
            if self._offline is not None and unreachable(error):
                await self._show_kept(schedule_id, ticket)
                return
            if self._opens.is_current(ticket):
                not_found = isinstance(error, NotFound)
                reason = (
                    self._words.gettext(NOT_FOUND_TEXT)
                    if not_found
                    else failure_text(error, words=self._words)
                )
                self._publish(
                    ScheduleDetailSnapshot(
                        schedule_id=schedule_id,
                        phase=DetailPhase.NOT_FOUND if not_found else DetailPhase.FAILED,
                        error=reason,
                        locale=self._locale,
                    )
                )
            return
        if self._opens.is_current(ticket):
            self._show(detail)
            await self._keep(detail)  # at once: the reads beside it may outlast the server
            await asyncio.gather(
                self.website_access.show(detail),
                self.calendar.show(detail.schedule_id, opening=ending_day(detail, self._zone)),
            )
            await self._keep(detail)

    async def retry(self) -> None:
        """Read the schedule shown again (after NOT_FOUND or FAILED, or to refresh)."""
        if self.snapshot.schedule_id is not None:
            await self.open(self.snapshot.schedule_id)

    @property
    def next_fire_at(self) -> datetime | None:
        """The open schedule's next firing as last read, if it has one."""
        return None if self._shown is None else self._shown.next_fire_at

    async def refresh_due(self) -> bool:
        """The open schedule is read again, quietly, once its next firing has passed.

        The worker moves a due schedule on (next firing, paused after repeated
        failures, a one-time schedule completed): the detail shows it without
        a loading state, and so does the calendar's month. Answers False when
        the server could not be read.
        """
        shown = self._shown
        if shown is None or shown.next_fire_at is None or shown.next_fire_at > self._clock():
            return True
        ticket = self._opens.begin()
        try:
            detail = await self._api.get_schedule(shown.schedule_id)
        except NotFound:
            return True  # the next open or retry says so; a quiet round does not
        except ApiError:
            return False
        if not self._opens.is_current(ticket):
            return True
        self._show(detail)
        if (detail.state, detail.current_revision) != (shown.state, shown.current_revision):
            await self.website_access.show(detail)
        # The passed firing moves from the calendar's firings to its past.
        return await self.calendar.refresh()

    def refresh_clock_texts(self) -> None:
        """The detail's instants are absolute dates and times; only its calendar marks today.

        On the device's copy, a next firing that passes comes to read "due (as of …)".
        """
        if self._copy is not None and self.snapshot.cached_at is not None:
            self._show_copy(self._copy)
        self.calendar.refresh_clock_texts()

    async def show_kept_copy(self) -> None:
        """The server stopped answering (a live round said so): the open schedule's kept copy.

        Without a read; nothing changes when no schedule is open, it already
        is the copy, or none was kept.
        """
        shown = self.snapshot
        if self._offline is None or shown.schedule_id is None or self.shows_copy:
            return
        if shown.phase is not DetailPhase.LOADED:
            return
        ticket = self._opens.begin()
        kept = await self._offline.cache.detail(shown.schedule_id)
        if kept is not None and self._opens.is_current(ticket):
            self._show_copy(kept)
            self._offline.showing_cached(kept.read_at)
            self.website_access.show_cached(kept.detail, kept.website)

    @property
    def shows_copy(self) -> bool:
        """The detail shown is the device's copy, or says it has none (offline)."""
        shown = self.snapshot
        return shown.cached_at is not None or shown.phase is DetailPhase.NOT_READ

    async def close(self) -> None:
        """Nothing selected; answers still in flight are dropped."""
        self._opens.drop()
        self._shown = None
        self._copy = None
        self.website_access.clear()
        self.calendar.clear()
        self._publish(ScheduleDetailSnapshot(locale=self._locale))

    def _show(self, detail: ScheduleDetail) -> None:
        self._shown = detail
        self._copy = None
        self._publish(
            ScheduleDetailSnapshot(
                schedule_id=detail.schedule_id,
                phase=DetailPhase.LOADED,
                fields=detail_fields(detail, self._zone, now=self._clock(), server=self._server),
                locale=self._locale,
            )
        )

    async def _show_kept(self, schedule_id: UUID, ticket: int) -> None:
        """The server is out of reach: the device's copy of the schedule, or why there is none."""
        assert self._offline is not None
        kept = await self._offline.cache.detail(schedule_id)
        if not self._opens.is_current(ticket):
            return
        if kept is None:
            self._publish(
                ScheduleDetailSnapshot(
                    schedule_id=schedule_id,
                    phase=DetailPhase.NOT_READ,
                    error=self._words.gettext(NOT_READ_TEXT),
                    locale=self._locale,
                )
            )
            return
        self._show_copy(kept)
        self._offline.showing_cached(kept.read_at)
        self.website_access.show_cached(kept.detail, kept.website)
        await self.calendar.show(schedule_id, opening=ending_day(kept.detail, self._zone))

    def _show_copy(self, kept: CachedDetail) -> None:
        # Not ``_shown``: live rounds never re-read a copy; recovery opens it again.
        self._shown = None
        self._copy = kept
        assert self._offline is not None
        shown = ScheduleDetailSnapshot(
            schedule_id=kept.detail.schedule_id,
            phase=DetailPhase.LOADED,
            fields=detail_fields(
                kept.detail,
                self._zone,
                passed=self._offline.due_text(kept.read_at),
                now=self._clock(),
                server=self._server,
            ),
            cached_at=kept.read_at,
            locale=self._locale,
        )
        if shown != self.snapshot:
            self._publish(shown)

    async def _keep(self, detail: ScheduleDetail) -> None:
        """The detail as read, with the binding its picker shows, into the view cache."""
        if self._offline is None:
            return
        picker = self.website_access.snapshot
        website = (
            CachedWebsite(
                picker.current.profile_id, picker.current.label, picker.current.state_text
            )
            if picker.schedule_id == detail.schedule_id
            else None
        )
        await self._offline.cache.keep_detail(detail, self._clock(), website)
        await self.calendar.keep_read()

    async def _website_changed(self, detail: ScheduleDetail) -> None:
        shown = self.snapshot.fields
        changed = shown is None or shown.revision != detail.current_revision
        if self.snapshot.schedule_id == detail.schedule_id:
            self._show(detail)
            await self._keep(detail)
        if changed and self._on_schedule_changed is not None:
            result = self._on_schedule_changed(detail)
            if inspect.isawaitable(result):
                await result
