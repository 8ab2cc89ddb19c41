"""``schedule-server serve`` and its metrics flags, on a real process.

Off by default; ``--metrics`` answers ``GET /metrics`` on the API port (to
this loopback caller, not to one a proxy forwarded); ``--metrics-port``
answers it on a loopback port of its own, where nothing else is served.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from devtools.ports import free_port
from devtools.served_process import served, write_principals
from server.cli import _parser


@pytest.fixture
def principals(tmp_path: Path) -> Path:
    return write_principals(tmp_path / "principals.toml", ["schedule.read"])


def test_metrics_are_off_by_default(tmp_path: Path, principals: Path) -> None:
    assert _parser().parse_args(["serve"]).metrics is False
    assert _parser().parse_args(["serve"]).metrics_port is None
    with served(f"sqlite:///{tmp_path / 's.db'}", principals, "--drain-seconds", "0") as server:
        response = httpx.get(f"{server.base_url}/metrics")
        status, _printed = server.sigterm()
    assert response.status_code == 404
    assert status == 0


def test_metrics_flag_serves_loopback_callers_on_the_api_port(
    tmp_path: Path, principals: Path
) -> None:
    url = f"sqlite:///{tmp_path / 's.db'}"
    with served(url, principals, "--metrics", "--drain-seconds", "0") as server:
        assert httpx.get(f"{server.base_url}/healthz").status_code == 200
        scraped = httpx.get(f"{server.base_url}/metrics")
        proxied = httpx.get(f"{server.base_url}/metrics", headers={"X-Forwarded-For": "1.2.3.4"})
        status, printed = server.sigterm()
    assert scraped.status_code == 200
    assert "schedule_due_backlog 0.0" in scraped.text
    assert 'route="/healthz"' in scraped.text
    assert proxied.status_code == 404
    assert status == 0
    assert "Traceback" not in printed


def test_metrics_port_serves_them_on_a_loopback_listener_of_its_own(
    tmp_path: Path, principals: Path
) -> None:
    port = free_port()
    url = f"sqlite:///{tmp_path / 's.db'}"
    with served(url, principals, "--metrics-port", str(port), "--drain-seconds", "0") as server:
        scraped = httpx.get(f"http://127.0.0.1:{port}/metrics")
        elsewhere = httpx.get(f"http://127.0.0.1:{port}/v1/schedules")
        on_api_port = httpx.get(f"{server.base_url}/metrics")
        status, printed = server.sigterm()
    assert scraped.status_code == 200
    assert "schedule_server_storage_faulted 0.0" in scraped.text
    assert elsewhere.status_code == 404
    assert on_api_port.status_code == 404, "--metrics-port alone keeps the API port clean"
    assert status == 0
    assert "Traceback" not in printed
