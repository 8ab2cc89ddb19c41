"""The agenda's wall-clock index covers a band's count: cadence and creation in the index.

``ix_schedules_wall_clock`` gains ``cadence_key`` before ``id`` and
``created_at`` after it. A band's schedules are then counted per cadence
from the index alone, in its order (never a read of each row, nor a sort),
and a herd's members are read in id order by equality on its cadence.

Revision ID: 0013_wall_clock_covering
Revises: 0012_active_span
"""

from __future__ import annotations

from alembic import op

revision = "0013_wall_clock_covering"
down_revision = "0012_active_span"
branch_labels = None
depends_on = None

_BEFORE = ("tenant_id", "principal_id", "state", "cadence_zone", "cadence_wall_time", "id")
_AFTER = (*_BEFORE[:-1], "cadence_key", "id", "created_at")


def _rebuild(columns: tuple[str, ...]) -> None:
    op.drop_index("ix_schedules_wall_clock", table_name="schedules")
    op.create_index("ix_schedules_wall_clock", "schedules", list(columns), unique=False)


def upgrade() -> None:
    _rebuild(_AFTER)


def downgrade() -> None:
    _rebuild(_BEFORE)
