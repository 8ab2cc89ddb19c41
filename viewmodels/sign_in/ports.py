"""What the sign-in needs from the app: a client per token, the browser's throttle, its copies."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from viewmodels.ports import ScheduleApi
from viewmodels.sign_in.snapshot import Person


class SignedInApi(ScheduleApi, Protocol):
    """One person's client: every call the screens make, and a way to close it."""

    async def aclose(self) -> None: ...


class Connector(Protocol):
    """Makes a client that sends ``token``; ``on_refused()`` runs on each 401 it gets."""

    def connect(self, token: str, on_refused: Callable[[], None]) -> SignedInApi: ...


class SignInAttempts(Protocol):
    """This browser's failed sign-ins: whether it must wait, and counting one more."""

    def wait(self) -> int | None:
        """Whole seconds before this browser may try again, or None."""
        ...

    def failed(self) -> None: ...


class OfflineCopies(Protocol):
    """The view caches this browser holds, one per person (the app knows their namespace)."""

    async def holds(self, person: Person) -> bool: ...

    async def erase(self, person: Person) -> None: ...
