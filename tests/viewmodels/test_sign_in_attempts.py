"""Failed sign-ins are slowed per browser, by the server's own rule, before the server is asked.

Two browsers share one process's throttle (``auth_throttle``) as the hosted
app's sessions do, each bound to its address (``app.browser_address``); the
server is respx answering by token, as in ``test_sign_in``.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
import respx

from app.browser_address import BrowserAttempts
from auth_throttle import AuthThrottle, FailurePolicy
from tests.clock import FakeClock
from tests.viewmodels.test_sign_in import (
    ALICE,
    BOB,
    SIGNED_IN_AT,
    Account,
    Connector,
    Principals,
)
from viewmodels.ports import MemoryStorage
from viewmodels.sign_in import TOKEN_KEY, Person, SignedInApi, SignInPhase, SignInViewModel

POLICY = FailurePolicy(failures=3, window=timedelta(minutes=1), first_wait=timedelta(seconds=5))
GUESSER = "203.0.113.7"
NEIGHBOUR = "198.51.100.9"


@pytest.fixture
def principals(router: respx.MockRouter) -> Principals:
    return Principals(router)


def browser(
    connector: Connector, throttle: AuthThrottle, address: str, storage: MemoryStorage | None = None
) -> SignInViewModel[Account]:
    def open_account(api: SignedInApi, who: Person) -> Account:
        return Account(api, who)

    return SignInViewModel(
        connector,
        storage or MemoryStorage(),
        open_account=open_account,
        attempts=BrowserAttempts(throttle, address),
    )


async def guess(model: SignInViewModel[Account], times: int) -> None:
    for number in range(times):
        await model.sign_in(f"wrong-token-{number}")


async def test_a_browser_past_its_failures_is_refused_with_the_wait_and_the_server_not_asked(
    principals: Principals,
) -> None:
    clock = FakeClock(SIGNED_IN_AT)
    connector = Connector()
    model = browser(connector, AuthThrottle(POLICY, clock), GUESSER)
    await model.start()

    await guess(model, POLICY.failures)
    asked = len(principals.requests)
    await model.sign_in(ALICE)

    assert model.snapshot.phase is SignInPhase.SIGNED_OUT and model.snapshot.form_enabled
    assert model.snapshot.error == "Too many attempts. Try again in 5 s."
    assert len(principals.requests) == asked, "the attempt never reached the server"
    clock.advance(seconds=5)
    await model.sign_in(ALICE)
    assert model.snapshot.phase is SignInPhase.SIGNED_IN


async def test_a_guessers_wait_doubles_with_each_failure_after_a_wait(
    principals: Principals,
) -> None:
    clock = FakeClock(SIGNED_IN_AT)
    model = browser(Connector(), AuthThrottle(POLICY, clock), GUESSER)
    await model.start()
    await guess(model, POLICY.failures)

    waits = []
    for _ in range(3):
        await model.sign_in("wrong-token")
        waits.append(model.snapshot.error)
        clock.advance(seconds=40)
        await guess(model, 1)
    assert waits == [f"Too many attempts. Try again in {s} s." for s in (5, 10, 20)]


async def test_another_browser_signs_in_while_a_guesser_waits(principals: Principals) -> None:
    throttle = AuthThrottle(POLICY, FakeClock(SIGNED_IN_AT))
    connector = Connector()
    guesser = browser(connector, throttle, GUESSER)
    neighbour = browser(connector, throttle, NEIGHBOUR)
    await guesser.start()
    await neighbour.start()

    await guess(guesser, POLICY.failures + 5)
    await neighbour.sign_in(BOB)

    assert guesser.snapshot.error == "Too many attempts. Try again in 5 s."
    assert neighbour.snapshot.phase is SignInPhase.SIGNED_IN
    assert neighbour.snapshot.display_name == "Bob Example"


async def test_a_remembered_token_from_a_waiting_browser_is_not_sent_and_is_kept(
    principals: Principals,
) -> None:
    """A guesser cannot dodge the form's wait by planting tokens in the browser's storage."""
    throttle = AuthThrottle(POLICY, FakeClock(SIGNED_IN_AT))
    connector = Connector()
    guesser = browser(connector, throttle, GUESSER)
    await guesser.start()
    await guess(guesser, POLICY.failures)
    asked = len(principals.requests)
    storage = MemoryStorage({TOKEN_KEY: ALICE})
    reopened = browser(connector, throttle, GUESSER, storage)

    await reopened.start()

    assert reopened.snapshot.phase is SignInPhase.UNREACHABLE
    assert reopened.snapshot.error == "Too many attempts. Try again in 5 s."
    assert len(principals.requests) == asked
    assert await storage.get(TOKEN_KEY) == ALICE
