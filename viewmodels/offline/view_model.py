"""Whether the screens show the server's answers or the device's copy, and the banner saying so.

A screen whose read fails because the server cannot be reached
(``unreachable``) shows what the view cache holds and calls ``showing_cached``
with the instant that copy was read; any screen whose read succeeds calls
``reached`` and the banner goes. The banner is one sentence in words,
"Can't reach the schedule server. Showing what was read at 10:42 (3 h ago).",
with Retry beside it; its relative age reads the clock, so
``refresh_clock_texts`` (each live round) measures it again.

While offline, passed next firings are never guessed: they read
"due (as of 10:42)" (``due_text``) until the server has been read again. The
client still computes no firing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from transport.errors import ApiError, ConnectionFailed, ServerError
from viewmodels.formatting import age_text, moment_text
from viewmodels.formatting.clock_text import words_of
from viewmodels.observable import Observable
from viewmodels.offline.view_cache import ViewCache
from viewmodels.ports import Clock

UNREACHABLE_STATUSES = frozenset({502, 503, 504})
"""A proxy or load balancer answering for a server that is down."""


def unreachable(error: ApiError | None) -> bool:
    """The server could not be reached (as opposed to reached and refusing)."""
    if isinstance(error, ConnectionFailed):
        return True
    return isinstance(error, ServerError) and error.status in UNREACHABLE_STATUSES


def banner_text(read_at: datetime, now: datetime, zone: ZoneInfo) -> str:
    """The offline banner's sentence (Retry is its button)."""
    moment = moment_text(read_at, now, zone, seconds=False)
    words = words_of(zone)
    # Translators: {moment} is when the copy shown was read ("10:42"), {age} how long ago.
    return words.gettext(
        "Can't reach the schedule server. Showing what was read at {moment} ({age})."
    ).format(moment=moment, age=age_text(read_at, now, zone))


def due_text(read_at: datetime, now: datetime, zone: ZoneInfo) -> str:
    """A next firing that has passed, shown from the cache: never a guessed next one."""
    moment = moment_text(read_at, now, zone, seconds=False)
    # Translators: a next firing that has passed while offline; {moment} is when it was read.
    return words_of(zone).gettext("due (as of {moment})").format(moment=moment)


@dataclass(frozen=True, slots=True)
class OfflineSnapshot:
    offline: bool = False
    """The screens show the device's copy: the server could not be reached."""
    read_at: datetime | None = None
    """When the copy shown was read from the server."""
    banner_text: str | None = None
    """The sentence to show while offline; None online."""
    retrying: bool = False
    """Retry was pressed and the server is being tried again."""


class OfflineViewModel(Observable[OfflineSnapshot]):
    """One per window: the view cache, and whether the screens are showing it."""

    def __init__(self, cache: ViewCache, *, clock: Clock, device_zone: ZoneInfo) -> None:
        super().__init__(OfflineSnapshot())
        self.cache = cache
        self._clock = clock
        self._zone = device_zone
        self._on_retry: Callable[[], None] | None = None
        self._on_reached: Callable[[], None] | None = None

    def set_retry(self, on_retry: Callable[[], None]) -> None:
        """What Retry does (the app wires it to a live-update round now)."""
        self._on_retry = on_retry

    def set_on_reached(self, on_reached: Callable[[], None]) -> None:
        """Told each time the server answers a read (a hosted session opened offline
        then checks its remembered sign-in with the server)."""
        self._on_reached = on_reached

    def now(self) -> datetime:
        return self._clock()

    @property
    def zone(self) -> ZoneInfo:
        return self._zone

    def showing_cached(self, read_at: datetime) -> None:
        """A screen shows the cache's copy read at ``read_at``; the first one names the banner."""
        shown = self.snapshot
        stamp = shown.read_at if shown.offline and shown.read_at is not None else read_at
        self._publish(
            OfflineSnapshot(
                offline=True,
                read_at=stamp,
                banner_text=banner_text(stamp, self._clock(), self._zone),
            )
        )

    def reached(self) -> None:
        """A read succeeded: the server's answers are shown again, the banner goes."""
        if self.snapshot != OfflineSnapshot():
            self._publish(OfflineSnapshot())
        if self._on_reached is not None:
            self._on_reached()

    def still_unreachable(self) -> None:
        """A retry found the server still away: the banner stays, no longer retrying."""
        shown = self.snapshot
        if shown.retrying:
            self._publish(
                OfflineSnapshot(shown.offline, shown.read_at, shown.banner_text, retrying=False)
            )

    def retry(self) -> None:
        """The banner's Retry: the next round starts now."""
        shown = self.snapshot
        if not shown.offline or self._on_retry is None:
            return
        self._publish(OfflineSnapshot(True, shown.read_at, shown.banner_text, retrying=True))
        self._on_retry()

    def due_text(self, read_at: datetime) -> str:
        return due_text(read_at, self._clock(), self._zone)

    def refresh_clock_texts(self) -> None:
        """ "3 h ago" becomes "4 h ago": the banner measured again; published only on change."""
        shown = self.snapshot
        if not shown.offline or shown.read_at is None:
            return
        text = banner_text(shown.read_at, self._clock(), self._zone)
        if text != shown.banner_text:
            self._publish(OfflineSnapshot(True, shown.read_at, text, shown.retrying))
