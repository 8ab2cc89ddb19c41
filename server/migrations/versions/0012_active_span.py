"""Each schedule's last ACTIVE span on its row: ``active_since``, ``active_until``.

- ``active_since``: when the current cadence last became ACTIVE (creation,
  last resume or last edit), backfilled as the latest of the row's
  ``created_at``, its current revision's ``created_at`` and its
  ``schedule.resumed`` audit events;
- ``active_until``: when that span ended, for a schedule no longer ACTIVE:
  its first pause, auto-pause, cancel or completion event at or after
  ``active_since`` (a cancel after a pause does not extend it); NULL while
  ACTIVE, or when the audit log lacks it.

The projection and the agenda read these with the row instead of the audit
log. The backfill is plain SQL, the same on SQLite and PostgreSQL.

Revision ID: 0012_active_span
Revises: 0011_calendar_feeds
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from server.storage.columns import UtcDateTime

revision = "0012_active_span"
down_revision = "0011_calendar_feeds"
branch_labels = None
depends_on = None

_STOPS = "('schedule.paused', 'schedule.auto_paused', 'schedule.cancelled', 'schedule.completed')"
_BACKFILL = (
    "UPDATE schedules SET active_since = created_at",
    # The current revision, when written after the row (an edit).
    "UPDATE schedules SET active_since = ("
    " SELECT r.created_at FROM schedule_revisions r"
    " WHERE r.schedule_id = schedules.id AND r.revision = schedules.current_revision)"
    " WHERE EXISTS (SELECT 1 FROM schedule_revisions r"
    " WHERE r.schedule_id = schedules.id AND r.revision = schedules.current_revision"
    " AND r.created_at > schedules.active_since)",
    # The last resume, when later still.
    "UPDATE schedules SET active_since = ("
    " SELECT MAX(a.occurred_at) FROM audit_events a"
    " WHERE a.schedule_id = schedules.id AND a.event_type = 'schedule.resumed')"
    " WHERE EXISTS (SELECT 1 FROM audit_events a"
    " WHERE a.schedule_id = schedules.id AND a.event_type = 'schedule.resumed'"
    " AND a.occurred_at > schedules.active_since)",
    # A stopped schedule's span ends at its first stop after it began.
    "UPDATE schedules SET active_until = ("
    " SELECT MIN(a.occurred_at) FROM audit_events a"
    f" WHERE a.schedule_id = schedules.id AND a.event_type IN {_STOPS}"
    " AND a.occurred_at >= schedules.active_since)"
    " WHERE state <> 'ACTIVE'",
)


def upgrade() -> None:
    # Plain ALTER TABLE ADD COLUMN on both, as 0005 does (a SQLite batch copies the table).
    op.add_column("schedules", sa.Column("active_since", UtcDateTime(), nullable=True))
    op.add_column("schedules", sa.Column("active_until", UtcDateTime(), nullable=True))
    connection = op.get_bind()
    for statement in _BACKFILL:
        connection.execute(sa.text(statement))


def downgrade() -> None:
    # ALTER TABLE DROP COLUMN (SQLite 3.35 and later), as 0005 does.
    for column in ("active_until", "active_since"):
        op.drop_column("schedules", column)
