"""The schedules sheet's two sections, the states each asks for, and what an empty one says.

A section's name stays English (marked ``N_``) for tests and views; its
sentences are said in the ``words`` given.
"""

from __future__ import annotations

from enum import StrEnum

from transport.models import ScheduleState
from viewmodels.language import N_, Words
from viewmodels.server_kind import (
    LOAD_DEMO_TEXT,
    RECENT_HISTORY_KEEPS_TEXT,
    WHERE_SCHEDULES_COME_FROM,
    ServerKind,
)


class ListSection(StrEnum):
    """The two sections of the schedules sheet and the states each one asks for."""

    CURRENT = "current"
    RECENT_HISTORY = "recent_history"

    @property
    def label(self) -> str:
        """The section's name, in English (marked): ``words.gettext(section.label)`` shows it."""
        return N_("Current") if self is ListSection.CURRENT else N_("Recent History")

    @property
    def states(self) -> tuple[ScheduleState, ...]:
        """The repeated ``state`` filter sent to ``GET /v1/schedules``."""
        if self is ListSection.CURRENT:
            return (ScheduleState.ACTIVE, ScheduleState.PAUSED)
        return (ScheduleState.COMPLETED, ScheduleState.CANCELLED)

    def empty_text(self, words: Words) -> str:
        if self is ListSection.CURRENT:
            return words.gettext("No active or paused schedules.")
        return words.gettext("No completed or cancelled schedules yet.")

    def empty_guidance(self, server: ServerKind, words: Words) -> str:
        """What follows an empty section's sentence: where its schedules come from.

        The embedded demo server also says how to load the demo; Recent
        History says how long an ended schedule stays in it (the server's
        30-day retention).
        """
        if self is ListSection.RECENT_HISTORY:
            return words.gettext(RECENT_HISTORY_KEEPS_TEXT)
        if server is ServerKind.EMBEDDED:
            # Translators: two sentences in a row: where schedules come from, how to load the demo.
            return words.gettext("{where} {demo}").format(
                where=words.gettext(WHERE_SCHEDULES_COME_FROM), demo=words.gettext(LOAD_DEMO_TEXT)
            )
        return words.gettext(WHERE_SCHEDULES_COME_FROM)

    @property
    def other(self) -> ListSection:
        return ListSection.RECENT_HISTORY if self is ListSection.CURRENT else ListSection.CURRENT

    def no_match_text(self, query: str, words: Words) -> str:
        """What a search that found nothing in this section says."""
        if self is ListSection.CURRENT:
            return words.gettext("No current schedules match “{query}”").format(query=query)
        return words.gettext("No schedules in Recent History match “{query}”").format(query=query)
