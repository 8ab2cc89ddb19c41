"""Storage fault drills on a real ``schedule-server``, on SQLite and on PostgreSQL: the figures.

How it measures: bench/README.md, "faults.py". Run: ``.venv/bin/python bench/faults.py``.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.throwaway_postgres import throwaway_database
from devtools.fault_drill import DrillFigures, drill
from devtools.served_process import ServedProcess, served, write_principals
from devtools.storage_faults import postgres_read_only, tiny_filesystem

SCOPES = ["schedule.read", "schedule.write"]
WIDTH = 26


@dataclass(frozen=True, slots=True)
class Drilled:
    figures: DrillFigures
    log: str


def stopped(server: ServedProcess, figures: DrillFigures) -> Drilled:
    status, printed = server.sigterm()
    assert status == 0, printed
    return Drilled(figures, printed)


def sqlite_disk_full(folder: Path) -> Drilled:
    principals = write_principals(folder / "principals.toml", SCOPES)
    with tiny_filesystem(folder / "tiny", megabytes=2) as volume:
        url = f"sqlite:///{volume.folder / 'schedules.db'}"
        with served(url, principals, "--drain-seconds", "0") as server:
            figures = drill(
                server, fault=lambda: None, repair=lambda: volume.resize(64), bulky=True
            )
            drilled = stopped(server, figures)
    return drilled


def postgres_read_only_drill(folder: Path) -> Drilled:
    principals = write_principals(folder / "principals.toml", SCOPES)
    with throwaway_database("fault_drill") as (cluster, database_url):
        application = "faultdrill"
        url = f"{database_url}?application_name={application}"
        with (
            postgres_read_only(cluster, database_url, application) as switch,
            served(url, principals, "--drain-seconds", "0") as server,
        ):
            figures = drill(server, before=5, fault=switch.read_only, repair=switch.writable)
            drilled = stopped(server, figures)
    return drilled


def postgres_stopped_drill(folder: Path) -> Drilled:
    principals = write_principals(folder / "principals.toml", SCOPES)
    with (
        throwaway_database("fault_drill") as (cluster, url),
        served(url, principals, "--drain-seconds", "0") as server,
    ):
        figures = drill(server, before=5, fault=cluster.pause, repair=cluster.resume)
        drilled = stopped(server, figures)
    return drilled


def scheduler_lines(log: str) -> int:
    return sum(1 for line in log.splitlines() if line and "while serving request" not in line)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-faults-") as folder:
        root = Path(folder)
        (root / "sqlite").mkdir()
        (root / "postgresql").mkdir()
        drills = {
            "SQLite, disk full": sqlite_disk_full(root / "sqlite"),
            "PostgreSQL, read-only": postgres_read_only_drill(root / "postgresql"),
            "PostgreSQL, stopped": postgres_stopped_drill(root / "postgresql"),
        }
    print("Storage fault drills on a real schedule-server (loopback; worker on)")
    print(f"{'':34}" + "".join(f"{name:>{WIDTH}}" for name in drills))
    rows: list[tuple[str, Callable[[Drilled], str]]] = [
        ("writes acknowledged (201)", lambda d: str(d.figures.acknowledged)),
        ("writes refused 503 unavailable", lambda d: str(d.figures.unavailable)),
        ("other answers (500 etc.)", lambda d: str(len(d.figures.other_failures))),
        ("Retry-After", lambda d: ",".join(d.figures.retry_after)),
        (
            "/readyz during the fault",
            lambda d: f"{d.figures.readyz_during[0]} {d.figures.readyz_during[1]}",
        ),
        ("reads during the fault", lambda d: str(d.figures.reads_during)),
        ("recovery (repair to /readyz 200)", lambda d: f"{d.figures.recovery_seconds:.2f} s"),
        ("write after recovery", lambda d: str(d.figures.write_after_recovery)),
        ("acknowledged writes lost", lambda d: str(d.figures.lost)),
        ("log lines for the 503s", lambda d: str(d.log.count("while serving request"))),
        ("log lines of the scheduler", lambda d: str(scheduler_lines(d.log))),
        ("tracebacks in the log", lambda d: str(d.log.count("Traceback"))),
    ]
    for label, value in rows:
        print(f"  {label:32}" + "".join(f"{value(d):>{WIDTH}}" for d in drills.values()))


if __name__ == "__main__":
    main()
