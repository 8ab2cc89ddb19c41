"""A batch's rows of one table written by one statement, each value converted once.

Each statement is built once per dialect from the table's own columns, each
column's converter (its type's bind processor: ``UtcDateTime`` still refuses
a naive instant) looked up once, and a value repeated across the batch
converted once. SQLite gets positional tuples for the driver's
``executemany``; PostgreSQL one statement per table, each column as one array
that ``unnest`` turns back into rows (text as ``text[]``, cast by the
assignment, so a value too long is refused, never truncated). A refused
value raises what SQLAlchemy raises for it (``IntegrityError``,
``DataError``), so callers isolate failures as before.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, DateTime, String, Table, TypeDecorator
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError

__all__ = ["BulkInsert", "BulkUpdate", "sent_together"]

_Convert = Callable[[Any], Any]


@dataclass(frozen=True, slots=True)
class _Compiled:
    sql: str
    columns: tuple[str, ...]
    """The row keys, in the order their values are sent."""
    converters: tuple[_Convert | None, ...]
    repeats: tuple[bool, ...]
    """Whether a column's values repeat enough across a batch to convert each once."""


def _converter(table: Table, name: str, dialect: Dialect) -> tuple[_Convert | None, bool]:
    column_type = table.c[name].type
    convert = column_type.dialect_impl(dialect).bind_processor(dialect)
    stored = column_type.impl_instance if isinstance(column_type, TypeDecorator) else column_type
    return convert, isinstance(stored, DateTime)


def _array_type(table: Table, name: str, dialect: Dialect) -> str:
    column_type = table.c[name].type
    if isinstance(column_type, String):
        return "TEXT[]"
    return f"{column_type.compile(dialect=dialect)}[]"


class _PerDialect(ABC):
    """A statement compiled once for each dialect it meets (SQLite, PostgreSQL)."""

    def __init__(self) -> None:
        self._compiled: dict[str, _Compiled] = {}

    @abstractmethod
    def _build(self, dialect: Dialect) -> _Compiled:
        """The statement and its column converters, for ``dialect``."""

    def execute(self, connection: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
        """Write ``rows`` in the caller's transaction (nothing when there are none)."""
        if rows:
            _send(connection, self._for(connection.dialect), rows)

    def _for(self, dialect: Dialect) -> _Compiled:
        compiled = self._compiled.get(dialect.name)
        if compiled is None:
            compiled = self._compiled[dialect.name] = self._build(dialect)
        return compiled


def _columns_of(compiled: _Compiled, rows: Sequence[Mapping[str, Any]]) -> list[list[Any]]:
    """Each column's converted values over ``rows`` (a repeated value converted once)."""
    values: list[list[Any]] = []
    for name, convert, repeats in zip(
        compiled.columns, compiled.converters, compiled.repeats, strict=True
    ):
        raw = [row[name] for row in rows]
        if convert is None:
            values.append(raw)
        elif repeats:
            seen: dict[Any, Any] = {}
            converted = []
            for value in raw:
                if value not in seen:
                    seen[value] = convert(value)
                converted.append(seen[value])
            values.append(converted)
        else:
            values.append([convert(value) for value in raw])
    return values


def _send(connection: Connection, compiled: _Compiled, rows: Sequence[Mapping[str, Any]]) -> None:
    columns = _columns_of(compiled, rows)
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(
            compiled.sql, {f"c{index}": values for index, values in enumerate(columns)}
        )
    else:
        connection.exec_driver_sql(compiled.sql, list(zip(*columns, strict=True)))


@contextmanager
def sent_together(connection: Connection) -> Iterator[None]:
    """The statements run inside go out without waiting for each one's answer.

    PostgreSQL: psycopg's pipeline mode, so a batch's writes cost one round
    trip, not one per table; their answers, and the first error, come back
    when the block ends, raised as SQLAlchemy raises a single statement's
    (``IntegrityError``, ``DataError``). Only statements whose results are
    not read belong inside. SQLite runs in this process: nothing changes.
    """
    if connection.dialect.name != "postgresql":
        yield
        return
    driver: Any = connection.connection.driver_connection
    dbapi_error: type[Exception] = connection.dialect.loaded_dbapi.Error
    try:
        with driver.pipeline():
            yield
    except dbapi_error as err:
        raise DBAPIError.instance(None, None, err, dbapi_error, dialect=connection.dialect) from err


class BulkInsert(_PerDialect):
    """``INSERT`` of many rows into ``table``; each row gives every column but ``leave_out``."""

    def __init__(self, table: Table, *, leave_out: Sequence[str] = ()) -> None:
        super().__init__()
        self._table = table
        self._names = tuple(c.name for c in table.columns if c.name not in leave_out)

    def _build(self, dialect: Dialect) -> _Compiled:
        quote = dialect.identifier_preparer.quote
        table = dialect.identifier_preparer.format_table(self._table)
        names = ", ".join(quote(name) for name in self._names)
        if dialect.name == "postgresql":
            arrays = ", ".join(
                f"CAST(%(c{index})b AS {_array_type(self._table, name, dialect)})"
                for index, name in enumerate(self._names)
            )
            sql = f"INSERT INTO {table} ({names}) SELECT * FROM unnest({arrays})"
        else:
            marks = ", ".join("?" for _ in self._names)
            sql = f"INSERT INTO {table} ({names}) VALUES ({marks})"
        pairs = [_converter(self._table, name, dialect) for name in self._names]
        return _Compiled(sql, self._names, tuple(p[0] for p in pairs), tuple(p[1] for p in pairs))


class BulkUpdate(_PerDialect):
    """``UPDATE`` of many rows of ``table``, each found by its ``key`` column.

    Each row (the key, ``columns``, ``keep`` and ``kept``) sets ``columns``,
    and sets ``kept`` only where its ``keep`` is true (else they stay as they
    are): one statement for rows that differ in which of them they write.
    """

    def __init__(
        self, table: Table, key: str, columns: Sequence[str], kept: Sequence[str] = ()
    ) -> None:
        super().__init__()
        self._table = table
        self._key = key
        self._set = tuple(columns)
        self._kept = tuple(kept)

    def _build(self, dialect: Dialect) -> _Compiled:
        quote = dialect.identifier_preparer.quote
        table = dialect.identifier_preparer.format_table(self._table)
        if dialect.name == "postgresql":
            sent = (self._key, *self._set, "keep", *self._kept)
            arrays = ", ".join(
                f"CAST(%(c{index})b AS "
                f"{'BOOLEAN[]' if name == 'keep' else _array_type(self._table, name, dialect)})"
                for index, name in enumerate(sent)
            )
            aliases = ", ".join(quote(name) for name in sent)
            assignments = [f"{quote(name)} = v.{quote(name)}" for name in self._set]
            assignments.extend(
                f"{quote(name)} = CASE WHEN v.keep THEN v.{quote(name)}"
                f" ELSE {table}.{quote(name)} END"
                for name in self._kept
            )
            sql = (
                f"UPDATE {table} SET {', '.join(assignments)}"
                f" FROM unnest({arrays}) AS v({aliases})"
                f" WHERE {table}.{quote(self._key)} = v.{quote(self._key)}"
            )
        else:
            sent = (*self._set, *(n for name in self._kept for n in ("keep", name)), self._key)
            assignments = [f"{quote(name)} = ?" for name in self._set]
            assignments.extend(
                f"{quote(name)} = CASE WHEN ? THEN ? ELSE {quote(name)} END" for name in self._kept
            )
            sql = f"UPDATE {table} SET {', '.join(assignments)} WHERE {quote(self._key)} = ?"
        pairs = [
            (None, False) if name == "keep" else _converter(self._table, name, dialect)
            for name in sent
        ]
        return _Compiled(sql, sent, tuple(p[0] for p in pairs), tuple(p[1] for p in pairs))
