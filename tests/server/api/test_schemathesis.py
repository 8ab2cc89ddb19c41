"""The published OpenAPI document tells the truth, as an outside tester checks it.

``schedule-server serve`` runs as a real process (uvicorn, the demo data, a
principals file, no rate limit, no throttle of authentication failures: the
negative-auth checks send many on purpose) on a free loopback port, and
schemathesis's own command line runs against its ``/openapi.json`` with every check, in every
phase (examples, coverage, fuzzing, stateful), a bounded number of examples and
a fixed seed so a failure reproduces. Zero failures is the bar. The only
deliberate exclusions are in ``schemathesis.toml`` beside this file, each with
its reason.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from devtools.ports import free_port
from server.identity import ALL_SCOPES, token_digest

CONFIG = Path(__file__).with_name("schemathesis.toml")
TOKEN = "schemathesis-token"
MAX_EXAMPLES = 5
SEED = 20261201


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    principals = tmp_path / "principals.toml"
    scopes = ", ".join(f'"{scope}"' for scope in sorted(ALL_SCOPES))
    principals.write_text(
        '[[principal]]\nid = "tester"\ntenant = "acme"\ndisplay_name = "Tester"\n'
        f'token_sha256 = "{token_digest(TOKEN)}"\nscopes = [{scopes}]\n'
    )
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "server.cli",
        "serve",
        "--database",
        f"sqlite:///{tmp_path / 'tested.db'}",
        "--port",
        str(port),
        "--principals",
        str(principals),
        "--demo",
        "--rate-limit",
        "0",
        "--auth-failures",
        "0",
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        process.stdout.readline()  # the banner: the socket is bound and listening
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        _, stderr = process.communicate(timeout=10)
        assert "Traceback" not in stderr


def test_schemathesis_finds_no_failure_with_every_check_and_phase(
    served: str, tmp_path: Path
) -> None:
    command = [
        sys.executable,
        "-m",
        "schemathesis.cli",
        "--config-file",
        str(CONFIG),
        "run",
        f"{served}/openapi.json",
        "--checks",
        "all",
        "--phases",
        "examples,coverage,fuzzing,stateful",
        "--header",
        f"Authorization: Bearer {TOKEN}",
        "--max-examples",
        str(MAX_EXAMPLES),
        "--seed",
        str(SEED),
        "--workers",
        "1",
        "--no-color",
        "--generation-database",
        "none",
    ]
    run = subprocess.run(
        command, capture_output=True, text=True, timeout=240, check=False, cwd=tmp_path
    )
    summary = run.stdout[-3000:]
    assert run.returncode == 0, run.stdout[-20000:] + run.stderr[-2000:]
    operations = sum(
        len(item) for item in httpx.get(f"{served}/openapi.json").json()["paths"].values()
    )
    assert re.search(rf"Tested: {operations}\b", run.stdout), summary
    assert re.search(r"\d+ generated, \d+ passed", summary) or "No issues found" in summary, summary
