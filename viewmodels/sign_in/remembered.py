"""What this browser remembers of a sign-in: the token, when it expires, and whose it is.

Kept in the browser's ``DeviceStorage`` only after the token was accepted and
only when asked ("Remember on this device"). Beside the token, ``PERSON_KEY``
keeps whose it is (ids, name and the token's digest, never a secret), so a
start that cannot reach the server may open that person's copy.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from viewmodels.ports import Clock, DeviceStorage
from viewmodels.sign_in.snapshot import (
    PERSON_KEY,
    TOKEN_EXPIRES_KEY,
    TOKEN_KEY,
    Person,
    token_digest,
    token_problem,
)

DEFAULT_REMEMBER_FOR = timedelta(days=30)


class RememberedSignIn:
    """The remembered token, its expiry and its person, in one browser's storage."""

    def __init__(self, storage: DeviceStorage, *, clock: Clock, remember_for: timedelta) -> None:
        """A token is forgotten ``remember_for`` after the sign-in that remembered it."""
        self._storage = storage
        self._clock = clock
        self._remember_for = remember_for

    async def token(self) -> str | None:
        """The remembered token; a stored value that is not a usable token is forgotten."""
        saved = await self._storage.get(TOKEN_KEY)
        if isinstance(saved, str) and token_problem(saved) is None:
            return saved
        if saved is not None:
            await self.forget()
        return None

    async def expired(self) -> bool:
        """Whether the remembered token's time is up (use does not extend it); one
        remembered before expiries were kept is given one from now."""
        expires = _instant(await self._storage.get(TOKEN_EXPIRES_KEY))
        if expires is None:
            await self._storage.set(TOKEN_EXPIRES_KEY, self._expiry())
            return False
        return expires <= self._clock()

    async def keep(self, token: str) -> None:
        """The token and its expiry; the expiry first: a token is never kept without one."""
        await self._storage.set(TOKEN_EXPIRES_KEY, self._expiry())
        await self._storage.set(TOKEN_KEY, token)

    async def keep_person(self, token: str, person: Person) -> None:
        await self._storage.set(
            PERSON_KEY,
            {
                "token_digest": token_digest(token),
                "tenant_id": person.tenant_id,
                "principal_id": person.principal_id,
                "display_name": person.display_name,
            },
        )

    async def person(self, token: str) -> Person | None:
        """The person stored beside ``token``; None when absent, unreadable or another token's."""
        raw = await self._storage.get(PERSON_KEY)
        if not isinstance(raw, dict) or raw.get("token_digest") != token_digest(token):
            return None
        fields = (raw.get("tenant_id"), raw.get("principal_id"), raw.get("display_name"))
        if not all(isinstance(field, str) and field for field in fields):
            return None
        tenant_id, principal_id, display_name = (str(field) for field in fields)
        return Person(tenant_id, principal_id, display_name)

    def _expiry(self) -> str:
        return (self._clock() + self._remember_for).astimezone(UTC).isoformat()

    async def forget(self) -> None:
        await self._storage.set(TOKEN_KEY, None)
        await self._storage.set(TOKEN_EXPIRES_KEY, None)
        await self._storage.set(PERSON_KEY, None)


def _instant(value: object) -> datetime | None:
    """A stored expiry, or None when absent or unreadable (never a naive time)."""
    if not isinstance(value, str):
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else None
