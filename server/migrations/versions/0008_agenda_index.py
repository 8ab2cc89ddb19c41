"""The agenda's indexes: each schedule's cadence on the wall clock, and the ledger by instant.

- ``schedules.cadence_zone``, ``cadence_wall_time``, ``cadence_key``: the
  current revision's cadence zone, wall time (seconds since local midnight)
  and canonical JSON (``server.storage.cadence_columns``), backfilled from
  each schedule's current revision; NULL where it has no valid cadence.
- ``ix_schedules_wall_clock``: the schedules firing at an instant are those
  whose wall time in their zone is that instant's there (``server.agenda``).
- ``ix_schedules_cadence_groups``: equal cadences counted together (the
  agenda's density).
- ``ix_occurrences_nominal``: the ledger's occurrences in a window of instants.

Revision ID: 0008_agenda_index
Revises: 0007_run_leases
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from server.storage.cadence_columns import cadence_values

revision = "0008_agenda_index"
down_revision = "0007_run_leases"
branch_labels = None
depends_on = None

_BATCH = 1000
_WALL_CLOCK = ("tenant_id", "principal_id", "state", "cadence_zone", "cadence_wall_time", "id")
_CADENCE_GROUPS = ("tenant_id", "principal_id", "state", "cadence_key")

_schedules = sa.table(
    "schedules",
    sa.column("id", sa.Uuid()),
    sa.column("current_revision", sa.Integer()),
    sa.column("cadence_zone", sa.String()),
    sa.column("cadence_wall_time", sa.Integer()),
    sa.column("cadence_key", sa.Text()),
)
_revisions = sa.table(
    "schedule_revisions",
    sa.column("schedule_id", sa.Uuid()),
    sa.column("revision", sa.Integer()),
    sa.column("definition", sa.Text()),
)


def upgrade() -> None:
    # Plain ALTER TABLE ADD COLUMN on both, as 0005 does (a SQLite batch copies the table).
    op.add_column("schedules", sa.Column("cadence_zone", sa.String(length=64), nullable=True))
    op.add_column("schedules", sa.Column("cadence_wall_time", sa.Integer(), nullable=True))
    op.add_column("schedules", sa.Column("cadence_key", sa.Text(), nullable=True))
    _backfill(op.get_bind())
    op.create_index("ix_schedules_wall_clock", "schedules", list(_WALL_CLOCK), unique=False)
    op.create_index("ix_schedules_cadence_groups", "schedules", list(_CADENCE_GROUPS), unique=False)
    op.create_index(
        "ix_occurrences_nominal", "schedule_occurrences", ["nominal_fire_at"], unique=False
    )


def _backfill(connection: sa.Connection) -> None:
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
        .values(
            cadence_zone=sa.bindparam("zone"),
            cadence_wall_time=sa.bindparam("wall"),
            cadence_key=sa.bindparam("key"),
        )
    )
    after = None
    while True:
        query = current if after is None else current.where(_schedules.c.id > after)
        rows = connection.execute(query.limit(_BATCH)).all()
        if not rows:
            return
        written = []
        for row in rows:
            values = cadence_values(row.definition)
            written.append(
                {
                    "target": row.id,
                    "zone": values["cadence_zone"],
                    "wall": values["cadence_wall_time"],
                    "key": values["cadence_key"],
                }
            )
        connection.execute(write, written)
        after = rows[-1].id


def downgrade() -> None:
    op.drop_index("ix_occurrences_nominal", table_name="schedule_occurrences")
    op.drop_index("ix_schedules_cadence_groups", table_name="schedules")
    op.drop_index("ix_schedules_wall_clock", table_name="schedules")
    # ALTER TABLE DROP COLUMN (SQLite 3.35 and later), as 0005 does.
    for column in ("cadence_key", "cadence_wall_time", "cadence_zone"):
        op.drop_column("schedules", column)
