"""``schedule-server serve`` as a real process on a free loopback port."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from server.cli import main
from server.identity import token_digest


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_serve_process_answers_with_principals_file_and_demo(tmp_path: Path) -> None:
    principals = tmp_path / "principals.toml"
    principals.write_text(
        '[[principal]]\nid = "alice"\ntenant = "acme"\ndisplay_name = "Alice"\n'
        f'token_sha256 = "{token_digest("team-token")}"\n'
        'scopes = ["schedule.read", "session.read"]\n'
    )
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "server.cli",
        "serve",
        "--database",
        f"sqlite:///{tmp_path / 'team.db'}",
        "--port",
        str(port),
        "--principals",
        str(principals),
        "--demo",
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        banner = process.stdout.readline()  # printed once the socket is bound
        assert f"127.0.0.1:{port}" in banner
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, timeout=10) as client:
            client.headers["Authorization"] = "Bearer team-token"
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
    finally:
        process.terminate()
        process.communicate(timeout=10)


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
