"""A schedule's group in the sidebar: its header now, its rows made when someone reads them.

Most groups are collapsed and show their header only, so a group holds what
its rows are made of (its sessions in activity order, the age lines of one
``now``, the open session when it is one of them) and makes the rows on the
first read, once; a group made from a previous one reuses the rows that still
show the same. What the group's schedule says of it (``GroupFacts``: ended or
not, each firing's outcome) is read apart and handed in whole. Equality is the
rows' equality, decided without making them when it can be: the same sessions
and facts measured at two instants show the same rows exactly when no age line
turned over in between (``changes_at``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import overload
from uuid import UUID

from babel import Locale

from viewmodels.formatting.clock_text import locale_of
from viewmodels.language import DEFAULT_LOCALE, Words, words_for
from viewmodels.sidebar.firings import NO_FACTS, GroupFacts
from viewmodels.sidebar.history_cache import CachedSession
from viewmodels.sidebar.rows import AgeLines, SessionRow, session_row

_MINUTE = timedelta(minutes=1)
_HOUR = timedelta(hours=1)
_DAY = timedelta(days=1)
_WEEK = timedelta(days=7)
_NOT_YET_KNOWN = datetime.min
"""``changes_at`` not worked out yet (no real answer is this)."""


@dataclass(frozen=True, slots=True)
class ScheduleGroup:
    """Two or more cached sessions of one schedule, collapsible."""

    schedule_id: UUID
    label: str
    """The title of the group's most recent session."""
    count: int
    count_text: str
    """"3 sessions" (spoken; the eye gets ``count_badge``)."""
    expanded: bool
    contains_selection: bool
    """The open session is in this group: show a marker while collapsed."""
    rows: GroupRows
    """Every session of the group in activity order, newest first (render only when expanded).

    A sequence whose rows are made on the first read (``GroupRows``): a collapsed
    group, which nobody reads the rows of, never makes them."""

    ended_text: str | None = None
    """"Cancelled" or "Completed" once the group's schedule has ended: tells it from a
    current schedule of the same title."""
    locale: Locale = DEFAULT_LOCALE
    """The person's locale: the spoken label is in its language."""

    @property
    def words(self) -> Words:
        return words_for(self.locale)

    @property
    def count_badge(self) -> str:
        """The count as a small number badge ("3"), leaving the title the room."""
        return str(self.count)

    @property
    def shows_selection_marker(self) -> bool:
        return self.contains_selection and not self.expanded

    @property
    def accessibility_label(self) -> str:
        """ "Weekly report, 3 sessions, collapsed, contains the open session, Cancelled"."""
        text = _group_label(self.words, self.expanded, self.shows_selection_marker, self.ended_text)
        return text.format(title=self.label, count=self.count_text, ended=self.ended_text)


def _group_label(words: Words, expanded: bool, marker: bool, ended: str | None) -> str:
    """A group's spoken label, to fill with its ``title``, ``count`` ("3 sessions") and
    ``ended`` ("Cancelled" or "Completed")."""
    if ended:
        if expanded:
            return words.gettext("{title}, {count}, expanded, {ended}")
        if marker:
            return words.gettext("{title}, {count}, collapsed, contains the open session, {ended}")
        return words.gettext("{title}, {count}, collapsed, {ended}")
    if expanded:
        # Translators: a screen reader's label of a schedule's group; {count} is "3 sessions".
        return words.gettext("{title}, {count}, expanded")
    if marker:
        return words.gettext("{title}, {count}, collapsed, contains the open session")
    return words.gettext("{title}, {count}, collapsed")


def group_key(schedule_id: UUID, newest: tuple[float, int]) -> tuple[float, int]:
    """Where a group sorts: newest activity first (``newest``, its newest session's order key),
    then the schedule id, whose ``int`` orders as its text does without making the text."""
    return (newest[0], schedule_id.int)


def schedule_group(
    schedule_id: UUID,
    sessions: tuple[CachedSession, ...],
    ages: AgeLines,
    *,
    selected_key: int | None,
    expanded: bool,
    previous: ScheduleGroup | None,
    facts: GroupFacts = NO_FACTS,
) -> ScheduleGroup:
    """The group of ``sessions`` (two or more, newest first); ``previous`` kept if the same.

    ``selected_key``: the open session's ``session_id.int`` when it is one of them;
    ``facts``: what its schedule says of it, as last read.
    """
    contains_selection = selected_key is not None
    before = None if previous is None else previous.rows
    if before is not None and before.still_shows(sessions, ages, selected_key, facts):
        # The same sessions show the same rows, so the same label and count too.
        if previous is not None and (previous.expanded, previous.contains_selection) == (
            expanded,
            contains_selection,
        ):
            return previous
        rows = before
    else:
        rows = GroupRows(sessions, ages, selected_key, before, facts)
    locale = locale_of(ages.zone)
    count = len(sessions)
    return ScheduleGroup(
        schedule_id=schedule_id,
        label=sessions[0].title,
        count=count,
        count_text=words_for(locale)
        .ngettext("{count} session", "{count} sessions", count)
        .format(count=count),
        expanded=expanded,
        contains_selection=contains_selection,
        rows=rows,
        ended_text=facts.ended_text,
        locale=locale,
    )


class GroupRows(Sequence[SessionRow]):
    """The rows of one schedule group, newest first, made on the first read."""

    __slots__ = (
        "_ages",
        "_changes_at",
        "_facts",
        "_reusable",
        "_rows",
        "_selected_key",
        "_sessions",
    )

    def __init__(
        self,
        sessions: tuple[CachedSession, ...],
        ages: AgeLines,
        selected_key: int | None,
        previous: GroupRows | None = None,
        facts: GroupFacts = NO_FACTS,
    ) -> None:
        """``selected_key``: the open session's ``session_id.int`` when it is in ``sessions``."""
        self._sessions = sessions
        self._facts = facts
        self._ages = ages
        self._selected_key = selected_key
        self._rows: tuple[SessionRow, ...] | None = None
        self._changes_at: datetime | None = _NOT_YET_KNOWN
        self._reusable: tuple[SessionRow, ...] | None = None
        if previous is not None:
            # Only rows someone has read are worth keeping; at most one tuple is held.
            self._reusable = previous._rows if previous._rows is not None else previous._reusable

    @property
    def rows(self) -> tuple[SessionRow, ...]:
        """The rows themselves (made now if nobody has read them yet)."""
        if self._rows is None:
            self._rows = self._made()
            self._reusable = None
        return self._rows

    @property
    def made(self) -> bool:
        """Whether the rows were made (someone read them, or had to compare them)."""
        return self._rows is not None

    def same_rows(self, other: GroupRows) -> bool | None:
        """Whether both show the same rows, when that is known without making them.

        Known when both hold the same sessions, open session and facts in one zone:
        then the rows differ exactly when an age line turned over between the
        two instants. None otherwise (only making the rows tells).
        """
        if self is other:
            return True
        if (
            self._selected_key != other._selected_key
            or self._facts is not other._facts
            or self._ages.zone is not other._ages.zone
            or self._sessions != other._sessions
        ):
            return None
        earlier, later = (self, other) if self._ages.now <= other._ages.now else (other, self)
        changes_at = earlier.changes_at()
        return changes_at is None or later._ages.now < changes_at

    def still_shows(
        self,
        sessions: tuple[CachedSession, ...],
        ages: AgeLines,
        selected_key: int | None,
        facts: GroupFacts = NO_FACTS,
    ) -> bool:
        """Whether rows made of these would be these very rows, known without making any.

        True when they hold the same sessions, open session and facts, and ``ages`` is
        measured in the same zone at an instant from ``now`` up to (not
        including) ``changes_at``. False otherwise, also when only making the
        rows could tell (the clock went back, other sessions).
        """
        if (
            selected_key != self._selected_key
            or facts is not self._facts
            or ages.zone is not self._ages.zone
            or ages.now < self._ages.now
            or sessions != self._sessions
        ):
            return False
        changes_at = self.changes_at()
        return changes_at is None or ages.now < changes_at

    def changes_at(self) -> datetime | None:
        """The first instant after ``now`` at which an age line of these rows turns over.

        None when none does as the clock moves on (every session is a week old or
        more, so each shows its date). Worked out once, from the sessions under a
        week old only: they come first, the sessions being newest first.
        """
        if self._changes_at is _NOT_YET_KNOWN:
            now = self._ages.now
            soonest: datetime | None = None
            for session in self._sessions:
                then = session.last_activity_at
                elapsed = now - then
                if elapsed >= _WEEK:
                    break
                if elapsed < _MINUTE:
                    turns = then + _MINUTE
                elif elapsed < _HOUR:
                    turns = then + (elapsed // _MINUTE + 1) * _MINUTE
                elif elapsed < _DAY:
                    turns = then + (elapsed // _HOUR + 1) * _HOUR
                else:
                    turns = then + (elapsed // _DAY + 1) * _DAY
                if soonest is None or turns < soonest:
                    soonest = turns
            self._changes_at = soonest
        return self._changes_at

    def _made(self) -> tuple[SessionRow, ...]:
        reusable = (
            {row.session_id.int: row for row in self._reusable} if self._reusable else {}
        ).get
        age = self._ages.text
        selected_key = self._selected_key
        outcome = self._facts.outcomes.get
        rows = []
        for session in self._sessions:
            key = session.session_id.int
            rows.append(
                session_row(
                    session,
                    age(session.last_activity_at),
                    key == selected_key,
                    reusable(key),
                    outcome(key),
                )
            )
        return tuple(rows)

    # Sequence

    def __len__(self) -> int:
        return len(self._sessions)

    @overload
    def __getitem__(self, index: int) -> SessionRow: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[SessionRow, ...]: ...

    def __getitem__(self, index: int | slice) -> SessionRow | tuple[SessionRow, ...]:
        return self.rows[index]

    def __iter__(self) -> Iterator[SessionRow]:
        return iter(self.rows)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, GroupRows):
            if self._rows is not None and other._rows is not None:
                return self._rows == other._rows
            if len(self._sessions) != len(other._sessions):
                return False
            known = self.same_rows(other)
            return self.rows == other.rows if known is None else known
        if isinstance(other, tuple):
            return self.rows == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.rows)

    def __repr__(self) -> str:
        return f"GroupRows({self.rows!r})"
