"""Signing in to a hosted web view: one person's token, checked, remembered only if asked.

When the web view serves other devices, each browser session signs in with
its own bearer token and nothing is shared: the view model asks its
``Connector`` for a client holding that token, checks it with
``GET /v1/principal``, and only then hands the client to ``open_account``,
which composes that person's screens. The account lives until sign-out, a 401,
or the session's end, and its client is closed each time.

States (``SignInPhase``)::

    STARTING --no saved token--> SIGNED_OUT --sign_in(token)--> VERIFYING
       |  saved token checked                ^   ^  refused/failed  |
       |   ok: SIGNED_IN                     |   +------------------+
       |   401: SIGNED_OUT with a notice     |              ok: SIGNED_IN
       |   outage: UNREACHABLE --retry()--> STARTING
       |   outage, a copy kept for that person: SIGNED_IN (verified=False)
       |     --server_answered(), token accepted--> SIGNED_IN (verified)
    SIGNED_IN --sign_out()--> SIGNED_OUT ("You signed out.")
    SIGNED_IN --any 401--> SIGNED_OUT (revoked or expired, sign in again)

Rules, each with a test in ``tests/viewmodels/test_sign_in.py``:

- A token is checked before anything is shown; a typed token is one line of
  visible characters (the field says so without asking the server).
- A token the server refuses is a sentence on the form; a server that cannot
  be reached is another ("could not be checked"), never "wrong token"; a
  server slowing attempts from here (429) says how long to wait.
- Each refused token (typed or remembered) is counted against this browser
  (``SignInAttempts.failed``, the app's throttle by the browser's address);
  while it must wait (``SignInAttempts.wait``), an attempt is refused with
  the same sentence and the wait, and the server is not asked.
- "Remember on this device" writes the token to this browser's device storage
  only after it was accepted, with the instant it expires (``remember_for``
  after sign-in, 30 days unless the host says otherwise); signing in without
  it, signing out, any 401 and its expiry forget it. A token remembered before
  expiries were kept is given one from its next start. Signing out also lets
  the app forget what this browser kept for that person (``forget_account``:
  their cached history, expanded groups).
  A remembered token signs in on the next start without the form; if the
  server is down then, the person sees the usual retry (``UNREACHABLE``), not
  the form.
- Opening offline: beside a remembered token the storage keeps whose it is
  (``PERSON_KEY``: ids, name and the token's digest, no secret). A start (a
  new tab, the home-screen app) that cannot reach the server (``unreachable``)
  with a remembered token whose person record matches it, and a view cache
  this browser holds for that person (``OfflineCopies.holds``), opens the
  account at once (``SIGNED_IN``, ``verified=False``): the screens show the
  copy under the offline banner. The first answer from the server
  (``server_answered``, told by the screens) checks the token with
  ``GET /v1/principal``; accepted, the account is verified; a 401 ends it
  like any 401. No record, another token's record, no copy, or a token never
  remembered: the usual ``UNREACHABLE`` or failure sentence.
- A remembered token the server refuses (at start, or a 401 of its account)
  also erases that person's view cache (``OfflineCopies.erase``).
- A 401 on any request of a signed-in account (reported by the connector's
  ``on_refused``) ends the account and shows the form with the reason. A
  server outage ends nothing: the screens show their own failures and retry.
- A result that arrives after sign-out or the session's end is dropped and
  its client closed (a generation counter, as in ``viewmodels.paging``).
- Closing (the session ended) closes the client and touches no storage, since
  the browser that holds it is gone.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Generic, Protocol, TypeVar

from transport.errors import ApiError, RateLimited, Unauthenticated
from viewmodels.failure_text import failure_text
from viewmodels.observable import Observable
from viewmodels.offline import unreachable
from viewmodels.ports import Clock, DeviceStorage, ScheduleApi
from viewmodels.sign_in.snapshot import (
    PERSON_KEY,
    REMEMBERED_EXPIRED,
    REVOKED,
    SAVED_TOKEN_REFUSED,
    SIGNED_OUT,
    TOKEN_EXPIRES_KEY,
    TOKEN_KEY,
    TOKEN_REFUSED,
    Person,
    SignInPhase,
    SignInSnapshot,
    token_digest,
    token_problem,
    too_many_attempts,
)


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


AccountT = TypeVar("AccountT")
DEFAULT_REMEMBER_FOR = timedelta(days=30)
UNKNOWN_WAIT_SECONDS = 60
"""Said when a 429 carries no wait: the longest the server makes an address wait."""


def _utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True, eq=False)
class _Signed(Generic[AccountT]):
    api: SignedInApi
    account: AccountT
    generation: int
    person: Person
    remembered: bool
    verified: bool = True


class SignInViewModel(Observable[SignInSnapshot[AccountT]]):
    """One browser session's sign-in; the snapshot carries the account once signed in."""

    def __init__(
        self,
        connector: Connector,
        storage: DeviceStorage,
        *,
        open_account: Callable[[SignedInApi, Person], AccountT],
        close_account: Callable[[AccountT], None] = lambda _account: None,
        forget_account: Callable[[AccountT], Awaitable[None]] | None = None,
        clock: Clock = _utc_now,
        remember_for: timedelta = DEFAULT_REMEMBER_FOR,
        copies: OfflineCopies | None = None,
        attempts: SignInAttempts | None = None,
    ) -> None:
        """``open_account`` composes the signed-in person's screens over their client;
        ``close_account`` stops them (before the client closes); ``forget_account``
        clears what this browser kept for them, on sign-out only. A remembered token
        is forgotten ``remember_for`` after the sign-in that remembered it. ``copies``
        are the view caches a remembered sign-in may open offline on (None: never);
        ``attempts`` slows this browser's failed sign-ins (None: only the server does)."""
        super().__init__(SignInSnapshot(SignInPhase.STARTING))
        self._connector = connector
        self._storage = storage
        self._open_account = open_account
        self._close_account = close_account
        self._forget_account = forget_account
        self._clock = clock
        self._remember_for = remember_for
        self._generation = 0
        self._signed: _Signed[AccountT] | None = None
        self._saved: str | None = None
        self._started = False
        self._retiring: set[asyncio.Task[None]] = set()
        self._confirming: asyncio.Task[None] | None = None
        self._copies = copies
        self._attempts = attempts

    async def start(self) -> None:
        """The session opened: sign in with this browser's remembered token, or show the form."""
        if self._started:
            return
        self._started = True
        saved = await self._storage.get(TOKEN_KEY)
        if not isinstance(saved, str) or token_problem(saved) is not None:
            if saved is not None:
                await self._forget_token()
            self._publish(SignInSnapshot(SignInPhase.SIGNED_OUT))
            return
        expires = _instant(await self._storage.get(TOKEN_EXPIRES_KEY))
        if expires is None:  # remembered before expiries were kept: from now on
            await self._storage.set(TOKEN_EXPIRES_KEY, self._expiry())
        elif expires <= self._clock():
            await self._forget_token()
            self._publish(SignInSnapshot(SignInPhase.SIGNED_OUT, notice=REMEMBERED_EXPIRED))
            return
        self._saved = saved
        await self._verify(saved, saved=True)

    async def retry(self) -> None:
        """Check the remembered token again after an outage."""
        if self.snapshot.phase is not SignInPhase.UNREACHABLE or self._saved is None:
            return
        self._publish(SignInSnapshot(SignInPhase.STARTING, remember=True))
        await self._verify(self._saved, saved=True)

    def set_remember(self, remember: bool) -> None:
        self._publish(replace(self.snapshot, remember=remember))

    async def sign_in(self, token_text: str) -> None:
        """Check a typed token; on success the account opens, else the form says why."""
        if not self.snapshot.form_enabled:
            return
        token = token_text.strip()
        problem = token_problem(token)
        if problem is not None:
            self._publish(replace(self.snapshot, error=problem, notice=None))
            return
        self._publish(replace(self.snapshot, phase=SignInPhase.VERIFYING, error=None, notice=None))
        await self._verify(token, saved=False)

    async def sign_out(self) -> None:
        """End the account (or give up a remembered token that cannot be checked); forget it."""
        if self.snapshot.phase not in (SignInPhase.SIGNED_IN, SignInPhase.UNREACHABLE):
            return
        self._saved = None
        signed = self._end_account()
        self._publish(SignInSnapshot(SignInPhase.SIGNED_OUT, notice=SIGNED_OUT))
        if signed is not None:
            await signed.api.aclose()
        await self._forget_token()
        if signed is not None and self._forget_account is not None:
            await self._forget_account(signed.account)

    async def close(self) -> None:
        """The session ended: close the client; the browser's storage is out of reach now."""
        signed = self._end_account()
        if signed is not None:
            await signed.api.aclose()

    async def _verify(self, token: str, *, saved: bool) -> None:
        self._generation += 1
        generation = self._generation
        wait = None if self._attempts is None else self._attempts.wait()
        if wait is not None:
            self._slowed(wait, saved=saved)
            return
        api = self._connector.connect(token, lambda: self._refused(generation))
        try:
            principal = await api.get_principal()
        except ApiError as err:
            if saved and unreachable(err) and await self._open_offline(api, token, generation):
                return
            await api.aclose()
            if generation == self._generation:
                await self._check_failed(err, saved=saved)
            return
        remember = saved or self.snapshot.remember
        person = Person(principal.tenant_id, principal.principal_id, principal.display_name)
        if generation == self._generation:
            if remember:  # the expiry first: a token is never kept without one
                if not saved:
                    await self._storage.set(TOKEN_EXPIRES_KEY, self._expiry())
                    await self._storage.set(TOKEN_KEY, token)
                await self._remember_person(token, person)
            else:
                await self._forget_token()
        if generation != self._generation:  # signed out or closed meanwhile
            await api.aclose()
            return
        account = self._open_account(api, person)
        self._signed = _Signed(api, account, generation, person, remembered=remember)
        self._publish(
            SignInSnapshot(
                SignInPhase.SIGNED_IN,
                remember=remember,
                display_name=principal.display_name,
                account=account,
            )
        )

    async def _open_offline(self, api: SignedInApi, token: str, generation: int) -> bool:
        """The remembered person's screens on this browser's copy, or False (none to show)."""
        if self._copies is None or generation != self._generation:
            return False
        person = await self._remembered_person(token)
        if person is None or not await self._copies.holds(person):
            return False
        if generation != self._generation:
            return False
        account = self._open_account(api, person)
        self._signed = _Signed(api, account, generation, person, remembered=True, verified=False)
        self._publish(
            SignInSnapshot(
                SignInPhase.SIGNED_IN,
                remember=True,
                display_name=person.display_name,
                account=account,
                verified=False,
            )
        )
        return True

    def server_answered(self) -> None:
        """The screens read the server: an account opened offline now checks its token."""
        signed = self._signed
        if signed is None or signed.verified or self._confirming is not None:
            return
        self._confirming = asyncio.get_running_loop().create_task(self._confirm(signed))

    async def _confirm(self, signed: _Signed[AccountT]) -> None:
        try:
            principal = await signed.api.get_principal()
        except ApiError:
            return  # a 401 ended the account (``_refused``); an outage waits for the next answer
        finally:
            self._confirming = None
        if self._signed is not signed:
            return
        if (principal.tenant_id, principal.principal_id) != (
            signed.person.tenant_id,
            signed.person.principal_id,
        ):
            self._refused(signed.generation)  # never another person's screens on this copy
            return
        person = Person(principal.tenant_id, principal.principal_id, principal.display_name)
        self._signed = replace(signed, person=person, verified=True)
        if self._saved is not None:
            await self._remember_person(self._saved, person)
        if self._signed is not None and self._signed.generation == signed.generation:
            self._publish(
                replace(self.snapshot, display_name=principal.display_name, verified=True)
            )

    async def _remember_person(self, token: str, person: Person) -> None:
        await self._storage.set(
            PERSON_KEY,
            {
                "token_digest": token_digest(token),
                "tenant_id": person.tenant_id,
                "principal_id": person.principal_id,
                "display_name": person.display_name,
            },
        )

    async def _remembered_person(self, token: str) -> Person | None:
        """The person stored beside ``token``; None when absent, unreadable or another token's."""
        raw = await self._storage.get(PERSON_KEY)
        if not isinstance(raw, dict) or raw.get("token_digest") != token_digest(token):
            return None
        fields = (raw.get("tenant_id"), raw.get("principal_id"), raw.get("display_name"))
        if not all(isinstance(field, str) and field for field in fields):
            return None
        tenant_id, principal_id, display_name = (str(field) for field in fields)
        return Person(tenant_id, principal_id, display_name)

    async def _check_failed(self, err: ApiError, *, saved: bool) -> None:
        remember = self.snapshot.remember
        if isinstance(err, RateLimited):
            self._slowed(_wait_seconds(err), saved=saved)
        elif isinstance(err, Unauthenticated):
            if self._attempts is not None:
                self._attempts.failed()
            if saved:
                person = None if self._saved is None else await self._remembered_person(self._saved)
                self._saved = None
                await self._forget_token()
                if person is not None and self._copies is not None:
                    await self._copies.erase(person)
                self._publish(SignInSnapshot(SignInPhase.SIGNED_OUT, notice=SAVED_TOKEN_REFUSED))
            else:
                self._publish(
                    SignInSnapshot(SignInPhase.SIGNED_OUT, remember=remember, error=TOKEN_REFUSED)
                )
        elif saved:
            reason = (
                f"{failure_text(err)}, so the sign-in this device remembered could not be checked."
            )
            self._publish(SignInSnapshot(SignInPhase.UNREACHABLE, remember=True, error=reason))
        else:
            reason = f"{failure_text(err)}, so the token could not be checked. Try again."
            self._publish(SignInSnapshot(SignInPhase.SIGNED_OUT, remember=remember, error=reason))

    def _slowed(self, seconds: int, *, saved: bool) -> None:
        """Attempts from here must wait ``seconds``: the form, or the retry, says so."""
        phase = SignInPhase.UNREACHABLE if saved else SignInPhase.SIGNED_OUT
        remember = self.snapshot.remember or saved
        self._publish(SignInSnapshot(phase, remember=remember, error=too_many_attempts(seconds)))

    def _refused(self, generation: int) -> None:
        """A 401 reached the account made in ``generation``: back to the form with the reason."""
        signed = self._signed
        if signed is None or signed.generation != generation:
            return  # the check itself (handled by _verify) or an account already ended
        self._saved = None
        self._end_account()
        self._publish(
            SignInSnapshot(SignInPhase.SIGNED_OUT, remember=self.snapshot.remember, notice=REVOKED)
        )
        # Called from inside the request that saw the 401: close and forget after it returns.
        task = asyncio.get_running_loop().create_task(self._retire(signed))
        self._retiring.add(task)
        task.add_done_callback(self._retiring.discard)

    async def _retire(self, signed: _Signed[AccountT]) -> None:
        await signed.api.aclose()
        await self._forget_token()
        if signed.remembered and self._copies is not None:
            await self._copies.erase(signed.person)  # a refused token's copy is never shown

    async def _forget_token(self) -> None:
        await self._storage.set(TOKEN_KEY, None)
        await self._storage.set(TOKEN_EXPIRES_KEY, None)
        await self._storage.set(PERSON_KEY, None)

    def _expiry(self) -> str:
        return (self._clock() + self._remember_for).astimezone(UTC).isoformat()

    def _end_account(self) -> _Signed[AccountT] | None:
        """Drops answers in flight and the account; its screens stop before its client closes."""
        self._generation += 1
        signed, self._signed = self._signed, None
        if signed is not None:
            self._close_account(signed.account)
        return signed


def _instant(value: object) -> datetime | None:
    """A stored expiry, or None when absent or unreadable (never a naive time)."""
    if not isinstance(value, str):
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else None


def _wait_seconds(err: RateLimited) -> int:
    seconds = err.retry_after
    if seconds is None:
        detail = err.details.get("retry_after_seconds") if err.details else None
        seconds = float(detail) if isinstance(detail, int | float) else None
    return max(1, math.ceil(seconds)) if seconds is not None else UNKNOWN_WAIT_SECONDS
