"""Column types shared by every table, so keyset order is the same on every backend.

SQLite keeps no offset with a timestamp, so every instant is normalised to UTC
on the way in and marked UTC on the way out; the keyset order of stored text
then equals the order of the instants. PostgreSQL stores ``TIMESTAMPTZ``.

Text that orders a listing compares byte by byte on both: SQLite's ``BINARY``
collation does, and PostgreSQL's ``"C"`` collation is asked for explicitly,
because a PostgreSQL database otherwise takes a linguistic collation from its
locale (``en_US`` puts "alpha" before "Beta"; byte order puts "Beta" first).
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import DateTime, String, Text
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator, TypeEngine


class UtcDateTime(TypeDecorator[datetime]):
    """An aware instant stored in UTC; a naive value is a programming error."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError("naive datetimes are never stored")
        value = value.astimezone(UTC)
        if dialect.name == "sqlite":
            return value.replace(tzinfo=None)
        return value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


def byte_ordered_string(length: int) -> TypeEngine[str]:
    """A ``VARCHAR(length)`` that sorts and compares by bytes on SQLite and PostgreSQL alike."""
    return String(length).with_variant(String(length, collation="C"), "postgresql")


def folded_text() -> TypeEngine[str]:
    """Unbounded text compared by bytes (``"C"`` on PostgreSQL): the folded search copy.

    Search compares it only with ``LIKE`` on folded words, where byte order is
    all that is asked and the cheapest there is.
    """
    return Text().with_variant(Text(collation="C"), "postgresql")
