"""Private calendar feeds over SQL: the ``calendar_feeds`` table.

A feed is found by its secret's digest (the unique index), listed per owner
newest first, and revoked by deleting its row, so a revoked secret is as
unknown as one never minted. The secret itself never reaches the database.
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from sqlalchemy import Engine, RowMapping, delete, func, insert, select

from server.storage.records import CalendarFeed, Owner
from server.storage.sql.advisory_locks import feeds_of, hold
from server.storage.sql.keyset import keyset_page, owned_by
from server.storage.sql.write_lock import write_transaction
from server.storage.tables import calendar_feeds

__all__ = ["SqlCalendarFeeds"]


def _feed(row: RowMapping) -> CalendarFeed:
    return CalendarFeed(
        feed_id=row["id"],
        owner=Owner(row["tenant_id"], row["principal_id"]),
        schedule_id=row["schedule_id"],
        name=row["name"],
        created_at=row["created_at"],
    )


_LISTED = (
    calendar_feeds.c.id,
    calendar_feeds.c.tenant_id,
    calendar_feeds.c.principal_id,
    calendar_feeds.c.schedule_id,
    calendar_feeds.c.name,
    calendar_feeds.c.created_at,
)
"""Every column but the digest: no read hands the digest back."""


class SqlCalendarFeeds:
    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def add(self, feed: CalendarFeed, secret_digest: str, *, most: int) -> bool:
        owned = select(func.count()).select_from(calendar_feeds)
        owned = owned.where(owned_by(calendar_feeds, feed.owner))
        with write_transaction(self._engine) as connection:
            hold(connection, feeds_of(feed.owner))  # creations racing each other take turns
            if connection.execute(owned).scalar_one() >= most:
                return False
            connection.execute(
                insert(calendar_feeds),
                {
                    "id": feed.feed_id,
                    "tenant_id": feed.owner.tenant_id,
                    "principal_id": feed.owner.principal_id,
                    "schedule_id": feed.schedule_id,
                    "name": feed.name,
                    "secret_digest": secret_digest,
                    "created_at": feed.created_at,
                },
            )
        return True

    def by_digest(self, secret_digest: str) -> CalendarFeed | None:
        query = select(*_LISTED).where(calendar_feeds.c.secret_digest == secret_digest)
        with self._engine.connect() as connection:
            row = connection.execute(query).mappings().first()
        return None if row is None else _feed(row)

    def page(
        self, owner: Owner, after: tuple[datetime, UUID] | None, limit: int
    ) -> list[CalendarFeed]:
        query = keyset_page(
            select(*_LISTED).where(owned_by(calendar_feeds, owner)),
            calendar_feeds.c.created_at,
            calendar_feeds.c.id,
            after,
            limit,
            newest_first=True,
        )
        with self._engine.connect() as connection:
            rows = connection.execute(query).mappings().all()
        return [_feed(row) for row in rows]

    def revoke(self, owner: Owner, feed_id: UUID) -> bool:
        statement = delete(calendar_feeds).where(
            calendar_feeds.c.id == feed_id, owned_by(calendar_feeds, owner)
        )
        with self._engine.begin() as connection:
            gone: int = connection.execute(statement).rowcount
        return gone == 1
