"""What the view models need from the outside world, as protocols.

The view models never see ``httpx`` or Flet: they talk to the schedule server
through ``ScheduleApi`` (a structural subset of ``transport.client.ScheduleClient``,
so the real client satisfies it without adapters), keep device state through
``DeviceStorage``, and read time through a ``Clock``. Tests hand them the real
client over ``respx`` or the embedded server, ``MemoryStorage`` and a fake clock.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias
from uuid import UUID

if TYPE_CHECKING:
    from collections.abc import Mapping

    from transport.models import (
        AgendaBucket,
        AgendaDensity,
        AgendaItem,
        AgendaNotOffered,
        BrowserProfile,
        Folder,
        ListOrder,
        Page,
        Principal,
        Projection,
        ScheduleCounts,
        ScheduleDetail,
        SchedulerNotOffered,
        SchedulerStatus,
        ScheduleSummary,
        SessionMessage,
        SessionSummary,
    )

Clock: TypeAlias = Callable[[], datetime]
"""Returns the current instant, timezone-aware."""


def utc_now() -> datetime:
    """The device's real clock, a ``Clock`` (tests hand the view models their own)."""
    return datetime.now(UTC)


JsonValue: TypeAlias = "bool | int | float | str | list[JsonValue] | dict[str, JsonValue] | None"
"""Anything ``json.dumps`` accepts without help: what device storage may hold."""


class ScheduleApi(Protocol):
    """The calls the view models make; ``ScheduleClient`` provides all of them."""

    async def list_schedules(
        self,
        *,
        states: Sequence[str] = (),
        limit: int | None = None,
        cursor: str | None = None,
        query: str | None = None,
        needs_attention: bool = False,
        order: ListOrder = ...,
    ) -> Page[ScheduleSummary]: ...

    async def schedule_counts(self, query: str | None = None) -> ScheduleCounts: ...

    async def get_schedule(self, schedule_id: UUID) -> ScheduleDetail: ...

    async def get_projection(
        self, schedule_id: UUID, *, start: datetime, end: datetime
    ) -> Projection: ...

    async def update_schedule(
        self,
        schedule_id: UUID,
        *,
        expected_revision: int,
        definition: Mapping[str, Any],
    ) -> ScheduleDetail: ...

    async def list_agenda(
        self,
        *,
        start: datetime,
        end: datetime,
        include_paused: bool = False,
        query: str | None = None,
        needs_attention: bool = False,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> Page[AgendaItem] | AgendaNotOffered: ...

    async def agenda_density(
        self,
        *,
        start: datetime,
        end: datetime,
        bucket: AgendaBucket,
        timezone: str | None = None,
        include_paused: bool = False,
        query: str | None = None,
        needs_attention: bool = False,
    ) -> AgendaDensity | AgendaNotOffered: ...

    async def scheduler_status(self) -> SchedulerStatus | SchedulerNotOffered: ...

    async def list_browser_profiles(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> Page[BrowserProfile]: ...

    async def list_sessions(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> Page[SessionSummary]: ...

    async def list_session_messages(
        self, session_id: UUID, *, limit: int | None = None, cursor: str | None = None
    ) -> Page[SessionMessage]: ...

    async def list_folders(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> Page[Folder]: ...

    async def get_principal(self) -> Principal: ...


class ServerActivity(Protocol):
    """A server's in-process signal that its data changed (the embedded server has one).

    ``subscribe(callback)`` calls ``callback()`` on the app's loop after each
    change the server made on its own (a firing, a finished run) and answers
    the way to stop. A remote server has none: it is polled.
    """

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]: ...


class DeviceStorage(Protocol):
    """Key/value device state (history cache, expanded groups); never sent to a server.

    Async because the app's persistent adapters are: files in the user data folder
    (a local session) and a browser's ``SharedPreferences`` (a hosted one, remembered).
    ``get`` answers ``None`` for a key never set.
    """

    async def get(self, key: str) -> JsonValue: ...

    async def set(self, key: str, value: JsonValue) -> None: ...


class MemoryStorage:
    """``DeviceStorage`` in a dict: for tests, benchmarks and a session-only app.

    Values are deep-copied through JSON semantics on the way in and out, so a
    caller can never mutate what is stored (as with a real persistent store).
    """

    def __init__(self, initial: Mapping[str, JsonValue] | None = None) -> None:
        self._values: dict[str, JsonValue] = {}
        for key, value in (initial or {}).items():
            self._values[key] = _copy(value)
        self.writes = 0

    async def get(self, key: str) -> JsonValue:
        return _copy(self._values.get(key))

    async def set(self, key: str, value: JsonValue) -> None:
        self.writes += 1
        self._values[key] = _copy(value)

    def keys(self) -> list[str]:
        """The keys set so far, for tests that check nothing else was written."""
        return sorted(self._values)


def _copy(value: JsonValue) -> JsonValue:
    if isinstance(value, dict):
        return {str(key): _copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copy(item) for item in value]
    return value
