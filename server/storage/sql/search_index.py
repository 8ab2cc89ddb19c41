"""Each database's own index over the folded search text, and the search predicate.

The truth of a search is one portable predicate (``contains_all``): every
folded word occurs in ``schedules.search_text`` as an escaped ``LIKE``. What
makes it fast is per database, made by the migration (``create``): on
PostgreSQL a ``pg_trgm`` GIN index; on SQLite a contentless FTS5 trigram
table kept by triggers, keyed by ``schedule_search_keys`` (``VACUUM`` may
renumber the schedules' rowids), which ``candidates`` uses to narrow a search
the ``LIKE`` still decides. A word under three characters is found by the
``LIKE`` alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar
from uuid import UUID

from sqlalchemy import (
    ColumnElement,
    Connection,
    Integer,
    Select,
    Uuid,
    and_,
    column,
    select,
    table,
    text,
    true,
)
from sqlalchemy.sql.elements import UnaryExpression
from sqlalchemy.sql.operators import custom_op

from server.storage.tables import schedules

FTS_TABLE = "schedule_search"
KEYS_TABLE = "schedule_search_keys"
TRIGRAM_INDEX = "ix_schedules_search_trgm"
TRIGRAM = 3
"""Characters in a trigram: words shorter than this get no help from either index."""

T = TypeVar("T")

_FTS = table(FTS_TABLE, column("rowid", Integer))
_KEYS = table(KEYS_TABLE, column("key", Integer), column("schedule_id", Uuid()))

_SQLITE_CREATE = (
    f"CREATE TABLE {KEYS_TABLE} (key INTEGER PRIMARY KEY, schedule_id CHAR(32) NOT NULL UNIQUE)",
    f"CREATE VIRTUAL TABLE {FTS_TABLE} USING fts5("
    "body, content='', tokenize='trigram case_sensitive 1')",
    f"INSERT INTO {KEYS_TABLE} (schedule_id) SELECT id FROM schedules",
    f"INSERT INTO {FTS_TABLE} (rowid, body) SELECT k.key, s.search_text"
    f" FROM schedules s JOIN {KEYS_TABLE} k ON k.schedule_id = s.id",
    f"""CREATE TRIGGER {FTS_TABLE}_insert AFTER INSERT ON schedules BEGIN
        INSERT INTO {KEYS_TABLE} (schedule_id) VALUES (new.id);
        INSERT INTO {FTS_TABLE} (rowid, body) VALUES (
            (SELECT key FROM {KEYS_TABLE} WHERE schedule_id = new.id), new.search_text);
    END""",
    f"""CREATE TRIGGER {FTS_TABLE}_update AFTER UPDATE OF search_text ON schedules
    WHEN new.search_text IS NOT old.search_text BEGIN
        INSERT INTO {FTS_TABLE} ({FTS_TABLE}, rowid, body) VALUES (
            'delete', (SELECT key FROM {KEYS_TABLE} WHERE schedule_id = old.id), old.search_text);
        INSERT INTO {FTS_TABLE} (rowid, body) VALUES (
            (SELECT key FROM {KEYS_TABLE} WHERE schedule_id = new.id), new.search_text);
    END""",
    f"""CREATE TRIGGER {FTS_TABLE}_delete AFTER DELETE ON schedules BEGIN
        INSERT INTO {FTS_TABLE} ({FTS_TABLE}, rowid, body) VALUES (
            'delete', (SELECT key FROM {KEYS_TABLE} WHERE schedule_id = old.id), old.search_text);
        DELETE FROM {KEYS_TABLE} WHERE schedule_id = old.id;
    END""",
)
_SQLITE_DROP = (
    f"DROP TRIGGER IF EXISTS {FTS_TABLE}_delete",
    f"DROP TRIGGER IF EXISTS {FTS_TABLE}_update",
    f"DROP TRIGGER IF EXISTS {FTS_TABLE}_insert",
    f"DROP TABLE IF EXISTS {FTS_TABLE}",
    f"DROP TABLE IF EXISTS {KEYS_TABLE}",
)
_POSTGRES_CREATE = (
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    f"CREATE INDEX {TRIGRAM_INDEX} ON schedules USING gin (search_text gin_trgm_ops)",
)
# The extension stays: other objects of the database may have come to use it.
_POSTGRES_DROP = (f"DROP INDEX IF EXISTS {TRIGRAM_INDEX}",)


def create(connection: Connection) -> None:
    """Make this database's search index over the rows already there (the migration)."""
    sqlite = connection.dialect.name == "sqlite"
    for statement in _SQLITE_CREATE if sqlite else _POSTGRES_CREATE:
        connection.execute(text(statement))


def drop(connection: Connection) -> None:
    sqlite = connection.dialect.name == "sqlite"
    for statement in _SQLITE_DROP if sqlite else _POSTGRES_DROP:
        connection.execute(text(statement))


def declared_elsewhere(name: str | None, kind: str) -> bool:
    """Whether a database object is one of these, which the declared metadata leaves out.

    For Alembic's ``include_name``: the FTS5 table's shadow tables share its
    name as a prefix.
    """
    if name is None:
        return False
    if kind == "table":
        return name == FTS_TABLE or name.startswith(f"{FTS_TABLE}_")  # keys included
    return kind == "index" and name == TRIGRAM_INDEX


def _escaped(word: str) -> str:
    return word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def contains_all(words: Sequence[str]) -> ColumnElement[bool]:
    """Every folded word occurs in the schedule's folded text, each character literally."""
    if not words:
        return true()
    return and_(
        *(schedules.c.search_text.like(f"%{_escaped(word)}%", escape="\\") for word in words)
    )


def indexable(words: Sequence[str]) -> bool:
    """Whether the index can narrow a search: some word has a trigram."""
    return any(len(word) >= TRIGRAM for word in words)


def unindexed(column: ColumnElement[T]) -> ColumnElement[T]:
    """``column`` behind SQLite's unary ``+``, which keeps the planner off its indexes.

    Without statistics SQLite believes an owner's rows are few and walks the
    owner's listing index, testing each row against the candidates; the
    candidates are the few rows here, so they must drive the query.
    """
    return UnaryExpression(column, operator=custom_op("+"), type_=column.type)


def candidates(dialect: str, words: Sequence[str]) -> Select[tuple[UUID]] | None:
    """The ids of schedules the SQLite index says may match ``words``; None if it cannot say.

    None on PostgreSQL (the trigram index serves ``contains_all`` itself) and
    when no word is long enough for a trigram.
    """
    long_words = [word for word in words if len(word) >= TRIGRAM]
    if dialect != "sqlite" or not long_words:
        return None
    phrases = " AND ".join('"' + word.replace('"', '""') + '"' for word in long_words)
    matching = select(_FTS.c.rowid).where(
        text(f"{FTS_TABLE} MATCH :phrases").bindparams(phrases=phrases)
    )
    return select(_KEYS.c.schedule_id).where(_KEYS.c.key.in_(matching))
