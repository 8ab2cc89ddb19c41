"""The banner when firings are not happening: the server's scheduler is late or stopped.

Each live-update round (``viewmodels.live_updates``) calls ``check()``: one
read of ``GET /v1/scheduler``. ``stopped`` reads "Schedules are not firing:
the server's scheduler last ran at 10:42 (25 min ago).", ``late`` "Firings are
running late: the scheduler last ran 45 s ago."; on the embedded server (the
app's own, whose scheduler only stops when its task died) the banner also says
how to recover: restart the app. That scheduler starts with the app, so it is
first read at the first round, not as the window opens. ``running`` clears the
banner by itself. A server without the route (404/405) is not asked again and
shows nothing, as does a state this client does not know or an unreadable answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from transport.errors import ApiError
from transport.models import SCHEDULER_NOT_OFFERED, SchedulerState, SchedulerStatus
from viewmodels.formatting import age_text, duration_text, moment_text
from viewmodels.formatting.clock_text import words_of
from viewmodels.language import N_, Words
from viewmodels.observable import Observable
from viewmodels.paging import LatestRequest
from viewmodels.ports import Clock, ScheduleApi
from viewmodels.server_kind import ServerKind

RESTART_APP_TEXT = N_("Restart the app to start its scheduler again.")
"""The embedded server's way back: its scheduler runs inside the app."""


def stopped_text(last_tick_at: datetime | None, now: datetime, zone: ZoneInfo) -> str:
    words = words_of(zone)
    if last_tick_at is None:
        return words.gettext("Schedules are not firing: the server's scheduler has not run.")
    moment = moment_text(last_tick_at, now, zone, seconds=False)
    age = age_text(last_tick_at, now, zone)
    # Translators: {moment} is when the scheduler last ran ("10:42"), {age} how long ago.
    return words.gettext(
        "Schedules are not firing: the server's scheduler last ran at {moment} ({age})."
    ).format(moment=moment, age=age)


def late_text(last_tick_at: datetime | None, now: datetime, *, words: Words) -> str:
    if last_tick_at is None:
        return words.gettext("Firings are running late.")
    seconds = max(int((now - last_tick_at).total_seconds()), 1)
    # Translators: {duration} is how long ago, as a duration ("45 s").
    return words.gettext("Firings are running late: the scheduler last ran {duration} ago.").format(
        duration=duration_text(seconds, words=words)
    )


@dataclass(frozen=True, slots=True)
class SchedulerHealthSnapshot:
    banner_text: str | None = None
    """The banner's sentence; None when firings happen (or nothing is known)."""
    recovery_text: str | None = None
    """How to get firings back, when the app knows (the embedded server: restart the app)."""
    stopped: bool = False
    """Nothing fires at all (as opposed to late): the view shows it as an error."""


class SchedulerHealthViewModel(Observable[SchedulerHealthSnapshot]):
    """One per window: the last scheduler status read, as the banner says it."""

    def __init__(
        self,
        api: ScheduleApi,
        *,
        clock: Clock,
        device_zone: ZoneInfo,
        server: ServerKind = ServerKind.PLATFORM,
    ) -> None:
        super().__init__(SchedulerHealthSnapshot())
        self._api = api
        self._clock = clock
        self._zone = device_zone
        self._server = server
        self._checks = LatestRequest()
        self._status: SchedulerStatus | None = None
        self._offered = True

    @property
    def offered(self) -> bool:
        """False once the server answered that it has no ``/v1/scheduler``."""
        return self._offered

    async def first_look(self) -> None:
        """The window's first read, unless the server is the embedded one.

        The embedded server's scheduler starts with the app, so its first
        heartbeat may still be on its way when the window opens: it is first
        read at the first live round, never said to have "not run" meanwhile.
        """
        if self._server is not ServerKind.EMBEDDED:
            await self.check()

    async def check(self) -> None:
        """One read of the scheduler's state; the banner follows it."""
        if not self._offered:
            return
        ticket = self._checks.begin()
        try:
            answer = await self._api.scheduler_status()
        except ApiError:
            answer = None  # unreadable now: nothing is claimed either way
        if not self._checks.is_current(ticket):
            return
        if answer is SCHEDULER_NOT_OFFERED:
            self._offered = False
            answer = None
        self._status = answer
        self._show()

    def forget(self) -> None:
        """The server cannot be reached: what it said of its scheduler no longer holds."""
        self._checks.begin()
        self._status = None
        self._show()

    def refresh_clock_texts(self) -> None:
        """ "25 min ago" becomes "26 min ago": measured again, published only on change."""
        self._show()

    def _show(self) -> None:
        shown = self._snapshot_of(self._status, self._clock())
        if shown != self.snapshot:
            self._publish(shown)

    def _snapshot_of(
        self, status: SchedulerStatus | None, now: datetime
    ) -> SchedulerHealthSnapshot:
        state = None if status is None else status.known_state
        if status is None or state is None or state is SchedulerState.RUNNING:
            return SchedulerHealthSnapshot()
        words = words_of(self._zone)
        embedded = self._server is ServerKind.EMBEDDED
        recovery = words.gettext(RESTART_APP_TEXT) if embedded else None
        if state is SchedulerState.LATE:
            late = late_text(status.last_tick_at, now, words=words)
            return SchedulerHealthSnapshot(late, recovery)
        return SchedulerHealthSnapshot(
            stopped_text(status.last_tick_at, now, self._zone), recovery, stopped=True
        )
