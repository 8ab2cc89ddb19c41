"""The agenda's reads scan only what they name of ``ix_schedules_wall_clock``.

SQLite's plan for a band's statement must drive one index search per wall
range, bounded by zone and wall time, so a page costs the schedules in its
band, not every one of the owner's schedules, and count them per herd from
the index alone; an owner with schedules in every zone stays under SQLite's
limits on one statement. A page's herd members
are read in the index's id order, so the first few of many herds are a merge
that stops there, never a sort of every member; whole herds are one search
per state and cadence. The owner's zones are one
recursive statement whose every step is a search of the same index. On
PostgreSQL the band's reads start no parallel workers.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine

from server.storage.agenda_port import AgendaFilter, BandSchedules, Herd, WallRange
from server.storage.engine import open_engine
from server.storage.migrate import upgrade
from server.storage.records import Owner
from server.storage.sql.agenda_rows import (
    SqlAgendaRows,
    band_query,
    first_members_query,
    members_query,
    serial,
    zones_query,
)
from server.storage.sql.store import SqlStore

START = datetime(2027, 3, 1, tzinfo=UTC)
RANGES = (
    WallRange("ACTIVE", "Europe/Paris", 36_000, 36_901),
    WallRange("ACTIVE", "UTC", 32_400, 33_301),
    WallRange("PAUSED", "UTC", 32_400, 33_301),
)


def _plan(engine: Engine, query: Any) -> list[str]:
    """SQLite's plan for the query, a step a line; the engine is closed after."""
    with engine.connect() as connection:
        statement = str(query.compile(engine, compile_kwargs={"literal_binds": True}))
        plan = [row[3] for row in connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}")]
    engine.dispose()
    return plan


def test_each_wall_range_drives_one_bounded_search_of_the_index_alone(tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path / 'plan.db'}")
    upgrade(engine)
    query = band_query(Owner("acme", "alice"), RANGES, START, AgendaFilter(), "sqlite")
    plan = _plan(engine, query)

    reads = [step for step in plan if "schedules" in step]
    assert plan.index(next(s for s in plan if s.startswith("SCAN walls"))) < plan.index(reads[0])
    assert len(reads) == 1, plan
    assert "COVERING INDEX ix_schedules_wall_clock" in reads[0], plan
    assert "cadence_zone=? AND cadence_wall_time>? AND cadence_wall_time<?" in reads[0], plan


def test_the_first_members_of_many_herds_are_a_merge_of_index_reads_in_id_order(
    tmp_path: Path,
) -> None:
    engine = open_engine(f"sqlite:///{tmp_path / 'members.db'}")
    upgrade(engine)
    herds = [
        Herd("ACTIVE", zone, 32_400, f'{{"zone":"{zone}"}}', START, 300)
        for zone in ("Europe/London", "Europe/Paris", "UTC")
    ]
    query = first_members_query(Owner("acme", "alice"), herds, AgendaFilter(), None, 100)
    plan = _plan(engine, query)

    searches = [step for step in plan if step.startswith("SEARCH schedules")]
    assert len(searches) == len(herds), plan
    assert all("cadence_wall_time=?" in step for step in searches), plan
    assert not any("TEMP B-TREE" in step for step in plan), plan


def test_whole_herds_are_one_search_per_state_and_cadence(tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path / 'whole.db'}")
    upgrade(engine)
    cadences = [("ACTIVE", '{"zone":"UTC"}'), ("PAUSED", '{"zone":"UTC"}')]
    query = members_query(Owner("acme", "alice"), cadences, AgendaFilter())
    plan = _plan(engine, query)

    assert len(plan) == 1, plan
    assert "state=? AND cadence_key=?" in plan[0], plan


def test_an_owner_in_every_zone_reads_its_candidates(tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path / 'zones.db'}")
    upgrade(engine)
    ranges = [
        WallRange(state, f"Zone/{number:04d}", low, low + 900)
        for state in ("ACTIVE", "PAUSED")
        for number in range(300)
        for low in (0, 43_200)
    ]
    found = SqlAgendaRows(engine).band_schedules(
        Owner("acme", "alice"), ranges, START, AgendaFilter()
    )
    engine.dispose()

    assert found == BandSchedules(herds=[], candidates=[])


def test_the_zones_are_one_statement_whose_every_step_is_an_index_search(tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path / 'zones-plan.db'}")
    upgrade(engine)
    query = zones_query(Owner("acme", "alice"), "ACTIVE")
    plan = _plan(engine, query)

    reads = [step for step in plan if "schedules" in step and "zones" not in step]
    assert reads, plan
    assert all(step.startswith("SEARCH schedules") for step in reads), plan
    assert all("ix_schedules_wall_clock" in step for step in reads), plan


@pytest.mark.each_backend
def test_the_agendas_reads_start_no_parallel_workers(store: SqlStore) -> None:
    with serial(store.engine) as connection:
        workers = None
        if connection.dialect.name == "postgresql":
            workers = connection.exec_driver_sql("SHOW max_parallel_workers_per_gather").scalar()
        assert connection.exec_driver_sql("SELECT 1").scalar() == 1

    assert workers in (None, "0")
    assert (connection.dialect.name == "postgresql") == (workers is not None)
