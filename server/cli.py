"""``schedule-server serve``: the same server as the app's, stand-alone, for a team.

This module is the command line: its flags, their help and ``main``, which
turns every start-up problem (``server.startup``) into one sentence on stderr
and exit status 2, never a traceback, and a stop by SIGTERM or Ctrl+C into 0.
The flags are checked in ``server.startup``, and ``server.serving`` builds and
runs the server from them; ``server/stopping.py`` says how SIGTERM drains.
"""

from __future__ import annotations

import argparse
import ipaddress
import sys
from collections.abc import Callable, Sequence
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

from auth_throttle import FailurePolicy
from connection_limits import add_limit_options
from server.api.metrics import Network
from server.control.scheduler_status import SchedulerWatch
from server.firing.admission import DEFAULT_MAX_ACTIVE_RUNS
from server.serving import serve
from server.startup import MIN_CURSOR_SECRET, StartupError
from server.stopping import (
    DEFAULT_DRAIN_SECONDS,
    DEFAULT_GRACE_SECONDS,
    Stopped,
    sigterm_raises_stopped,
)
from server.worker.attached_runtime import ENTRY_POINT_GROUP, MIN_SECRET_BYTES
from server.worker.heartbeat import SILENT_RETENTION
from server.worker.run_dispatch import DEFAULT_RUN_LEASE
from server.worker.runtime import DEFAULT_RUN_SLOTS
from server.worker.worker import DEFAULT_BATCH_SIZE, REPLICA_BATCH_SIZE

DEFAULT_DATABASE = "sqlite:///schedule-server.db"
DEFAULT_REQUESTS_PER_MINUTE = 600
_WATCH = SchedulerWatch()


def public_url(text: str) -> str:
    """``--public-url``: an absolute http(s) address with a host and no query or fragment."""
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an http(s) address such as https://schedules.example.com"
        )
    return text.rstrip("/")


def trusted_proxies(text: str) -> tuple[Network, ...]:
    """``--forwarded-allow-ips``: comma-separated IP addresses or networks of the proxies
    whose ``X-Forwarded-For`` names the client; every entry is checked, none may be all."""
    networks = []
    for part in text.split(","):
        item = part.strip()
        try:
            network = ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{item or 'an empty entry'} in {text!r} is not an IP address or network; "
                "name the proxies, such as 127.0.0.1 or 10.0.0.0/24"
            ) from None
        if network.prefixlen == 0:
            raise argparse.ArgumentTypeError(
                f"{text!r} would let every client choose its own address; name the proxies"
            )
        networks.append(network)
    return tuple(networks)


def _whole_number_of(unit: str) -> Callable[[str], int]:
    """An argparse type for a count of ``unit`` that may be 0 but never negative."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = -1
        if value < 0:
            raise argparse.ArgumentTypeError(
                f"expected a whole number of {unit}, 0 or more: {text!r}"
            )
        return value

    return parse


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="schedule-server",
        description="The schedule server of Schedule Browser, stand-alone for a team.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser(
        "serve",
        help="run the schedule server over HTTP",
        description="Run the schedule server over HTTP. Migrations run on start.",
    )
    serve.add_argument(
        "--database",
        default=DEFAULT_DATABASE,
        metavar="URL",
        help=f"SQLAlchemy database URL (default: {DEFAULT_DATABASE})",
    )
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        metavar="H",
        help="address to listen on (default: 127.0.0.1; others need --principals)",
    )
    serve.add_argument(
        "--port", type=int, default=8000, metavar="N", help="port to listen on (default: 8000)"
    )
    serve.add_argument(
        "--principals",
        type=Path,
        metavar="FILE",
        help="principals file (TOML): who may call, with which token and scopes; "
        "without it a token for one local principal is generated and printed",
    )
    serve.add_argument(
        "--demo",
        action="store_true",
        help="load the demo data into an empty database (for the first principal)",
    )
    serve.add_argument(
        "--rate-limit",
        type=_whole_number_of("requests"),
        default=DEFAULT_REQUESTS_PER_MINUTE,
        metavar="N",
        help="requests per minute each principal may make, in bursts of up to N/5 (at least 1); "
        "beyond it the answer is 429 with Retry-After; 0 disables the limit "
        f"(default: {DEFAULT_REQUESTS_PER_MINUTE})",
    )
    serve.add_argument(
        "--auth-failures",
        type=_whole_number_of("failures"),
        default=FailurePolicy().failures,
        metavar="N",
        help="failed authentications one client address may make in a minute; the next are "
        "answered 429 with Retry-After for a wait that doubles (5 s, 10 s, ... at most 60 s) "
        f"before any token is checked; 0 disables (default: {FailurePolicy().failures})",
    )
    serve.add_argument(
        "--no-worker",
        action="store_true",
        help="do not fire schedules, run their runs or purge old ones "
        "(a read-only replica beside a server that does)",
    )
    serve.add_argument(
        "--max-active-runs",
        type=_positive,
        default=DEFAULT_MAX_ACTIVE_RUNS,
        metavar="N",
        help="queued or running scheduled runs each principal may have; a firing beyond it "
        f"waits and is retried (default: {DEFAULT_MAX_ACTIVE_RUNS})",
    )
    serve.add_argument(
        "--run-slots",
        type=_positive,
        default=DEFAULT_RUN_SLOTS,
        metavar="N",
        help="runs this process executes at once; more than --max-active-runs, so one "
        "principal's runs never fill them; the rest wait, never failing for it "
        f"(default: {DEFAULT_RUN_SLOTS})",
    )
    serve.add_argument(
        "--run-lease-seconds",
        type=_positive,
        default=int(DEFAULT_RUN_LEASE.total_seconds()),
        metavar="S",
        help="a run this process executes stays its own for S seconds, renewed while it "
        "runs; a replica that stops lets it lapse, and another takes the run over and "
        f"delivers it again (default: {int(DEFAULT_RUN_LEASE.total_seconds())})",
    )
    serve.add_argument(
        "--cursor-secret-file",
        type=Path,
        metavar="FILE",
        help=f"file holding the secret that signs paging cursors (at least {MIN_CURSOR_SECRET}"
        " bytes); give every replica the same file so a cursor one issued pages on at another; "
        "without it each process makes its own and a restart ends paging in progress",
    )
    serve.add_argument(
        "--shutdown-grace",
        type=_whole_number_of("seconds"),
        default=DEFAULT_GRACE_SECONDS,
        metavar="S",
        help="after SIGTERM, seconds that requests in flight get to finish before they are "
        "abandoned, and then as many for the scheduler's transaction in flight; new connections "
        f"are refused at once and no new work starts (default: {DEFAULT_GRACE_SECONDS})",
    )
    serve.add_argument(
        "--worker-batch",
        type=_positive,
        metavar="N",
        help="due schedules the worker claims, decides and commits in one transaction; each "
        "still fires on its own and one's failure never holds back the others "
        f"(default: {DEFAULT_BATCH_SIZE} on SQLite, {REPLICA_BATCH_SIZE} on PostgreSQL)",
    )
    serve.add_argument(
        "--executor",
        metavar="URL",
        help="hand each run to the agent runtime at URL (the executor protocol of docs/API.md; "
        "https://, or http:// on this machine), or to the in-process runtime installed under "
        f"that name ({ENTRY_POINT_GROUP} entry points); without it each run is answered that "
        "no agent runtime is attached",
    )
    serve.add_argument(
        "--executor-secret-file",
        type=Path,
        metavar="PATH",
        help=f"file holding the secret (at least {MIN_SECRET_BYTES} bytes) that signs each request"
        " to the --executor URL; the runtime checks it",
    )
    serve.add_argument(
        "--drain-seconds",
        type=_whole_number_of("seconds"),
        default=DEFAULT_DRAIN_SECONDS,
        metavar="S",
        help="after SIGTERM, seconds during which /readyz answers 503 while everything else is "
        "still served, so a load balancer moves traffic away first; then the shutdown begins "
        f"(default: {DEFAULT_DRAIN_SECONDS})",
    )
    serve.add_argument(
        "--metrics",
        action="store_true",
        help="serve GET /metrics (Prometheus text) on the API port, to loopback callers that "
        "no proxy forwarded; off by default",
    )
    serve.add_argument(
        "--metrics-port",
        type=_positive,
        metavar="N",
        help="serve GET /metrics on 127.0.0.1:N, a listener of its own (off by default)",
    )
    watch = serve.add_argument_group(
        "firings that stop",
        "when GET /v1/scheduler and the schedules say firings are not happening "
        "(docs/TEAM-SERVER.md: Alerts)",
    )
    _seconds_option(
        watch,
        "--overdue-after-seconds",
        _WATCH.overdue_after,
        "a schedule whose next firing passed S seconds ago with no decision is overdue: "
        "it carries overdue_since and counts as needing attention",
    )
    _seconds_option(
        watch,
        "--scheduler-late-seconds",
        _WATCH.late_after,
        "the scheduler is late when no replica's heartbeat is newer than S seconds",
    )
    _seconds_option(
        watch,
        "--scheduler-stopped-seconds",
        _WATCH.stopped_after,
        "the scheduler is stopped when no replica's heartbeat is newer than S seconds, "
        "more than --scheduler-late-seconds",
    )
    _seconds_option(
        watch,
        "--scheduler-forget-seconds",
        SILENT_RETENTION,
        "a running scheduler deletes the heartbeat rows of replicas silent for S seconds",
    )
    serve.add_argument(
        "--forwarded-allow-ips",
        type=trusted_proxies,
        default=(),
        metavar="LIST",
        help="comma-separated addresses or networks of the reverse proxies (or the hosted web "
        "view) in front of this server: from them, X-Forwarded-For names the client whose "
        "failed sign-ins are counted; from anyone else it is ignored (default: none)",
    )
    serve.add_argument(
        "--public-url",
        type=public_url,
        default=None,
        metavar="URL",
        help="the https:// address clients reach this server at (such as a reverse proxy's); "
        "calendar feed addresses are then absolute (default: relative to the request)",
    )
    add_limit_options(
        serve.add_argument_group(
            "connection limits",
            "what one client may hold of the listener (README: Running the server for a team)",
        ),
        frames=False,
    )
    return parser


def _seconds_option(
    group: argparse._ArgumentGroup, flag: str, default: timedelta, meaning: str
) -> None:
    """A whole number of seconds, at least 1; its help ends with the default."""
    seconds = int(default.total_seconds())
    group.add_argument(
        flag, type=_positive, default=seconds, metavar="S", help=f"{meaning} (default: {seconds})"
    )


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number, 1 or more: {text!r}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        with sigterm_raises_stopped():
            return serve(args)
    except StartupError as err:
        print(f"schedule-server: {err}", file=sys.stderr)
        return 2
    except (KeyboardInterrupt, Stopped):
        return 0


if __name__ == "__main__":
    sys.exit(main())
