"""The band's candidate read scans only its wall-clock ranges of ``ix_schedules_wall_clock``.

SQLite's plan for the candidates statement must bound each index search by
zone and wall time, so a page costs the schedules in its band, not every one
of the owner's schedules; an owner with schedules in every zone stays under
SQLite's limit on the terms of one compound SELECT. The owner's zones are one
recursive statement whose every step is a search of the same index.
"""

from __future__ import annotations

from pathlib import Path

from server.storage.agenda_port import AgendaFilter, WallRange
from server.storage.engine import open_engine
from server.storage.migrate import upgrade
from server.storage.records import Owner
from server.storage.sql.agenda_rows import SqlAgendaRows, candidates_query, zones_query

RANGES = (
    WallRange("ACTIVE", "Europe/Paris", 36_000, 36_901),
    WallRange("ACTIVE", "UTC", 32_400, 33_301),
    WallRange("PAUSED", "UTC", 32_400, 33_301),
)


def test_each_wall_range_is_one_bounded_index_search(tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path / 'plan.db'}")
    upgrade(engine)
    query = candidates_query(Owner("acme", "alice"), RANGES, AgendaFilter())
    with engine.connect() as connection:
        statement = str(query.compile(engine, compile_kwargs={"literal_binds": True}))
        plan = [row[3] for row in connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}")]
    engine.dispose()

    searches = [step for step in plan if step.startswith("SEARCH schedules")]
    assert len(searches) == len(RANGES), plan
    assert all("ix_schedules_wall_clock" in step for step in searches), plan
    assert all("cadence_wall_time>" in step for step in searches), plan


def test_an_owner_in_every_zone_reads_its_candidates(tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path / 'zones.db'}")
    upgrade(engine)
    ranges = [
        WallRange(state, f"Zone/{number:04d}", low, low + 900)
        for state in ("ACTIVE", "PAUSED")
        for number in range(300)
        for low in (0, 43_200)
    ]
    found = SqlAgendaRows(engine).candidates(Owner("acme", "alice"), ranges, AgendaFilter())
    engine.dispose()

    assert found == []


def test_the_zones_are_one_statement_whose_every_step_is_an_index_search(tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path / 'zones-plan.db'}")
    upgrade(engine)
    query = zones_query(Owner("acme", "alice"), "ACTIVE")
    with engine.connect() as connection:
        statement = str(query.compile(engine, compile_kwargs={"literal_binds": True}))
        plan = [row[3] for row in connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}")]
    engine.dispose()

    reads = [step for step in plan if "schedules" in step and "zones" not in step]
    assert reads, plan
    assert all(step.startswith("SEARCH schedules") for step in reads), plan
    assert all("ix_schedules_wall_clock" in step for step in reads), plan
