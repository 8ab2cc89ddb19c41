"""One browser session of a hosted web view: sign-in first, then that person's own screens.

Nothing here outlives the session or is shared between sessions. Once a token is
accepted, ``open_account`` composes fresh view models over that person's own
client (``SignInBackend.connect``); sign-out, a 401 or the session's end (``page.on_close``,
after the grace of ``app.web.server``) stops its rounds and closes it. A person's
device state and view cache stay in memory unless they ticked "Remember on this
device" (``app.remembered_sign_in``), and are kept per server and person, so a
second person on the same browser never sees the first one's. Failed sign-ins are
slowed per browser address (``app.browser_address``), one throttle for the process.
Signing in, and a signed-in tab reconnecting, admits its socket past
``app.web.sign_in_door``. The browser's preferred languages give the person's
formats and language (``app.page_locale``); they are asked before a remembered
token is used, so the screens it opens at once are in the person's formats and
words too, and the sign-in screen says its words in them once they are known.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import cast
from zoneinfo import ZoneInfo

import flet as ft
from babel import Locale

from app.backend.remote import SignInBackend
from app.browser_address import BrowserAttempts
from app.device_storage import PreferencesStorage, account_namespace
from app.page_locale import first_locale, flet_locale, follow_browser
from app.remembered_sign_in import RememberedSignIn
from app.remembered_tokens import RememberedTokens
from app.session import compose_models, follow_lifecycle
from app.tab_gone import ends_quietly_when_gone
from app.view_cache_store import ViewCacheStore
from app.web.sign_in_door import admit_this_socket
from auth_throttle import AuthThrottle, FailurePolicy
from transport.client import ScheduleClient
from viewmodels.formatting.clock_text import HourCycle, display_zone
from viewmodels.live_updates import LiveUpdates
from viewmodels.ports import Clock, MemoryStorage
from viewmodels.sign_in import Person, SignedInApi, SignInPhase, SignInViewModel
from views import ScreenModels, apply_look
from views.sign_in import SignInGate


@dataclass(frozen=True, slots=True, eq=False)
class SignedInSession:
    """One signed-in person's screens in one browser session."""

    models: ScreenModels
    live: LiveUpdates
    rounds: Future[None]
    kept: PreferencesStorage | None
    """This browser's device state for this person, None unless they ticked Remember:
    forgotten when they sign out."""


@dataclass(frozen=True, slots=True)
class BrowserViewCaches:
    """``viewmodels.sign_in.OfflineCopies`` over one browser's storage and one server."""

    preferences: ft.SharedPreferences
    server_identity: str

    def cache_of(self, person: Person) -> ViewCacheStore:
        namespace = account_namespace(self.server_identity, person.tenant_id, person.principal_id)
        return ViewCacheStore(PreferencesStorage(self.preferences, namespace))

    async def holds(self, person: Person) -> bool:
        return await self.cache_of(person).holds_anything()

    async def erase(self, person: Person) -> None:
        await self.cache_of(person).drop()


def sign_in_entry(
    backend: SignInBackend,
    tokens: RememberedTokens,
    *,
    clock: Clock,
    device_zone: ZoneInfo,
    remember_for: timedelta = timedelta(days=30),
    sign_in_failures: FailurePolicy = FailurePolicy(),  # noqa: B008 (frozen, immutable)
    locale: str | None = None,
) -> Callable[[ft.Page], Awaitable[None]]:
    """The ``main`` Flet calls once per browser session of a hosted web view;
    ``tokens`` keeps remembered tokens on the host for every session;
    ``remember_for`` is how long a remembered sign-in is kept (``--remember-days``);
    ``sign_in_failures`` is how each browser's failed sign-ins are slowed;
    ``locale`` (``--locale``) is every person's formats instead of their browser's."""
    throttle = AuthThrottle(sign_in_failures, clock)

    async def start(page: ft.Page) -> None:
        apply_look(page)
        # Each person's browser says their formats (two people on one host may differ),
        # asked once the sign-in screen is up and before a remembered token opens
        # screens in them (``begin``).
        starting = first_locale(page, locale)
        shown_zone = display_zone(device_zone, HourCycle.LANGUAGE, starting)
        page.locale_configuration = flet_locale(starting)

        def learn(found: Locale) -> None:
            nonlocal shown_zone
            shown_zone = display_zone(device_zone, HourCycle.LANGUAGE, found)
            page.locale_configuration = flet_locale(found)
            sign_in.learn_locale(found)

        preferences = ft.SharedPreferences()
        browser = page.client_ip or ""
        connector = replace(backend, browser_address=browser or None)

        kept_for: dict[str, PreferencesStorage] = {}
        """Each remembered person's storage opened in this session, by namespace."""

        def open_account(api: SignedInApi, person: Person) -> SignedInSession:
            # A remembered token signs in from STARTING; a typed one carries the tick.
            shown = sign_in.snapshot
            remembered = shown.remember or shown.phase is SignInPhase.STARTING
            kept: PreferencesStorage | None = None
            if remembered:
                namespace = account_namespace(
                    backend.identity, person.tenant_id, person.principal_id
                )
                kept = kept_for[namespace] = PreferencesStorage(preferences, namespace)
            composed = compose_models(
                api,
                MemoryStorage() if kept is None else kept,
                clock=clock,
                device_zone=shown_zone,
                account=sign_in,
                views=None if kept is None else ViewCacheStore(kept),
                on_server_reached=sign_in.server_answered,
                # A hosted session is a browser tab on a remote server: feeds, no file, no webcal.
                feeds=api if isinstance(api, ScheduleClient) else None,
            )
            rounds = page.run_task(composed.live.run)
            admit_this_socket()  # signed in: the socket stops waiting (app.web.sign_in_door)
            return SignedInSession(composed.models, composed.live, rounds, kept)

        def close_account(session: SignedInSession) -> None:
            session.rounds.cancel()

        async def forget_account(session: SignedInSession) -> None:
            if session.kept is not None:
                await session.kept.forget_all()

        async def erase_person(person: Person) -> None:
            """Everything this browser kept for ``person``; a screen of theirs still open
            in this session writes nothing more."""
            namespace = account_namespace(backend.identity, person.tenant_id, person.principal_id)
            kept = kept_for.pop(namespace, None) or PreferencesStorage(preferences, namespace)
            await kept.forget_all()

        remembered = RememberedSignIn(
            preferences, backend.namespace, tokens, clock=clock, on_erased=erase_person
        )
        sign_in: SignInViewModel[SignedInSession] = SignInViewModel(
            connector,
            remembered,
            open_account=open_account,
            close_account=close_account,
            forget_account=forget_account,
            clock=clock,
            remember_for=remember_for,
            copies=BrowserViewCaches(preferences, backend.identity),
            attempts=BrowserAttempts(throttle, browser),
            locale=starting,
        )

        def current_live() -> LiveUpdates | None:
            account = sign_in.snapshot.account
            return account.live if account is not None else None

        async def on_closed(_event: ft.Event[ft.Page]) -> None:
            remembered.close()
            await sign_in.close()

        follow_lifecycle(page, current_live)
        # follow_lifecycle's handler, which takes the event.
        resume = cast("Callable[[ft.Event[ft.Page]], object] | None", page.on_connect)

        def on_connect(event: ft.Event[ft.Page]) -> None:
            if sign_in.snapshot.account is not None:
                admit_this_socket()  # a signed-in tab came back on a new socket
            if resume is not None:
                resume(event)

        page.on_connect = on_connect
        page.on_close = on_closed

        async def begin() -> None:
            if not locale:
                await follow_browser(page, learn)
            await sign_in.start()

        page.render_views(SignInGate, sign_in)
        page.run_task(begin)

    return ends_quietly_when_gone(start)
