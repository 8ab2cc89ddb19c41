"""Sessions placed into Folders, Scheduled groups and History, kept up to date per session.

The rules (``DESIGN.md``, "Sidebar: sessions grouped by schedule"):

- a schedule with two or more cached sessions is one group in Scheduled; with
  one session it stays where a chat would be (its folder, else History);
- a group's label is its most recent session's title, its count the number of
  cached sessions, its rows the history's activity order (newest first);
- groups order by their most recent session's activity, newest first, ties
  broken by schedule id (ascending text);
- grouping needs no folder route and no schedule read: a removed schedule
  still groups its sessions;
- sessions with a ``schedule_id`` never offer a move to a folder.

Every schedule keeps its own ordered bucket, so one new session costs a
bisection in its bucket and in the group order (no full regroup); ``rebuild``
does the full pass (and refreshes every age line) on reconciliation.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime
from uuid import UUID
from zoneinfo import ZoneInfo

from transport.models import Folder
from viewmodels.formatting import age_text
from viewmodels.sidebar.history_cache import CachedSession
from viewmodels.sidebar.ordered_rows import OrderedRows
from viewmodels.sidebar.snapshot import FolderEntry, ScheduleGroup, SessionRow


class SessionIndex:
    """The sidebar's sections for a set of cached sessions, expanded groups and a selection."""

    def __init__(self, device_zone: ZoneInfo) -> None:
        self._zone = device_zone
        self._now: datetime | None = None
        self._sessions: dict[UUID, CachedSession] = {}
        self._buckets: dict[UUID, OrderedRows[SessionRow]] = {}
        self._group_order: dict[UUID, tuple[float, str]] = {}
        self._groups: OrderedRows[ScheduleGroup] = OrderedRows()
        self._history: OrderedRows[SessionRow] = OrderedRows()
        self._folder_names: dict[UUID, str] | None = None
        self._folder_rows: dict[UUID, OrderedRows[SessionRow]] = {}
        self._expanded: set[UUID] = set()
        self._selected: UUID | None = None
        self._ages: dict[tuple[bool, int], str] = {}
        self._rows: dict[UUID, tuple[CachedSession, SessionRow]] = {}

    # Reading

    @property
    def sessions(self) -> list[CachedSession]:
        """Every cached session in activity order (what the history cache stores)."""
        return sorted(self._sessions.values(), key=lambda session: session.order)

    @property
    def scheduled(self) -> tuple[ScheduleGroup, ...]:
        return self._groups.as_tuple()

    @property
    def history(self) -> tuple[SessionRow, ...]:
        return self._history.as_tuple()

    @property
    def folders(self) -> tuple[FolderEntry, ...] | None:
        if self._folder_names is None:
            return None
        return tuple(
            FolderEntry(folder_id, name, self._folder_rows[folder_id].as_tuple())
            for folder_id, name in self._folder_names.items()
        )

    def schedule_of(self, session_id: UUID) -> UUID | None:
        session = self._sessions.get(session_id)
        return session.schedule_id if session else None

    def has_schedule(self, schedule_id: UUID) -> bool:
        return schedule_id in self._buckets

    # Changing

    def rebuild(
        self,
        sessions: Iterable[CachedSession],
        *,
        folders: Iterable[Folder] | None,
        expanded: set[UUID],
        selected: UUID | None,
        now: datetime,
    ) -> None:
        """The full pass: every age line re-checked, every section re-sorted."""
        if now != self._now:
            self._ages = {}
        self._now = now
        self._expanded = set(expanded)
        self._selected = selected
        self._sessions = {session.session_id: session for session in sessions}
        self._rows = {key: value for key, value in self._rows.items() if key in self._sessions}
        self._folder_names = (
            None if folders is None else {folder.folder_id: folder.name for folder in folders}
        )
        by_schedule: dict[UUID, list[tuple[tuple[float, int], SessionRow]]] = defaultdict(list)
        plain: list[tuple[CachedSession, SessionRow]] = []
        for session in self._sessions.values():
            row = self._row(session)
            if session.schedule_id is not None:
                by_schedule[session.schedule_id].append((session.order, row))
            else:
                plain.append((session, row))
        self._buckets = {}
        for schedule_id, pairs in by_schedule.items():
            self._buckets[schedule_id] = bucket = OrderedRows(pairs)
            if len(bucket) == 1:
                plain.append((self._sessions[bucket.first().session_id], bucket.first()))
        history: list[tuple[tuple[float, int], SessionRow]] = []
        in_folders: dict[UUID, list[tuple[tuple[float, int], SessionRow]]] = {
            folder_id: [] for folder_id in self._folder_names or {}
        }
        for session, row in plain:
            target = in_folders.get(session.folder_id) if session.folder_id else None
            (target if target is not None else history).append((session.order, row))
        self._history = OrderedRows(history)
        self._folder_rows = {
            folder_id: OrderedRows(pairs) for folder_id, pairs in in_folders.items()
        }
        self._group_order = {}
        groups = []
        for schedule_id, bucket in self._buckets.items():
            if len(bucket) >= 2:
                group = self._group(schedule_id, bucket)
                key = self._group_key(schedule_id, bucket)
                self._group_order[schedule_id] = key
                groups.append((key, group))
        self._groups = OrderedRows(groups)

    def upsert(self, session: CachedSession, now: datetime) -> None:
        """One session added or changed (a new firing): only its bucket and sections move."""
        if now != self._now:
            self._ages = {}
        self._now = now
        old = self._sessions.get(session.session_id)
        if old is not None:
            self._detach(old)
        self._sessions[session.session_id] = session
        self._attach(session)

    def remove(self, session_id: UUID) -> None:
        old = self._sessions.pop(session_id, None)
        if old is not None:
            self._detach(old)

    def set_expanded(self, schedule_id: UUID, expanded: bool) -> None:
        if expanded:
            self._expanded.add(schedule_id)
        else:
            self._expanded.discard(schedule_id)
        if schedule_id in self._group_order:
            self._refresh_group(schedule_id)

    def select(self, session_id: UUID | None) -> None:
        previous = self._selected
        self._selected = session_id
        for changed in (previous, session_id):
            session = self._sessions.get(changed) if changed is not None else None
            if session is not None:
                self._detach(session)
                self._attach(session)

    # Placement

    def _attach(self, session: CachedSession) -> None:
        row = self._row(session)
        schedule_id = session.schedule_id
        if schedule_id is None:
            self._place_plain(session, row)
            return
        bucket = self._buckets.get(schedule_id)
        if bucket is None:
            self._buckets[schedule_id] = bucket = OrderedRows()
        if len(bucket) == 1:
            lone = self._sessions[bucket.first().session_id]
            self._unplace_plain(lone)
        bucket.insert(session.order, row)
        if len(bucket) == 1:
            self._place_plain(session, row)
        else:
            self._refresh_group(schedule_id)

    def _detach(self, session: CachedSession) -> None:
        schedule_id = session.schedule_id
        if schedule_id is None:
            self._unplace_plain(session)
            return
        bucket = self._buckets[schedule_id]
        if len(bucket) == 1:
            self._unplace_plain(session)
            bucket.remove(session.order)
            del self._buckets[schedule_id]
            return
        bucket.remove(session.order)
        if len(bucket) == 1:
            self._drop_group(schedule_id)
            lone_row = bucket.first()
            self._place_plain(self._sessions[lone_row.session_id], lone_row)
        else:
            self._refresh_group(schedule_id)

    def _place_plain(self, session: CachedSession, row: SessionRow) -> None:
        self._plain_section(session).insert(session.order, row)

    def _unplace_plain(self, session: CachedSession) -> None:
        self._plain_section(session).remove(session.order)

    def _plain_section(self, session: CachedSession) -> OrderedRows[SessionRow]:
        if session.folder_id is not None and session.folder_id in self._folder_rows:
            return self._folder_rows[session.folder_id]
        return self._history

    def _refresh_group(self, schedule_id: UUID) -> None:
        bucket = self._buckets[schedule_id]
        self._drop_group(schedule_id)
        key = self._group_key(schedule_id, bucket)
        self._group_order[schedule_id] = key
        self._groups.insert(key, self._group(schedule_id, bucket))

    def _drop_group(self, schedule_id: UUID) -> None:
        key = self._group_order.pop(schedule_id, None)
        if key is not None:
            self._groups.remove(key)

    # Values

    def _group_key(self, schedule_id: UUID, bucket: OrderedRows[SessionRow]) -> tuple[float, str]:
        newest: tuple[float, int] = bucket.first_key()
        return (newest[0], str(schedule_id))

    def _group(self, schedule_id: UUID, bucket: OrderedRows[SessionRow]) -> ScheduleGroup:
        rows = bucket.as_tuple()
        return ScheduleGroup(
            schedule_id=schedule_id,
            label=rows[0].title,
            count=len(rows),
            count_text=f"{len(rows)} sessions",
            expanded=schedule_id in self._expanded,
            contains_selection=self._selected is not None
            and any(row.session_id == self._selected for row in rows),
            rows=rows,
        )

    def _row(self, session: CachedSession) -> SessionRow:
        """The session's row; the previous one is reused when nothing shown changed."""
        age = self._age(session)
        selected = session.session_id == self._selected
        cached = self._rows.get(session.session_id)
        if cached is not None:
            old_session, old_row = cached
            if (
                (old_session is session or old_session == session)
                and old_row.age_text == age
                and old_row.selected == selected
            ):
                return old_row
        row = SessionRow(
            session_id=session.session_id,
            title=session.title,
            age_text=age,
            schedule_id=session.schedule_id,
            folder_id=session.folder_id,
            can_move_to_folder=session.schedule_id is None,
            selected=selected,
        )
        self._rows[session.session_id] = (session, row)
        return row

    def _age(self, session: CachedSession) -> str:
        # The age line depends only on whole elapsed minutes within a week, and on
        # the local date after that, which is constant within any quarter hour
        # (every zone offset is a multiple of 15 minutes): memoize on that.
        now = self._now or session.last_activity_at
        elapsed = int((now - session.last_activity_at).total_seconds())
        recent = elapsed < 7 * 86_400
        key = (
            recent,
            elapsed // 60 if recent else int(session.last_activity_at.timestamp()) // 900,
        )
        text = self._ages.get(key)
        if text is None:
            text = self._ages[key] = age_text(session.last_activity_at, now, self._zone)
        return text
