"""Signing in to a hosted web view: one person's token, checked, remembered only if asked.

Each browser session signs in with its own token: a client holding it (from the
``Connector``) checks it with ``GET /v1/principal``, and only then is it handed to
``open_account``, which composes that person's screens until sign-out, a 401 or
the session's end. A remembered token (``remembered.py``) signs in on the next
start, or opens that person's copy when the server cannot be reached. The states
and every rule with its test: viewmodels/README.md, "Sign-in of the hosted web view".
Its words follow the browser's language once learnt (``learn_locale``, ``phrases``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import timedelta
from typing import TypeVar

from babel import Locale

from transport.errors import ApiError, RateLimited, Unauthenticated
from viewmodels.language import DEFAULT_LOCALE
from viewmodels.observable import Observable
from viewmodels.offline import unreachable
from viewmodels.ports import Clock, DeviceStorage, utc_now
from viewmodels.sign_in.phrases import Spoken, said, slowed, unchecked
from viewmodels.sign_in.ports import Connector, OfflineCopies, SignedInApi, SignInAttempts
from viewmodels.sign_in.remembered import DEFAULT_REMEMBER_FOR, RememberedSignIn
from viewmodels.sign_in.signed import SignedAccount
from viewmodels.sign_in.snapshot import (
    REMEMBERED_EXPIRED,
    REVOKED,
    SAVED_TOKEN_REFUSED,
    SIGNED_OUT,
    TOKEN_REFUSED,
    Person,
    SignInPhase,
    SignInSnapshot,
    token_problem,
    wait_seconds,
)

AccountT = TypeVar("AccountT")


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
        clock: Clock = utc_now,
        remember_for: timedelta = DEFAULT_REMEMBER_FOR,
        copies: OfflineCopies | None = None,
        attempts: SignInAttempts | None = None,
        locale: Locale = DEFAULT_LOCALE,
    ) -> None:
        """``open_account`` composes the signed-in person's screens over their client;
        ``close_account`` stops them (before the client closes); ``forget_account``
        clears what this browser kept for them, on sign-out only. A remembered token
        is forgotten ``remember_for`` after the sign-in that remembered it. ``copies``
        are the view caches a remembered sign-in may open offline on (None: never);
        ``attempts`` slows this browser's failed sign-ins (None: only the server does);
        ``locale`` is the language its words start in (``learn_locale`` changes it)."""
        super().__init__(SignInSnapshot(SignInPhase.STARTING, locale=locale))
        self._spoken: Spoken[AccountT] = Spoken(locale, self._publish)
        self._connector = connector
        self._remembered = RememberedSignIn(storage, clock=clock, remember_for=remember_for)
        self._open_account = open_account
        self._close_account = close_account
        self._forget_account = forget_account
        self._generation = 0
        self._signed: SignedAccount[AccountT] | None = None
        self._saved: str | None = None
        self._started = False
        self._retiring: set[asyncio.Task[None]] = set()
        self._confirming: asyncio.Task[None] | None = None
        self._copies = copies
        self._attempts = attempts

    def learn_locale(self, locale: Locale) -> None:
        """The browser said its language: the snapshot now says everything in it."""
        self._spoken.learn(locale, self.snapshot)

    async def start(self) -> None:
        """The session opened: sign in with this browser's remembered token, or show the form."""
        if self._started:
            return
        self._started = True
        saved = await self._remembered.token()
        if saved is None:
            self._spoken.show(SignInSnapshot(SignInPhase.SIGNED_OUT))
            return
        if await self._remembered.expired():
            await self._remembered.forget()
            self._spoken.show(
                SignInSnapshot(SignInPhase.SIGNED_OUT), notice=said(REMEMBERED_EXPIRED)
            )
            return
        self._saved = saved
        await self._verify(saved, saved=True)

    async def retry(self) -> None:
        """Check the remembered token again after an outage."""
        if self.snapshot.phase is not SignInPhase.UNREACHABLE or self._saved is None:
            return
        self._spoken.show(SignInSnapshot(SignInPhase.STARTING, remember=True))
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
            self._spoken.show(self.snapshot, error=said(problem))
            return
        self._spoken.show(replace(self.snapshot, phase=SignInPhase.VERIFYING))
        await self._verify(token, saved=False)

    async def sign_out(self) -> None:
        """End the account (or give up a remembered token that cannot be checked); forget it."""
        if self.snapshot.phase not in (SignInPhase.SIGNED_IN, SignInPhase.UNREACHABLE):
            return
        self._saved = None
        signed = self._end_account()
        self._spoken.show(SignInSnapshot(SignInPhase.SIGNED_OUT), notice=said(SIGNED_OUT))
        if signed is not None:
            await signed.api.aclose()
        await self._remembered.forget()
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
                    await self._remembered.keep(token)
                await self._remembered.keep_person(token, person)
            else:
                await self._remembered.forget()
        if generation != self._generation:  # signed out or closed meanwhile
            await api.aclose()
            return
        self._open(api, generation, person, remembered=remember)

    async def _open_offline(self, api: SignedInApi, token: str, generation: int) -> bool:
        """The remembered person's screens on this browser's copy, or False (none to show)."""
        if self._copies is None or generation != self._generation:
            return False
        person = await self._remembered.person(token)
        if person is None or not await self._copies.holds(person):
            return False
        if generation != self._generation:
            return False
        self._open(api, generation, person, remembered=True, verified=False)
        return True

    def _open(
        self,
        api: SignedInApi,
        generation: int,
        person: Person,
        *,
        remembered: bool,
        verified: bool = True,
    ) -> None:
        """The person's screens, composed over their client: the account is signed in."""
        account = self._open_account(api, person)
        self._signed = SignedAccount(api, account, generation, person, remembered, verified)
        self._spoken.show(
            SignInSnapshot(
                SignInPhase.SIGNED_IN,
                remember=remembered,
                display_name=person.display_name,
                account=account,
                verified=verified,
            )
        )

    def server_answered(self) -> None:
        """The screens read the server: an account opened offline now checks its token."""
        signed = self._signed
        if signed is None or signed.verified or self._confirming is not None:
            return
        self._confirming = asyncio.get_running_loop().create_task(self._confirm(signed))

    async def _confirm(self, signed: SignedAccount[AccountT]) -> None:
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
            await self._remembered.keep_person(self._saved, person)
        if self._signed is not None and self._signed.generation == signed.generation:
            self._publish(
                replace(self.snapshot, display_name=principal.display_name, verified=True)
            )

    async def _check_failed(self, err: ApiError, *, saved: bool) -> None:
        remember = self.snapshot.remember
        if isinstance(err, RateLimited):
            self._slowed(wait_seconds(err), saved=saved)
        elif isinstance(err, Unauthenticated):
            if self._attempts is not None:
                self._attempts.failed()
            if saved:
                person = None if self._saved is None else await self._remembered.person(self._saved)
                self._saved = None
                await self._remembered.forget()
                if person is not None and self._copies is not None:
                    await self._copies.erase(person)
                self._spoken.show(
                    SignInSnapshot(SignInPhase.SIGNED_OUT), notice=said(SAVED_TOKEN_REFUSED)
                )
            else:
                self._spoken.show(
                    SignInSnapshot(SignInPhase.SIGNED_OUT, remember=remember),
                    error=said(TOKEN_REFUSED),
                )
        else:
            phase = SignInPhase.UNREACHABLE if saved else SignInPhase.SIGNED_OUT
            error = unchecked(err, remembered=saved)
            self._spoken.show(SignInSnapshot(phase, remember=remember or saved), error=error)

    def _slowed(self, seconds: int, *, saved: bool) -> None:
        """Attempts from here must wait ``seconds``: the form, or the retry, says so."""
        phase = SignInPhase.UNREACHABLE if saved else SignInPhase.SIGNED_OUT
        remember = self.snapshot.remember or saved
        self._spoken.show(SignInSnapshot(phase, remember=remember), error=slowed(seconds))

    def _refused(self, generation: int) -> None:
        """A 401 reached the account made in ``generation``: back to the form with the reason."""
        signed = self._signed
        if signed is None or signed.generation != generation:
            return  # the check itself (handled by _verify) or an account already ended
        self._saved = None
        self._end_account()
        self._spoken.show(
            SignInSnapshot(SignInPhase.SIGNED_OUT, remember=self.snapshot.remember),
            notice=said(REVOKED),
        )
        # Called from inside the request that saw the 401: close and forget after it returns.
        task = asyncio.get_running_loop().create_task(signed.retire(self._remembered, self._copies))
        self._retiring.add(task)
        task.add_done_callback(self._retiring.discard)

    def _end_account(self) -> SignedAccount[AccountT] | None:
        """Drops answers in flight and the account; its screens stop before its client closes."""
        self._generation += 1
        signed, self._signed = self._signed, None
        if signed is not None:
            self._close_account(signed.account)
        return signed
