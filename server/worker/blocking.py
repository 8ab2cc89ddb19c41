"""Blocking store work from the scheduler's event loop: on a worker thread, abandonable.

Every database call of the scheduler's loops goes through ``in_thread``. The
loop waits for the thread; a caller that is cancelled stops waiting at once
and the thread runs on to its end (nothing can stop a thread). The runtime
cancels only when it gives up on a stop that outlived its bound
(``runtime.running``): a transaction stuck past it is abandoned, and the
database rolls it back when the process exits and its connection drops.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from anyio import to_thread

__all__ = ["in_thread"]

_T = TypeVar("_T")


async def in_thread(function: Callable[..., _T], *args: object) -> _T:
    """``function(*args)`` on a worker thread; a cancelled caller stops waiting for it."""
    return await to_thread.run_sync(function, *args, abandon_on_cancel=True)
