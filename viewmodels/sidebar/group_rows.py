"""The rows of one schedule group in the sidebar, made on the first read.

A collapsed group shows its header only, so its rows are made when someone
reads them, once; a group made from a previous one reuses the rows that still
show the same. Equality is the rows' equality, decided without making them
when it can be: the same sessions and facts measured at two instants show the
same rows exactly when no age line turned over in between (``changes_at``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime, timedelta
from typing import overload

from viewmodels.sidebar.firings import NO_FACTS, GroupFacts
from viewmodels.sidebar.history_cache import CachedSession
from viewmodels.sidebar.rows import AgeLines, SessionRow, session_row

_MINUTE = timedelta(minutes=1)
_HOUR = timedelta(hours=1)
_DAY = timedelta(days=1)
_WEEK = timedelta(days=7)
_NOT_YET_KNOWN = datetime.min
"""``changes_at`` not worked out yet (no real answer is this)."""


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
