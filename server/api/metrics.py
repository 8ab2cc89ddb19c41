"""``GET /metrics``: what an operator watches, in Prometheus' text format.

Off unless asked for (``--metrics`` or ``--metrics-port``). Each server has a
registry of its own, never the process-wide default, so two servers in one
process never mix their figures. The metrics are listed in docs/API.md
(Metrics); the due backlog, the overdue schedules, the runs and each
replica's last heartbeat are read from the database at each scrape, and left
out when it cannot be read. On the API port it answers only
a loopback caller that came through no proxy (no forwarding header, no
trusted proxy's peer); anyone else gets 404 ``route.not_found``, so a server
behind a proxy does not publish it.
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime, timedelta

import anyio.to_thread
from fastapi import APIRouter, Request
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram
from prometheus_client import generate_latest as exposition
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from loopback import loopback_address
from server.api.errors import ApiError
from server.domain.states import Disposition
from server.storage.faults import is_storage_fault
from server.storage.ports import Store
from server.storage.records import OccurrenceRecord

__all__ = ["RequestTiming", "ServerMetrics", "metrics_app", "metrics_routes"]

LATENESS_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0, 3600.0)
REQUEST_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
"""Any other method is labelled OTHER: a caller must not be able to mint label values."""
_FORWARDING_HEADERS = ("forwarded", "x-forwarded-for", "x-real-ip")
"""Headers a reverse proxy adds to name the client it forwards."""

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class ServerMetrics:
    """One server's metrics; also the worker's observer (``server/firing/observer.py``)."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], datetime],
        overdue_after: timedelta = timedelta(seconds=60),
    ) -> None:
        self.registry = CollectorRegistry(auto_describe=False)
        self._lateness = Histogram(
            "schedule_firing_lateness_seconds",
            "Materialized minus nominal instant of each MATERIALIZED occurrence.",
            buckets=LATENESS_BUCKETS,
            registry=self.registry,
        )
        self._occurrences = Counter(
            "schedule_occurrences",
            "Occurrences this process recorded, by disposition.",
            ["disposition"],
            registry=self.registry,
        )
        self._due = Counter(
            "schedule_firings_due",
            "Due instants this process's deciders met (the worker's claim, an edit's settling).",
            registry=self.registry,
        )
        self._decided = Counter(
            "schedule_firings_decided",
            "Due instants this process decided, by disposition.",
            ["disposition"],
            registry=self.registry,
        )
        self._materialization_errors = Counter(
            "schedule_materialization_errors",
            "Materializations that failed for a reason other than a storage fault.",
            registry=self.registry,
        )
        self._requests = Histogram(
            "schedule_server_request_duration_seconds",
            "API request duration, by route template, method and status.",
            ["route", "method", "status"],
            buckets=REQUEST_BUCKETS,
            registry=self.registry,
        )
        self.registry.register(_DatabaseCollector(store, clock, overdue_after))

    def occurrence_recorded(self, occurrence: OccurrenceRecord) -> None:
        self._occurrences.labels(occurrence.disposition).inc()
        self._decided.labels(occurrence.disposition).inc()
        if (
            occurrence.disposition == Disposition.MATERIALIZED
            and occurrence.materialized_at is not None
        ):
            late = (occurrence.materialized_at - occurrence.nominal_fire_at).total_seconds()
            self._lateness.observe(max(late, 0.0))

    def firings_due(self, count: int) -> None:
        self._due.inc(count)

    def materialization_failed(self) -> None:
        self._materialization_errors.inc()

    def request_served(self, route: str, method: str, status: int, seconds: float) -> None:
        self._requests.labels(route, method, str(status)).observe(seconds)

    def exposition(self) -> bytes:
        return exposition(self.registry)


class _DatabaseCollector(Collector):
    """The figures read at scrape time: the store's faults, then the database's tallies."""

    def __init__(
        self, store: Store, clock: Callable[[], datetime], overdue_after: timedelta
    ) -> None:
        self._store = store
        self._clock = clock
        self._overdue_after = overdue_after

    def collect(self) -> Iterable[Metric]:
        faults = self._store.faults
        yield CounterMetricFamily(
            "schedule_server_storage_errors",
            "Storage faults met (disk full, read-only, lock timeout, connection lost).",
            value=faults.count,
        )
        yield GaugeMetricFamily(
            "schedule_server_storage_faulted",
            "1 from a storage fault until a write succeeds again (/readyz: storage_fault).",
            value=1 if faults.faulted else 0,
        )
        now = self._clock()
        try:
            tallies = self._store.tallies(now, now - self._overdue_after)
            ticks = self._store.replicas.ticks()
        except Exception as err:
            if is_storage_fault(err):
                return
            raise
        yield GaugeMetricFamily(
            "schedule_due_backlog",
            "ACTIVE schedules whose next firing has come and is not yet materialized.",
            value=tallies.due_backlog,
        )
        yield GaugeMetricFamily(
            "schedule_overdue",
            "ACTIVE schedules whose next firing passed the overdue threshold undecided.",
            value=tallies.overdue or 0,
        )
        beats = GaugeMetricFamily(
            "schedule_scheduler_last_tick_timestamp_seconds",
            "Each scheduler replica's last heartbeat (Unix time), until retention forgets it.",
            labels=["replica", "host"],
        )
        for tick in ticks:
            beats.add_metric(
                [tick.replica.replica_id, tick.replica.host], tick.last_tick_at.timestamp()
            )
        yield beats
        runs = GaugeMetricFamily("schedule_runs", "Runs stored, by status.", labels=["status"])
        for status, count in sorted(tallies.runs_by_status.items()):
            runs.add_metric([status], count)
        yield runs


class RequestTiming:
    """The ASGI layer that times every API request, outside the crash guard (so 5xx count too)."""

    def __init__(self, app: ASGIApp, metrics: ServerMetrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            template = getattr(scope.get("route"), "path", None)
            self.metrics.request_served(
                template if isinstance(template, str) else "unmatched",
                scope["method"] if scope["method"] in _METHODS else "OTHER",
                status,
                time.perf_counter() - started,
            )


def _may_read(request: Request, proxies: Sequence[Network] = ()) -> bool:
    """A caller on loopback that no proxy forwarded: no forwarding header, and a peer
    that is not one of ``proxies``. Without a header uvicorn leaves the peer as it is,
    so ``request.client`` is then the real peer."""
    if any(name in request.headers for name in _FORWARDING_HEADERS):
        return False
    address = loopback_address(request.client.host if request.client is not None else "")
    return address is not None and not any(address in network for network in proxies)


def metrics_routes(metrics: ServerMetrics, proxies: Sequence[Network] = ()) -> APIRouter:
    """``GET /metrics`` on the API port, for loopback callers that came through none of
    ``proxies`` (the trusted proxies' addresses) and no other proxy either (not in the
    OpenAPI document)."""
    router = APIRouter()

    @router.get("/metrics", include_in_schema=False)
    def read_metrics(request: Request) -> Response:
        if not _may_read(request, proxies):
            raise ApiError(404, "route.not_found", "No such route.")
        return Response(
            metrics.exposition(),
            media_type=CONTENT_TYPE_LATEST,
            headers={"Cache-Control": "no-store"},
        )

    return router


def metrics_app(metrics: ServerMetrics) -> ASGIApp:
    """The whole application of the metrics port: ``GET /metrics``, and 404 for anything else."""

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        if scope["path"] != "/metrics" or scope["method"] != "GET":
            status, body, kind = 404, b"not found\n", b"text/plain; charset=utf-8"
        else:
            status, body = 200, await anyio.to_thread.run_sync(metrics.exposition)
            kind = CONTENT_TYPE_LATEST.encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(b"content-type", kind), (b"cache-control", b"no-store")],
            }
        )
        await send({"type": "http.response.body", "body": body})

    return app
