"""Token guessing against the real ``schedule-server serve``: of 300 wrong bearer tokens in
a row from one address, the eleventh on are answered 429 with ``Retry-After`` (the
right token then waits too, never longer than a minute); ``--auth-failures 0`` turns it
off."""

from __future__ import annotations

import secrets
from pathlib import Path

import httpx

from devtools.served_process import TOKEN, served, write_principals
from server.api.auth_throttle import FailurePolicy
from server.identity import ALL_SCOPES

GUESSES = 300
FIRST_WAIT_S = int(FailurePolicy().first_wait.total_seconds())
"""The wait after the tenth failure; the 429s that follow add no failure, so none waits longer."""


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
        answers = [guess(client) for _ in range(GUESSES)]
        own = client.get("/v1/principal", headers={"Authorization": f"Bearer {TOKEN}"})
    statuses = [answer.status_code for answer in answers]
    assert statuses[:10] == [401] * 10
    assert statuses[10:] == [429] * (GUESSES - 10)
    last = answers[-1]
    assert last.json()["error"]["code"] == "request.rate_limited"
    assert 1 <= int(last.headers["Retry-After"]) <= FIRST_WAIT_S
    assert last.json()["error"]["details"]["reason"] == "authentication_failures"
    assert own.status_code == 429  # held with its address, decided before the token
    assert 1 <= int(own.headers["Retry-After"]) <= FIRST_WAIT_S


def test_the_throttle_can_be_turned_off_by_the_operator(tmp_path: Path) -> None:
    principals = write_principals(tmp_path / "principals.toml", ALL_SCOPES)
    with (
        served(f"sqlite:///{tmp_path / 'db.sqlite'}", principals, "--auth-failures", "0") as server,
        httpx.Client(base_url=server.base_url) as client,
    ):
        statuses = {guess(client).status_code for _ in range(30)}
    assert statuses == {401}
