"""Search and last outcomes: the folded search text and its index, the kept last outcome.

- ``schedules.search_text``: the current title and instruction, folded
  (``server.storage.search_text``), backfilled from each schedule's current
  revision; on PostgreSQL a ``pg_trgm`` GIN index over it, on SQLite an FTS5
  trigram table kept by triggers (``server.storage.sql.search_index``).
- ``schedules.last_fired_at`` and ``schedules.outcome_attention``: the latest
  occurrence's nominal instant and whether its outcome needs attention,
  backfilled from the ledger (``server.storage.sql.outcome``), with a partial
  index for the Needs attention filter.
- ``ix_schedules_counts``: the per-state counts read an index alone.
- ``runs.failure_reason``: a FAILED run's reason code; earlier runs keep NULL
  (their reasons are only in the audit log).

Revision ID: 0005_search
Revises: 0002_scheduling_worker
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from server.storage.columns import UtcDateTime, folded_text
from server.storage.search_text import searchable_text
from server.storage.sql import search_index
from server.storage.sql.outcome import REFRESH_VALUES
from server.storage.tables import NEEDS_ATTENTION, schedules

revision = "0005_search"
down_revision = "0002_scheduling_worker"
branch_labels = None
depends_on = None

_BATCH = 1000

_schedules = sa.table(
    "schedules",
    sa.column("id", sa.Uuid()),
    sa.column("current_revision", sa.Integer()),
    sa.column("search_text", sa.Text()),
)
_revisions = sa.table(
    "schedule_revisions",
    sa.column("schedule_id", sa.Uuid()),
    sa.column("revision", sa.Integer()),
    sa.column("definition", sa.Text()),
)


def upgrade() -> None:
    # Plain ALTER TABLE ADD COLUMN on both: on SQLite a batch would copy the
    # table, and dropping the old copy breaks the foreign keys pointing at it.
    op.add_column(
        "schedules",
        sa.Column("search_text", folded_text(), nullable=False, server_default=sa.text("''")),
    )
    op.add_column("schedules", sa.Column("last_fired_at", UtcDateTime(), nullable=True))
    op.add_column(
        "schedules",
        sa.Column("outcome_attention", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.add_column("runs", sa.Column("failure_reason", sa.String(length=100), nullable=True))
    connection = op.get_bind()
    _backfill_search_text(connection)
    # REFRESH_VALUES correlate on schedules.id: one statement recomputes every row.
    connection.execute(sa.update(schedules).values(REFRESH_VALUES))
    op.create_index(
        "ix_schedules_counts", "schedules", ["tenant_id", "principal_id", "state"], unique=False
    )
    op.create_index(
        "ix_schedules_attention",
        "schedules",
        ["tenant_id", "principal_id", "updated_at", "id"],
        unique=False,
        sqlite_where=sa.text(NEEDS_ATTENTION),
        postgresql_where=sa.text(NEEDS_ATTENTION),
    )
    search_index.create(connection)


def _backfill_search_text(connection: sa.Connection) -> None:
    current = (
        sa.select(_schedules.c.id, _revisions.c.definition)
        .join(
            _revisions,
            sa.and_(
                _revisions.c.schedule_id == _schedules.c.id,
                _revisions.c.revision == _schedules.c.current_revision,
            ),
        )
        .order_by(_schedules.c.id)
    )
    write = (
        sa.update(_schedules)
        .where(_schedules.c.id == sa.bindparam("target"))
        .values(search_text=sa.bindparam("folded"))
    )
    after = None
    while True:
        query = current if after is None else current.where(_schedules.c.id > after)
        rows = connection.execute(query.limit(_BATCH)).all()
        if not rows:
            return
        connection.execute(
            write,
            [{"target": row.id, "folded": searchable_text(row.definition)} for row in rows],
        )
        after = rows[-1].id


def downgrade() -> None:
    search_index.drop(op.get_bind())
    op.drop_index("ix_schedules_attention", table_name="schedules")
    op.drop_index("ix_schedules_counts", table_name="schedules")
    # ALTER TABLE DROP COLUMN (SQLite 3.35 and later) for the same reason.
    op.drop_column("runs", "failure_reason")
    for column in ("outcome_attention", "last_fired_at", "search_text"):
        op.drop_column("schedules", column)
