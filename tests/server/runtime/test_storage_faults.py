"""Storage faults on a real ``schedule-server``: said with 503, never hidden, nothing lost.

On SQLite the database lives on a tiny tmpfs that fills up (disk full; a
volume with files open for writing cannot be remounted read-only); on
PostgreSQL the database is made read-only. Each
drill (``fault_drill.drill``) checks the contract: every refused write is 503
``server.unavailable`` with ``Retry-After`` (no 500), reads keep answering,
``/readyz`` answers 503 ``storage_fault`` until a write succeeds again, the
server recovers by itself once the storage does, every acknowledged write is
still there, and the log has one line per refusal with the fault's class and
the request id, and no traceback.
"""

from __future__ import annotations

import re
import signal
import threading
from pathlib import Path

import httpx
import pytest

from devtools.fault_drill import DrillFigures, drill
from devtools.postgres_cluster import PostgresCluster
from devtools.served_process import EXIT_WAIT_SECONDS, ServedProcess, served, write_principals
from devtools.storage_faults import postgres_read_only, tiny_filesystem
from tests.server.lock_waits import eventually
from tests.server.runtime.due_schedules import import_due
from tests.server.runtime.test_cli_shutdown import row_count

REFUSAL_LINE = re.compile(r"storage fault \((\w+), (\w+)\) while serving request ([0-9a-f]{32})")
WORKER_BACKS_OFF = "the worker backs off and retries"
STORAGE_ERRORS = re.compile(r"^schedule_server_storage_errors_total (\S+)$", re.MULTILINE)


class LoggedAsItGoes:
    """A served process's log (its stderr) read while it runs, so a test waits for a line.

    A thread drains the pipe; ``sigterm`` then stops the process as
    ``ServedProcess.sigterm`` does and returns its status and all it printed.
    """

    def __init__(self, server: ServedProcess) -> None:
        self._process = server.process
        self._lines: list[str] = []
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    def _drain(self) -> None:
        assert self._process.stderr is not None
        for line in self._process.stderr:
            self._lines.append(line)

    def holds(self, part: str) -> bool:
        return any(part in line for line in tuple(self._lines))

    def sigterm(self) -> tuple[int, str]:
        self._process.send_signal(signal.SIGTERM)
        self._reader.join(timeout=EXIT_WAIT_SECONDS)  # the pipe ends when the process does
        out, rest = self._process.communicate(timeout=EXIT_WAIT_SECONDS)
        return self._process.returncode, out + "".join(self._lines) + rest


def storage_errors(server: ServedProcess) -> float:
    """The server's count of storage faults met (``/metrics``, served with ``--metrics``)."""
    scraped = httpx.get(f"{server.base_url}/metrics", timeout=10)
    found = STORAGE_ERRORS.search(scraped.text)
    assert found is not None, scraped.text
    return float(found.group(1))


@pytest.fixture
def principals(tmp_path: Path) -> Path:
    return write_principals(tmp_path / "principals.toml", ["schedule.read", "schedule.write"])


def assert_said_and_nothing_lost(figures: DrillFigures, printed: str, code: str) -> None:
    print(figures)  # the closing note quotes these (pytest -s)
    assert figures.unavailable >= 1
    assert figures.other_failures == ()
    assert figures.retry_after == ("5",)
    assert figures.readyz_during == (503, "storage_fault")
    assert figures.reads_during == 200
    assert figures.recovery_seconds < 10
    assert figures.write_after_recovery == 201
    assert figures.lost == 0
    refusals = REFUSAL_LINE.findall(printed)
    assert len(refusals) == figures.unavailable, printed
    assert {found for _kind, found, _id in refusals} == {code}
    assert len({request_id for *_, request_id in refusals}) == figures.unavailable
    assert "Traceback" not in printed


def test_a_full_disk_answers_503_readyz_follows_and_recovery_loses_nothing(
    tmp_path: Path, principals: Path
) -> None:
    with tiny_filesystem(tmp_path / "tiny", megabytes=2) as volume:
        url = f"sqlite:///{volume.folder / 'schedules.db'}"
        with served(url, principals, "--drain-seconds", "0") as server:
            figures = drill(
                server, fault=lambda: None, repair=lambda: volume.resize(64), bulky=True
            )
            status, printed = server.sigterm()
    assert status == 0
    assert figures.acknowledged > 2
    assert_said_and_nothing_lost(figures, printed, "SQLITE_FULL")


def test_a_read_only_postgresql_answers_503_readyz_follows_and_recovery_loses_nothing(
    postgres_url: str, postgres_cluster: PostgresCluster, principals: Path
) -> None:
    application = "faultdrill"
    url = f"{postgres_url}?application_name={application}"
    with (
        postgres_read_only(postgres_cluster, postgres_url, application) as switch,
        served(url, principals, "--drain-seconds", "0") as server,
    ):
        figures = drill(server, before=5, fault=switch.read_only, repair=switch.writable)
        status, printed = server.sigterm()
    assert status == 0
    assert_said_and_nothing_lost(figures, printed, "25006")


def test_the_worker_on_a_read_only_postgresql_backs_off_says_so_once_and_catches_up(
    postgres_url: str, postgres_cluster: PostgresCluster, principals: Path
) -> None:
    _due_at, due_ids = import_due(postgres_url, ["alice", "alice", "alice"])
    application = "faultworker"
    url = f"{postgres_url}?application_name={application}"
    with postgres_read_only(postgres_cluster, postgres_url, application) as switch:
        switch.read_only()
        with served(url, principals, "--drain-seconds", "0", "--metrics") as server:
            log = LoggedAsItGoes(server)
            eventually(lambda: log.holds(WORKER_BACKS_OFF), "the worker to meet the fault")
            met = storage_errors(server)
            # Its first retry (after 1 s): one spell, however many tries, is said once.
            eventually(lambda: storage_errors(server) > met, "the worker to try again")
            assert row_count(postgres_url, "schedule_occurrences") == 0
            switch.writable()
            eventually(
                lambda: row_count(postgres_url, "schedule_occurrences") == len(due_ids),
                "the worker to catch up once the database takes writes",
            )
            status, printed = log.sigterm()
    assert status == 0
    worker_lines = [line for line in printed.splitlines() if "the worker" in line]
    assert worker_lines == [
        "storage fault (ReadOnlySqlTransaction, 25006): the worker backs off and retries"
        " until the database takes writes again",
        "the database takes writes again; the worker goes on",
    ], printed
    assert "Traceback" not in printed
