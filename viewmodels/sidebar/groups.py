"""A schedule's group in the sidebar: its header now, its rows made when someone reads them.

Most groups are collapsed and show their header only, so a group holds what
its rows are made of and makes them on the first read (``group_rows``). What
the group's schedule says of it (``GroupFacts``: ended or not, each firing's
outcome) is read apart and handed in whole.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from uuid import UUID

from babel import Locale

from viewmodels.formatting.clock_text import locale_of, words_of
from viewmodels.formatting.joins import with_clause
from viewmodels.language import DEFAULT_LOCALE, Words, words_for
from viewmodels.sidebar.firings import NO_FACTS, GroupFacts
from viewmodels.sidebar.group_rows import GroupRows
from viewmodels.sidebar.history_cache import CachedSession
from viewmodels.sidebar.rows import AgeLines


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
        words = self.words
        # Translators: a schedule's group in the sidebar, as a screen reader says it.
        state = words.gettext("expanded") if self.expanded else words.gettext("collapsed")
        clauses = [self.count_text, state]
        if self.shows_selection_marker:
            clauses.append(words.gettext("contains the open session"))
        if self.ended_text:
            clauses.append(self.ended_text)
        return reduce(lambda said, clause: with_clause(said, clause, words), clauses, self.label)


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
        count_text=words_of(ages.zone)
        .ngettext("{count} session", "{count} sessions", count)
        .format(count=count),
        expanded=expanded,
        contains_selection=contains_selection,
        rows=rows,
        ended_text=facts.ended_text,
        locale=locale,
    )
