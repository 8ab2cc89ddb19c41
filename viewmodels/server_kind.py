"""Which kind of schedule server the app shows: the embedded demo one, or an agent platform's.

The words that send a person elsewhere depend on it. On a platform, schedules
are created, paused and resumed by the agent or the platform's own tools; the
embedded server is a demo with no agent behind it, so nothing there resumes
a paused schedule, and an empty one is filled by loading the demo data. The
sentences stay English here; the snapshot that shows one translates it.
"""

from __future__ import annotations

from enum import StrEnum

from viewmodels.language import N_


class ServerKind(StrEnum):
    EMBEDDED = "embedded"
    """The in-process demo server the app starts by default."""
    PLATFORM = "platform"
    """A remote schedule server, run by the agent platform."""


WHERE_SCHEDULES_COME_FROM = N_("Schedules are created by the agent platform; this app shows them.")
LOAD_DEMO_TEXT = N_(
    "To see the demo, start the app again without --no-demo,"
    " or with a new data folder (--data-dir NEW_FOLDER)."
)
"""The demo loads into an embedded database that holds nothing yet, unless --no-demo."""
RECENT_HISTORY_KEEPS_TEXT = N_("Ended schedules appear here for 30 days.")
