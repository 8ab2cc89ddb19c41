"""A hosted sign-in remembered in this browser: one record that carries its own expiry.

"Remember on this device" keeps one record in the browser's storage:
``{"handle", "expires_at", "person"}``. The token itself stays with the hosted
app (``app.remembered_tokens``), which stops honouring the handle at its expiry
whatever the browser does; ``person`` (no secret) lets a tab opened while the
server is away find that person's copy. While a session is open the record is
also erased at its expiry, and removing it for any reason erases everything
this browser kept for that person (``on_erased``). The sign-in view model sees
a ``DeviceStorage`` with three keys; this adapter folds them into the record.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from app.device_storage import PreferencesStorage, PreferenceStore
from app.remembered_tokens import RememberedTokens
from viewmodels.ports import Clock, JsonValue
from viewmodels.sign_in import PERSON_KEY, TOKEN_EXPIRES_KEY, TOKEN_KEY, Person

RECORD_KEY = TOKEN_KEY
"""The one key of the record (the key a remembered token always had)."""
EARLIER_KEYS = (TOKEN_EXPIRES_KEY, PERSON_KEY)
"""Where versions before the record kept the expiry and the person: removed with it."""
LONGEST_NAP = timedelta(hours=1)

Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class _Record:
    handle: str
    expires_at: datetime
    person: dict[str, JsonValue] | None

    def stored(self) -> JsonValue:
        return {
            "handle": self.handle,
            "expires_at": self.expires_at.astimezone(UTC).isoformat(),
            "person": self.person,
        }


class RememberedSignIn:
    """``viewmodels.ports.DeviceStorage`` of the sign-in view model; see the module docstring."""

    def __init__(
        self,
        store: PreferenceStore,
        namespace: str,
        tokens: RememberedTokens,
        *,
        clock: Clock,
        on_erased: Callable[[Person], Awaitable[None]],
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self._storage = PreferencesStorage(store, namespace)
        self._tokens = tokens
        self._clock = clock
        self._on_erased = on_erased
        self._sleep = sleep
        self._pending_expiry: datetime | None = None
        self._erase_task: asyncio.Task[None] | None = None
        self._erase_at: datetime | None = None

    async def get(self, key: str) -> JsonValue:
        record = await self._record()
        if record is None:
            return None
        if key == TOKEN_KEY:
            return await self._token(record)
        if key == TOKEN_EXPIRES_KEY:
            return record.expires_at.astimezone(UTC).isoformat()
        if key == PERSON_KEY:
            return record.person
        return None

    async def set(self, key: str, value: JsonValue) -> None:
        if key == TOKEN_KEY:
            if isinstance(value, str):
                await self._keep_token(value)
            else:
                await self.forget()
        elif key == TOKEN_EXPIRES_KEY and value is not None:
            self._pending_expiry = _instant(value)  # the token follows: written with it
        elif key == PERSON_KEY and isinstance(value, dict):
            record = await self._record()
            if record is not None:  # a person is never kept without a token
                await self._write(_Record(record.handle, record.expires_at, value))

    async def forget(self) -> None:
        """Removes the record and erases everything kept for the person it named."""
        raw = await self._storage.get(RECORD_KEY)
        person = _person(raw.get("person") if isinstance(raw, dict) else None)
        if person is None and raw is not None and not isinstance(raw, dict):
            person = _person(await self._storage.get(PERSON_KEY))  # an earlier version's
        if isinstance(raw, dict) and isinstance(handle := raw.get("handle"), str):
            self._tokens.drop(handle)
        self._pending_expiry = None
        self._disarm()
        await self._storage.set(RECORD_KEY, None)
        for key in EARLIER_KEYS:
            await self._storage.set(key, None)
        if person is not None:
            await self._on_erased(person)

    def close(self) -> None:
        """The session ended: its scheduled erase goes (a page opened later checks the expiry)."""
        self._disarm()

    async def _keep_token(self, token: str) -> None:
        pending, self._pending_expiry = self._pending_expiry, None
        record = await self._record()
        if record is not None and self._tokens.token(record.handle) != token:
            await self.forget()  # another token: the person it named keeps nothing here
            record = None
        expires = pending or (record.expires_at if record is not None else None)
        if expires is None:
            return  # a token is never kept without its expiry
        if record is not None:
            self._tokens.drop(record.handle)
        handle = self._tokens.keep(token, expires)
        await self._write(_Record(handle, expires, record.person if record is not None else None))

    async def _token(self, record: _Record) -> str | None:
        """The token the record stands for. An expired record answers its handle instead,
        never usable as a token: the view model reads the expiry next and forgets it
        (saying so); a handle the host no longer knows forgets the record at once."""
        if record.expires_at <= self._clock():
            return record.handle
        token = self._tokens.token(record.handle)
        if token is None:
            await self.forget()
        return token

    async def _record(self) -> _Record | None:
        """The record, its erase scheduled; one that does not read back is forgotten.

        An expired record is answered as it is, never erased behind the reader's
        back: the view model reads the token, then its expiry, and must see both
        to forget it (and say so) instead of using it."""
        raw = await self._storage.get(RECORD_KEY)
        if raw is None:
            return None
        record = await self._handed_over(raw) or _parse(raw)
        if record is None:
            await self.forget()
            return None
        if record.expires_at > self._clock():
            self._arm(record.expires_at)
        return record

    async def _handed_over(self, raw: JsonValue) -> _Record | None:
        """A record of an earlier version, which kept the token itself, rewritten to a handle."""
        if not isinstance(raw, dict) or "handle" in raw:
            return None
        token, expires = raw.get("token"), _instant(raw.get("expires_at"))
        if not isinstance(token, str) or not token or expires is None:
            return None
        handle = self._tokens.keep(token, expires)
        record = _Record(handle, expires, _json_object(raw.get("person")))
        await self._write(record)
        return record

    async def _write(self, record: _Record) -> None:
        await self._storage.set(RECORD_KEY, record.stored())
        if record.expires_at > self._clock():
            self._arm(record.expires_at)

    def _arm(self, expires_at: datetime) -> None:
        if self._erase_task is not None and self._erase_at == expires_at:
            return
        self._disarm()
        self._erase_at = expires_at
        self._erase_task = asyncio.get_running_loop().create_task(self._erase_when_due(expires_at))

    def _disarm(self) -> None:
        task, self._erase_task, self._erase_at = self._erase_task, None, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _erase_when_due(self, expires_at: datetime) -> None:
        while (left := expires_at - self._clock()) > timedelta(0):
            await self._sleep(min(left, LONGEST_NAP).total_seconds())
        self._erase_task, self._erase_at = None, None
        record = await self._record()  # another tab may have signed in again meanwhile
        if record is not None and record.expires_at <= self._clock():
            await self.forget()


def _parse(raw: JsonValue) -> _Record | None:
    if not isinstance(raw, dict):
        return None
    handle, expires, person = raw.get("handle"), _instant(raw.get("expires_at")), raw.get("person")
    if not isinstance(handle, str) or not handle or expires is None:
        return None
    if person is not None and not isinstance(person, dict):
        return None
    return _Record(handle, expires, person)


def _json_object(raw: JsonValue) -> dict[str, JsonValue] | None:
    return raw if isinstance(raw, dict) else None


def _person(raw: JsonValue) -> Person | None:
    if not isinstance(raw, dict):
        return None
    fields = (raw.get("tenant_id"), raw.get("principal_id"), raw.get("display_name"))
    if not all(isinstance(field, str) for field in fields[:2]):
        return None
    return Person(str(fields[0]), str(fields[1]), str(fields[2] or ""))


def _instant(value: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else None
