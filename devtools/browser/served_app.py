"""One ``schedule-browser --web`` process on a free loopback port, started and stopped.

The app is started exactly as a user would start it (the console script, or
``python -m app.cli`` before the package is installed) with a fresh data
folder, so the demo data load on this first run is part of what is tested.
The app serves its page while its server opens; it is ready once it says where
it is (its server open, its database migrated). A process that exits or never
gets ready fails with its own stderr in the message, because that is the only
place the reason is written. ``running_process`` is that
start/wait/stop for any server command (``devtools.browser.schedule_server`` uses it).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from devtools.ports import LOOPBACK, free_port

LOG_LEVEL_ENV = "FLET_LOG_LEVEL"
"""Set, Flet configures Python's logging at that level: its log and the app's reach stderr."""


class AppDidNotStart(RuntimeError):
    """The app exited or never opened its port; the message carries its stderr."""


@dataclass(frozen=True, slots=True)
class ServedApp:
    url: str
    """``http://127.0.0.1:<port>/``"""
    data_dir: Path
    process: subprocess.Popen[bytes]
    log_dir: Path

    @property
    def database_path(self) -> Path:
        return self.data_dir / "schedules.sqlite3"

    def stderr_tail(self, characters: int = 4000) -> str:
        return _tail(self.log_dir / "stderr.txt", characters)


def console_command(script_name: str, module: str) -> list[str]:
    """The installed console script beside this interpreter, else ``python -m module``."""
    script = Path(sys.executable).parent / script_name
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    return [sys.executable, "-m", module]


def app_command() -> list[str]:
    return console_command("schedule-browser", "app.cli")


@contextmanager
def served_app(
    data_dir: Path,
    log_dir: Path,
    *,
    command: Sequence[str] | None = None,
    extra_arguments: Sequence[str] = (),
    startup_timeout: float = 60.0,
    log_level: str | None = None,
    environment: Mapping[str, str] | None = None,
    until_open: bool = True,
) -> Iterator[ServedApp]:
    """Start the app serving the web view, yield it once it is ready, stop it.

    ``log_level`` (``"info"``) writes the log at that level to ``log_dir / "stderr.txt"``;
    ``environment`` adds to the process's own. ``until_open=False`` yields once
    the port accepts (a cold start timed from the spawn, or another command).
    """
    port = free_port()
    argv = [
        *(command if command is not None else app_command()),
        "--web",
        "--port",
        str(port),
        "--data-dir",
        str(data_dir),
        *extra_arguments,
    ]
    logging = {} if log_level is None else {LOG_LEVEL_ENV: log_level}
    with running_process(
        argv,
        log_dir,
        port=port,
        environment={**(environment or {}), **logging},
        # Each announcement of the app names its address, port included.
        ready_line=f":{port}/" if until_open else None,
        startup_timeout=startup_timeout,
    ) as process:
        yield ServedApp(f"http://{LOOPBACK}:{port}/", data_dir, process, log_dir)


@contextmanager
def running_process(
    argv: Sequence[str],
    log_dir: Path,
    *,
    port: int,
    environment: Mapping[str, str] | None = None,
    ready_line: str | None = None,
    startup_timeout: float = 60.0,
) -> Iterator[subprocess.Popen[bytes]]:
    """Start ``argv`` logging to ``log_dir``, yield it once it serves ``port``, stop it.

    ``ready_line``, when given, must also appear on the process's stdout: a
    server that listens before it has loaded its data says when it is done.
    ``environment`` adds to (or overrides) this process's own.
    """
    log_dir.mkdir(parents=True, exist_ok=True)
    with (
        (log_dir / "stdout.txt").open("wb") as stdout,
        (log_dir / "stderr.txt").open("wb") as stderr,
    ):
        process = subprocess.Popen(
            list(argv),
            stdin=subprocess.DEVNULL,
            stdout=stdout,
            stderr=stderr,
            cwd=Path(__file__).resolve().parents[2],
            env={**_environment(), **(environment or {})},
            start_new_session=True,
        )
        try:
            wait_until_listening(process, log_dir, port, startup_timeout, ready_line)
            yield process
        finally:
            stop(process)


def wait_until_listening(
    process: subprocess.Popen[bytes],
    log_dir: Path,
    port: int,
    timeout: float,
    ready_line: str | None = None,
) -> None:
    """Poll the port (and stdout for ``ready_line``) until ready; raise with stderr if not."""
    name = Path(str(process.args[0] if isinstance(process.args, list) else process.args)).name
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = process.poll()
        if status is not None:
            raise AppDidNotStart(
                f"{name} exited with status {status} before serving port {port}.\n"
                f"stderr:\n{_tail(log_dir / 'stderr.txt', 4000)}"
            )
        if _accepts(port) and (
            ready_line is None or ready_line in _tail(log_dir / "stdout.txt", 100_000)
        ):
            return
        # Not ready yet: block briefly on the process instead of sleeping.
        with suppress(subprocess.TimeoutExpired):
            process.wait(timeout=0.1)
    raise AppDidNotStart(
        f"{name} did not serve port {port} within {timeout:.0f} s.\n"
        f"stderr:\n{_tail(log_dir / 'stderr.txt', 4000)}"
    )


def _accepts(port: int) -> bool:
    try:
        with socket.create_connection((LOOPBACK, port), timeout=0.5):
            return True
    except OSError:
        return False


def stop(process: subprocess.Popen[bytes], grace: float = 10.0) -> None:
    """SIGTERM (Flet shuts down cleanly on it), then SIGKILL after ``grace`` seconds."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=grace)


def _environment() -> dict[str, str]:
    environment = dict(os.environ)
    # A display would not change --web, but keep the run identical with or without one.
    environment.pop("DISPLAY", None)
    environment.pop("WAYLAND_DISPLAY", None)
    environment["PYTHONUNBUFFERED"] = "1"
    return environment


def _tail(path: Path, characters: int) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return "(no output)"
    return text[-characters:] if text else "(empty)"
