"""An unexpected failure is answered by the server itself, on a real uvicorn.

The 500 carries the envelope and a request id; the log says the exception's
type and that id, nothing else (no traceback, no exception text); and the
keep-alive connection stays open for the next request.
"""

from __future__ import annotations

import http.client
import json
import logging
import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn

from server.app import create_app
from server.identity import TokenDirectory, make_principal, token_digest
from server.storage.sql.store import SqlStore
from tests.server.api.conftest import Clock

SECRET_TEXT = "instruction text that must never reach a log"


@pytest.fixture
def crashing_server(store: SqlStore, clock: Clock) -> Iterator[int]:
    """A real uvicorn on a free loopback port whose schedule listing raises."""

    def broken(*_args: object, **_keywords: object) -> Any:
        raise RuntimeError(SECRET_TEXT)

    digest = token_digest("token-alice")
    alice = make_principal(
        principal_id="alice",
        tenant_id="acme",
        display_name="Alice",
        scopes={"schedule.read"},
    )
    app = create_app(store, TokenDirectory([(digest, alice)]), clock)
    store.schedules.page = broken  # type: ignore[method-assign]
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()  # requests queue in the backlog until uvicorn accepts them
    server = uvicorn.Server(uvicorn.Config(app, log_config=None, access_log=False))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]})
    thread.start()
    try:
        yield sock.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def test_unexpected_failure_is_the_envelope_logged_by_type_and_id_and_keeps_the_connection(
    crashing_server: int, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    headers = {"Authorization": "Bearer token-alice"}
    connection = http.client.HTTPConnection("127.0.0.1", crashing_server, timeout=10)
    try:
        connection.request("GET", "/v1/schedules", headers=headers)
        failed = connection.getresponse()
        body = json.loads(failed.read())
        first_socket = connection.sock
        connection.request("GET", "/v1/principal", headers=headers)
        after = connection.getresponse()
        after.read()
        second_socket = connection.sock
    finally:
        connection.close()

    assert failed.status == 500
    assert not failed.will_close
    assert body["error"]["code"] == "server.error"
    request_id = body["error"]["details"]["request_id"]
    assert SECRET_TEXT not in json.dumps(body)
    assert after.status == 200
    assert first_socket is not None and second_socket is first_socket  # one kept-alive connection
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [r.getMessage() for r in errors] == [
        f"unhandled RuntimeError while serving request {request_id}"
    ]
    assert all(r.exc_info is None for r in caplog.records)
    assert SECRET_TEXT not in caplog.text
