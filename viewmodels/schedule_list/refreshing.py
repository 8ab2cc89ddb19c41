"""Keeping the rows shown current without a reload: passed firings and a new day.

A row whose next firing passed is read again in place (soonest first, page
one is read again, since the row moves); past midnight the rows are made
again, since their words read the clock. Quietly: a failure keeps the rows.
"""

from __future__ import annotations

from transport.errors import ApiError, NotFound
from transport.models import ListOrder, Page, ScheduleSummary
from viewmodels.schedule_list.loading import ListLoading
from viewmodels.schedule_list.rows import summary_of

DUE_REREADS = 20
"""At most this many rows are read again per ``refresh_due`` (the rest on the next round)."""


class ListRefreshing(ListLoading):
    """The list's rows, kept current as firings pass and days turn."""

    async def refresh_due(self) -> bool:
        """Rows whose next firing has passed are read again and shown in place.

        Quietly: no progress, no error; the reader's place, the other rows and
        the selection stay. A row the server has not moved on yet reads "due
        now" until a later round finds it moved; a row the server no longer
        has stays until the next reload. Soonest first, the rows' order moved
        with them: page one is read again instead. Answers False when the
        server could not be read (the round stops at the first such failure).
        """
        if self._cached_at is not None:
            return False  # the rows are the cache's: a reload brings the server back, not this
        if self.snapshot.applied_order is ListOrder.NEXT_FIRE and self.snapshot.due_rows(
            self._clock()
        ):
            # Soonest first, a passed firing moves its row down: page one is read again.
            return await self._reread_in_order()
        due = [
            row
            for row in self.snapshot.due_rows(self._clock())
            if row.schedule_id not in self._gone
        ]
        for row in due[:DUE_REREADS]:
            try:
                detail = await self._api.get_schedule(row.schedule_id)
            except NotFound:
                self._gone.add(row.schedule_id)
                continue
            except ApiError:
                return False
            self._feed.replace(summary_of(detail, row.preview))
        return True

    def refresh_clock_texts(self) -> None:
        """Past midnight, "tomorrow at 09:00" has become "today at 09:00": rows made again."""
        today = self._today()
        if today != self._texts_date or self._cached_at is not None:
            # Offline, a next firing that passes meanwhile comes to read "due (as of …)".
            self._texts_date = today
            self._feed.remake_rows()

    async def _reread_in_order(self) -> bool:
        """Page one again, as a newer reload, the rows kept when it fails (a quiet round)."""
        self._reloads += 1
        reload = self._reloads
        read = self._reader(self.snapshot)
        try:
            page = await read(None)
            await self._sign_ins.read(page.items, reload)
        except ApiError:
            return False
        if reload != self._reloads:
            return True  # a newer reload (a search, a section) answers instead

        async def fetch(cursor: str | None) -> Page[ScheduleSummary]:
            if cursor is None:
                return page
            later = await read(cursor)
            await self._sign_ins.read(later.items, reload)
            return later

        await self._feed.reload(fetch)
        return True
