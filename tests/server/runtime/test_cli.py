"""``schedule-server serve`` as a real process on a free loopback port."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import httpx
import pytest
from sqlalchemy.engine import make_url

from devtools.ports import free_port
from devtools.served_process import TOKEN, served, write_principals
from server.cli import _parser, main
from server.serving import listening_socket
from server.startup import identity_for


def test_serve_process_answers_with_principals_file_and_demo_then_stops_on_sigterm(
    tmp_path: Path, database_url: str
) -> None:
    principals = write_principals(tmp_path / "principals.toml", ["schedule.read", "session.read"])
    with served(database_url, principals, demo=True) as server:
        with httpx.Client(base_url=server.base_url, timeout=10) as client:
            client.headers["Authorization"] = f"Bearer {TOKEN}"
            # The socket listens before the banner, so this request queues, never refuses.
            response = client.get("/v1/schedules?limit=5")
            assert response.status_code == 200
            assert len(response.json()["items"]) == 5
            assert client.get("/v1/principal").json()["principal_id"] == "alice"
            denied = client.get("/v1/browser-profiles")
            assert denied.status_code == 403
            assert (
                client.get("/v1/principal", headers={"Authorization": "Bearer x"}).status_code
                == 401
            )
            assert client.get("/healthz", headers={"Authorization": ""}).status_code == 200
            assert client.get("/readyz", headers={"Authorization": ""}).status_code == 200
        status, printed = server.sigterm()
    assert status == 0
    assert "Traceback" not in printed
    password = make_url(database_url).password
    if password is not None:
        assert password not in server.banner + printed


async def test_connections_accepted_on_the_served_socket_send_small_writes_at_once() -> None:
    """asyncio turns Nagle's algorithm off only on a socket that says it is TCP; with it
    on, every kept-alive request after the first waited ~40 ms for a delayed ACK."""
    accepted: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    class Probe(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            sock = transport.get_extra_info("socket")
            accepted.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            transport.close()

    with listening_socket("127.0.0.1", 0) as sock:
        server = await asyncio.get_running_loop().create_server(Probe, sock=sock)
        async with server:
            _, writer = await asyncio.open_connection(*sock.getsockname())
            try:
                nodelay = await asyncio.wait_for(accepted, 10)
            finally:
                writer.close()
                await writer.wait_closed()
    assert nodelay == 1


def test_port_in_use_is_one_sentence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = main(["serve", "--database", f"sqlite:///{tmp_path / 'x.db'}", "--port", str(port)])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("schedule-server: cannot listen on")
    assert "Traceback" not in err


def test_a_database_password_never_appears_in_a_startup_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for url in ("nosuchdriver://alice:hunter2@db.example/schedules", "://alice:hunter2@"):
        assert main(["serve", "--port", str(free_port()), "--database", url]) == 2
        err = capsys.readouterr().err
        assert "hunter2" not in err
        assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--database", "nosuchdriver://x"], "database"),
        (["--database", "not a url"], "not an SQLAlchemy URL"),
        (["--host", "0.0.0.0"], "refusing to serve on 0.0.0.0"),
        (["--principals", "/nonexistent/principals.toml"], "cannot read the principals file"),
    ],
)
def test_startup_errors_are_one_sentence(
    args: list[str], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--port", str(free_port()), *args]) == 2
    err = capsys.readouterr().err
    assert fragment in err
    assert err.count("\n") == 1


def test_a_postgres_password_never_appears_when_nothing_answers_at_the_address(
    capsys: pytest.CaptureFixture[str],
) -> None:
    url = f"postgresql+psycopg://alice:hunter2@127.0.0.1:{free_port()}/schedules"
    assert main(["serve", "--port", str(free_port()), "--database", url]) == 2
    err = capsys.readouterr().err
    assert "hunter2" not in err
    assert "postgresql+psycopg://alice:***@127.0.0.1" in err
    assert err.count("\n") == 1


def test_a_wrong_postgres_password_is_refused_without_being_echoed(
    postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    wrong = make_url(postgres_url).set(password="hunter2-wrong").render_as_string(False)
    assert main(["serve", "--port", str(free_port()), "--database", wrong]) == 2
    err = capsys.readouterr().err
    assert "hunter2" not in err
    assert "cannot open the database postgresql+psycopg://postgres:***@" in err
    assert err.count("\n") == 1


def test_the_database_password_may_come_from_pgpassword_instead_of_the_url(
    postgres_url: str, tmp_path: Path
) -> None:
    url = make_url(postgres_url)
    assert url.password is not None
    without_password = url.set(password=None).render_as_string(hide_password=False)
    principals = write_principals(tmp_path / "principals.toml", ["schedule.read"])
    environment = {"PGPASSWORD": str(url.password)}
    with served(without_password, principals, environment=environment) as server:
        assert httpx.get(f"{server.base_url}/readyz", timeout=10).status_code == 200
        status, _printed = server.sigterm()
    assert status == 0


@pytest.mark.parametrize("host", ["::1", "[::1]", "LOCALHOST", "127.0.0.2"])
def test_a_loopback_host_serves_without_principals_with_a_fresh_token(host: str) -> None:
    directory, token = identity_for(_parser().parse_args(["serve", "--host", host]))
    assert token is not None
    assert len(directory.principals) == 1


def test_a_bracketed_ipv6_host_is_listened_on_as_its_address() -> None:
    with listening_socket("[::1]", 0) as sock:
        assert sock.family == socket.AF_INET6
        assert sock.getsockname()[0] == "::1"
