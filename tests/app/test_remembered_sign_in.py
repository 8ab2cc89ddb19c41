"""A remembered hosted sign-in: a browser record holding a handle, the token kept by the host.

The real ``SignInViewModel`` over ``RememberedSignIn`` over a fake
``SharedPreferences`` (``tests.app.test_device_storage``); ``GET
/v1/principal`` answers by bearer token over respx, as the server does. The
erase scheduled at expiry sleeps through ``ManualSleep`` and reads a fake
clock, so the tests move time instead of waiting for it.
"""

from __future__ import annotations

import asyncio
import json
import stat
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
import respx

from app.credential_watch import CredentialWatch
from app.remembered_sign_in import RECORD_KEY, RememberedSignIn
from app.remembered_tokens import FILE_NAME, RememberedTokens
from devtools.api_bodies import error, principal_json
from tests.app.test_device_storage import FakePreferences
from tests.clock import NOW, FakeClock
from tests.viewmodels.manual_sleep import ManualSleep
from transport.client import ScheduleClient
from viewmodels.sign_in import (
    PERSON_KEY,
    REMEMBERED_EXPIRED,
    SIGNED_OUT,
    TOKEN_EXPIRES_KEY,
    TOKEN_KEY,
    Person,
    SignInPhase,
    SignInViewModel,
)

BASE_URL = "https://schedules.test"
NAMESPACE = "server"
ALICE = "alice-token"
BOB = "bob-token"
REMEMBER_FOR = timedelta(days=7)
RECORD = f"schedule-browser.{NAMESPACE}.{RECORD_KEY}"


class Server:
    """``GET /v1/principal`` by bearer token; ``down`` refuses connections."""

    def __init__(self, router: respx.MockRouter) -> None:
        self.down = False
        router.get("/v1/principal").mock(side_effect=self._answer)

    def _answer(self, request: httpx.Request) -> httpx.Response:
        if self.down:
            raise httpx.ConnectError("connection refused", request=request)
        token = request.headers.get("Authorization", "").removeprefix("Bearer ")
        known = {
            ALICE: principal_json(principal_id="alice", display_name="Alice Example"),
            BOB: principal_json(principal_id="bob", display_name="Bob Example"),
        }
        if token not in known:
            return httpx.Response(401, json=error("auth.unauthenticated"))
        return httpx.Response(200, json=known[token])


class Connector:
    def connect(self, token: str, on_refused: Callable[[], None]) -> ScheduleClient:
        watched = CredentialWatch(httpx.AsyncHTTPTransport(), on_refused)
        return ScheduleClient(BASE_URL, token=token, transport=watched)


class Browser:
    """One browser's storage, and one session's sign-in over it."""

    def __init__(
        self, prefs: FakePreferences, clock: FakeClock, sleep: ManualSleep, host: RememberedTokens
    ) -> None:
        self.prefs = prefs
        self.erased: list[Person] = []
        self.erasing = asyncio.Event()
        self.remembered = RememberedSignIn(
            prefs, NAMESPACE, host, clock=clock, on_erased=self._erased, sleep=sleep
        )
        self.model: SignInViewModel[Person] = SignInViewModel(
            Connector(),
            self.remembered,
            open_account=lambda _api, person: person,
            clock=clock,
            remember_for=REMEMBER_FOR,
        )

    async def _erased(self, person: Person) -> None:
        self.erased.append(person)
        self.erasing.set()

    def stored(self) -> dict[str, object]:
        return {key: json.loads(str(value)) for key, value in self.prefs.values.items()}

    def handle(self) -> str:
        record = self.stored()[RECORD]
        assert isinstance(record, dict)
        return str(record["handle"])


@pytest.fixture
def server() -> Iterator[Server]:
    with respx.mock(base_url=BASE_URL, assert_all_called=False) as router:
        yield Server(router)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(NOW)


@pytest.fixture
def sleep() -> ManualSleep:
    return ManualSleep()


@pytest.fixture
def host(tmp_path: Path, clock: FakeClock) -> RememberedTokens:
    """The hosted app's remembered tokens, in its data folder."""
    return RememberedTokens(tmp_path, clock)


@pytest.fixture
async def browser(clock: FakeClock, sleep: ManualSleep, host: RememberedTokens) -> Browser:
    return Browser(FakePreferences(), clock, sleep, host)


async def signed_in(browser: Browser, token: str, *, remember: bool) -> None:
    await browser.model.start()
    browser.model.set_remember(remember)
    await browser.model.sign_in(token)
    assert browser.model.snapshot.phase is SignInPhase.SIGNED_IN


async def test_remember_stores_one_record_with_a_handle_its_expiry_and_whose_it_is(
    server: Server, browser: Browser, host: RememberedTokens, tmp_path: Path
) -> None:
    await signed_in(browser, ALICE, remember=True)

    stored = browser.stored()
    assert list(stored) == [RECORD]
    record = stored[RECORD]
    assert isinstance(record, dict)
    assert set(record) == {"handle", "expires_at", "person"}
    assert record["expires_at"] == (NOW + REMEMBER_FOR).isoformat()
    assert record["person"]["principal_id"] == "alice"
    assert ALICE not in json.dumps(stored)
    assert host.token(browser.handle()) == ALICE
    kept = tmp_path / FILE_NAME
    assert browser.handle() not in kept.read_text()  # the host keeps its digest only
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    browser.remembered.close()


async def test_the_host_stops_honouring_the_handle_at_its_expiry_whatever_the_browser_keeps(
    server: Server, browser: Browser, host: RememberedTokens, clock: FakeClock, tmp_path: Path
) -> None:
    await signed_in(browser, ALICE, remember=True)
    browser.remembered.close()  # the tab is closed: the browser keeps its record
    handle = browser.handle()

    clock.advance(REMEMBER_FOR)

    assert host.token(handle) is None
    assert ALICE not in (tmp_path / FILE_NAME).read_text()
    assert RECORD in browser.prefs.values


async def test_a_restarted_host_still_knows_a_remembered_handle(
    server: Server, browser: Browser, clock: FakeClock, tmp_path: Path
) -> None:
    await signed_in(browser, ALICE, remember=True)
    browser.remembered.close()

    assert RememberedTokens(tmp_path, clock).token(browser.handle()) == ALICE


async def test_a_handle_the_host_no_longer_knows_signs_the_page_out(
    server: Server, clock: FakeClock, sleep: ManualSleep, host: RememberedTokens, tmp_path: Path
) -> None:
    prefs = FakePreferences()
    first = Browser(prefs, clock, sleep, host)
    await signed_in(first, ALICE, remember=True)
    first.remembered.close()
    (tmp_path / FILE_NAME).write_text("not json")  # the host's file lost or damaged

    later = Browser(prefs, clock, sleep, RememberedTokens(tmp_path, clock))
    await later.model.start()

    assert later.model.snapshot.phase is SignInPhase.SIGNED_OUT
    assert prefs.values == {}
    assert [person.principal_id for person in later.erased] == ["alice"]


async def test_the_record_is_erased_at_its_expiry_while_the_page_is_open(
    server: Server, browser: Browser, clock: FakeClock, sleep: ManualSleep
) -> None:
    await signed_in(browser, ALICE, remember=True)
    await sleep.sleepers(1)
    assert browser.prefs.values != {}

    clock.advance(REMEMBER_FOR)
    sleep.pass_time()
    await asyncio.wait_for(browser.erasing.wait(), timeout=5)

    assert browser.prefs.values == {}
    assert [person.principal_id for person in browser.erased] == ["alice"]
    assert browser.model.snapshot.phase is SignInPhase.SIGNED_IN  # the session goes on


async def test_the_erase_naps_at_most_an_hour_and_reads_the_clock_again(
    server: Server, browser: Browser, clock: FakeClock, sleep: ManualSleep
) -> None:
    await signed_in(browser, ALICE, remember=True)
    await sleep.sleepers(1)
    clock.advance(hours=1)
    sleep.pass_time()
    await sleep.sleepers(2)

    assert sleep.asked == [3600.0, 3600.0]
    assert browser.erased == [] and RECORD in browser.prefs.values
    browser.remembered.close()


async def test_a_page_opened_after_the_expiry_erases_the_record_before_using_it(
    server: Server, clock: FakeClock, sleep: ManualSleep, host: RememberedTokens
) -> None:
    prefs = FakePreferences()
    first = Browser(prefs, clock, sleep, host)
    await signed_in(first, ALICE, remember=True)
    first.remembered.close()  # the tab is closed: nothing is scheduled any more
    clock.advance(REMEMBER_FOR, seconds=1)

    later = Browser(prefs, clock, sleep, host)
    await later.model.start()

    assert later.model.snapshot.phase is SignInPhase.SIGNED_OUT
    assert later.model.snapshot.notice == REMEMBERED_EXPIRED
    assert prefs.values == {}
    assert [person.principal_id for person in later.erased] == ["alice"]


async def test_signing_out_from_the_unreachable_screen_erases_that_persons_copy(
    server: Server, clock: FakeClock, sleep: ManualSleep, host: RememberedTokens
) -> None:
    prefs = FakePreferences()
    first = Browser(prefs, clock, sleep, host)
    await signed_in(first, ALICE, remember=True)
    first.remembered.close()

    server.down = True
    later = Browser(prefs, clock, sleep, host)
    await later.model.start()
    assert later.model.snapshot.phase is SignInPhase.UNREACHABLE
    handle = later.handle()
    await later.model.sign_out()

    assert later.model.snapshot.notice == SIGNED_OUT
    assert prefs.values == {}
    assert host.token(handle) is None
    assert [person.principal_id for person in later.erased] == ["alice"]


async def test_another_persons_remembered_sign_in_erases_the_first_ones_copy(
    server: Server, clock: FakeClock, sleep: ManualSleep, host: RememberedTokens
) -> None:
    prefs = FakePreferences()
    older_tab = Browser(prefs, clock, sleep, host)
    await older_tab.model.start()  # the form, before anyone remembered a sign-in here
    alice = Browser(prefs, clock, sleep, host)
    await signed_in(alice, ALICE, remember=True)
    alice.remembered.close()

    older_tab.model.set_remember(True)
    await older_tab.model.sign_in(BOB)

    assert [person.principal_id for person in older_tab.erased] == ["alice"]
    record = older_tab.stored()[RECORD]
    assert isinstance(record, dict)
    assert (host.token(older_tab.handle()), record["person"]["principal_id"]) == (BOB, "bob")
    older_tab.remembered.close()


async def test_a_record_of_an_earlier_version_is_forgotten_with_that_persons_copy(
    server: Server, browser: Browser
) -> None:
    prefix = f"schedule-browser.{NAMESPACE}."
    browser.prefs.values = {
        prefix + TOKEN_KEY: json.dumps(ALICE),
        prefix + TOKEN_EXPIRES_KEY: json.dumps((NOW + REMEMBER_FOR).isoformat()),
        prefix + PERSON_KEY: json.dumps(
            {"token_digest": "x", "tenant_id": "team", "principal_id": "alice", "display_name": ""}
        ),
    }

    await browser.model.start()

    assert browser.model.snapshot.phase is SignInPhase.SIGNED_OUT
    assert browser.prefs.values == {}
    assert [person.principal_id for person in browser.erased] == ["alice"]


async def test_a_record_that_kept_the_token_itself_is_rewritten_to_a_handle(
    server: Server, browser: Browser, host: RememberedTokens
) -> None:
    person = {"token_digest": "x", "tenant_id": "team", "principal_id": "alice"}
    browser.prefs.values = {
        RECORD: json.dumps(
            {"token": ALICE, "expires_at": (NOW + REMEMBER_FOR).isoformat(), "person": person}
        )
    }

    await browser.model.start()

    assert browser.model.snapshot.phase is SignInPhase.SIGNED_IN
    assert ALICE not in json.dumps(browser.stored())
    assert host.token(browser.handle()) == ALICE
    browser.remembered.close()
