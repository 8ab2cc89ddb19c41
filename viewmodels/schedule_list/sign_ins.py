"""Which website sign-ins are READY, for the warning chip of an ACTIVE row bound to one.

Read at most once per list load, and only when a page holds an ACTIVE schedule
with a bound sign-in. A failed or refused read (no ``browser.profile.read``)
knows nothing: every chip stays the ordinary one.
"""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

from transport.errors import ApiError
from transport.models import ProfileState, ScheduleState, ScheduleSummary
from transport.paging import iterate_pages
from viewmodels.ports import ScheduleApi


class SignInReadiness:
    """The READY sign-ins as last read, per list load."""

    def __init__(self, api: ScheduleApi) -> None:
        self._api = api
        self._read_for = 0
        """The list load whose sign-ins were read; 0: none yet."""
        self._ready: frozenset[UUID] | None = None
        """None: not known (chips stay ordinary)."""

    async def read(self, items: Sequence[ScheduleSummary], load: int) -> None:
        """Read the sign-ins once for list load ``load`` when ``items`` need them."""
        if self._read_for == load:
            return
        if not any(s.known_state is ScheduleState.ACTIVE and s.browser_profile_id for s in items):
            return
        self._read_for = load
        ready: set[UUID] = set()
        try:
            pages = iterate_pages(lambda cursor: self._api.list_browser_profiles(cursor=cursor))
            async for profiles in pages:
                ready.update(
                    p.profile_id for p in profiles.items if p.known_state is ProfileState.READY
                )
        except ApiError:
            self._ready = None
            return
        self._ready = frozenset(ready)

    def unready(self, profile_id: UUID) -> bool:
        """The sign-in is known not to be READY (or gone)."""
        ready = self._ready
        return ready is not None and profile_id not in ready
