"""One browser session of a hosted web view: sign-in first, then that person's own screens.

Nothing here outlives the session or is shared between sessions. The session
holds a ``SignInViewModel``; once a token is accepted, ``open_account``
composes fresh view models over that person's own client (from
``SignInBackend.connect``), with device state in this browser's
``SharedPreferences`` under a namespace of the server *and the principal*,
so a second person signing in on the same browser never sees the first
one's cached history or expanded groups (and signing out forgets them in that
browser). The view cache (what the screens last read, shown offline) is kept
there too, and only for a person who ticked "Remember on this device";
``BrowserViewCaches`` finds it by the person stored beside the remembered
token, so a new tab opens on it while the server cannot be reached. The
account's live-update rounds run while it lives; sign-out, a 401, or the
session's end (``page.on_close``) stops them and closes the client.
A session ends ``app.web_server.HOSTED_SESSION_GRACE_SECONDS`` after its tab's
connection is gone: a tab that comes back later with the old session id gets
a new session, which shows the sign-in screen unless the browser remembered
the token.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import timedelta
from zoneinfo import ZoneInfo

import flet as ft

from app.backend import SignInBackend
from app.device_storage import PreferencesStorage, account_namespace
from app.session import compose_models, follow_lifecycle
from viewmodels.live_updates import LiveUpdates
from viewmodels.offline import ViewCache
from viewmodels.ports import Clock
from viewmodels.sign_in import Person, SignedInApi, SignInPhase, SignInViewModel
from views import ScreenModels, apply_look
from views.sign_in import SignInGate


@dataclass(frozen=True, slots=True, eq=False)
class SignedInSession:
    """One signed-in person's screens in one browser session."""

    models: ScreenModels
    live: LiveUpdates
    rounds: Future[None]
    storage: PreferencesStorage
    """This browser's device state for this person: forgotten when they sign out."""


@dataclass(frozen=True, slots=True)
class BrowserViewCaches:
    """``viewmodels.sign_in.OfflineCopies`` over one browser's storage and one server."""

    preferences: ft.SharedPreferences
    server_identity: str

    def cache_of(self, person: Person) -> ViewCache:
        namespace = account_namespace(self.server_identity, person.tenant_id, person.principal_id)
        return ViewCache(PreferencesStorage(self.preferences, namespace))

    async def holds(self, person: Person) -> bool:
        return await self.cache_of(person).holds_anything()

    async def erase(self, person: Person) -> None:
        await self.cache_of(person).drop()


def sign_in_entry(
    backend: SignInBackend,
    *,
    clock: Clock,
    device_zone: ZoneInfo,
    remember_for: timedelta = timedelta(days=30),
) -> Callable[[ft.Page], Awaitable[None]]:
    """The ``main`` Flet calls once per browser session of a hosted web view;
    ``remember_for`` is how long a remembered sign-in is kept (``--remember-days``)."""

    async def start(page: ft.Page) -> None:
        apply_look(page)
        preferences = ft.SharedPreferences()

        def open_account(api: SignedInApi, person: Person) -> SignedInSession:
            namespace = account_namespace(backend.identity, person.tenant_id, person.principal_id)
            storage = PreferencesStorage(preferences, namespace)
            # A remembered token signs in from STARTING; a typed one carries the tick.
            shown = sign_in.snapshot
            remembered = shown.remember or shown.phase is SignInPhase.STARTING
            composed = compose_models(
                api,
                storage,
                clock=clock,
                device_zone=device_zone,
                account=sign_in,
                views=ViewCache(storage) if remembered else None,
                on_server_reached=sign_in.server_answered,
            )
            rounds = page.run_task(composed.live.run)
            return SignedInSession(composed.models, composed.live, rounds, storage)

        def close_account(session: SignedInSession) -> None:
            session.rounds.cancel()

        async def forget_account(session: SignedInSession) -> None:
            await session.storage.forget_all()

        sign_in: SignInViewModel[SignedInSession] = SignInViewModel(
            backend,
            PreferencesStorage(preferences, backend.namespace),
            open_account=open_account,
            close_account=close_account,
            forget_account=forget_account,
            clock=clock,
            remember_for=remember_for,
            copies=BrowserViewCaches(preferences, backend.identity),
        )

        def current_live() -> LiveUpdates | None:
            account = sign_in.snapshot.account
            return account.live if account is not None else None

        async def on_closed(_event: ft.Event[ft.Page]) -> None:
            await sign_in.close()

        follow_lifecycle(page, current_live)
        page.on_close = on_closed
        page.render_views(SignInGate, sign_in)

    return start
