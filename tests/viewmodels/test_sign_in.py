"""Signing in to a hosted web view: each rule of ``viewmodels.sign_in``, without Flet.

The connector makes a real ``ScheduleClient`` per token, sending its requests
through the app's ``CredentialWatch`` (the piece that reports a 401 on any
request) over respx. ``GET /v1/principal`` answers by the bearer token it
receives, as the real server does: Alice's or Bob's principal, else 401.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
import respx
from babel import Locale

from app.credential_watch import CredentialWatch
from devtools.api_bodies import error, page, principal, principal_json, summary
from tests.clock import FakeClock
from tests.viewmodels.conftest import BASE_URL, no_sleep
from tests.viewmodels.fake_server import Held, ScriptedRoute, ok, refused, server_down
from transport.client import ScheduleClient
from transport.errors import ServerError, Unauthenticated
from viewmodels.language import DEFAULT_LOCALE, words_for
from viewmodels.ports import MemoryStorage
from viewmodels.sign_in import (
    EMPTY_TOKEN,
    MALFORMED_TOKEN,
    PERSON_KEY,
    REMEMBERED_EXPIRED,
    REVOKED,
    SAVED_TOKEN_REFUSED,
    SIGNED_OUT,
    TOKEN_EXPIRES_KEY,
    TOKEN_KEY,
    TOKEN_REFUSED,
    UNNAMED_ACCOUNT,
    Person,
    SignedInApi,
    SignInPhase,
    SignInSnapshot,
    SignInViewModel,
    token_digest,
)
from viewmodels.sign_in.snapshot import REMEMBER_LABEL

ALICE = "alice-token"
BOB = "bob-token"


def bob() -> dict[str, Any]:
    return principal_json(principal_id="bob", display_name="Bob Example")


class TrackedClient(ScheduleClient):
    """The real client, remembering whether it was closed and which token it sends."""

    def __init__(self, token: str, on_refused: Callable[[], None]) -> None:
        watched = CredentialWatch(httpx.AsyncHTTPTransport(), on_refused)
        super().__init__(
            BASE_URL, token=token, transport=watched, sleep=no_sleep, random=lambda: 0.0
        )
        self.token = token
        self.closed = False

    async def aclose(self) -> None:
        self.closed = True
        await super().aclose()


class Connector:
    def __init__(self) -> None:
        self.clients: list[TrackedClient] = []

    def connect(self, token: str, on_refused: Callable[[], None]) -> TrackedClient:
        client = TrackedClient(token, on_refused)
        self.clients.append(client)
        return client


@dataclass(eq=False)
class Account:
    """What the app would compose: here, the client and principal it was handed."""

    api: SignedInApi
    principal: Person
    closed: bool = False
    forgotten: bool = False


class Principals:
    """``GET /v1/principal`` answering by bearer token; a request can be held."""

    def __init__(self, router: respx.MockRouter) -> None:
        self.known = {ALICE: principal(), BOB: bob()}
        self.down = False
        self.held: Held | None = None
        self.requests: list[httpx.Request] = []
        router.get("/v1/principal").mock(side_effect=self._answer)

    async def _answer(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        if self.held is not None:
            self.held.arrived.set()
            await self.held.gate.wait()
        if self.down:
            raise httpx.ConnectError("connection refused", request=request)
        token = request.headers.get("Authorization", "").removeprefix("Bearer ")
        body = self.known.get(token)
        if body is None:
            return httpx.Response(401, json=error("auth.unauthenticated"))
        return httpx.Response(200, json=body)


@pytest.fixture
def principals(router: respx.MockRouter) -> Principals:
    return Principals(router)


@pytest.fixture
def connector() -> Iterator[Connector]:
    yield Connector()


class Copies:
    """The view caches a browser holds, by principal id; which were erased."""

    def __init__(self, *held: str) -> None:
        self.held = set(held)
        self.erased: list[Person] = []

    async def holds(self, person: Person) -> bool:
        return person.principal_id in self.held

    async def erase(self, person: Person) -> None:
        self.held.discard(person.principal_id)
        self.erased.append(person)


ALICE_PERSON = Person("acme", "alice", "Alice Example")


def remembered(token: str = ALICE, *, record_of: str | None = None) -> MemoryStorage:
    """Storage of a browser that remembered ``token``, and whose it is (of ``record_of``)."""
    return MemoryStorage(
        {
            TOKEN_KEY: token,
            PERSON_KEY: {
                "token_digest": token_digest(record_of or token),
                "tenant_id": "acme",
                "principal_id": "alice",
                "display_name": "Alice Example",
            },
        }
    )


SIGNED_IN_AT = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def make_model(
    connector: Connector,
    storage: MemoryStorage,
    accounts: list[Account] | None = None,
    *,
    clock: FakeClock | None = None,
    remember_for: timedelta = timedelta(days=30),
    copies: Copies | None = None,
) -> SignInViewModel[Account]:
    opened = accounts if accounts is not None else []

    def open_account(api: SignedInApi, who: Person) -> Account:
        account = Account(api, who)
        opened.append(account)
        return account

    def close_account(account: Account) -> None:
        account.closed = True

    async def forget_account(account: Account) -> None:
        account.forgotten = True

    return SignInViewModel(
        connector,
        storage,
        open_account=open_account,
        close_account=close_account,
        forget_account=forget_account,
        clock=clock or FakeClock(SIGNED_IN_AT),
        remember_for=remember_for,
        copies=copies,
    )


async def signed_in(
    connector: Connector, storage: MemoryStorage, token: str = ALICE, *, remember: bool = False
) -> SignInViewModel[Account]:
    model = make_model(connector, storage)
    await model.start()
    model.set_remember(remember)
    await model.sign_in(token)
    assert model.snapshot.phase is SignInPhase.SIGNED_IN
    return model


async def test_without_a_remembered_token_the_form_is_shown_and_nothing_is_asked(
    principals: Principals, connector: Connector, storage: MemoryStorage
) -> None:
    model = make_model(connector, storage)
    assert model.snapshot.phase is SignInPhase.STARTING and model.snapshot.busy

    await model.start()

    snapshot = model.snapshot
    assert snapshot.phase is SignInPhase.SIGNED_OUT
    assert (snapshot.shows_form, snapshot.form_enabled, snapshot.account) == (True, True, None)
    assert (snapshot.notice, snapshot.error, snapshot.remember) == (None, None, False)
    assert principals.requests == [] and connector.clients == []


@pytest.mark.parametrize(
    ("typed", "problem"),
    [
        pytest.param("", EMPTY_TOKEN, id="empty"),
        pytest.param("   \n", EMPTY_TOKEN, id="only-spaces"),
        pytest.param("two words", MALFORMED_TOKEN, id="space-inside"),
        pytest.param("tab\tinside", MALFORMED_TOKEN, id="tab-inside"),
        pytest.param("tökén", MALFORMED_TOKEN, id="not-ascii"),
        pytest.param("x" * 4097, MALFORMED_TOKEN, id="too-long"),
    ],
)
async def test_an_empty_or_malformed_token_is_refused_on_the_form_without_asking_the_server(
    principals: Principals, connector: Connector, storage: MemoryStorage, typed: str, problem: str
) -> None:
    model = make_model(connector, storage)
    await model.start()

    await model.sign_in(typed)

    assert model.snapshot.phase is SignInPhase.SIGNED_OUT
    assert model.snapshot.error == problem
    assert principals.requests == [] and connector.clients == []


async def test_a_token_the_server_refuses_is_a_sentence_on_the_form_and_its_client_closed(
    principals: Principals, connector: Connector, storage: MemoryStorage
) -> None:
    model = make_model(connector, storage)
    await model.start()
    model.set_remember(True)

    await model.sign_in("  not-a-known-token \n")

    snapshot = model.snapshot
    assert snapshot.phase is SignInPhase.SIGNED_OUT
    assert snapshot.error == TOKEN_REFUSED
    assert snapshot.remember is True  # the choice stays for the next attempt
    assert principals.requests[0].headers["Authorization"] == "Bearer not-a-known-token"
    assert connector.clients[0].closed
    assert await storage.get(TOKEN_KEY) is None


async def test_an_accepted_token_opens_the_account_over_its_own_client_sending_that_token(
    principals: Principals, connector: Connector, storage: MemoryStorage
) -> None:
    accounts: list[Account] = []
    model = make_model(connector, storage, accounts)
    await model.start()
    phases: list[SignInPhase] = []
    model.subscribe(lambda snapshot: phases.append(snapshot.phase))

    await model.sign_in(ALICE)

    assert phases == [SignInPhase.VERIFYING, SignInPhase.SIGNED_IN]
    snapshot = model.snapshot
    assert snapshot.display_name == "Alice Example"
    assert snapshot.account is accounts[0]
    assert accounts[0].api is connector.clients[0]
    assert accounts[0].principal.principal_id == "alice"
    assert not connector.clients[0].closed


async def test_an_unreachable_server_says_the_token_could_not_be_checked_not_that_it_is_wrong(
    principals: Principals, connector: Connector, storage: MemoryStorage
) -> None:
    model = make_model(connector, storage)
    await model.start()
    principals.down = True

    await model.sign_in(ALICE)

    assert model.snapshot.phase is SignInPhase.SIGNED_OUT
    assert model.snapshot.error == (
        "Could not reach the schedule server, so the token could not be checked. Try again."
    )
    assert connector.clients[0].closed

    principals.down = False
    await model.sign_in(ALICE)
    assert model.snapshot.phase is SignInPhase.SIGNED_IN


async def test_remember_writes_the_token_only_after_it_was_accepted(
    principals: Principals, connector: Connector, storage: MemoryStorage
) -> None:
    model = make_model(connector, storage)
    await model.start()
    model.set_remember(True)

    await model.sign_in("wrong-token")
    assert storage.keys() == []

    await model.sign_in(ALICE)
    assert await storage.get(TOKEN_KEY) == ALICE
    assert model.snapshot.remember is True


async def test_signing_in_without_remember_forgets_a_token_remembered_before(
    principals: Principals, connector: Connector
) -> None:
    storage = MemoryStorage({TOKEN_KEY: "older-token"})
    model = make_model(connector, storage)
    await model.start()  # the older token is refused: the form
    await model.sign_in(BOB)

    assert model.snapshot.display_name == "Bob Example"
    assert await storage.get(TOKEN_KEY) is None


async def test_a_remembered_token_signs_in_on_start_without_the_form(
    principals: Principals, connector: Connector
) -> None:
    storage = MemoryStorage({TOKEN_KEY: ALICE})
    model = make_model(connector, storage)
    phases: list[SignInPhase] = []
    model.subscribe(lambda snapshot: phases.append(snapshot.phase))

    await model.start()

    assert phases == [SignInPhase.SIGNED_IN]
    assert model.snapshot.remember is True
    assert model.snapshot.display_name == "Alice Example"
    assert connector.clients[0].token == ALICE


async def test_a_remembered_token_the_server_refuses_is_forgotten_and_the_form_says_why(
    principals: Principals, connector: Connector
) -> None:
    storage = MemoryStorage({TOKEN_KEY: "revoked-token"})
    model = make_model(connector, storage)

    await model.start()

    assert model.snapshot.phase is SignInPhase.SIGNED_OUT
    assert model.snapshot.notice == SAVED_TOKEN_REFUSED
    assert model.snapshot.error is None
    assert await storage.get(TOKEN_KEY) is None
    assert connector.clients[0].closed


async def test_a_remembered_token_during_an_outage_shows_retry_not_the_form(
    principals: Principals, connector: Connector
) -> None:
    storage = MemoryStorage({TOKEN_KEY: ALICE})
    model = make_model(connector, storage)
    principals.down = True

    await model.start()

    snapshot = model.snapshot
    assert snapshot.phase is SignInPhase.UNREACHABLE
    assert not snapshot.shows_form
    assert snapshot.error == (
        "Could not reach the schedule server, so the sign-in this device remembered "
        "could not be checked."
    )
    assert await storage.get(TOKEN_KEY) == ALICE  # kept: it was not refused

    principals.down = False
    await model.retry()
    assert model.snapshot.phase is SignInPhase.SIGNED_IN


async def test_giving_up_a_remembered_token_during_an_outage_forgets_it(
    principals: Principals, connector: Connector
) -> None:
    storage = MemoryStorage({TOKEN_KEY: ALICE})
    model = make_model(connector, storage)
    principals.down = True
    await model.start()

    await model.sign_out()

    assert model.snapshot.phase is SignInPhase.SIGNED_OUT
    assert await storage.get(TOKEN_KEY) is None


async def test_sign_out_ends_the_account_closes_its_client_and_forgets_the_token(
    principals: Principals, connector: Connector, storage: MemoryStorage
) -> None:
    model = await signed_in(connector, storage, remember=True)
    account = model.snapshot.account
    assert account is not None and await storage.get(TOKEN_KEY) == ALICE

    await model.sign_out()

    snapshot = model.snapshot
    assert snapshot.phase is SignInPhase.SIGNED_OUT
    assert (snapshot.notice, snapshot.account, snapshot.remember) == (SIGNED_OUT, None, False)
    assert account.closed and account.forgotten
    assert connector.clients[0].closed
    assert await storage.get(TOKEN_KEY) is None


async def test_a_401_on_any_request_of_the_account_returns_to_the_form_with_the_reason(
    principals: Principals,
    connector: Connector,
    storage: MemoryStorage,
    schedules_route: ScriptedRoute,
) -> None:
    model = await signed_in(connector, storage, remember=True)
    account = model.snapshot.account
    assert account is not None
    schedules_route.script((("ACTIVE", "PAUSED"), None), refused(401, "auth.unauthenticated"))

    with pytest.raises(Unauthenticated):
        await account.api.list_schedules(states=("ACTIVE", "PAUSED"))
    # The client closes and the token is forgotten once the refused request has returned.
    await asyncio.gather(*asyncio.all_tasks() - {asyncio.current_task()})

    snapshot = model.snapshot
    assert snapshot.phase is SignInPhase.SIGNED_OUT
    assert (snapshot.notice, snapshot.account) == (REVOKED, None)
    assert account.closed and not account.forgotten
    assert connector.clients[0].closed
    assert await storage.get(TOKEN_KEY) is None


async def test_a_server_outage_while_signed_in_keeps_the_account(
    principals: Principals,
    connector: Connector,
    storage: MemoryStorage,
    schedules_route: ScriptedRoute,
) -> None:
    model = await signed_in(connector, storage)
    account = model.snapshot.account
    assert account is not None
    schedules_route.script((("ACTIVE", "PAUSED"), None), *server_down())

    with pytest.raises(ServerError):
        await account.api.list_schedules(states=("ACTIVE", "PAUSED"))

    assert model.snapshot.phase is SignInPhase.SIGNED_IN
    assert model.snapshot.account is account and not account.closed


async def test_two_sessions_signed_in_at_once_each_send_only_their_own_token(
    principals: Principals,
    connector: Connector,
    schedules_route: ScriptedRoute,
) -> None:
    alice = await signed_in(connector, MemoryStorage(), ALICE)
    bobs = await signed_in(connector, MemoryStorage(), BOB)
    schedules_route.script("*", ok(page([summary("s")])))
    alice_account, bob_account = alice.snapshot.account, bobs.snapshot.account
    assert alice_account is not None and bob_account is not None

    await alice_account.api.list_schedules()
    await bob_account.api.list_schedules()

    assert alice_account.api is not bob_account.api
    sent = [request.headers["Authorization"] for request in schedules_route.requests]
    assert sent == [f"Bearer {ALICE}", f"Bearer {BOB}"]
    assert (alice.snapshot.display_name, bobs.snapshot.display_name) == (
        "Alice Example",
        "Bob Example",
    )


async def test_an_answer_arriving_after_the_session_closed_is_dropped_and_its_client_closed(
    principals: Principals, connector: Connector, storage: MemoryStorage
) -> None:
    accounts: list[Account] = []
    model = make_model(connector, storage, accounts)
    await model.start()
    model.set_remember(True)
    principals.held = Held(ok(principal()))
    signing_in = asyncio.create_task(model.sign_in(ALICE))
    await principals.held.arrived.wait()

    await model.close()
    principals.held.release()
    await signing_in

    assert accounts == []
    assert connector.clients[0].closed
    assert storage.writes == 0


async def test_closing_the_session_closes_the_client_and_touches_no_storage(
    principals: Principals, connector: Connector, storage: MemoryStorage
) -> None:
    model = await signed_in(connector, storage, remember=True)
    account = model.snapshot.account
    writes = storage.writes

    await model.close()

    assert account is not None and account.closed and not account.forgotten
    assert connector.clients[0].closed
    assert storage.writes == writes


# A remembered token's lifetime (--remember-days)


async def test_a_remembered_token_is_kept_with_its_expiry_the_remember_days_after_sign_in(
    principals: Principals, connector: Connector, storage: MemoryStorage
) -> None:
    model = make_model(connector, storage, remember_for=timedelta(days=7))
    await model.start()
    model.set_remember(True)
    await model.sign_in(ALICE)

    assert await storage.get(TOKEN_KEY) == ALICE
    assert await storage.get(TOKEN_EXPIRES_KEY) == (SIGNED_IN_AT + timedelta(days=7)).isoformat()


async def test_an_expired_remembered_token_is_forgotten_unused_and_the_form_says_why(
    principals: Principals, connector: Connector
) -> None:
    expired = (SIGNED_IN_AT - timedelta(seconds=1)).isoformat()
    storage = MemoryStorage({TOKEN_KEY: ALICE, TOKEN_EXPIRES_KEY: expired})
    model = make_model(connector, storage)

    await model.start()

    assert model.snapshot.phase is SignInPhase.SIGNED_OUT
    assert model.snapshot.notice == REMEMBERED_EXPIRED
    assert principals.requests == []  # the token was never sent again
    assert (await storage.get(TOKEN_KEY), await storage.get(TOKEN_EXPIRES_KEY)) == (None, None)


async def test_a_remembered_token_signs_in_until_its_expiry(
    principals: Principals, connector: Connector
) -> None:
    later = (SIGNED_IN_AT + timedelta(seconds=1)).isoformat()
    storage = MemoryStorage({TOKEN_KEY: ALICE, TOKEN_EXPIRES_KEY: later})
    model = make_model(connector, storage)

    await model.start()

    assert model.snapshot.phase is SignInPhase.SIGNED_IN
    assert await storage.get(TOKEN_EXPIRES_KEY) == later  # not extended by using it


async def test_a_token_remembered_before_expiries_gets_one_from_its_next_start(
    principals: Principals, connector: Connector
) -> None:
    storage = MemoryStorage({TOKEN_KEY: ALICE})
    model = make_model(connector, storage, remember_for=timedelta(days=30))

    await model.start()

    assert model.snapshot.phase is SignInPhase.SIGNED_IN
    assert await storage.get(TOKEN_EXPIRES_KEY) == (SIGNED_IN_AT + timedelta(days=30)).isoformat()


async def test_sign_out_forgets_the_token_and_its_expiry_at_once(
    principals: Principals, connector: Connector, storage: MemoryStorage
) -> None:
    model = await signed_in(connector, storage, remember=True)
    assert await storage.get(TOKEN_EXPIRES_KEY) is not None

    await model.sign_out()

    assert await storage.get(TOKEN_KEY) is None
    assert await storage.get(TOKEN_EXPIRES_KEY) is None


# The server slowing sign-in attempts (429 after repeated failures)


def slowed(router: respx.MockRouter, seconds: int) -> None:
    body = error("request.rate_limited", retry_after_seconds=seconds)
    router.get("/v1/principal").mock(
        return_value=httpx.Response(429, json=body, headers={"Retry-After": str(seconds)})
    )


@pytest.mark.parametrize("seconds", [5, 40])
async def test_a_slowed_sign_in_says_too_many_attempts_and_the_wait(
    router: respx.MockRouter, connector: Connector, storage: MemoryStorage, seconds: int
) -> None:
    slowed(router, seconds)
    model = make_model(connector, storage)
    await model.start()

    await model.sign_in(ALICE)

    snapshot = model.snapshot
    assert snapshot.phase is SignInPhase.SIGNED_OUT and snapshot.form_enabled
    assert snapshot.error == f"Too many attempts. Try again in {seconds} s."
    assert connector.clients[0].closed
    assert await storage.get(TOKEN_KEY) is None


async def test_a_slowed_remembered_sign_in_keeps_the_token_and_offers_retry(
    router: respx.MockRouter, connector: Connector
) -> None:
    slowed(router, 40)
    storage = MemoryStorage({TOKEN_KEY: ALICE})
    model = make_model(connector, storage)

    await model.start()

    assert model.snapshot.phase is SignInPhase.UNREACHABLE
    assert model.snapshot.error == "Too many attempts. Try again in 40 s."
    assert await storage.get(TOKEN_KEY) == ALICE


def test_signed_in_as_names_the_principal_or_you_when_it_has_no_name() -> None:
    named: SignInSnapshot[None] = SignInSnapshot(SignInPhase.SIGNED_IN, display_name="Alice")
    unnamed: SignInSnapshot[None] = SignInSnapshot(SignInPhase.SIGNED_IN, display_name=None)
    blank: SignInSnapshot[None] = SignInSnapshot(SignInPhase.SIGNED_IN, display_name="")
    assert named.account_name == "Alice"
    assert unnamed.account_name == blank.account_name == UNNAMED_ACCOUNT == "you"


async def test_remember_keeps_whose_token_it_is_beside_it_and_sign_out_forgets_both(
    principals: Principals, connector: Connector, storage: MemoryStorage
) -> None:
    model = await signed_in(connector, storage, remember=True)
    record = await storage.get(PERSON_KEY)
    assert record == {
        "token_digest": token_digest(ALICE),
        "tenant_id": "acme",
        "principal_id": "alice",
        "display_name": "Alice Example",
    }
    assert ALICE not in str(record)  # a digest, never the token

    await model.sign_out()
    assert await storage.get(PERSON_KEY) is None


async def test_a_remembered_sign_in_opens_offline_on_this_browsers_copy_then_checks_the_token(
    principals: Principals, connector: Connector
) -> None:
    accounts: list[Account] = []
    model = make_model(connector, remembered(), accounts, copies=Copies("alice"))
    principals.down = True

    await model.start()

    snapshot = model.snapshot
    assert snapshot.phase is SignInPhase.SIGNED_IN and snapshot.verified is False
    assert (snapshot.display_name, snapshot.remember) == ("Alice Example", True)
    assert accounts[0].principal == ALICE_PERSON
    assert accounts[0].api is connector.clients[0] and not connector.clients[0].closed

    model.server_answered()  # a screen's read failed over: still unreachable, still offline
    await asyncio.gather(*asyncio.all_tasks() - {asyncio.current_task()})
    assert model.snapshot.verified is False

    principals.down = False
    model.server_answered()
    await asyncio.gather(*asyncio.all_tasks() - {asyncio.current_task()})

    assert model.snapshot.phase is SignInPhase.SIGNED_IN and model.snapshot.verified is True
    assert model.snapshot.account is accounts[0]
    assert principals.requests[-1].headers["Authorization"] == f"Bearer {ALICE}"


async def test_a_token_refused_once_the_server_answers_ends_the_offline_account_and_its_copy(
    principals: Principals, connector: Connector
) -> None:
    copies = Copies("alice")
    storage = remembered()
    model = make_model(connector, storage, copies=copies)
    principals.down = True
    await model.start()
    account = model.snapshot.account
    assert account is not None

    principals.down = False
    del principals.known[ALICE]  # revoked while the server was away
    model.server_answered()
    await asyncio.gather(*asyncio.all_tasks() - {asyncio.current_task()})
    await asyncio.gather(*asyncio.all_tasks() - {asyncio.current_task()})

    assert model.snapshot.phase is SignInPhase.SIGNED_OUT
    assert (model.snapshot.notice, model.snapshot.account) == (REVOKED, None)
    assert account.closed and copies.erased == [ALICE_PERSON]
    assert await storage.get(TOKEN_KEY) is None and await storage.get(PERSON_KEY) is None


@pytest.mark.parametrize(
    ("storage_of", "held"),
    [
        (lambda: remembered(), ()),  # no copy on this browser
        (lambda: remembered(record_of="another-token"), ("alice",)),  # another token's record
        (lambda: MemoryStorage({TOKEN_KEY: ALICE}), ("alice",)),  # no record beside the token
    ],
    ids=["no-copy", "another-tokens-record", "no-record"],
)
async def test_without_a_copy_for_the_remembered_token_an_outage_at_start_shows_retry(
    principals: Principals,
    connector: Connector,
    storage_of: Callable[[], MemoryStorage],
    held: tuple[str, ...],
) -> None:
    model = make_model(connector, storage_of(), copies=Copies(*held))
    principals.down = True

    await model.start()

    assert model.snapshot.phase is SignInPhase.UNREACHABLE
    assert model.snapshot.account is None and connector.clients[0].closed


async def test_a_typed_token_never_opens_offline_even_with_a_copy_on_this_browser(
    principals: Principals, connector: Connector, storage: MemoryStorage
) -> None:
    model = make_model(connector, storage, copies=Copies("alice"))
    await model.start()
    model.set_remember(True)
    principals.down = True

    await model.sign_in(ALICE)

    assert model.snapshot.phase is SignInPhase.SIGNED_OUT
    assert model.snapshot.error is not None and model.snapshot.account is None


async def test_a_remembered_token_refused_at_start_erases_its_persons_copy(
    principals: Principals, connector: Connector
) -> None:
    copies = Copies("alice")
    storage = remembered("revoked-token")
    model = make_model(connector, storage, copies=copies)

    await model.start()

    assert model.snapshot.notice == SAVED_TOKEN_REFUSED
    assert copies.erased == [ALICE_PERSON]
    assert await storage.get(PERSON_KEY) is None


GERMAN = Locale.parse("de_DE")


async def test_a_refusal_reads_in_german_once_the_browser_says_its_language(
    principals: Principals, connector: Connector, storage: MemoryStorage
) -> None:
    model = make_model(connector, storage)
    seen: list[SignInSnapshot[Account]] = []
    model.subscribe(seen.append)
    await model.start()
    await model.sign_in("someone-elses-token")
    assert model.snapshot.error == TOKEN_REFUSED and model.snapshot.locale == DEFAULT_LOCALE

    model.learn_locale(GERMAN)

    snapshot = model.snapshot
    assert seen[-1] is snapshot, "the new language is published"
    assert snapshot.locale == GERMAN
    assert snapshot.phase is SignInPhase.SIGNED_OUT and snapshot.form_enabled
    assert snapshot.error == (
        "Der Zeitplan-Server hat dieses Token nicht akzeptiert. "
        "Prüfen Sie es oder fordern Sie ein neues an."
    )
    assert words_for(snapshot.locale).gettext(REMEMBER_LABEL) == "Auf diesem Gerät merken"


async def test_after_learning_german_an_outage_and_the_account_read_in_german(
    principals: Principals, connector: Connector, storage: MemoryStorage
) -> None:
    model = make_model(connector, storage)
    await model.start()
    model.learn_locale(GERMAN)
    principals.down = True

    await model.sign_in(ALICE)

    assert model.snapshot.error == (
        "Der Zeitplan-Server ist nicht erreichbar, daher konnte das Token nicht geprüft "
        "werden. Versuchen Sie es erneut."
    )
    principals.down = False
    await model.sign_in(ALICE)
    assert model.snapshot.locale == GERMAN and model.snapshot.error is None
    assert model.snapshot.signed_in_text == "Angemeldet als\nAlice Example"
