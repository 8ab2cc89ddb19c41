"""A best-effort nudge that ends one asyncio waiter's sleep early, from any thread.

Schedule routes run on FastAPI's thread pool; the worker sleeps on the event
loop until its next firing. A create, update or resume may bring a firing
nearer, so the service ``notify``s and the worker rescans at once instead of
at its next wake-up. Nothing depends on it: a lost nudge only delays a scan
to the fallback poll.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading

__all__ = ["WakeSignal"]


class WakeSignal:
    """``notify`` from any thread; ``wait`` on the one loop that waits for it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._event: asyncio.Event | None = None
        self._early = False

    def notify(self) -> None:
        with self._lock:
            loop, event = self._loop, self._event
            if loop is None or event is None:
                self._early = True  # kept for the first wait
                return
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
            loop.call_soon_threadsafe(event.set)

    async def wait(self, seconds: float) -> bool:
        """Sleep up to ``seconds``; True when a nudge came first (it is consumed)."""
        event = self._attach()
        try:
            async with asyncio.timeout(max(seconds, 0.0)):
                await event.wait()
        except TimeoutError:
            return False
        finally:
            event.clear()
        return True

    def _attach(self) -> asyncio.Event:
        with self._lock:
            loop = asyncio.get_running_loop()
            if self._event is None or self._loop is not loop:
                self._loop, self._event = loop, asyncio.Event()
            if self._early:
                self._early = False
                self._event.set()
            return self._event
