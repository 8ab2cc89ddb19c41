"""``schedule-server serve``'s flags checked before anything serves.

Each check turns flags into what the server runs with (a token directory, a
cursor secret, an agent runtime, an open store, limits) or raises
``StartupError``, whose message is the one sentence the command line prints.
Without ``--principals`` only a loopback ``--host`` is accepted (``loopback``),
and a fresh token is made for one local principal holding every scope.
"""

from __future__ import annotations

import argparse
from datetime import timedelta
from pathlib import Path

from auth_throttle import FailurePolicy
from loopback import is_loopback_host
from server.api.rate_limit import RateLimit
from server.control.scheduler_status import SchedulerWatch
from server.firing.admission import Admission
from server.identity import TokenDirectory, generated_local_directory
from server.principals_file import PrincipalsFileError, load_principals
from server.storage.engine import DatabaseUrlError, printable_url
from server.storage.sql.store import SqlStore
from server.worker.attached_runtime import AttachedRuntime, RuntimeChoiceError, attached_runtime
from server.worker.heartbeat import HEARTBEAT_INTERVAL
from server.worker.runtime import SchedulingSettings

BURST_SHARE_OF_A_MINUTE = 5  # burst = a fifth of the per-minute allowance: 600 -> 120
MIN_CURSOR_SECRET = 32  # bytes, as many as the HMAC-SHA256 key the codec would make itself


class StartupError(Exception):
    """A problem that stops the server before it serves; the message is for people."""


def rate_limit_for(requests_per_minute: int) -> RateLimit | None:
    """The per-principal limit ``--rate-limit`` asks for; 0 turns limiting off."""
    if requests_per_minute == 0:
        return None
    burst = max(1, requests_per_minute // BURST_SHARE_OF_A_MINUTE)
    return RateLimit(requests_per_minute=requests_per_minute, burst=burst)


def failure_policy_for(failures: int) -> FailurePolicy | None:
    """The throttle ``--auth-failures`` asks for; 0 turns it off."""
    return None if failures == 0 else FailurePolicy(failures=failures)


def check_run_slots(args: argparse.Namespace) -> None:
    """Refuse, before anything starts, run slots that one principal's runs could fill."""
    try:
        SchedulingSettings(admission=Admission(args.max_active_runs), run_slots=args.run_slots)
    except ValueError as err:
        raise StartupError("--run-slots must be more than --max-active-runs.") from err


def watch_for(args: argparse.Namespace) -> SchedulerWatch:
    """The overdue, late and stopped thresholds the flags set, checked against each other.

    A late threshold within the heartbeat's interval would call a healthy
    scheduler late between two of its ticks.
    """
    late = timedelta(seconds=args.scheduler_late_seconds)
    if late <= HEARTBEAT_INTERVAL:
        raise StartupError(
            "--scheduler-late-seconds must be more than the heartbeat's interval"
            f" ({HEARTBEAT_INTERVAL.seconds} s)."
        )
    try:
        return SchedulerWatch(
            overdue_after=timedelta(seconds=args.overdue_after_seconds),
            late_after=late,
            stopped_after=timedelta(seconds=args.scheduler_stopped_seconds),
        )
    except ValueError as err:
        raise StartupError(
            "--scheduler-stopped-seconds must be more than --scheduler-late-seconds."
        ) from err


def runtime_for(args: argparse.Namespace) -> AttachedRuntime | None:
    """The agent runtime the flags name, checked before anything starts."""
    try:
        runtime = attached_runtime(args.executor, args.executor_secret_file)
    except RuntimeChoiceError as err:
        raise StartupError(str(err)) from err
    if runtime is not None and args.no_worker:
        raise StartupError("--executor needs the scheduler; drop --no-worker or --executor.")
    return runtime


def identity_for(args: argparse.Namespace) -> tuple[TokenDirectory, str | None]:
    """Who may call: the principals file, or on loopback one local principal and its token."""
    if args.principals is not None:
        try:
            return load_principals(args.principals), None
        except PrincipalsFileError as err:
            raise StartupError(str(err)) from err
    if not is_loopback_host(args.host):
        raise StartupError(
            f"refusing to serve on {args.host} without --principals; use a loopback host"
            " or give a principals file."
        )
    return generated_local_directory()


def read_cursor_secret(path: Path | None) -> bytes | None:
    """The secret that signs paging cursors, from ``--cursor-secret-file``; None without it."""
    if path is None:
        return None
    try:
        secret = path.read_bytes().strip()
    except OSError as err:
        raise StartupError(
            f"cannot read the cursor secret file {path} ({err.strerror or err})."
        ) from err
    if len(secret) < MIN_CURSOR_SECRET:
        raise StartupError(
            f"the cursor secret file {path} holds fewer than {MIN_CURSOR_SECRET} bytes;"
            " fill it with random ones (head -c 32 /dev/urandom | base64)."
        )
    return secret


def open_store(url: str) -> SqlStore:
    """The database at ``url``, migrated to head; its URL printed without the password."""
    try:
        return SqlStore.open(url)
    except DatabaseUrlError as err:
        raise StartupError(str(err)) from err
    except Exception as err:
        raise StartupError(
            f"cannot open the database {printable_url(url)} ({type(err).__name__})."
        ) from err
