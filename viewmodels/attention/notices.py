"""A notice when something newly needs attention while the app is open.

Each live-update round (``viewmodels.live_updates``) calls ``check()``: one
read of page one of ``GET /v1/schedules?needs_attention=true``. Every
outcome there is named by a key (the schedule, the latest firing's instant
and disposition; an overdue firing by its due instant, so each time a
schedule newly falls overdue is said once; a failure-limit pause without an
outcome by the schedule alone). A key not in the announced set is new: the snapshot carries a notice
for it (the newest one named, the count of the others), ``on_announce`` is
told (the desktop window sends the OS notification from it), and the key
joins the set, kept in device storage so a restart does not say it again.

The very first check on a device (nothing stored yet) only learns what
already needs attention and announces nothing: those were not discovered
while the app was open, and the list's Needs attention chip shows them.

A notice holds the schedule's title and the outcome in the app's own words
(``outcome_words``), never the instruction. A window's first look is logged at info.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from uuid import UUID
from zoneinfo import ZoneInfo

from babel import Locale

from transport.errors import ApiError
from transport.models import PauseReason, ScheduleState, ScheduleSummary
from viewmodels.attention.outcome_words import attention_line
from viewmodels.attention.overdue_words import overdue_text
from viewmodels.formatting.clock_text import locale_of
from viewmodels.language import DEFAULT_LOCALE, N_, Words, words_for
from viewmodels.observable import Observable
from viewmodels.paging import LatestRequest
from viewmodels.ports import Clock, DeviceStorage, JsonValue, ScheduleApi

_log = logging.getLogger(__name__)

ANNOUNCED_KEY = "attention.announced"
"""Device-storage key of the announced outcome keys (a JSON list, newest first)."""
REMEMBERED = 500
"""At most this many announced keys are kept; older ones cannot reappear on page one."""
PAGE = 50
PAUSED_TEXT = N_("Paused after repeated failures")
OPEN_LABEL = N_("Open")
"""The notice's button that shows what it names (``AttentionNotice.opens_list``)."""
DISMISS_LABEL = N_("Dismiss")


@dataclass(frozen=True, slots=True)
class AttentionNotice:
    """One notice: the newest outcome that newly needs attention, and how many others did."""

    schedule_id: UUID
    title: str
    """The schedule's title (the person's own name for it)."""
    outcome_text: str
    """What went wrong, in the app's words ("Run failed: it ran past its deadline")."""
    others: int = 0
    """How many more outcomes newly needed attention in the same round."""
    locale: Locale = DEFAULT_LOCALE
    """The person's locale: the banner's sentence is in its language."""

    @property
    def words(self) -> Words:
        return words_for(self.locale)

    @property
    def text(self) -> str:
        """The banner's sentence."""
        words = self.words
        # Translators: {title} is the schedule's own name, {why} what went wrong.
        head = words.gettext("“{title}” needs attention: {why}").format(
            title=self.title, why=self.outcome_text
        )
        if self.others < 1:
            return head
        # Translators: {notice} is the sentence about one schedule; {count} how many more.
        return words.ngettext(
            "{notice} (and {count} other schedule)",
            "{notice} (and {count} other schedules)",
            self.others,
        ).format(notice=head, count=self.others)

    @property
    def opens_list(self) -> bool:
        """Open shows the Needs attention list (several) rather than the one schedule."""
        return self.others > 0


@dataclass(frozen=True, slots=True)
class NoticeSnapshot:
    notice: AttentionNotice | None = None
    """The notice shown now; None when there is none or it was dismissed."""
    announced: int = 0
    """How many notices this window has announced (a test's and a banner's counter)."""


Announce = Callable[[AttentionNotice], Awaitable[None] | None]


def outcome_key(summary: ScheduleSummary) -> str | None:
    """The announced-set key of what makes ``summary`` need attention; None when nothing does."""
    if summary.overdue_since is not None:
        return f"{summary.schedule_id}@{summary.overdue_since.isoformat()}/overdue"
    outcome = summary.last_outcome
    if outcome is not None and outcome.needs_attention is True:
        return f"{summary.schedule_id}@{outcome.nominal_fire_at.isoformat()}/{outcome.disposition}"
    if (
        summary.known_state is ScheduleState.PAUSED
        and summary.known_pause_reason is PauseReason.FAILURE_LIMIT
    ):
        return f"{summary.schedule_id}@paused"
    return None


class AttentionNotices(Observable[NoticeSnapshot]):
    """The announced set, the notice shown, and the hook for OS notifications."""

    def __init__(
        self,
        api: ScheduleApi,
        storage: DeviceStorage,
        *,
        clock: Clock,
        device_zone: ZoneInfo,
        on_announce: Announce | None = None,
    ) -> None:
        super().__init__(NoticeSnapshot())
        self._api = api
        self._storage = storage
        self._clock = clock
        self._zone = device_zone
        self._on_announce = on_announce
        self._checks = LatestRequest()
        self._announced: list[str] | None = None
        """Loaded from storage on the first check; None until then."""
        self._looked = False

    async def check(self) -> bool:
        """One look at what needs attention; announces what is new. False when unreadable."""
        ticket = self._checks.begin()
        try:
            page = await self._api.list_schedules(needs_attention=True, limit=PAGE)
        except ApiError:
            return False
        baseline = False
        if self._announced is None:
            stored = await self._storage.get(ANNOUNCED_KEY)
            baseline = not isinstance(stored, list)
            if self._announced is None:
                self._announced = (
                    []
                    if not isinstance(stored, list)
                    else [k for k in stored if isinstance(k, str)]
                )
        if not self._checks.is_current(ticket):
            return True
        known = set(self._announced)
        fresh = [
            (key, summary)
            for summary in page.items
            if (key := outcome_key(summary)) is not None and key not in known
        ]
        if fresh or baseline:
            self._announced = ([key for key, _ in fresh] + self._announced)[:REMEMBERED]
            await self._storage.set(ANNOUNCED_KEY, list[JsonValue](self._announced))
        announced = len(fresh) if fresh and not baseline else 0
        if announced:
            await self._announce(fresh[0][1], others=announced - 1)
        if not self._looked:
            self._looked = True
            _log.info("first look at what needs attention: %d announced", announced)
        return True

    def dismiss(self) -> None:
        """The notice was closed (or opened): it goes away until something new comes."""
        if self.snapshot.notice is not None:
            self._publish(NoticeSnapshot(None, self.snapshot.announced))

    async def _announce(self, summary: ScheduleSummary, *, others: int) -> None:
        now = self._clock()
        locale = locale_of(self._zone)
        words = words_for(locale)
        text = (
            overdue_text(summary.overdue_since, now, self._zone)
            if summary.overdue_since is not None
            else attention_line(summary.last_outcome, now, self._zone) or words.gettext(PAUSED_TEXT)
        )
        notice = AttentionNotice(summary.schedule_id, summary.title, text, others, locale)
        self._publish(NoticeSnapshot(notice, self.snapshot.announced + 1))
        if self._on_announce is not None:
            result = self._on_announce(notice)
            if inspect.isawaitable(result):
                await result
