"""A RUNNING run carries a lease: who executes it, and until when unless renewed.

- ``runs.lease_holder``: the dispatcher executing the run;
- ``runs.lease_expires_at``: when its lease lapses; the holder renews it while
  the run executes, and a run whose lease has lapsed is taken over by another
  dispatcher and delivered again (``server/worker/run_dispatch.py``).

Runs that are RUNNING from before this migration keep NULL, which counts as
lapsed: whoever held them was stopped by the upgrade.

Revision ID: 0007_run_leases
Revises: 0006_due_by_owner
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from server.storage.columns import UtcDateTime

revision = "0007_run_leases"
down_revision = "0006_due_by_owner"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("runs", sa.Column("lease_holder", sa.String(length=64), nullable=True))
    op.add_column("runs", sa.Column("lease_expires_at", UtcDateTime(), nullable=True))


def downgrade() -> None:
    # ALTER TABLE DROP COLUMN (SQLite 3.35 and later), as 0005 does.
    op.drop_column("runs", "lease_expires_at")
    op.drop_column("runs", "lease_holder")
