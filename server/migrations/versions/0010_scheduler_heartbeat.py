"""Each replica running the scheduler keeps a heartbeat row: ``scheduler_replicas``.

- ``replica_id``: random per process start;
- ``host``, ``version``, ``started_at``: which process it is (host names go
  to ``/metrics`` only);
- ``last_tick_at``: when its worker loop last ran, written at most every few
  seconds (``server/worker/heartbeat.py``); ``GET /v1/scheduler`` reads the
  newest, and rows silent for long are removed by retention.

Revision ID: 0010_scheduler_heartbeat
Revises: 0009_next_fire_order
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from server.storage.columns import UtcDateTime

revision = "0010_scheduler_heartbeat"
down_revision = "0009_next_fire_order"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "scheduler_replicas",
        sa.Column("replica_id", sa.String(length=64), nullable=False),
        sa.Column("host", sa.String(length=255), nullable=False),
        sa.Column("version", sa.String(length=64), nullable=False),
        sa.Column("started_at", UtcDateTime(), nullable=False),
        sa.Column("last_tick_at", UtcDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("replica_id", name=op.f("pk_scheduler_replicas")),
    )


def downgrade() -> None:
    op.drop_table("scheduler_replicas")
