"""The list soonest first reads each owner's ACTIVE schedules in next-firing order.

``ix_schedules_next_fire`` (``tenant_id``, ``principal_id``, ``state``,
``next_fire_at``, ``id``) serves ``GET /v1/schedules?order=next_fire``
(``server.storage.sql.next_fire_pages``): an owner's ACTIVE schedules in
``next_fire_at`` order from a cursor's position, without sorting them. The
due index (state, ``next_fire_at``, owner) orders every owner's together, for
the worker's claims: read for one owner, it walks past everyone else's.

Revision ID: 0009_next_fire_order
Revises: 0008_agenda_index
"""

from __future__ import annotations

from alembic import op

revision = "0009_next_fire_order"
down_revision = "0008_agenda_index"
branch_labels = None
depends_on = None

_NAME = "ix_schedules_next_fire"


def upgrade() -> None:
    op.create_index(
        _NAME, "schedules", ["tenant_id", "principal_id", "state", "next_fire_at", "id"]
    )


def downgrade() -> None:
    op.drop_index(_NAME, table_name="schedules")
