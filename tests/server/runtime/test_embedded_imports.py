"""The embedded server's start loads none of what only the stand-alone server uses."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

NEVER_LOADED = ("prometheus_client", "pydantic.v1")

# A fresh interpreter: this one has loaded everything the other tests use.
OPEN_AND_LIST = f"""
import sys
from pathlib import Path

from server.embedded import open_embedded

server = open_embedded(Path(sys.argv[1]), demo=True)
server.close()
print(" ".join(name for name in {NEVER_LOADED!r} if name in sys.modules))
import pydantic.v1  # still importable after the app is built
"""


def test_the_embedded_server_opens_without_metrics_or_pydantic_v1(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", OPEN_AND_LIST, str(tmp_path / "schedules.db")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == []
