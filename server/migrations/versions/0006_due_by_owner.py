"""The due index orders each instant's schedules by owner.

``ix_schedules_due`` was (state, ``next_fire_at``); it becomes (state,
``next_fire_at``, ``tenant_id``, ``principal_id``), the order the worker's
claims take (``server.storage.sql.occurrences.DUE_ORDER``). At a herd's
instant a batch then holds a few owners' schedules, not one each of many, so
replicas claiming side by side rarely need the same owner's admission turn.
The index is rebuilt under its own name; nothing else changes.

Revision ID: 0006_due_by_owner
Revises: 0005_search
"""

from __future__ import annotations

from alembic import op

revision = "0006_due_by_owner"
down_revision = "0005_search"
branch_labels = None
depends_on = None

_NAME = "ix_schedules_due"


def upgrade() -> None:
    op.drop_index(_NAME, table_name="schedules")
    op.create_index(_NAME, "schedules", ["state", "next_fire_at", "tenant_id", "principal_id"])


def downgrade() -> None:
    op.drop_index(_NAME, table_name="schedules")
    op.create_index(_NAME, "schedules", ["state", "next_fire_at"])
