"""The declared schema; the Alembic migrations must produce exactly this.

Shapes (docs/ARCHITECTURE.md, Storage): schedules with immutable
revisions (canonical JSON definitions), the occurrence ledger with its natural
key ``UNIQUE(schedule_id, nominal_fire_at)`` and the nullable-link rule, the
create idempotency ledger, sessions with their messages, runs, browser
profiles, folders, an append-only audit log, the scheduler replicas'
heartbeats and the private calendar feeds. Check constraints keep the
state/pause-reason pairing and the occurrence link forms honest even when a
caller forgets.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Column,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
    Uuid,
    false,
    text,
)
from sqlalchemy.exc import ArgumentError

from server.storage.columns import UtcDateTime, byte_ordered_string, folded_text

WHERE = "where"
"""The ``info`` key of a partial index's predicate (SQL); ``use_dialect`` applies it."""

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = MetaData(naming_convention=NAMING)

TERMINAL_STATES = "('COMPLETED', 'CANCELLED')"
NEEDS_ATTENTION = "(outcome_attention OR pause_reason = 'failure_limit')"
"""A schedule that needs attention, spelled once: the partial index's predicate and the filter's."""

schedules = Table(
    "schedules",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("tenant_id", String(200), nullable=False),
    Column("principal_id", String(200), nullable=False),
    Column("state", String(32), nullable=False),
    Column("pause_reason", String(32), nullable=True),
    Column("current_revision", Integer, nullable=False),
    Column("next_fire_at", UtcDateTime(), nullable=True),
    Column("consecutive_failures", Integer, nullable=False, server_default=text("0")),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("updated_at", UtcDateTime(), nullable=False),
    # The current title and instruction, folded (``search_text``), written with
    # each revision; the dialect's own index on it (``sql.search_index``) is
    # made by the migration.
    Column("search_text", folded_text(), nullable=False, server_default=text("''")),
    # The latest occurrence's nominal instant and whether its outcome needs
    # attention, kept by the transaction that writes the occurrence or ends its
    # run (``sql.outcome``).
    Column("last_fired_at", UtcDateTime(), nullable=True),
    Column("outcome_attention", Boolean, nullable=False, server_default=false()),
    # The current cadence on the wall clock (``storage.cadence_columns``), written
    # with each revision: the agenda's index finds the firings at an instant by it.
    Column("cadence_zone", String(64), nullable=True),
    Column("cadence_wall_time", Integer, nullable=True),
    Column("cadence_key", Text, nullable=True),
    # The current cadence's last ACTIVE span (``records.ScheduleRecord``), kept by
    # ``sql.schedule_rows.change_values`` on every state change and new revision:
    # the projection and the agenda read which past instants were expected from it.
    Column("active_since", UtcDateTime(), nullable=True),
    Column("active_until", UtcDateTime(), nullable=True),
    CheckConstraint("state IN ('ACTIVE', 'PAUSED', 'COMPLETED', 'CANCELLED')", name="state_known"),
    CheckConstraint(
        "(state = 'PAUSED' AND pause_reason IN ('user', 'failure_limit'))"
        " OR (state <> 'PAUSED' AND pause_reason IS NULL)",
        name="pause_reason_matches_state",
    ),
    CheckConstraint("state = 'ACTIVE' OR next_fire_at IS NULL", name="next_fire_only_when_active"),
    CheckConstraint("current_revision >= 1", name="revision_positive"),
    CheckConstraint("consecutive_failures >= 0", name="failures_non_negative"),
    Index("ix_schedules_due", "state", "next_fire_at", "tenant_id", "principal_id"),
    Index("ix_schedules_listing", "tenant_id", "principal_id", "updated_at", "id"),
    Index("ix_schedules_counts", "tenant_id", "principal_id", "state"),
    # The list soonest first (``sql.next_fire_pages``): an owner's ACTIVE ones by next firing.
    Index("ix_schedules_next_fire", "tenant_id", "principal_id", "state", "next_fire_at", "id"),
    # The agenda (``sql.agenda_rows``): a band's schedules counted per cadence from
    # the index alone, and a cadence's schedules in id order.
    Index(
        "ix_schedules_wall_clock",
        "tenant_id",
        "principal_id",
        "state",
        "cadence_zone",
        "cadence_wall_time",
        "cadence_key",
        "id",
        "created_at",
    ),
    Index("ix_schedules_cadence_groups", "tenant_id", "principal_id", "state", "cadence_key"),
    Index(
        "ix_schedules_attention",
        "tenant_id",
        "principal_id",
        "updated_at",
        "id",
        info={WHERE: NEEDS_ATTENTION},
    ),
    Index(
        "ix_schedules_retention",
        "tenant_id",
        "updated_at",
        "id",
        info={WHERE: f"state IN {TERMINAL_STATES}"},
    ),
)

schedule_revisions = Table(
    "schedule_revisions",
    metadata,
    Column("schedule_id", Uuid(), ForeignKey("schedules.id"), nullable=False),
    Column("revision", Integer, nullable=False),
    Column("definition", Text, nullable=False),
    Column("created_by_principal_id", String(200), nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    # The author's authority version when this revision was written; firing
    # requires it unchanged. NULL on revisions imported without one.
    Column("authority_version", String(200), nullable=True),
    PrimaryKeyConstraint("schedule_id", "revision"),
)

folders = Table(
    "folders",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("tenant_id", String(200), nullable=False),
    Column("principal_id", String(200), nullable=False),
    Column("name", byte_ordered_string(200), nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    Index("ix_folders_listing", "tenant_id", "principal_id", "name", "id"),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("tenant_id", String(200), nullable=False),
    Column("principal_id", String(200), nullable=False),
    Column("title", String(500), nullable=False),
    Column("last_activity_at", UtcDateTime(), nullable=False),
    Column("folder_id", Uuid(), ForeignKey("folders.id", ondelete="SET NULL"), nullable=True),
    Column("metadata", Text, nullable=False, server_default=text("'{}'")),
    Column("created_at", UtcDateTime(), nullable=False),
    Index("ix_sessions_listing", "tenant_id", "principal_id", "last_activity_at", "id"),
)

session_messages = Table(
    "session_messages",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("session_id", Uuid(), ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
    Column("role", String(32), nullable=False),
    Column("text", Text, nullable=False),
    Column("scheduler_seed", Boolean, nullable=False, server_default=false()),
    Column("created_at", UtcDateTime(), nullable=False),
    CheckConstraint("role IN ('user', 'assistant')", name="role_known"),
    Index("ix_session_messages_transcript", "session_id", "created_at", "id"),
)

runs = Table(
    "runs",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("tenant_id", String(200), nullable=False),
    Column("principal_id", String(200), nullable=False),
    Column("session_id", Uuid(), ForeignKey("sessions.id"), nullable=False),
    Column("status", String(32), nullable=False),
    Column("priority", Integer, nullable=False),
    Column("limits", Text, nullable=False),
    Column("scheduled_for", UtcDateTime(), nullable=False),
    Column("deadline_at", UtcDateTime(), nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("updated_at", UtcDateTime(), nullable=False),
    # A FAILED run's stable reason code (``deadline_exceeded``, ...); else NULL.
    Column("failure_reason", String(100), nullable=True),
    # A RUNNING run's lease: which dispatcher executes it, and until when unless renewed.
    Column("lease_holder", String(64), nullable=True),
    Column("lease_expires_at", UtcDateTime(), nullable=True),
    CheckConstraint(
        "status IN ('QUEUED', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED')",
        name="status_known",
    ),
    Index("ix_runs_status", "status", "scheduled_for"),
    Index("ix_runs_active", "tenant_id", "principal_id", "status"),
)

schedule_occurrences = Table(
    "schedule_occurrences",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("schedule_id", Uuid(), ForeignKey("schedules.id"), nullable=False),
    Column("schedule_revision", Integer, nullable=False),
    Column("nominal_fire_at", UtcDateTime(), nullable=False),
    Column("disposition", String(32), nullable=False),
    Column("session_id", Uuid(), nullable=True),
    Column("run_id", Uuid(), nullable=True),
    Column("reason_code", String(100), nullable=True),
    Column("authority_version", String(200), nullable=True),
    Column("materialized_at", UtcDateTime(), nullable=True),
    Column("links_erased_at", UtcDateTime(), nullable=True),
    Column("created_at", UtcDateTime(), nullable=False),
    ForeignKeyConstraint(
        ["session_id"],
        ["sessions.id"],
        ondelete="SET NULL",
        deferrable=True,
        initially="DEFERRED",
    ),
    ForeignKeyConstraint(
        ["run_id"], ["runs.id"], ondelete="SET NULL", deferrable=True, initially="DEFERRED"
    ),
    UniqueConstraint("schedule_id", "nominal_fire_at"),
    CheckConstraint(
        "disposition IN ('MATERIALIZED', 'MISSED', 'SKIPPED_OVERLAP',"
        " 'AUTHORIZATION_FAILED', 'CONFIGURATION_FAILED')",
        name="disposition_known",
    ),
    CheckConstraint(
        "(disposition = 'MATERIALIZED' AND materialized_at IS NOT NULL"
        " AND authority_version IS NOT NULL AND reason_code IS NULL"
        " AND ((session_id IS NOT NULL AND run_id IS NOT NULL AND links_erased_at IS NULL)"
        " OR (session_id IS NULL AND run_id IS NULL AND links_erased_at IS NOT NULL)))"
        " OR (disposition <> 'MATERIALIZED' AND session_id IS NULL AND run_id IS NULL"
        " AND links_erased_at IS NULL AND reason_code IS NOT NULL)",
        name="links_match_disposition",
    ),
    Index("ix_schedule_occurrences_history", "schedule_id", "nominal_fire_at", "id"),
    Index("ix_occurrences_nominal", "nominal_fire_at"),
    Index(
        "ix_schedule_occurrences_run",
        "run_id",
        unique=True,
        info={WHERE: "run_id IS NOT NULL"},
    ),
)

schedule_idempotency_keys = Table(
    "schedule_idempotency_keys",
    metadata,
    Column("tenant_id", String(200), nullable=False),
    Column("principal_id", String(200), nullable=False),
    Column("key", String(200), nullable=False),
    Column("request_hash", String(64), nullable=False),
    Column("schedule_id", Uuid(), ForeignKey("schedules.id"), nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    PrimaryKeyConstraint("tenant_id", "principal_id", "key"),
)

browser_profiles = Table(
    "browser_profiles",
    metadata,
    Column("id", Uuid(), primary_key=True),
    Column("tenant_id", String(200), nullable=False),
    Column("principal_id", String(200), nullable=False),
    Column("display_name", byte_ordered_string(200), nullable=False),
    Column("state", String(32), nullable=False),
    Column("allowed_origins", Text, nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("updated_at", UtcDateTime(), nullable=False),
    Index("ix_browser_profiles_listing", "tenant_id", "principal_id", "display_name", "id"),
)

audit_events = Table(
    "audit_events",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("event_type", String(100), nullable=False),
    Column("tenant_id", String(200), nullable=False),
    Column("principal_id", String(200), nullable=False),
    Column("actor", String(200), nullable=False),
    Column("schedule_id", Uuid(), nullable=True),
    Column("revision", Integer, nullable=True),
    Column("payload", Text, nullable=False),
    Column("occurred_at", UtcDateTime(), nullable=False),
    Index("ix_audit_events_schedule", "schedule_id", "id"),
)

scheduler_replicas = Table(
    "scheduler_replicas",
    metadata,
    # One row per process running the scheduler, its id random per start; the
    # worker loop moves ``last_tick_at`` (``server/worker/heartbeat.py``).
    Column("replica_id", String(64), primary_key=True),
    Column("host", String(255), nullable=False),
    Column("version", String(64), nullable=False),
    Column("started_at", UtcDateTime(), nullable=False),
    Column("last_tick_at", UtcDateTime(), nullable=False),
)

calendar_feeds = Table(
    "calendar_feeds",
    metadata,
    # A private iCalendar feed (``server/feeds``): its secret is kept only as a
    # SHA-256 digest. ``schedule_id`` NULL is every schedule of the principal;
    # no foreign key, so purging a schedule leaves its feed answering nothing.
    Column("id", Uuid(), primary_key=True),
    Column("tenant_id", String(200), nullable=False),
    Column("principal_id", String(200), nullable=False),
    Column("schedule_id", Uuid(), nullable=True),
    Column("name", String(200), nullable=False),
    Column("secret_digest", String(64), nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    UniqueConstraint("secret_digest"),
    Index("ix_calendar_feeds_listing", "tenant_id", "principal_id", "created_at", "id"),
)


def use_dialect(dialect_name: str) -> None:
    """Give each partial index its predicate in ``dialect_name``'s terms.

    Declared dialect-neutral so that importing the schema loads no database
    dialect (the app's start reads SQLite and never needs PostgreSQL's).
    """
    for table in metadata.tables.values():
        for index in table.indexes:
            if WHERE in index.info:
                try:
                    index.dialect_kwargs[f"{dialect_name}_where"] = text(index.info[WHERE])
                except ArgumentError:  # a dialect without partial indexes indexes every row
                    return
