"""The schedule worker's schema: recorded authority per revision, active-run lookup.

- ``schedule_revisions.authority_version``: the author's authority version when
  the revision was written (create or update); firing fails closed when the
  principal's present version differs. Existing revisions keep NULL (no
  version was recorded for them).
- ``ix_runs_active``: admission counts a principal's QUEUED and RUNNING runs
  without scanning every other principal's.

Revision ID: 0002_scheduling_worker
Revises: 0001_initial
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_scheduling_worker"
down_revision = "0001_initial"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("schedule_revisions") as batch:
        batch.add_column(sa.Column("authority_version", sa.String(length=200), nullable=True))
    op.create_index("ix_runs_active", "runs", ["tenant_id", "principal_id", "status"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_runs_active", table_name="runs")
    with op.batch_alter_table("schedule_revisions") as batch:
        batch.drop_column("authority_version")
