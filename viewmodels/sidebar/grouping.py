"""Sessions placed into Folders, Scheduled groups and History, kept up to date per session.

A schedule with two or more cached sessions is one group in Scheduled (with
one, it stays where a chat would be: its folder, else History); a group's
label is its newest session's title, its rows in activity order; groups order
by their newest activity, ties by schedule id. Grouping reads no route, so a
removed schedule still groups its sessions. What a schedule says of its
sessions (``GroupFacts``) is kept across regroups. One new session costs a
bisection in its bucket and in the group order; ``rebuild`` is the full pass.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from uuid import UUID
from zoneinfo import ZoneInfo

from transport.models import Folder
from viewmodels.formatting.clock_text import words_of
from viewmodels.sidebar.filing import ACTIVITY, file_by_schedule
from viewmodels.sidebar.firings import NO_FACTS, GroupFacts
from viewmodels.sidebar.groups import ScheduleGroup, group_key, schedule_group
from viewmodels.sidebar.history_cache import CachedSession
from viewmodels.sidebar.rows import AgeLines, OrderedRows, SessionRow, session_row
from viewmodels.sidebar.snapshot import FolderEntry


class SessionIndex:
    """The sidebar's sections for a set of cached sessions, expanded groups and a selection."""

    def __init__(self, device_zone: ZoneInfo) -> None:
        self._zone = device_zone
        self._ages: AgeLines | None = None
        self._sessions: dict[int, CachedSession] = {}
        self._buckets: dict[UUID, OrderedRows[CachedSession]] = {}
        self._group_order: dict[UUID, tuple[float, int]] = {}
        self._group_of: dict[UUID, ScheduleGroup] = {}
        self._groups: OrderedRows[ScheduleGroup] = OrderedRows()
        self._history: OrderedRows[SessionRow] = OrderedRows()
        self._folder_names: dict[UUID, str] | None = None
        self._folder_rows: dict[UUID, OrderedRows[SessionRow]] = {}
        self._expanded: set[UUID] = set()
        self._selected: UUID | None = None
        self._selected_key: int | None = None
        self._rows: dict[int, SessionRow] = {}
        """The rows of History and the folders, by ``session_id.int`` (groups keep their own)."""
        self._facts: dict[UUID, GroupFacts] = {}
        """What each schedule said of its sessions when last read (ended, firing outcomes)."""

    # Reading

    @property
    def sessions(self) -> list[CachedSession]:
        """Every cached session in activity order (what the history cache stores)."""
        return sorted(self._sessions.values(), key=ACTIVITY)

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

    # Changing

    @property
    def expanded(self) -> frozenset[UUID]:
        """The schedules whose groups are expanded (device state; the sidebar saves it)."""
        return frozenset(self._expanded)

    @property
    def selected(self) -> UUID | None:
        """The open session, marked in its row and, while collapsed, on its group."""
        return self._selected

    def cached(self, session_id: UUID) -> CachedSession | None:
        return self._sessions.get(session_id.int)

    def title_of(self, session_id: UUID) -> str | None:
        session = self.cached(session_id)
        return None if session is None else session.title

    def grouped(self, schedule_id: UUID) -> tuple[CachedSession, ...]:
        """The cached sessions of a schedule that has a group, newest first; empty if none."""
        bucket = self._buckets.get(schedule_id)
        return bucket.as_tuple() if bucket is not None and len(bucket) >= 2 else ()

    @property
    def group_ids(self) -> tuple[UUID, ...]:
        """The schedules that have a group, in the groups' order."""
        return tuple(group.schedule_id for group in self._groups.as_tuple())

    def set_facts(self, schedule_id: UUID, facts: GroupFacts) -> None:
        """What the schedule says of its sessions, read anew: its group and rows show it."""
        if self._facts.get(schedule_id) == facts:
            return
        self._facts[schedule_id] = facts
        if schedule_id in self._group_order:
            self._refresh_group(schedule_id)
        bucket = self._buckets.get(schedule_id)
        if bucket is not None and len(bucket) == 1:
            self._unplace_plain(bucket.first())
            self._place_plain(bucket.first())

    def session_count(self, schedule_id: UUID) -> int:
        """How many cached sessions ``schedule_id`` created (a group's count, or 1, or 0)."""
        bucket = self._buckets.get(schedule_id)
        return 0 if bucket is None else len(bucket)

    def rebuild(
        self,
        sessions: Iterable[CachedSession],
        *,
        folders: Iterable[Folder] | None,
        now: datetime,
    ) -> None:
        """The full pass: every section re-filled in activity order, ages measured at ``now``."""
        self._measure_at(now)
        self._sessions = {session.session_id.int: session for session in sessions}
        self._folder_names = (
            None if folders is None else {folder.folder_id: folder.name for folder in folders}
        )
        self._buckets, plain = file_by_schedule(self._sessions.values())
        previous_rows, self._rows = self._rows, {}
        self._history = OrderedRows()
        self._folder_rows = {folder_id: OrderedRows() for folder_id in self._folder_names or {}}
        for session in plain:
            self._plain_section(session).append(session.order, self._row(session, previous_rows))
        previous_groups, self._group_of = self._group_of, {}
        self._group_order = {}
        groups = []
        for schedule_id, bucket in self._buckets.items():
            if len(bucket) >= 2:
                key = group_key(schedule_id, bucket.first_key())
                group = self._group(schedule_id, bucket, previous_groups.get(schedule_id))
                self._group_order[schedule_id] = key
                self._group_of[schedule_id] = group
                groups.append((key, group))
        self._groups = OrderedRows(groups)

    def upsert(self, session: CachedSession, now: datetime) -> None:
        """One session added or changed (a new firing): only its bucket and sections move."""
        self._measure_at(now)
        old = self._sessions.get(session.session_id.int)
        if old is not None:
            self._detach(old)
        self._sessions[session.session_id.int] = session
        self._attach(session)

    def restore_expanded(self, expanded: Iterable[UUID]) -> None:
        """The expanded groups remembered on the device, before the first rebuild."""
        self._expanded = set(expanded)
        for schedule_id in list(self._group_order):
            self._refresh_group(schedule_id)

    def set_expanded(self, schedule_id: UUID, expanded: bool) -> None:
        if expanded:
            self._expanded.add(schedule_id)
        else:
            self._expanded.discard(schedule_id)
        if schedule_id in self._group_order:
            self._refresh_group(schedule_id)

    def select(self, session_id: UUID | None) -> None:
        previous = self._selected
        self._set_selected(session_id)
        for changed in (previous, session_id):
            session = self._sessions.get(changed.int) if changed is not None else None
            if session is not None:
                self._detach(session)
                self._attach(session)

    # Placement

    def _attach(self, session: CachedSession) -> None:
        schedule_id = session.schedule_id
        if schedule_id is None:
            self._place_plain(session)
            return
        bucket = self._buckets.get(schedule_id)
        if bucket is None:
            self._buckets[schedule_id] = bucket = OrderedRows()
        if len(bucket) == 1:
            self._unplace_plain(bucket.first())
        bucket.insert(session.order, session)
        if len(bucket) == 1:
            self._place_plain(session)
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
            self._place_plain(bucket.first())
        else:
            self._refresh_group(schedule_id)

    def _place_plain(self, session: CachedSession) -> None:
        self._plain_section(session).insert(session.order, self._row(session, self._rows))

    def _unplace_plain(self, session: CachedSession) -> None:
        self._plain_section(session).remove(session.order)

    def _plain_section(self, session: CachedSession) -> OrderedRows[SessionRow]:
        if session.folder_id is not None and session.folder_id in self._folder_rows:
            return self._folder_rows[session.folder_id]
        return self._history

    def _refresh_group(self, schedule_id: UUID) -> None:
        bucket = self._buckets[schedule_id]
        previous = self._group_of.get(schedule_id)
        self._drop_group(schedule_id)
        key = group_key(schedule_id, bucket.first_key())
        group = self._group(schedule_id, bucket, previous)
        self._group_order[schedule_id] = key
        self._group_of[schedule_id] = group
        self._groups.insert(key, group)

    def _drop_group(self, schedule_id: UUID) -> None:
        key = self._group_order.pop(schedule_id, None)
        self._group_of.pop(schedule_id, None)
        if key is not None:
            self._groups.remove(key)

    # Values

    def _measure_at(self, now: datetime) -> None:
        """Age lines are measured from ``now``; their memo lasts while ``now`` does."""
        if self._ages is None or self._ages.now != now:
            self._ages = AgeLines(now, self._zone)

    def _set_selected(self, session_id: UUID | None) -> None:
        self._selected = session_id
        self._selected_key = session_id.int if session_id is not None else None

    def _group(
        self,
        schedule_id: UUID,
        bucket: OrderedRows[CachedSession],
        previous: ScheduleGroup | None,
    ) -> ScheduleGroup:
        """The group's header now, its rows to be made when read; ``previous`` kept if the same."""
        ages = self._ages
        if ages is None:  # never: a group exists only once a rebuild or upsert measured ``now``
            raise LookupError("a schedule group before any age line was measured")
        open_session = (
            self._sessions.get(self._selected_key) if self._selected_key is not None else None
        )
        contains_selection = (
            open_session is not None
            and open_session.schedule_id == schedule_id
            and bucket.holds(open_session.order)
        )
        return schedule_group(
            schedule_id,
            bucket.as_tuple(),
            ages,
            selected_key=self._selected_key if contains_selection else None,
            expanded=schedule_id in self._expanded,
            previous=previous,
            facts=self._facts.get(schedule_id, NO_FACTS),
        )

    def _row(self, session: CachedSession, reusable: dict[int, SessionRow]) -> SessionRow:
        """The session's row; the one in ``reusable`` is kept when nothing it shows changed."""
        key = session.session_id.int
        # No ``now`` yet only before the first rebuild or upsert, when no session is held.
        ages, zone = self._ages, self._zone
        age = ages.text(session.last_activity_at) if ages else words_of(zone).gettext("just now")
        facts = self._facts.get(session.schedule_id) if session.schedule_id is not None else None
        row = self._rows[key] = session_row(
            session,
            age,
            key == self._selected_key,
            reusable.get(key),
            None if facts is None else facts.outcomes.get(key),
        )
        return row
