"""Add to calendar: a schedule's firings (or all of them) in the person's calendar app.

On a remote server it makes a feed (``POST /v1/feeds``) and shows its
private address with Copy, and the ``webcal://`` form to open where the
platform hands links to apps (the desktop). On the embedded server, which no
calendar provider can reach, it makes the feed, reads its calendar over the
same client, revokes it (nothing is left that nobody could subscribe to) and
hands the bytes to the ``CalendarFileSaver``; the sentence then says the file
is a snapshot. One instance serves one place (the detail, or the Agenda);
a newer request wins over one still in flight.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import dataclass, replace
from enum import StrEnum
from uuid import UUID

from babel import Locale

from transport.errors import ApiError
from transport.models import FEEDS_NOT_OFFERED
from viewmodels.failure_text import failure_text
from viewmodels.feeds.offer import FeedOffer
from viewmodels.feeds.ports import CalendarFileSaver, FeedApi, SaveOutcome
from viewmodels.feeds.words import (
    ADD_TO_CALENDAR_LABEL,
    ADDRESS_NAME,
    ALL_SCHEDULES_FILE,
    DOWNLOADED_TEXT,
    FEED_FAILED_TITLE,
    FEEDS_ENTRY_LABEL,
    FILE_FAILED_TITLE,
    HIDE_FEEDS_LABEL,
    MAKING_FEED_TEXT,
    MAKING_FILE_TEXT,
    NOT_SAVED_TEXT,
    SAVE_ALL_LABEL,
    SAVE_DIALOG_TITLE,
    SAVED_TEXT,
    SUBSCRIBE_ALL_LABEL,
    SUBSCRIBE_HERE_TEXT,
    SUBSCRIBE_TEXT,
    UNWRITABLE_TEXT,
    calendar_file_name,
    webcal_address,
)
from viewmodels.language import DEFAULT_LOCALE, Words, words_for
from viewmodels.observable import Observable
from viewmodels.paging import LatestRequest
from viewmodels.server_kind import ServerKind


class CalendarPhase(StrEnum):
    IDLE = "idle"
    """Nothing asked; only the button shows (when feeds are offered)."""
    WORKING = "working"
    ADDRESS = "address"
    """A feed was made: its address, Copy, and Open where the platform can."""
    FILE = "file"
    """A file was handed over (or the dialog cancelled): one sentence says which."""
    FAILED = "failed"


ALL = "all"
"""The target of "Subscribe to all schedules" (a schedule's target is its id)."""
Target = UUID | str


@dataclass(frozen=True, slots=True)
class AddToCalendarSnapshot:
    offered: bool = False
    """Whether to show the buttons at all (False until the server is known to offer feeds)."""
    add_label: str = ADD_TO_CALENDAR_LABEL
    all_label: str = SUBSCRIBE_ALL_LABEL
    feeds_entry_label: str | None = FEEDS_ENTRY_LABEL
    """The button that shows or hides the feeds list ("Calendar feeds…", "Hide calendar
    feeds"); None where no feed is kept (the embedded server)."""
    feeds_shown: bool = False
    phase: CalendarPhase = CalendarPhase.IDLE
    target: Target | None = None
    """What the panel is about: a schedule's id, ``ALL``, or None while idle."""
    working_text: str = ""
    address: str | None = None
    address_name: str = ""
    """The address as a screen reader says it (“Calendar feed address: …”)."""
    open_address: str | None = None
    """The ``webcal://`` address to open, or None where it is not offered."""
    text: str = ""
    """The panel's sentence: how to subscribe, what was saved, or why it failed."""
    error_title: str | None = None

    def shows(self, target: Target) -> bool:
        """Whether the panel of ``target`` (a schedule's id, or ``ALL``) is open."""
        return self.phase is not CalendarPhase.IDLE and self.target == target


class AddToCalendarViewModel(Observable[AddToCalendarSnapshot]):
    """Makes a feed or a calendar file on request; ``close()`` folds the panel away."""

    def __init__(
        self,
        api: FeedApi,
        offer: FeedOffer,
        *,
        server: ServerKind,
        saver: CalendarFileSaver | None = None,
        opens_links: bool = False,
        on_feed_made: Callable[[], Awaitable[None]] | None = None,
        locale: Locale = DEFAULT_LOCALE,
    ) -> None:
        """``saver`` hands a file to the person (None: no file is offered, so on the
        embedded server no button shows); ``opens_links``: the platform opens a
        ``webcal://`` address in the calendar app (the desktop, not a browser tab);
        ``on_feed_made`` is awaited after a feed is kept (the feeds list reads again);
        ``locale`` picks the language of every sentence."""
        self._words: Words = words_for(locale)
        self._api = api
        self._offer = offer
        self._embedded = server is ServerKind.EMBEDDED
        self._saver = saver
        self._opens_links = opens_links
        self._on_feed_made = on_feed_made
        self._requests = LatestRequest()
        super().__init__(self._offered(AddToCalendarSnapshot(), offer.snapshot))
        offer.subscribe(lambda offered: self._publish(self._offered(self.snapshot, offered)))

    def _offered(
        self, snapshot: AddToCalendarSnapshot, offered: bool | None
    ) -> AddToCalendarSnapshot:
        usable = bool(offered) and (not self._embedded or self._saver is not None)
        shown = snapshot.feeds_shown and usable and not self._embedded
        entry = HIDE_FEEDS_LABEL if shown else FEEDS_ENTRY_LABEL
        word = self._words.gettext
        return replace(
            snapshot,
            offered=usable,
            add_label=word(ADD_TO_CALENDAR_LABEL),
            all_label=word(SAVE_ALL_LABEL if self._embedded else SUBSCRIBE_ALL_LABEL),
            feeds_entry_label=None if self._embedded else word(entry),
            feeds_shown=shown,
        )

    def toggle_feeds(self) -> None:
        """ "Calendar feeds…" shows the feeds list; "Hide calendar feeds" folds it."""
        flipped = replace(self.snapshot, feeds_shown=not self.snapshot.feeds_shown)
        self._publish(self._offered(flipped, self._offer.snapshot))

    async def learn(self) -> None:
        """Find out once whether the server offers feeds (the buttons show when it does)."""
        await self._offer.learn()

    async def add_schedule(self, schedule_id: UUID, title: str | None) -> None:
        """ "Add to calendar" on a schedule's detail; ``title`` names the saved file."""
        await self._add(schedule_id, calendar_file_name(title, words=self._words))

    async def add_all(self) -> None:
        """ "Subscribe to all schedules" (or, on the embedded server, save them all)."""
        every = self._words.gettext(ALL_SCHEDULES_FILE)
        await self._add(ALL, calendar_file_name(every, words=self._words))

    def close(self) -> None:
        self._requests.drop()
        self._publish(self._idle())

    def _idle(self) -> AddToCalendarSnapshot:
        """No panel; whether the feeds list shows stays as it was."""
        kept = AddToCalendarSnapshot(feeds_shown=self.snapshot.feeds_shown)
        return self._offered(kept, self._offer.snapshot)

    async def _add(self, target: Target, file_name: str) -> None:
        if not self.snapshot.offered:
            return
        ticket = self._requests.begin()
        working = MAKING_FILE_TEXT if self._embedded else MAKING_FEED_TEXT
        self._publish(
            replace(
                self._idle(),
                phase=CalendarPhase.WORKING,
                target=target,
                working_text=self._words.gettext(working),
            )
        )
        schedule_id = target if isinstance(target, UUID) else None
        try:
            if self._embedded:
                shown = await self._save_file(schedule_id, file_name, ticket)
            else:
                shown = await self._make_feed(schedule_id)
        except ApiError as error:
            shown = replace(
                self.snapshot,
                phase=CalendarPhase.FAILED,
                text=failure_text(error, words=self._words),
                error_title=self._words.gettext(
                    FILE_FAILED_TITLE if self._embedded else FEED_FAILED_TITLE
                ),
            )
        if not self._requests.is_current(ticket):
            return
        if shown is None:
            self._offer.withdrawn()
            self.close()
            return
        self._publish(shown)

    async def _make_feed(self, schedule_id: UUID | None) -> AddToCalendarSnapshot | None:
        created = await self._api.create_feed(schedule_id)
        if created is FEEDS_NOT_OFFERED:
            return None
        if self._on_feed_made is not None:
            await self._on_feed_made()
        open_address = webcal_address(created.url) if self._opens_links else None
        return replace(
            self.snapshot,
            phase=CalendarPhase.ADDRESS,
            address=created.url,
            address_name=self._words.gettext(ADDRESS_NAME).format(address=created.url),
            open_address=open_address,
            text=self._words.gettext(
                SUBSCRIBE_HERE_TEXT if open_address is not None else SUBSCRIBE_TEXT
            ),
        )

    async def _save_file(
        self, schedule_id: UUID | None, file_name: str, ticket: int
    ) -> AddToCalendarSnapshot | None:
        saver = self._saver
        assert saver is not None  # offered only with a saver
        created = await self._api.create_feed(schedule_id)
        if created is FEEDS_NOT_OFFERED:
            return None
        try:
            content = await self._api.feed_calendar(created.url)
        finally:
            # Left behind, it would be an address no calendar provider can reach.
            with suppress(ApiError):
                await self._api.revoke_feed(created.feed_id)
        if not self._requests.is_current(ticket):
            return self.snapshot
        title = self._words.gettext(SAVE_DIALOG_TITLE)
        outcome = await saver.save(file_name, content, title=title)
        said = {
            SaveOutcome.SAVED: SAVED_TEXT,
            SaveOutcome.DOWNLOADED: DOWNLOADED_TEXT,
            SaveOutcome.CANCELLED: NOT_SAVED_TEXT,
            SaveOutcome.UNWRITABLE: UNWRITABLE_TEXT,
        }[outcome]
        text = self._words.gettext(said).format(file_name=file_name)
        return replace(self.snapshot, phase=CalendarPhase.FILE, text=text)
