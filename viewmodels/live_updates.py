"""Keeping the open screens current while schedules fire, without anyone pressing Refresh.

One round (``check``) catches the sidebar up, reads again the rows and the
detail whose next firing has passed, the open agenda's page one, the Needs
attention count and its notices, and the scheduler's state (its banner), then
moves on the texts that read the clock. ``run`` repeats rounds, never two at
once: on a poll, sooner for a shown next firing, at once on the embedded
server's change signal, never in the background, backing off while the server
cannot be read. A round that cannot read the server turns the screens to the
view cache's copy; offline, page one is read again every ``OFFLINE_RECHECK``
until the server answers. The client computes no firing.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from viewmodels.agenda import AgendaViewModel
from viewmodels.attention import AttentionNotices
from viewmodels.detail import ScheduleDetailViewModel
from viewmodels.offline import OfflineViewModel
from viewmodels.ports import Clock, ServerActivity
from viewmodels.schedule_list import ScheduleListViewModel
from viewmodels.scheduler_health import SchedulerHealthViewModel
from viewmodels.sidebar import SidebarViewModel

POLL_EVERY = timedelta(seconds=30)
OFFLINE_RECHECK = timedelta(seconds=10)
"""Offline, how often page one is tried again (``poll_every`` when that is sooner)."""
LONGEST_WAIT = timedelta(minutes=5)
AFTER_DUE = timedelta(seconds=1)
"""A passed next firing is read this long after its instant, leaving the worker time to act."""

Wait = Callable[[asyncio.Event, float], Awaitable[None]]
"""Waits until the event is set or the seconds have passed, whichever comes first."""


async def wait_for_event(event: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(event.wait(), timeout=seconds)


class LiveUpdates:
    """Drives the rounds for one window's sidebar, list and detail."""

    def __init__(
        self,
        *,
        schedules: ScheduleListViewModel,
        detail: ScheduleDetailViewModel,
        sidebar: SidebarViewModel,
        clock: Clock,
        activity: ServerActivity | None = None,
        notices: AttentionNotices | None = None,
        poll_every: timedelta = POLL_EVERY,
        longest_wait: timedelta = LONGEST_WAIT,
        offline: OfflineViewModel | None = None,
        agenda: AgendaViewModel | None = None,
        scheduler: SchedulerHealthViewModel | None = None,
    ) -> None:
        self._offline = offline
        self._agenda = agenda
        self._scheduler = scheduler
        if offline is not None:
            offline.set_retry(self.wake)
        self._schedules = schedules
        self._detail = detail
        self._sidebar = sidebar
        self._clock = clock
        self._activity = activity
        self._notices = notices
        self._poll_every = poll_every
        self._longest_wait = longest_wait
        self._failures = 0
        self._wake = asyncio.Event()
        self._foreground = asyncio.Event()
        self._foreground.set()

    @property
    def failures(self) -> int:
        """Rounds in a row that could not read the server (0 after a good round)."""
        return self._failures

    async def check(self) -> None:
        """One round: new sessions into the sidebar, passed next firings read again."""
        if self._offline is not None and self._offline.snapshot.offline:
            await self._come_back()
            self._refresh_clock_texts()
            return
        reached = await self._sidebar.catch_up()
        reached = await self._schedules.refresh_due() and reached
        reached = await self._detail.refresh_due() and reached
        if self._agenda is not None:
            reached = await self._agenda.refresh() and reached
        reached = await self._schedules.refresh_counts() and reached
        if self._notices is not None:
            announced = self._notices.snapshot.announced
            reached = await self._notices.check() and reached
            if self._notices.snapshot.announced != announced and (
                self._schedules.snapshot.attention_only
            ):
                await self._schedules.select_attention(True)  # the list shown gains it
        if self._scheduler is not None:
            await self._scheduler.check()  # its failure is no reason to show the kept copy
        self._failures = 0 if reached else self._failures + 1
        if not reached and self._offline is not None:
            # The server went away under open screens: they show the kept copy, and say so.
            await self._schedules.show_kept_copy()
            await self._detail.show_kept_copy()
        self._refresh_clock_texts()

    async def _come_back(self) -> None:
        """Offline: page one again; once it is the server's, the detail and sidebar follow."""
        assert self._offline is not None
        await self._schedules.reload()
        if self._offline.snapshot.offline:
            self._offline.still_unreachable()
            return
        self._failures = 0
        if self._detail.shows_copy:
            await self._detail.retry()
        if self._agenda is not None and self._agenda.opened:
            await self._agenda.reload()
        await self._sidebar.refresh()

    def _refresh_clock_texts(self) -> None:
        self._sidebar.refresh_clock_texts()
        self._schedules.refresh_clock_texts()
        self._detail.refresh_clock_texts()
        if self._offline is not None:
            self._offline.refresh_clock_texts()
        if self._scheduler is not None:
            if self._offline is not None and self._offline.snapshot.offline:
                self._scheduler.forget()  # nothing is known of a server out of reach
            self._scheduler.refresh_clock_texts()

    def delay(self) -> timedelta:
        """How long until the next round."""
        if self._offline is not None and self._offline.snapshot.offline:
            return min(OFFLINE_RECHECK, self._poll_every)
        if self._failures:
            backoff: timedelta = self._poll_every * 2 ** min(self._failures, 16)
            return min(backoff, self._longest_wait)
        upcoming = self._next_due()
        if upcoming is None:
            return self._poll_every
        return min(self._poll_every, upcoming + AFTER_DUE - self._clock())

    def wake(self) -> None:
        """Something changed on the server: a round now (or after the one running)."""
        self._wake.set()

    def set_foreground(self, foreground: bool) -> None:
        """The app came to the foreground (rounds resume at once) or left it (they stop)."""
        if foreground:
            self._foreground.set()
            self._wake.set()
        else:
            self._foreground.clear()

    async def run(self, wait: Wait = wait_for_event) -> None:
        """Rounds until cancelled; never two at once."""
        unsubscribe = self._activity.subscribe(self.wake) if self._activity else None
        try:
            if self._notices is not None:
                # What needs attention when the window opens: learnt (first run) or announced.
                await self._notices.check()
            if self._scheduler is not None:
                await self._scheduler.first_look()
            while True:
                await wait(self._wake, self.delay().total_seconds())
                await self._foreground.wait()
                self._wake.clear()
                await self.check()
        finally:
            if unsubscribe is not None:
                unsubscribe()

    def _next_due(self) -> datetime | None:
        """The earliest shown next firing still to come (passed ones wait for the poll)."""
        now = self._clock()
        instants = [row.next_fire_at for row in self._schedules.snapshot.rows if row.next_fire_at]
        if self._detail.next_fire_at is not None:
            instants.append(self._detail.next_fire_at)
        return min((instant for instant in instants if instant > now), default=None)
