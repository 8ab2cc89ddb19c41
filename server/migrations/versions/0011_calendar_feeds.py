"""Private calendar feeds: ``calendar_feeds``.

One row per feed a principal made (``POST /v1/feeds``): whose, which
schedule (NULL for all of them), its name, when, and the SHA-256 digest of
its secret, unique, by which ``GET /feeds/<secret>.ics`` finds it. Revoking
deletes the row. ``schedule_id`` has no foreign key: purging a schedule
leaves its feed answering an empty calendar.

Revision ID: 0011_calendar_feeds
Revises: 0010_scheduler_heartbeat
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from server.storage.columns import UtcDateTime

revision = "0011_calendar_feeds"
down_revision = "0010_scheduler_heartbeat"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "calendar_feeds",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("tenant_id", sa.String(length=200), nullable=False),
        sa.Column("principal_id", sa.String(length=200), nullable=False),
        sa.Column("schedule_id", sa.Uuid(), nullable=True),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("secret_digest", sa.String(length=64), nullable=False),
        sa.Column("created_at", UtcDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_calendar_feeds")),
        sa.UniqueConstraint("secret_digest", name=op.f("uq_calendar_feeds_secret_digest")),
    )
    op.create_index(
        "ix_calendar_feeds_listing",
        "calendar_feeds",
        ["tenant_id", "principal_id", "created_at", "id"],
    )


def downgrade() -> None:
    op.drop_index("ix_calendar_feeds_listing", table_name="calendar_feeds")
    op.drop_table("calendar_feeds")
