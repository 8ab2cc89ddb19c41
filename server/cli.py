"""``schedule-server serve``: the same server, stand-alone, for a team.

Migrations run on start. With ``--principals`` the TOML file is the identity
store and ``--demo`` gives the demo data to its first principal. Without it,
only a loopback ``--host`` is accepted and a fresh token is printed for one
local principal holding every scope. Each principal may make
``--rate-limit`` requests per minute (bursts of a fifth of that); beyond it
the server answers 429 with ``Retry-After``, as it does to a client address
after ``--auth-failures`` failed authentications in a minute (a doubling
wait, ``auth_throttle``). Every startup problem ends with
one sentence on stderr and exit status 2, never a traceback. SIGTERM first
makes ``/readyz`` answer 503 while the server goes on serving for
``--drain-seconds``, so a load balancer takes it out of rotation without a
failed request; then it stops accepting connections, gives requests in
flight ``--shutdown-grace`` seconds
to finish, and gives the scheduler, which starts nothing new from the moment
SIGTERM arrives, as long again to finish the batch of materializations (or
run, or purge batch) it is in; then it exits 0 (``server/stopping.py``). Replicas may
share one PostgreSQL database, each with its scheduler: they claim due
schedules with row locks and take turns through advisory locks
(``server/storage/sql/advisory_locks.py``).
Replicas behind one address share ``--cursor-secret-file``, so a cursor from
one replica pages on at another.

``--metrics`` serves ``GET /metrics`` (Prometheus) on the API port to
loopback callers that came through no proxy; ``--metrics-port`` serves it on
a loopback port of its own (``server/api/metrics.py``).

Each listener holds every client to ``connection_limits``: request
headers within ``--header-timeout`` seconds and ``--max-header-bytes``, idle
kept-alive connections closed after ``--keep-alive-timeout``, and beyond
``--max-connections`` a request is answered 503.

A client's address (which the throttle counts failures against) is the TCP
peer, unless the peer is one of the reverse proxies ``--forwarded-allow-ips``
names: then it is the address that proxy puts in ``X-Forwarded-For`` (as the
hosted web view does for each browser). None is trusted unless named, and
uvicorn's ``FORWARDED_ALLOW_IPS`` environment variable is not read, so a
client cannot choose its own address by sending the header.

The scheduler runs beside the HTTP server on its event loop: the worker that
materializes due occurrences (at most ``--max-active-runs`` active runs per
principal), the executor that hands their runs to the agent runtime
``--executor`` names (``server/worker/attached_runtime.py``; without it
each run is answered that none is attached) and the hourly retention
purge. ``--no-worker`` leaves them out, for a read-only replica beside a
server that runs them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import signal
import socket
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import timedelta
from pathlib import Path
from types import FrameType
from typing import Any

import uvicorn

from auth_throttle import FailurePolicy
from connection_limits import add_limit_options, limits_from
from server.api.metrics import Network, ServerMetrics, metrics_app
from server.api.rate_limit import RateLimit
from server.app import create_app
from server.clock import system_clock
from server.demo import load_demo_if_empty
from server.identity import TokenDirectory, generated_local_directory
from server.principals_file import PrincipalsFileError, load_principals
from server.stopping import (
    DEFAULT_DRAIN_SECONDS,
    DEFAULT_GRACE_SECONDS,
    Drain,
    Stopped,
    abandon_stuck_requests,
    sigterm_raises_stopped,
)
from server.storage.engine import DatabaseUrlError, printable_url
from server.storage.sql.store import SqlStore
from server.worker.admission import DEFAULT_MAX_ACTIVE_RUNS, Admission
from server.worker.attached_runtime import (
    ENTRY_POINT_GROUP,
    MIN_SECRET_BYTES,
    AttachedRuntime,
    RuntimeChoiceError,
    attached_runtime,
    executor_for,
)
from server.worker.observer import SILENT
from server.worker.run_dispatch import DEFAULT_RUN_LEASE
from server.worker.runtime import (
    DEFAULT_RUN_SLOTS,
    SchedulingRuntime,
    SchedulingSettings,
    running,
)
from server.worker.wake import WakeSignal
from server.worker.worker import (
    DEFAULT_BATCH_SIZE,
    REPLICA_BATCH_SIZE,
    default_batch_size,
)

DEFAULT_DATABASE = "sqlite:///schedule-server.db"
DEFAULT_REQUESTS_PER_MINUTE = 600
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
    serve.add_argument(
        "--forwarded-allow-ips",
        type=trusted_proxies,
        default=(),
        metavar="LIST",
        help="comma-separated addresses or networks of the reverse proxies (or the hosted web "
        "view) in front of this server: from them, X-Forwarded-For names the client whose "
        "failed sign-ins are counted; from anyone else it is ignored (default: none)",
    )
    add_limit_options(
        serve.add_argument_group(
            "connection limits",
            "what one client may hold of the listener (README: Running the server for a team)",
        ),
        frames=False,
    )
    return parser


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number, 1 or more: {text!r}")
    return value


def scheduling_for(
    args: argparse.Namespace,
    store: SqlStore,
    directory: TokenDirectory,
    wake: WakeSignal,
    metrics: ServerMetrics | None = None,
) -> SchedulingRuntime | None:
    """The scheduler this process runs, or None with ``--no-worker``."""
    if args.no_worker:
        return None
    settings = SchedulingSettings(
        admission=Admission(args.max_active_runs),
        batch_size=args.worker_batch or default_batch_size(store.engine.dialect.name),
        run_slots=args.run_slots,
        run_lease=timedelta(seconds=args.run_lease_seconds),
    )
    executor = executor_for(_runtime(args), system_clock)
    return SchedulingRuntime(
        store,
        directory,
        system_clock,
        executor=executor,
        settings=settings,
        wake=wake,
        observer=SILENT if metrics is None else metrics,
    )


def _check_run_slots(args: argparse.Namespace) -> None:
    """Refuse, before anything starts, run slots that one principal's runs could fill."""
    try:
        SchedulingSettings(admission=Admission(args.max_active_runs), run_slots=args.run_slots)
    except ValueError as err:
        raise StartupError("--run-slots must be more than --max-active-runs.") from err


def _runtime(args: argparse.Namespace) -> AttachedRuntime | None:
    """The agent runtime the flags name, checked before anything starts."""
    try:
        runtime = attached_runtime(args.executor, args.executor_secret_file)
    except RuntimeChoiceError as err:
        raise StartupError(str(err)) from err
    if runtime is not None and args.no_worker:
        raise StartupError("--executor needs the scheduler; drop --no-worker or --executor.")
    return runtime


class _MetricsServer(uvicorn.Server):
    """The metrics port's server: the API server owns the signals and says when to stop."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


class _Server(uvicorn.Server):
    """uvicorn's server, draining on SIGTERM and stopping the scheduler as its shutdown begins.

    The first SIGTERM begins the ``Drain`` and only marks when it ends; the
    tick that passes that mark hands the signal to uvicorn, whose shutdown
    then runs as it would have. A second SIGTERM, or SIGINT, goes to uvicorn
    at once.
    """

    def __init__(
        self,
        config: uvicorn.Config,
        scheduling: SchedulingRuntime | None,
        drain: Drain,
        drain_seconds: float,
    ) -> None:
        super().__init__(config)
        self._scheduling = scheduling
        self._drain = drain
        self._drain_seconds = drain_seconds
        self._drain_ends: float | None = None

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        self._drain.begin()
        if sig == signal.SIGTERM and self._drain_ends is None and self._drain_seconds > 0:
            self._drain_ends = time.monotonic() + self._drain_seconds
            return
        super().handle_exit(sig, frame)

    async def on_tick(self, counter: int) -> bool:
        ends = self._drain_ends
        if ends is not None and not self.should_exit and time.monotonic() >= ends:
            super().handle_exit(signal.SIGTERM, None)
        return await super().on_tick(counter)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        # Before the socket closes: once a client is refused, no new work starts.
        if self._scheduling is not None:
            self._scheduling.stop()
        await super().shutdown(sockets)


async def _serve_http(
    server: _Server,
    sock: socket.socket,
    scheduling: SchedulingRuntime | None,
    grace: float,
    beside: tuple[_MetricsServer, socket.socket] | None = None,
) -> None:
    """Serve until uvicorn stops; the scheduler, if any, stops with it, within ``grace`` after.

    ``beside`` is the metrics port's server and socket, served alongside and
    stopped once the API server has stopped.
    """
    if beside is not None:
        metrics_server, metrics_sock = beside
        serving = asyncio.create_task(metrics_server.serve(sockets=[metrics_sock]))
        try:
            await _serve_http(server, sock, scheduling, grace)
        finally:
            metrics_server.should_exit = True
            await serving
        return
    if scheduling is None:
        await server.serve(sockets=[sock])
        return
    async with running(scheduling, stop_within=grace):
        await server.serve(sockets=[sock])


def forwarding_settings(proxies: Sequence[Network]) -> dict[str, Any]:
    """uvicorn's reading of ``X-Forwarded-For``: only from ``proxies``, off without any
    (never its own default of 127.0.0.1, nor ``FORWARDED_ALLOW_IPS``)."""
    if not proxies:
        return {"proxy_headers": False}
    return {
        "proxy_headers": True,
        "forwarded_allow_ips": ",".join(str(network) for network in proxies),
    }


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def listening_socket(host: str, port: int) -> socket.socket:
    """The bound, listening TCP socket uvicorn serves on.

    Made with an explicit ``IPPROTO_TCP``: asyncio turns Nagle's algorithm off
    (``TCP_NODELAY``) only on connections whose socket says TCP, and without it
    a response written in two parts waits for the client's delayed ACK, about
    40 ms on every request after the first on a kept-alive connection.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as err:
        sock.close()
        raise StartupError(f"cannot listen on {host}:{port} ({err.strerror or err}).") from err
    # Listening now lets early clients queue in the backlog until uvicorn accepts.
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def _identity(args: argparse.Namespace) -> tuple[TokenDirectory, str | None]:
    if args.principals is not None:
        try:
            return load_principals(args.principals), None
        except PrincipalsFileError as err:
            raise StartupError(str(err)) from err
    if not _is_loopback(args.host):
        raise StartupError(
            f"refusing to serve on {args.host} without --principals; use a loopback host"
            " or give a principals file."
        )
    return generated_local_directory()


def _cursor_secret(path: Path | None) -> bytes | None:
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


def _open_store(url: str) -> SqlStore:
    try:
        return SqlStore.open(url)
    except DatabaseUrlError as err:
        raise StartupError(str(err)) from err
    except Exception as err:
        raise StartupError(
            f"cannot open the database {printable_url(url)} ({type(err).__name__})."
        ) from err


def serve(args: argparse.Namespace) -> int:
    directory, token = _identity(args)
    _runtime(args)
    _check_run_slots(args)
    cursor_secret = _cursor_secret(args.cursor_secret_file)
    store = _open_store(args.database)
    try:
        sock = listening_socket(args.host, args.port)
        if args.demo:
            first = directory.principals[0]
            load_demo_if_empty(store, first.principal_id, first.tenant_id, system_clock())
        wake = WakeSignal()
        drain = Drain()
        wants_metrics = args.metrics or args.metrics_port is not None
        metrics = ServerMetrics(store, system_clock) if wants_metrics else None
        metrics_sock = (
            None if args.metrics_port is None else listening_socket("127.0.0.1", args.metrics_port)
        )
        scheduling = scheduling_for(args, store, directory, wake, metrics)
        app = create_app(
            store,
            directory,
            system_clock,
            cursor_secret=cursor_secret,
            rate_limit=rate_limit_for(args.rate_limit),
            auth_failures=failure_policy_for(args.auth_failures),
            on_schedule_change=None if scheduling is None else wake.notify,
            admission=Admission(args.max_active_runs),
            drain=drain,
            metrics=metrics,
            metrics_route=args.metrics,
            proxies=args.forwarded_allow_ips,
        )
        address = f"http://{args.host}:{sock.getsockname()[1]}"
        print(f"schedule-server listening on {address}", flush=True)
        if metrics_sock is not None:
            port = metrics_sock.getsockname()[1]
            print(f"metrics on http://127.0.0.1:{port}/metrics", flush=True)
        if token is not None:
            print(f"bearer token for the local principal: {token}", flush=True)
        config = uvicorn.Config(
            app,
            log_level="warning",
            access_log=False,
            timeout_graceful_shutdown=args.shutdown_grace,
            **limits_from(args).uvicorn_options(),
            **forwarding_settings(args.forwarded_allow_ips),
        )
        server = _Server(config, scheduling, drain, args.drain_seconds)
        beside = None
        if metrics is not None and metrics_sock is not None:
            metrics_config = uvicorn.Config(
                metrics_app(metrics),
                log_level="warning",
                access_log=False,
                lifespan="off",
                **limits_from(args).uvicorn_options(),
            )
            beside = (_MetricsServer(metrics_config), metrics_sock)
        with sock, metrics_sock or contextlib.nullcontext():
            try:
                asyncio.run(_serve_http(server, sock, scheduling, args.shutdown_grace, beside))
            finally:
                abandon_stuck_requests()
    finally:
        store.close()
    return 0


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
