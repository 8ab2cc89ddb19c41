"""Token guessing against the real ``schedule-server serve``: of 300 wrong bearer tokens in
a row from one address, the eleventh on are answered 429 with ``Retry-After`` (the
right token then waits too, never longer than a minute); ``--auth-failures 0`` turns it
off."""

from __future__ import annotations

import math
import secrets
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from auth_throttle import FailurePolicy
from devtools.served_process import TOKEN, served, write_principals
from server.identity import ALL_SCOPES

GUESSES = 300
FIRST_WAIT_S = FailurePolicy().first_wait.total_seconds()
"""The wait after the tenth failure; the 429s that follow add no failure, so none waits longer."""


def timed(call: Callable[[], httpx.Response]) -> tuple[float, httpx.Response, float]:
    """When the request left, its answer, and when the answer came (monotonic seconds)."""
    sent = time.monotonic()
    answer = call()
    return sent, answer, time.monotonic()


def counts_down(
    tenth: tuple[float, httpx.Response, float], later: tuple[float, httpx.Response, float]
) -> bool:
    """Whether ``later``'s Retry-After is the first wait less the time since the tenth failure.

    The server's clock is read somewhere inside each request, so the time
    between them lies within what the client saw; Retry-After is whole seconds,
    rounded up.
    """
    least = later[0] - tenth[2]
    most = later[2] - tenth[0]
    said = int(later[1].headers["Retry-After"])
    return math.ceil(FIRST_WAIT_S - most) <= said <= math.ceil(FIRST_WAIT_S - least)


def guess(client: httpx.Client) -> httpx.Response:
    return client.get(
        "/v1/principal", headers={"Authorization": f"Bearer {secrets.token_urlsafe(32)}"}
    )


def test_three_hundred_wrong_tokens_in_a_row_are_slowed_after_ten(tmp_path: Path) -> None:
    principals = write_principals(tmp_path / "principals.toml", ALL_SCOPES)
    with (
        served(f"sqlite:///{tmp_path / 'db.sqlite'}", principals) as server,
        httpx.Client(base_url=server.base_url) as client,
    ):
        answers = [timed(lambda: guess(client)) for _ in range(GUESSES)]
        own = timed(
            lambda: client.get("/v1/principal", headers={"Authorization": f"Bearer {TOKEN}"})
        )
    statuses = [answer.status_code for _, answer, _ in answers]
    assert statuses[:10] == [401] * 10
    assert statuses[10:] == [429] * (GUESSES - 10)
    tenth, last = answers[9], answers[-1]
    assert last[1].json()["error"]["code"] == "request.rate_limited"
    assert last[1].json()["error"]["details"]["reason"] == "authentication_failures"
    assert counts_down(tenth, answers[10]), "the first 429 waits the whole first wait"
    assert counts_down(tenth, last), "later 429s add no wait of their own"
    assert own[1].status_code == 429  # held with its address, decided before the token
    assert counts_down(tenth, own)


def test_the_throttle_can_be_turned_off_by_the_operator(tmp_path: Path) -> None:
    principals = write_principals(tmp_path / "principals.toml", ALL_SCOPES)
    with (
        served(f"sqlite:///{tmp_path / 'db.sqlite'}", principals, "--auth-failures", "0") as server,
        httpx.Client(base_url=server.base_url) as client,
    ):
        statuses = {guess(client).status_code for _ in range(30)}
    assert statuses == {401}
