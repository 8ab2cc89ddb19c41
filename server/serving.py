"""``schedule-server serve``'s wiring: the store, app, scheduler and listeners, served.

``serve`` builds them from checked flags (``server.startup``) and runs uvicorn
on a listening socket made here, beside the metrics port's own listener when
asked, until a signal stops it. The scheduler (worker, run executor, retention
purge) runs on the same event loop unless ``--no-worker``. The first SIGTERM
drains (``server.stopping``); the scheduler stops as the shutdown begins and
gets ``--shutdown-grace`` after the requests in flight to finish its batch.
uvicorn reads ``X-Forwarded-For`` only from ``--forwarded-allow-ips``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import socket
import time
from collections.abc import Iterator, Sequence
from datetime import timedelta
from types import FrameType
from typing import Any

import uvicorn

from connection_limits import limits_from
from loopback import LOOPBACK
from server.api.metrics import Network, ServerMetrics, metrics_app
from server.app import create_app
from server.clock import system_clock
from server.demo import load_demo_if_empty
from server.firing.admission import Admission
from server.firing.observer import SILENT
from server.identity import TokenDirectory
from server.startup import (
    StartupError,
    check_run_slots,
    failure_policy_for,
    identity_for,
    open_store,
    rate_limit_for,
    read_cursor_secret,
    runtime_for,
    watch_for,
)
from server.stopping import Drain, abandon_stuck_requests
from server.storage.sql.store import SqlStore
from server.worker.attached_runtime import executor_for
from server.worker.runtime import SchedulingRuntime, SchedulingSettings, running
from server.worker.wake import WakeSignal
from server.worker.worker import default_batch_size


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
        heartbeat_retention=timedelta(seconds=args.scheduler_forget_seconds),
    )
    executor = executor_for(runtime_for(args), system_clock)
    return SchedulingRuntime(
        store,
        directory,
        system_clock,
        executor=executor,
        settings=settings,
        wake=wake,
        observer=SILENT if metrics is None else metrics,
    )


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


def listening_socket(host: str, port: int) -> socket.socket:
    """The bound, listening TCP socket uvicorn serves on.

    Made with an explicit ``IPPROTO_TCP``: asyncio turns Nagle's algorithm off
    (``TCP_NODELAY``) only on connections whose socket says TCP, and without it
    a response written in two parts waits for the client's delayed ACK, about
    40 ms on every request after the first on a kept-alive connection.
    """
    address = _unbracketed(host)
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((address, port))
    except OSError as err:
        sock.close()
        raise StartupError(f"cannot listen on {host}:{port} ({err.strerror or err}).") from err
    # Listening now lets early clients queue in the backlog until uvicorn accepts.
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def _unbracketed(host: str) -> str:
    """``[::1]`` as a socket takes it (``::1``); any other host as it is."""
    return host[1:-1] if host.startswith("[") and host.endswith("]") else host


def serve(args: argparse.Namespace) -> int:
    """Check the flags, build the server, serve until stopped; 0, or ``StartupError``."""
    directory, token = identity_for(args)
    runtime_for(args)
    check_run_slots(args)
    watch = watch_for(args)
    cursor_secret = read_cursor_secret(args.cursor_secret_file)
    store = open_store(args.database)
    try:
        sock = listening_socket(args.host, args.port)
        if args.demo:
            first = directory.principals[0]
            load_demo_if_empty(store, first.principal_id, first.tenant_id, system_clock())
        wake = WakeSignal()
        drain = Drain()
        wants_metrics = args.metrics or args.metrics_port is not None
        metrics = ServerMetrics(store, system_clock, watch.overdue_after) if wants_metrics else None
        metrics_sock = (
            None if args.metrics_port is None else listening_socket(LOOPBACK, args.metrics_port)
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
            watch=watch,
            public_url=args.public_url,
        )
        host = _unbracketed(args.host)
        address = f"http://{f'[{host}]' if ':' in host else host}:{sock.getsockname()[1]}"
        print(f"schedule-server listening on {address}", flush=True)
        if metrics_sock is not None:
            port = metrics_sock.getsockname()[1]
            print(f"metrics on http://{LOOPBACK}:{port}/metrics", flush=True)
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
