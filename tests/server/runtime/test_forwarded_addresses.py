"""Whose address a failed token is counted against, on the real ``schedule-server serve``.

Without ``--forwarded-allow-ips`` the TCP peer is the client, whatever
``X-Forwarded-For`` (or uvicorn's ``FORWARDED_ALLOW_IPS``) says; with the
hosted web view's address named, the browser it names is, so a scripted
guesser typing wrong tokens through the app is slowed alone while another
browser signs in. ``/metrics`` never answers through a named proxy, and a
list that names no proxy is a usage error.
"""

from __future__ import annotations

import secrets
from pathlib import Path

import httpx
import pytest

from devtools.served_process import TOKEN, served, write_principals
from server.cli import main
from server.identity import ALL_SCOPES

FAILURES = 10
"""``--auth-failures``' default: the failure that reaches it starts the wait."""
GUESSER = "203.0.113.7"
NEIGHBOUR = "198.51.100.9"
VICTIM = "127.0.0.2"
"""Another loopback address, so the victim is a real peer of its own."""
APP = "127.0.0.1"
"""Where the hosted web view calls from: the test's own loopback address."""


def principal(client: httpx.Client, token: str, browser: str | None = None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"}
    if browser is not None:
        headers["X-Forwarded-For"] = browser
    return client.get("/v1/principal", headers=headers)


def wrong(client: httpx.Client, browser: str | None = None) -> int:
    return principal(client, secrets.token_urlsafe(32), browser).status_code


@pytest.fixture
def principals(tmp_path: Path) -> Path:
    return write_principals(tmp_path / "principals.toml", ALL_SCOPES)


@pytest.mark.parametrize(
    "options",
    [
        pytest.param((), id="no-proxy-named"),
        pytest.param(("--forwarded-allow-ips", "10.0.0.5,192.168.0.0/16"), id="another-proxy"),
    ],
)
def test_a_clients_own_forwarded_for_is_ignored_unless_it_is_a_named_proxy(
    tmp_path: Path, principals: Path, options: tuple[str, ...]
) -> None:
    """Changing the header each time does not escape the count, even with uvicorn's variable,
    and failures forged in a victim's name do not lock out the victim's real address."""
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    forged = [f"10.9.{number}.1" for number in range(6)] + [VICTIM] * (FAILURES - 6 + 1)
    with (
        served(url, principals, *options, environment={"FORWARDED_ALLOW_IPS": "*"}) as server,
        httpx.Client(base_url=server.base_url) as client,
        httpx.Client(
            base_url=server.base_url, transport=httpx.HTTPTransport(local_address=VICTIM)
        ) as victim,
    ):
        statuses = [wrong(client, address) for address in forged]
        victims_own = principal(victim, TOKEN)
    assert statuses == [401] * FAILURES + [429]
    assert victims_own.status_code == 200


def test_a_guesser_through_the_hosted_app_is_slowed_alone(tmp_path: Path, principals: Path) -> None:
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    with (
        served(url, principals, "--forwarded-allow-ips", APP) as server,
        httpx.Client(base_url=server.base_url) as app,
    ):
        statuses = [wrong(app, GUESSER) for _ in range(FAILURES + 1)]
        guessers_own = principal(app, TOKEN, GUESSER)
        neighbour = principal(app, TOKEN, NEIGHBOUR)
        from_the_app = principal(app, TOKEN)
    assert statuses == [401] * FAILURES + [429]
    assert guessers_own.status_code == 429
    assert int(guessers_own.headers["Retry-After"]) >= 1
    assert neighbour.status_code == 200, "another browser never waits for the guesser"
    assert from_the_app.status_code == 200


def test_metrics_never_answer_a_request_from_a_named_proxy(
    tmp_path: Path, principals: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    with served(url, principals, "--metrics", "--forwarded-allow-ips", f"{APP},::1") as server:
        plain = httpx.get(f"{server.base_url}/metrics")
        forwarded = httpx.get(f"{server.base_url}/metrics", headers={"X-Forwarded-For": APP})
    assert plain.status_code == 404, "the proxy's own peer address, without a header"
    assert forwarded.status_code == 404


@pytest.mark.parametrize(
    ("given", "said"),
    [
        pytest.param("*", "* in '*' is not an IP address or network", id="everyone"),
        pytest.param("0.0.0.0/0", "would let every client choose its own address", id="all-v4"),
        pytest.param("::/0", "would let every client choose its own address", id="all-v6"),
        pytest.param("10.0.0.5,", "an empty entry in '10.0.0.5,'", id="empty-entry"),
        pytest.param("proxy.example", "proxy.example in", id="a-name"),
    ],
)
def test_a_list_that_names_no_proxy_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], given: str, said: str
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["serve", f"--forwarded-allow-ips={given}"])
    printed = capsys.readouterr().err
    assert stopped.value.code == 2
    assert "argument --forwarded-allow-ips" in printed and said in printed
    assert "Traceback" not in printed
