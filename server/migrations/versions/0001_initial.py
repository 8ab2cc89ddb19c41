"""Initial schema: every table, constraint and index the server declares.

Revision ID: 0001_initial
Revises: (none)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001_initial"
down_revision = None
branch_labels = None
depends_on = None

# Listing keys sort by bytes on PostgreSQL too, as SQLite's BINARY collation does.
_BYTE_ORDERED_200 = sa.String(length=200).with_variant(
    sa.String(length=200, collation="C"), "postgresql"
)


def upgrade() -> None:
    op.create_table(
        "audit_events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("event_type", sa.String(length=100), nullable=False),
        sa.Column("tenant_id", sa.String(length=200), nullable=False),
        sa.Column("principal_id", sa.String(length=200), nullable=False),
        sa.Column("actor", sa.String(length=200), nullable=False),
        sa.Column("schedule_id", sa.Uuid(), nullable=True),
        sa.Column("revision", sa.Integer(), nullable=True),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("occurred_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_events")),
    )
    op.create_index("ix_audit_events_schedule", "audit_events", ["schedule_id", "id"], unique=False)

    op.create_table(
        "browser_profiles",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("tenant_id", sa.String(length=200), nullable=False),
        sa.Column("principal_id", sa.String(length=200), nullable=False),
        sa.Column("display_name", _BYTE_ORDERED_200, nullable=False),
        sa.Column("state", sa.String(length=32), nullable=False),
        sa.Column("allowed_origins", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_browser_profiles")),
    )
    op.create_index(
        "ix_browser_profiles_listing",
        "browser_profiles",
        ["tenant_id", "principal_id", "display_name", "id"],
        unique=False,
    )

    op.create_table(
        "folders",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("tenant_id", sa.String(length=200), nullable=False),
        sa.Column("principal_id", sa.String(length=200), nullable=False),
        sa.Column("name", _BYTE_ORDERED_200, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_folders")),
    )
    op.create_index(
        "ix_folders_listing", "folders", ["tenant_id", "principal_id", "name", "id"], unique=False
    )

    op.create_table(
        "schedules",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("tenant_id", sa.String(length=200), nullable=False),
        sa.Column("principal_id", sa.String(length=200), nullable=False),
        sa.Column("state", sa.String(length=32), nullable=False),
        sa.Column("pause_reason", sa.String(length=32), nullable=True),
        sa.Column("current_revision", sa.Integer(), nullable=False),
        sa.Column("next_fire_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column(
            "consecutive_failures", sa.Integer(), server_default=sa.text("0"), nullable=False
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "(state = 'PAUSED' AND pause_reason IN ('user', 'failure_limit')) OR (state <> 'PAUSED' AND pause_reason IS NULL)",  # noqa: E501
            name=op.f("ck_schedules_pause_reason_matches_state"),
        ),
        sa.CheckConstraint(
            "state = 'ACTIVE' OR next_fire_at IS NULL",
            name=op.f("ck_schedules_next_fire_only_when_active"),
        ),
        sa.CheckConstraint(
            "state IN ('ACTIVE', 'PAUSED', 'COMPLETED', 'CANCELLED')",
            name=op.f("ck_schedules_state_known"),
        ),
        sa.CheckConstraint(
            "consecutive_failures >= 0", name=op.f("ck_schedules_failures_non_negative")
        ),
        sa.CheckConstraint("current_revision >= 1", name=op.f("ck_schedules_revision_positive")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_schedules")),
    )
    op.create_index("ix_schedules_due", "schedules", ["state", "next_fire_at"], unique=False)
    op.create_index(
        "ix_schedules_listing",
        "schedules",
        ["tenant_id", "principal_id", "updated_at", "id"],
        unique=False,
    )
    op.create_index(
        "ix_schedules_retention",
        "schedules",
        ["tenant_id", "updated_at", "id"],
        unique=False,
        sqlite_where=sa.text("state IN ('COMPLETED', 'CANCELLED')"),
        postgresql_where=sa.text("state IN ('COMPLETED', 'CANCELLED')"),
    )

    op.create_table(
        "schedule_idempotency_keys",
        sa.Column("tenant_id", sa.String(length=200), nullable=False),
        sa.Column("principal_id", sa.String(length=200), nullable=False),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("request_hash", sa.String(length=64), nullable=False),
        sa.Column("schedule_id", sa.Uuid(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["schedule_id"],
            ["schedules.id"],
            name=op.f("fk_schedule_idempotency_keys_schedule_id_schedules"),
        ),
        sa.PrimaryKeyConstraint(
            "tenant_id", "principal_id", "key", name=op.f("pk_schedule_idempotency_keys")
        ),
    )
    op.create_table(
        "schedule_revisions",
        sa.Column("schedule_id", sa.Uuid(), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("definition", sa.Text(), nullable=False),
        sa.Column("created_by_principal_id", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["schedule_id"],
            ["schedules.id"],
            name=op.f("fk_schedule_revisions_schedule_id_schedules"),
        ),
        sa.PrimaryKeyConstraint("schedule_id", "revision", name=op.f("pk_schedule_revisions")),
    )
    op.create_table(
        "sessions",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("tenant_id", sa.String(length=200), nullable=False),
        sa.Column("principal_id", sa.String(length=200), nullable=False),
        sa.Column("title", sa.String(length=500), nullable=False),
        sa.Column("last_activity_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("folder_id", sa.Uuid(), nullable=True),
        sa.Column("metadata", sa.Text(), server_default=sa.text("'{}'"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["folder_id"],
            ["folders.id"],
            name=op.f("fk_sessions_folder_id_folders"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sessions")),
    )
    op.create_index(
        "ix_sessions_listing",
        "sessions",
        ["tenant_id", "principal_id", "last_activity_at", "id"],
        unique=False,
    )

    op.create_table(
        "runs",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("tenant_id", sa.String(length=200), nullable=False),
        sa.Column("principal_id", sa.String(length=200), nullable=False),
        sa.Column("session_id", sa.Uuid(), nullable=False),
        sa.Column("status", sa.String(length=32), nullable=False),
        sa.Column("priority", sa.Integer(), nullable=False),
        sa.Column("limits", sa.Text(), nullable=False),
        sa.Column("scheduled_for", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deadline_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "status IN ('QUEUED', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED')",
            name=op.f("ck_runs_status_known"),
        ),
        sa.ForeignKeyConstraint(
            ["session_id"], ["sessions.id"], name=op.f("fk_runs_session_id_sessions")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_runs")),
    )
    op.create_index("ix_runs_status", "runs", ["status", "scheduled_for"], unique=False)

    op.create_table(
        "session_messages",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("session_id", sa.Uuid(), nullable=False),
        sa.Column("role", sa.String(length=32), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("scheduler_seed", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "role IN ('user', 'assistant')", name=op.f("ck_session_messages_role_known")
        ),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["sessions.id"],
            name=op.f("fk_session_messages_session_id_sessions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_session_messages")),
    )
    op.create_index(
        "ix_session_messages_transcript",
        "session_messages",
        ["session_id", "created_at", "id"],
        unique=False,
    )

    op.create_table(
        "schedule_occurrences",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("schedule_id", sa.Uuid(), nullable=False),
        sa.Column("schedule_revision", sa.Integer(), nullable=False),
        sa.Column("nominal_fire_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("disposition", sa.String(length=32), nullable=False),
        sa.Column("session_id", sa.Uuid(), nullable=True),
        sa.Column("run_id", sa.Uuid(), nullable=True),
        sa.Column("reason_code", sa.String(length=100), nullable=True),
        sa.Column("authority_version", sa.String(length=200), nullable=True),
        sa.Column("materialized_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("links_erased_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "(disposition = 'MATERIALIZED' AND materialized_at IS NOT NULL AND authority_version IS NOT NULL AND reason_code IS NULL AND ((session_id IS NOT NULL AND run_id IS NOT NULL AND links_erased_at IS NULL) OR (session_id IS NULL AND run_id IS NULL AND links_erased_at IS NOT NULL))) OR (disposition <> 'MATERIALIZED' AND session_id IS NULL AND run_id IS NULL AND links_erased_at IS NULL AND reason_code IS NOT NULL)",  # noqa: E501
            name=op.f("ck_schedule_occurrences_links_match_disposition"),
        ),
        sa.CheckConstraint(
            "disposition IN ('MATERIALIZED', 'MISSED', 'SKIPPED_OVERLAP', 'AUTHORIZATION_FAILED', 'CONFIGURATION_FAILED')",  # noqa: E501
            name=op.f("ck_schedule_occurrences_disposition_known"),
        ),
        sa.ForeignKeyConstraint(
            ["run_id"],
            ["runs.id"],
            name=op.f("fk_schedule_occurrences_run_id_runs"),
            ondelete="SET NULL",
            initially="DEFERRED",
            deferrable=True,
        ),
        sa.ForeignKeyConstraint(
            ["schedule_id"],
            ["schedules.id"],
            name=op.f("fk_schedule_occurrences_schedule_id_schedules"),
        ),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["sessions.id"],
            name=op.f("fk_schedule_occurrences_session_id_sessions"),
            ondelete="SET NULL",
            initially="DEFERRED",
            deferrable=True,
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_schedule_occurrences")),
        sa.UniqueConstraint(
            "schedule_id",
            "nominal_fire_at",
            name=op.f("uq_schedule_occurrences_schedule_id_nominal_fire_at"),
        ),
    )
    op.create_index(
        "ix_schedule_occurrences_history",
        "schedule_occurrences",
        ["schedule_id", "nominal_fire_at", "id"],
        unique=False,
    )
    op.create_index(
        "ix_schedule_occurrences_run",
        "schedule_occurrences",
        ["run_id"],
        unique=True,
        sqlite_where=sa.text("run_id IS NOT NULL"),
        postgresql_where=sa.text("run_id IS NOT NULL"),
    )


def downgrade() -> None:
    op.drop_index(
        "ix_schedule_occurrences_run",
        table_name="schedule_occurrences",
        sqlite_where=sa.text("run_id IS NOT NULL"),
        postgresql_where=sa.text("run_id IS NOT NULL"),
    )
    op.drop_index("ix_schedule_occurrences_history", table_name="schedule_occurrences")

    op.drop_table("schedule_occurrences")
    op.drop_index("ix_session_messages_transcript", table_name="session_messages")

    op.drop_table("session_messages")
    op.drop_index("ix_runs_status", table_name="runs")

    op.drop_table("runs")
    op.drop_index("ix_sessions_listing", table_name="sessions")

    op.drop_table("sessions")
    op.drop_table("schedule_revisions")
    op.drop_table("schedule_idempotency_keys")
    op.drop_index(
        "ix_schedules_retention",
        table_name="schedules",
        sqlite_where=sa.text("state IN ('COMPLETED', 'CANCELLED')"),
        postgresql_where=sa.text("state IN ('COMPLETED', 'CANCELLED')"),
    )
    op.drop_index("ix_schedules_listing", table_name="schedules")
    op.drop_index("ix_schedules_due", table_name="schedules")

    op.drop_table("schedules")
    op.drop_index("ix_folders_listing", table_name="folders")

    op.drop_table("folders")
    op.drop_index("ix_browser_profiles_listing", table_name="browser_profiles")

    op.drop_table("browser_profiles")
    op.drop_index("ix_audit_events_schedule", table_name="audit_events")

    op.drop_table("audit_events")
