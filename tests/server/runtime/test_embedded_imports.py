"""The embedded server's start loads none of what only the stand-alone server uses.

The app's every start after the first opens a migrated SQLite database: that
start loads neither the metrics nor pydantic's v1 path nor PostgreSQL's dialect.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from server.embedded import open_embedded

NEVER_LOADED = ("prometheus_client", "pydantic.v1", "sqlalchemy.dialects.postgresql")

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


def test_the_embedded_server_reopens_without_metrics_pydantic_v1_or_postgresql(
    tmp_path: Path,
) -> None:
    database = tmp_path / "schedules.db"
    open_embedded(database, demo=True).close()
    done = subprocess.run(
        [sys.executable, "-c", OPEN_AND_LIST, str(database)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == []
