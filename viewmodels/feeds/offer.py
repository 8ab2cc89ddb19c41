"""Whether the server offers calendar feeds, learnt once per session and shared.

Every feed control stays hidden until a first ``GET /v1/feeds`` answers: a
server without the routes (404/405) hides them for good, quietly; a failed
read leaves the question open, to be asked again by the next screen that
needs it. A feed route answering "not offered" later hides them too.
"""

from __future__ import annotations

import asyncio

from transport.errors import ApiError
from transport.models import FEEDS_NOT_OFFERED
from viewmodels.feeds.ports import FeedApi
from viewmodels.observable import Observable


class FeedOffer(Observable[bool | None]):
    """``snapshot``: True offered, False not offered, None not known yet."""

    def __init__(self, api: FeedApi) -> None:
        super().__init__(None)
        self._api = api
        self._asking: asyncio.Task[None] | None = None

    async def learn(self) -> None:
        """Ask the server once; callers that come meanwhile wait for the same answer."""
        if self.snapshot is not None:
            return
        if self._asking is None or self._asking.done():
            self._asking = asyncio.ensure_future(self._ask())
        await asyncio.shield(self._asking)

    def withdrawn(self) -> None:
        """A feed route answered that the server has no feeds."""
        self._publish(False)

    async def _ask(self) -> None:
        try:
            answer = await self._api.list_feeds(limit=1)
        except ApiError:
            return
        self._publish(answer is not FEEDS_NOT_OFFERED)
