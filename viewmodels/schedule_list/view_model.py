"""The schedules sheet: what the reader asks for (section, search, Needs attention filter).

Search and the filter are the server's (``q``, ``needs_attention``): each
keystroke shows the text at once and, after a quiet ``SEARCH_DEBOUNCE`` (the
``sleep`` is injected), reloads page one for the newest text only; a slow
answer to an older text never replaces a newer one. The query stays when the
section changes. The order (newest-updated first, or soonest first) is
remembered as device state (``ORDER_KEY``), read before the first page and
applied at once when chosen. Reading the rows is ``ListLoading``'s (``loading.py``),
keeping them current ``ListRefreshing``'s (``refreshing.py``).
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from zoneinfo import ZoneInfo

from transport.errors import ApiError
from transport.models import ListOrder
from viewmodels.formatting.clock_text import locale_of, your_time_text
from viewmodels.offline import OfflineViewModel
from viewmodels.paging import Debounce, LatestRequest, Sleep
from viewmodels.ports import Clock, DeviceStorage, MemoryStorage, ScheduleApi
from viewmodels.schedule_list.refreshing import ListRefreshing
from viewmodels.schedule_list.snapshot import ListSection, ScheduleListSnapshot
from viewmodels.server_kind import ServerKind

DEFAULT_PAGE_SIZE = 20
SEARCH_DEBOUNCE = 0.2
"""Seconds of quiet after a keystroke before the search is sent (at most 250 ms)."""
ORDER_KEY = "schedule_list.order"
"""Device state: the list's chosen order, ``ListOrder``'s value."""


class ScheduleListViewModel(ListRefreshing):
    """Current / Recent History with safe, user-driven paging."""

    def __init__(
        self,
        api: ScheduleApi,
        *,
        clock: Clock,
        device_zone: ZoneInfo,
        page_size: int = DEFAULT_PAGE_SIZE,
        offline: OfflineViewModel | None = None,
        sleep: Sleep = asyncio.sleep,
        debounce: float = SEARCH_DEBOUNCE,
        server: ServerKind = ServerKind.PLATFORM,
        storage: DeviceStorage | None = None,
    ) -> None:
        super().__init__(
            ScheduleListSnapshot(
                server=server,
                zone_text=your_time_text(device_zone),
                locale=locale_of(device_zone),
            ),
            api,
            clock=clock,
            device_zone=device_zone,
            page_size=page_size,
            offline=offline,
            typing=Debounce(sleep, debounce),
        )
        self._counting = LatestRequest()
        self._storage = storage or MemoryStorage()
        self._order_read = False

    @property
    def page_size(self) -> int:
        return self._page_size

    async def open(self) -> None:
        """Opening the sheet reloads page one of the current section, in the remembered order."""
        if not self._order_read:
            self._order_read = True
            remembered = await self._storage.get(ORDER_KEY)
            if remembered in tuple(ListOrder):
                self._publish(replace(self.snapshot, order=ListOrder(str(remembered))))
        await self.reload()

    async def select_soonest_first(self, on: bool) -> None:
        """The order chip: soonest first, or newest-updated first; remembered and applied at once.

        The rows shown stay until page one answers in the new order.
        """
        order = ListOrder.NEXT_FIRE if on else ListOrder.UPDATED
        self._order_read = True  # a choice made before the remembered one was read wins
        if order is not self.snapshot.order:
            self._publish(replace(self.snapshot, order=order))
            await self._storage.set(ORDER_KEY, order.value)
        await self._reload_rows()

    async def select_section(self, section: ListSection) -> None:
        """Switch section: rows clear and page one of ``section`` loads (counts as a reload).

        The query stays; the Needs attention filter goes off.
        """
        if section is not self.snapshot.section or self.snapshot.attention_only:
            self._publish(
                replace(self.snapshot, section=section, attention_only=False, cached_at=None)
            )
            self._start_over()
        await self._reload_rows()

    async def keep_section(self) -> None:
        """The shown section's tab clicked again (Flutter empties the choice): page one of it again.

        The section is read when this runs, not when the click came, so a
        second click before the first one's switch ran keeps the new section.
        """
        if not self.snapshot.attention_only:
            await self.select_section(self.snapshot.section)

    async def select_attention(self, on: bool) -> None:
        """The Needs attention chip: on, what needs attention in any state; off, the section."""
        if on != self.snapshot.attention_only:
            self._publish(replace(self.snapshot, attention_only=on, cached_at=None))
            self._start_over()
        await self._reload_rows()

    async def reload(self) -> None:
        """Page one again (pull-to-refresh), and the counts. Rows stay visible until it answers."""
        await asyncio.gather(self._reload_rows(), self.refresh_counts())

    async def type_query(self, text: str) -> None:
        """A keystroke in the search field: shown at once, searched after the debounce.

        Only the newest text is searched: an older keystroke's wait ends
        without a request, and the answer still in flight for an older text is
        dropped at once.
        """
        if text == self.snapshot.query:
            return
        self._publish(replace(self.snapshot, query=text))
        self._feed.supersede()
        if await self._typing.settled():
            await self._reload_rows()

    async def clear_query(self) -> None:
        """The clear button or Escape: no search, page one of the section at once."""
        self._typing.cancel()
        if self.snapshot.query:
            cleared = replace(
                self.snapshot, query="", search_clears=self.snapshot.search_clears + 1
            )
            self._publish(cleared)
            await self._reload_rows()

    async def refresh_counts(self) -> bool:
        """The Needs attention chip's number; False when the server could not be read."""
        ticket = self._counting.begin()
        try:
            counts = await self._api.schedule_counts()
        except ApiError:
            return False
        if self._counting.is_current(ticket):
            self._publish(replace(self.snapshot, attention_count=counts.needs_attention))
        return True
