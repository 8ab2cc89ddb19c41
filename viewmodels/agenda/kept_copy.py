"""The agenda's kept copy: page one of each span, kept in the device's view cache for offline.

As the list keeps its plain sections, only the plain agenda is kept (no
search, no Needs attention filter), and a search or filter is never answered
from it. Its rows say what was known when it was read: a firing still to
come then that has passed since reads "Due (as of 07:00)" with the mark it
had, never an outcome guessed. ``NoViewCache`` (the embedded server) keeps
nothing, so there the agenda has no copy to show.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from zoneinfo import ZoneInfo

from transport.models import AgendaItem
from viewmodels.agenda.rows import agenda_row
from viewmodels.agenda.snapshot import AgendaRow
from viewmodels.agenda.window import AgendaSpan
from viewmodels.formatting import moment_text
from viewmodels.formatting.clock_text import words_of
from viewmodels.language import N_
from viewmodels.offline import CachedAgenda, OfflineViewModel, unreachable
from viewmodels.paging import CursorFeed, FeedPhase, FeedState, only_page

DUE_AS_OF_TEXT = N_("Due (as of {time})")
"""A firing that has passed since the copy was read: what became of it is not known."""


class AgendaCopy:
    """The agenda's spans in one window's view cache (none without ``offline``), and
    whether the rows shown are that copy."""

    def __init__(self, offline: OfflineViewModel | None) -> None:
        self._offline = offline
        self.read_at: datetime | None = None
        """The rows are the copy read at this instant; None: the server's."""
        self.awaited_by: int | None = None
        """The reload whose unreachable failure waits for the copy (not shown meanwhile)."""
        self._painting = False

    async def read(self, span: AgendaSpan) -> CachedAgenda | None:
        if self._offline is None:
            return None
        return await self._offline.cache.agenda(span.value)

    async def answered(
        self, span: AgendaSpan, page_one: Sequence[AgendaItem], read_at: datetime, *, keep: bool
    ) -> None:
        """The server answered page one: the banner goes and, with ``keep``, it is kept."""
        if self._offline is not None:
            self._offline.reached()
            if keep:
                await self._offline.cache.keep_agenda(span.value, page_one, read_at)

    def row(self, item: AgendaItem, now: datetime, zone: ZoneInfo) -> AgendaRow:
        """The row of ``item``: the server's now, or as of the copy's read time."""
        if self.read_at is None:
            return agenda_row(item, now, zone)
        return kept_row(item, self.read_at, now, zone)

    async def paint(self, feed: CursorFeed[AgendaItem, AgendaRow], kept: CachedAgenda) -> None:
        """The copy as ``feed``'s rows, at once."""
        self.read_at = kept.read_at
        self._painting = True
        try:
            await feed.reload(only_page(kept.items))
        finally:
            self._painting = False

    async def show_offline(
        self, feed: CursorFeed[AgendaItem, AgendaRow], kept: CachedAgenda
    ) -> None:
        """The server cannot be reached: the copy as the rows, under the banner."""
        await self.paint(feed, kept)
        if self._offline is not None:
            self._offline.showing_cached(kept.read_at)

    def hides(self, feed: FeedState[AgendaRow], reload: int) -> bool:
        """Whether ``feed`` is not to be shown: an unreachable failure of ``reload`` the copy
        may replace, or the empty "loading" before the copy's rows."""
        if self.awaited_by == reload and unreachable(feed.first_page_failure):
            return True
        return self._painting and feed.phase is FeedPhase.LOADING_FIRST_PAGE


def kept_row(item: AgendaItem, read_at: datetime, now: datetime, zone: ZoneInfo) -> AgendaRow:
    """The row of ``item`` from a copy read at ``read_at``: no outcome after that instant."""
    row = agenda_row(item, now, zone)
    if not read_at <= item.at < now:
        return row
    as_read = agenda_row(item, read_at, zone)
    due = words_of(zone).gettext(DUE_AS_OF_TEXT)
    return replace(
        row,
        mark=as_read.mark,
        outcome_text=due.format(time=moment_text(read_at, now, zone, seconds=False)),
    )
