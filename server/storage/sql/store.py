"""One database, every repository: the SQL implementation of ``ports.Store``.

Every error the engine raises passes ``_note_error``: a storage fault
(``server/storage/faults.py``) starts or extends the store's fault spell, so
whichever request or worker meets it first, ``GET /readyz`` knows. The probe
write that ends a spell rewrites the migration stamp with its own value: a
real write the database must accept, needing no table of its own, and
touching nothing the server reads. On SQLite the probe also wants
``PROBE_FREE_BYTES`` free beside the database file: a one-page write fits in
the journal space a failed write left behind, so on a full disk the write
alone would pass.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

from sqlalchemy import Engine, event, exists, select, text
from sqlalchemy.engine import ExceptionContext
from sqlalchemy.exc import SQLAlchemyError

from server.storage.engine import compact_sqlite_journal, open_engine
from server.storage.faults import StorageExhausted, StorageFaults, is_storage_fault
from server.storage.ports import Readiness
from server.storage.schema_head import is_at_head
from server.storage.sql.advisory_locks import DEMO_DATA, holding
from server.storage.sql.agenda_density_rows import SqlDensityRows
from server.storage.sql.agenda_rows import SqlAgendaRows
from server.storage.sql.audit import SqlAuditLog
from server.storage.sql.feeds import SqlCalendarFeeds
from server.storage.sql.folders import SqlFolderRepository
from server.storage.sql.heartbeats import SqlSchedulerReplicas
from server.storage.sql.occurrences import SqlOccurrenceRepository
from server.storage.sql.profiles import SqlProfileRepository
from server.storage.sql.runs import SqlRunRepository
from server.storage.sql.schedules import SqlScheduleRepository
from server.storage.sql.sessions import SqlSessionRepository
from server.storage.sql.tallies import count_tallies
from server.storage.tables import browser_profiles, folders, schedules, sessions
from server.storage.tallies import Tallies


class SqlStore:
    """Repositories sharing one engine; ``open`` migrates the database first."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._faults = StorageFaults()
        event.listen(engine, "handle_error", self._note_error)
        self._schedules = SqlScheduleRepository(engine)
        self._occurrences = SqlOccurrenceRepository(engine)
        self._runs = SqlRunRepository(engine)
        self._sessions = SqlSessionRepository(engine)
        self._profiles = SqlProfileRepository(engine)
        self._folders = SqlFolderRepository(engine)
        self._audit = SqlAuditLog(engine)
        self._replicas = SqlSchedulerReplicas(engine)
        self._feeds = SqlCalendarFeeds(engine)
        self._agenda = SqlAgendaRows(engine)
        self._density = SqlDensityRows(engine)

    @classmethod
    def open(cls, url: str) -> SqlStore:
        """Open ``url`` and bring its schema to the newest migration."""
        engine = open_engine(url)
        try:
            with engine.connect() as connection:
                current = is_at_head(connection)
            if not current:
                from server.storage.migrate import upgrade  # Alembic, only when there is work

                upgrade(engine)
        except Exception:
            engine.dispose()
            raise
        return cls(engine)

    @property
    def schedules(self) -> SqlScheduleRepository:
        return self._schedules

    @property
    def occurrences(self) -> SqlOccurrenceRepository:
        return self._occurrences

    @property
    def runs(self) -> SqlRunRepository:
        return self._runs

    @property
    def sessions(self) -> SqlSessionRepository:
        return self._sessions

    @property
    def profiles(self) -> SqlProfileRepository:
        return self._profiles

    @property
    def folders(self) -> SqlFolderRepository:
        return self._folders

    @property
    def audit(self) -> SqlAuditLog:
        return self._audit

    @property
    def replicas(self) -> SqlSchedulerReplicas:
        return self._replicas

    @property
    def feeds(self) -> SqlCalendarFeeds:
        return self._feeds

    @property
    def agenda(self) -> SqlAgendaRows:
        return self._agenda

    @property
    def density(self) -> SqlDensityRows:
        return self._density

    def is_empty(self) -> bool:
        query = select(
            exists(select(schedules.c.id))
            | exists(select(sessions.c.id))
            | exists(select(browser_profiles.c.id))
            | exists(select(folders.c.id))
        )
        with self.engine.connect() as connection:
            return not connection.execute(query).scalar_one()

    @contextmanager
    def seeding(self) -> Iterator[None]:
        with holding(self.engine, DEMO_DATA):
            yield

    def readiness(self) -> Readiness:
        try:
            with self.engine.connect() as connection:
                current = is_at_head(connection)
        except SQLAlchemyError:
            return Readiness.DATABASE_UNREACHABLE
        return Readiness.READY if current else Readiness.MIGRATIONS_PENDING

    @property
    def faults(self) -> StorageFaults:
        return self._faults

    def probe_write(self) -> None:
        database = self.engine.url.database
        if self.engine.dialect.name == "sqlite" and database and database != ":memory:":
            volume = os.statvfs(Path(database).resolve().parent)
            if volume.f_bavail * volume.f_frsize < PROBE_FREE_BYTES:
                self._faults.record()
                raise StorageExhausted
        with self.engine.begin() as connection:
            connection.execute(_PROBE)
        if self._faults.clear() is not None and self.engine.dialect.name != "sqlite":
            # Sessions opened during the fault may keep it (a read-only default): start afresh.
            self.engine.dispose()

    def tallies(self, now: datetime, overdue_before: datetime | None = None) -> Tallies:
        return count_tallies(self.engine, now, overdue_before)

    def compact_journal(self) -> None:
        if self.engine.dialect.name == "sqlite":
            compact_sqlite_journal(self.engine)

    def _note_error(self, context: ExceptionContext) -> None:
        if not context.is_pre_ping and is_storage_fault(context.original_exception):
            self._faults.record()

    def close(self) -> None:
        self.engine.dispose()


PROBE_FREE_BYTES = 1024 * 1024
_PROBE = text("UPDATE alembic_version SET version_num = version_num")
