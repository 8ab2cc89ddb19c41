"""``schedule-server serve`` as a real child process on a free loopback port.

``served`` starts it with a principals file (``write_principals``: alice, or
as many principals as a test needs, with chosen scopes and tokens the test
knows), waits for the banner that is printed once the socket listens, and on
leaving stops it if it still runs. ``sigterm`` asks it to stop
the way an orchestrator does and returns the exit status with everything it
printed, so tests can check both. The runtime tests (``tests/server/runtime``)
and the benches that need a real server (``bench/wal.py``, ``bench/faults.py``)
start it the same way.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from devtools.ports import free_port
from server.identity import token_digest

TOKEN = "team-token"
EXIT_WAIT_SECONDS = 30


def token_of(principal_id: str) -> str:
    """The bearer token ``write_principals`` gives ``principal_id`` (alice's is ``TOKEN``)."""
    return TOKEN if principal_id == "alice" else f"{TOKEN}-{principal_id}"


def write_principals(
    path: Path, scopes: Iterable[str], principal_ids: Iterable[str] = ("alice",)
) -> Path:
    """A principals file: each principal of tenant acme, with ``scopes`` and ``token_of`` it."""
    listed = ", ".join(f'"{scope}"' for scope in sorted(scopes))
    path.write_text(
        "".join(
            f'[[principal]]\nid = "{principal_id}"\ntenant = "acme"\n'
            f'display_name = "{principal_id.title()}"\n'
            f'token_sha256 = "{token_digest(token_of(principal_id))}"\nscopes = [{listed}]\n'
            for principal_id in principal_ids
        ),
        encoding="utf-8",
    )
    return path


@dataclass(frozen=True, slots=True)
class ServedProcess:
    process: subprocess.Popen[str]
    port: int
    banner: str

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def sigterm(self, timeout: float = EXIT_WAIT_SECONDS) -> tuple[int, str]:
        """Send SIGTERM and wait; the exit status and everything printed after the banner."""
        self.process.send_signal(signal.SIGTERM)
        out, err = self.process.communicate(timeout=timeout)
        return self.process.returncode, out + err


@contextmanager
def served(
    database_url: str,
    principals: Path,
    *options: str,
    demo: bool = False,
    environment: Mapping[str, str] | None = None,
) -> Iterator[ServedProcess]:
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "server.cli",
        "serve",
        "--database",
        database_url,
        "--port",
        str(port),
        "--principals",
        str(principals),
        *(["--demo"] if demo else []),
        *options,
    ]
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=None if environment is None else {**os.environ, **environment},
    )
    try:
        assert process.stdout is not None
        banner = process.stdout.readline()  # printed once the socket is bound
        if f"127.0.0.1:{port}" not in banner:
            process.kill()
            _out, err = process.communicate(timeout=EXIT_WAIT_SECONDS)
            raise AssertionError(f"the server did not start: {banner!r} {err!r}")
        yield ServedProcess(process, port, banner)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate(timeout=EXIT_WAIT_SECONDS)
