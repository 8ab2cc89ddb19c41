"""A small, real agent runtime for the tests: an HTTP server on a free loopback port.

It speaks the executor protocol as docs/API.md writes it, independently of
the server's own code: it checks ``X-Schedule-Signature`` with its own HMAC
over ``t.`` + body (refusing a bad one with 401), keeps every delivery it
received, and answers as its ``behaviour`` says: a ``Reply`` of status, JSON
document and how long to hold the request first. A held request waits on an
event, so stopping the runtime releases it at once.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SECRET = b"a-shared-secret-of-at-least-32-bytes-for-tests"


@dataclass(frozen=True, slots=True)
class Delivery:
    """One request the runtime received: its raw body, its document, whether it was signed."""

    body: bytes
    document: dict[str, Any]
    signature: str
    signed: bool
    number: int
    """1 for the first delivery of its run_id, 2 for the next, and so on."""


@dataclass(frozen=True, slots=True)
class Reply:
    status: int
    document: dict[str, Any] | None = None
    hold_seconds: float = 0.0


Behaviour = Callable[[Delivery], Reply]


def completes(*answers: str) -> Behaviour:
    return lambda _delivery: Reply(200, {"status": "COMPLETED", "answers": list(answers)})


def fails(reason: str, error_class: str) -> Behaviour:
    return lambda _delivery: Reply(
        200, {"status": "FAILED", "reason": reason, "error_class": error_class, "extra": 1}
    )


def signature_ok(secret: bytes, header: str, body: bytes, tolerance: float = 300) -> bool:
    fields = dict(part.split("=", 1) for part in header.split(",") if "=" in part)
    try:
        timestamp = int(fields["t"])
    except (KeyError, ValueError):
        return False
    expected = hmac.new(secret, f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    fresh = abs(time.time() - timestamp) <= tolerance
    return fresh and hmac.compare_digest(expected, fields.get("v1", ""))


@dataclass
class AgentRuntime:
    behaviour: Behaviour
    secret: bytes = SECRET
    deliveries: list[Delivery] = field(default_factory=list)
    answered: list[Delivery] = field(default_factory=list)
    """Deliveries whose reply was written out in full (after any hold)."""
    replied: list[Delivery] = field(default_factory=list)
    """Deliveries the runtime has replied to, or tried to: the request may be gone."""
    released: threading.Event = field(default_factory=threading.Event)
    port: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/runs"

    def receive(self, body: bytes, signature: str) -> tuple[Delivery, Reply]:
        document = json.loads(body)
        number = 1 + sum(d.document["run_id"] == document["run_id"] for d in self.deliveries)
        delivery = Delivery(
            body, document, signature, signature_ok(self.secret, signature, body), number
        )
        self.deliveries.append(delivery)
        if not delivery.signed:
            return delivery, Reply(401, {"error": "bad signature"})
        return delivery, self.behaviour(delivery)


def _handler(runtime: AgentRuntime) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            delivery, reply = runtime.receive(body, self.headers.get("X-Schedule-Signature", ""))
            if reply.hold_seconds:
                runtime.released.wait(reply.hold_seconds)
            content = b"" if reply.document is None else json.dumps(reply.document).encode()
            try:
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)
                self.wfile.flush()
            except OSError:  # the server gave up on this request (its deadline passed)
                return
            finally:
                runtime.replied.append(delivery)
            runtime.answered.append(delivery)

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: the tests read ``deliveries``."""

    return Handler


@contextmanager
def agent_runtime(behaviour: Behaviour, secret: bytes = SECRET) -> Iterator[AgentRuntime]:
    """The runtime serving on a free loopback port for the block."""
    runtime = AgentRuntime(behaviour, secret)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(runtime))
    server.daemon_threads = True
    runtime.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, name="agent runtime", daemon=True)
    thread.start()
    try:
        yield runtime
    finally:
        runtime.released.set()
        server.shutdown()
        server.server_close()
        thread.join(10)
