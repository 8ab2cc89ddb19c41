"""The sidebar's rows: a session's row, its age line, and a section kept in order.

A regroup of ten thousand sessions must stay cheap when a minute passes, so a
row is reused when nothing it shows changed, and is made through its slots'
own setters (one C call per field) rather than the frozen dataclass's
``__init__``. Age lines are memoized per distinct text for one ``now``
(``AgeLines``); every memoized text is ``age_text``'s by construction. A
section (``OrderedRows``) is patched in place by bisection, not re-sorted.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Generic, TypeVar
from uuid import UUID
from zoneinfo import ZoneInfo

from viewmodels.formatting import age_text
from viewmodels.formatting.marks import MarkKind
from viewmodels.sidebar.firings import FiringOutcome
from viewmodels.sidebar.history_cache import CachedSession


@dataclass(frozen=True, slots=True)
class SessionRow:
    session_id: UUID
    title: str
    age_text: str
    """"2 h ago": tells one firing of a schedule from the next."""
    schedule_id: UUID | None
    folder_id: UUID | None
    can_move_to_folder: bool
    """False for sessions a schedule created: the server refuses that move."""
    selected: bool
    outcome_text: str | None = None
    """What became of the firing that created the session ("Ran", "Run failed: …"), when read."""
    outcome_mark: MarkKind | None = None
    """The mark of that outcome, the same kind the calendar and the agenda draw."""

    @property
    def detail_line(self) -> str:
        """The line under the title: "2 h ago", or with the firing's outcome "2 h ago · Ran"."""
        if self.outcome_text is None:
            return self.age_text
        return f"{self.age_text} · {self.outcome_text}"

    @property
    def accessibility_label(self) -> str:
        """What a screen reader says for the row: title, age line, then the firing's outcome."""
        if self.outcome_text is None:
            return f"{self.title}, {self.age_text}"
        return f"{self.title}, {self.age_text}, {self.outcome_text}"


_new_row = object.__new__
_slot = SessionRow.__dict__
_set_session_id = _slot["session_id"].__set__
_set_title = _slot["title"].__set__
_set_age_text = _slot["age_text"].__set__
_set_schedule_id = _slot["schedule_id"].__set__
_set_folder_id = _slot["folder_id"].__set__
_set_can_move_to_folder = _slot["can_move_to_folder"].__set__
_set_selected = _slot["selected"].__set__
_set_outcome_text = _slot["outcome_text"].__set__
_set_outcome_mark = _slot["outcome_mark"].__set__


def session_row(
    session: CachedSession,
    age_text: str,
    selected: bool,
    previous: SessionRow | None,
    outcome: FiringOutcome | None = None,
) -> SessionRow:
    """``previous`` when it still shows ``session`` as given, else a new row."""
    text, mark = (None, None) if outcome is None else (outcome.text, outcome.mark)
    if (
        previous is not None
        and previous.age_text == age_text
        and previous.selected == selected
        and previous.outcome_text == text
        and previous.outcome_mark is mark
        and previous.title == session.title
        and (
            previous.schedule_id is session.schedule_id
            or previous.schedule_id == session.schedule_id
        )
        and (previous.folder_id is session.folder_id or previous.folder_id == session.folder_id)
    ):
        return previous
    row: SessionRow = _new_row(SessionRow)
    _set_session_id(row, session.session_id)
    _set_title(row, session.title)
    _set_age_text(row, age_text)
    _set_schedule_id(row, session.schedule_id)
    _set_folder_id(row, session.folder_id)
    _set_can_move_to_folder(row, session.schedule_id is None)
    _set_selected(row, selected)
    _set_outcome_text(row, text)
    _set_outcome_mark(row, mark)
    return row


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_DAY_SECONDS = 86_400
_END_OF_DAY = timedelta(days=1, microseconds=-1)
_HOURS = 100
"""Memo keys of recent texts: 0 "just now", 1-59 minutes, 101-123 hours, 1001-1006 days."""
_DAYS = 1_000
_UNKNOWN: int = -(2**62)
"""No offset cached yet for a UTC day (no real offset is this)."""


class AgeLines:
    """``age_text(then, now, zone)`` for one ``now`` and zone, memoized per distinct text.

    Within a week the key is the elapsed minute, hour or day the text shows;
    after that the local date, from the UTC day plus that day's zone offset,
    cached only when the offset is the same at both ends of the day (a day
    with a transition takes ``age_text`` itself; no UTC day holds two
    transitions that cancel out).
    """

    def __init__(self, now: datetime, zone: ZoneInfo) -> None:
        self.now = now
        self.zone = zone
        self._recent: dict[int, str] = {}
        self._offsets: dict[int, int | None] = {}
        self._dates: dict[int, str] = {}

    def text(self, then: datetime) -> str:
        elapsed = self.now - then
        days = elapsed.days
        if days >= 7:
            # ``_dated``'s memo hit, inlined: most of a long history takes this path.
            since_epoch = then - _EPOCH
            offset = self._offsets.get(since_epoch.days, _UNKNOWN)
            if offset is not None and offset != _UNKNOWN:
                local_day = since_epoch.days + (since_epoch.seconds + offset) // _DAY_SECONDS
                dated = self._dates.get(local_day)
                if dated is not None:
                    return dated
            return self._dated(then)
        if days < 0:
            key = 0
        elif days:
            key = _DAYS + days
        else:
            seconds = elapsed.seconds
            key = seconds // 60 if seconds < 3_600 else _HOURS + seconds // 3_600
        text = self._recent.get(key)
        if text is None:
            text = self._recent[key] = age_text(then, self.now, self.zone)
        return text

    def _dated(self, then: datetime) -> str:
        since_epoch = then - _EPOCH
        utc_day = since_epoch.days
        if utc_day in self._offsets:
            offset = self._offsets[utc_day]
        else:
            offset = self._offsets[utc_day] = self._steady_offset(utc_day)
        if offset is None:
            return age_text(then, self.now, self.zone)
        local_day = utc_day + (since_epoch.seconds + offset) // _DAY_SECONDS
        text = self._dates.get(local_day)
        if text is None:
            text = self._dates[local_day] = age_text(then, self.now, self.zone)
        return text

    def _steady_offset(self, utc_day: int) -> int | None:
        """The zone's offset in seconds all through this UTC day, or None if it changes."""
        try:
            start = _EPOCH + timedelta(days=utc_day)
            first = start.astimezone(self.zone).utcoffset()
            last = (start + _END_OF_DAY).astimezone(self.zone).utcoffset()
        except OverflowError:  # the first or last representable day: take the exact path
            return None
        if first is None or first != last:
            return None
        return first // timedelta(seconds=1)


T = TypeVar("T")


class OrderedRows(Generic[T]):
    """A list kept in key order with cheap insert/remove and a cached tuple view.

    The sidebar changes one session at a time (a new firing); the tuple handed
    to the snapshot is rebuilt only when the section changed. A full regroup
    fills sections in key order with ``append`` (no sort, no pairs).
    """

    def __init__(self, pairs: Iterable[tuple[Any, T]] = ()) -> None:
        ordered = sorted(pairs, key=lambda pair: pair[0])
        self._keys: list[Any] = [key for key, _ in ordered]
        self._values: list[T] = [value for _, value in ordered]
        self._view: tuple[T, ...] | None = None

    @classmethod
    def in_order(cls, keys: list[Any], values: list[T]) -> OrderedRows[T]:
        """Adopt lists already in key order (a full regroup walks its sessions in order)."""
        rows: OrderedRows[T] = cls()
        rows._keys, rows._values = keys, values
        return rows

    def __len__(self) -> int:
        return len(self._keys)

    def insert(self, key: Any, value: T) -> None:
        index = bisect_left(self._keys, key)
        self._keys.insert(index, key)
        self._values.insert(index, value)
        self._view = None

    def append(self, key: Any, value: T) -> None:
        """Add after every key held: a full regroup walks its sessions in order already."""
        if self._keys and key < self._keys[-1]:
            self.insert(key, value)
            return
        self._keys.append(key)
        self._values.append(value)
        self._view = None

    def remove(self, key: Any) -> None:
        index = self._index(key)
        del self._keys[index]
        del self._values[index]
        self._view = None

    def holds(self, key: Any) -> bool:
        index = bisect_left(self._keys, key)
        return index < len(self._keys) and self._keys[index] == key

    def first(self) -> T:
        return self._values[0]

    def first_key(self) -> Any:
        return self._keys[0]

    def as_tuple(self) -> tuple[T, ...]:
        if self._view is None:
            self._view = tuple(self._values)
        return self._view

    def _index(self, key: Any) -> int:
        index = bisect_left(self._keys, key)
        if index == len(self._keys) or self._keys[index] != key:
            raise KeyError(key)
        return index
